import CFreeType
import CHarfBuzz

/// Reads the faces of one font file (a TTC holds several) into `Font`s.
///
/// FreeType is used only here, at load time, for the names and OS/2 fields a family
/// match needs; it is closed again before the fonts are shared.
enum FontFile {
    struct FaceInfo {
        var family: String
        var styleName: String
        var weight: Int
        var italic: Bool
        var widthClass: Int
    }

    /// Loads every face of the file at `path`, numbering them from `firstID`.
    static func load(path: String, firstID: UInt32) throws -> [Font] {
        guard let blob = hb_blob_create_from_file_or_fail(path) else {
            throw LayoutError(.notFound, "cannot read font file \(path)", field: "font")
        }
        defer { hb_blob_destroy(blob) }
        let faceCount = Int(hb_face_count(blob))
        guard faceCount > 0 else {
            throw LayoutError(.invalidArgument, "\(path) holds no font face", field: "font")
        }
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            throw LayoutError(.internal, "FreeType failed to start", field: "font")
        }
        defer { FT_Done_FreeType(library) }
        var fonts: [Font] = []
        for index in 0..<faceCount {
            guard let info = faceInfo(library: library, path: path, index: index),
                  let hbFace = hb_face_create(blob, UInt32(index)) else { continue }
            defer { hb_face_destroy(hbFace) }
            fonts.append(Font(id: firstID + UInt32(fonts.count), family: info.family, styleName: info.styleName,
                              weight: info.weight, italic: info.italic, widthClass: info.widthClass,
                              path: path, faceIndex: index, hbFace: hbFace))
        }
        return fonts
    }

    private static func faceInfo(library: FT_Library, path: String, index: Int) -> FaceInfo? {
        var face: FT_Face?
        guard FT_New_Face(library, path, index, &face) == 0, let face else { return nil }
        defer { FT_Done_Face(face) }
        let record = face.pointee
        let family = record.family_name.map { String(cString: $0) } ?? "Unknown"
        let style = record.style_name.map { String(cString: $0) } ?? "Regular"
        var weight = (record.style_flags & FT_Long(FT_STYLE_FLAG_BOLD)) != 0 ? 700 : 400
        var widthClass = 5
        if let raw = FT_Get_Sfnt_Table(face, FT_SFNT_OS2) {
            let os2 = raw.assumingMemoryBound(to: TT_OS2.self).pointee
            if os2.version != 0xFFFF {
                if os2.usWeightClass > 0 { weight = Int(os2.usWeightClass) }
                widthClass = Int(os2.usWidthClass)
            }
        }
        let italic = (record.style_flags & FT_Long(FT_STYLE_FLAG_ITALIC)) != 0
        return FaceInfo(family: family, styleName: style, weight: weight, italic: italic, widthClass: widthClass)
    }
}
