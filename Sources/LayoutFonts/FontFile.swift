import LayoutEngine

/// Reads the faces of one font file (a TTC holds several) into `Font`s.
///
/// FreeType is used only here, at load time, for the names and OS/2 fields a family
/// match needs; it is closed again before the fonts are shared.
package enum FontFile {
    typealias FaceInfo = FreeTypeFaces.Names

    /// Loads every face of the file at `path`, numbering them from `firstID`. A face that
    /// cannot be used (truncated, or unreadable by FreeType) is skipped and said in `problems`.
    static func load(path: String, firstID: UInt32, problems: inout [String]) throws -> [Font] {
        let blob: OpaquePointer
        do {
            blob = try RegularFile.mapBlob(path, maxBytes: maxBytes)
        } catch {
            throw LayoutError(error.code == .resourceExhausted ? .resourceExhausted : .notFound,
                              "cannot read font file \(path): \(error.message)", field: "font")
        }
        // The faces hold the bytes (for the renderer) as long as any of them lives.
        return try faces(of: FontBytes(taking: blob), path: path, firstID: firstID, problems: &problems)
    }

    /// Every usable face of the font in `bytes`; `path` names it in problems and in the fonts.
    /// `family` replaces the faces' own family name (a client's font, named as it asks).
    /// `only`: the faces to read, by index, in that order (all of them, in order, when nil).
    static func faces(of bytes: FontBytes, path: String, firstID: UInt32, family: String? = nil, only: [Int]? = nil,
                      problems: inout [String]) throws(LayoutError) -> [Font] {
        let blob = bytes.blob
        let faceCount = FontBlobs.faceCount(blob)
        guard faceCount > 0 else {
            throw LayoutError(.invalidArgument, "\(path) holds no font face", field: "font")
        }
        guard let freeType = FreeTypeFaces() else {
            throw LayoutError(.internal, "FreeType failed to start", field: "font")
        }
        var fonts: [Font] = []
        for index in only ?? Array(0..<faceCount) where index < faceCount {
            if let damage = SfntDirectory.damage(blob, faceIndex: index) {
                problems.append("skipped face \(index) of \(path): \(damage)")
                continue
            }
            guard let hbFace = FontFaces.open(blob, index: index) else {
                problems.append("skipped face \(index) of \(path): HarfBuzz cannot open it")
                continue
            }
            defer { FontFaces.close(hbFace) }
            let info = freeType.names(blob, index: index) ?? harfBuzzFaceInfo(hbFace)
            fonts.append(Font.loaded(id: firstID + UInt32(fonts.count), family: family ?? info.family, styleName: info.styleName,
                                     weight: info.weight, italic: info.italic, widthClass: info.widthClass,
                                     path: path, faceIndex: index, bytes: bytes, hbFace: hbFace))
        }
        return fonts
    }

    /// The largest font file read (Noto's CJK collections are about 20 MB).
    public static let maxBytes = 128 << 20

    /// The names and style of a face FreeType refuses but HarfBuzz shapes (one without `hhea`,
    /// `loca` or `name`, as HarfBuzz's own test fonts are): HarfBuzz's reading of `name` and
    /// `OS/2`, with FreeType's defaults where a table is missing. The renderer draws such a face
    /// from HarfBuzz's outlines.
    private static func harfBuzzFaceInfo(_ hbFace: OpaquePointer) -> FaceInfo {
        // The typographic family and subfamily first, as FreeType takes them.
        let family = FontFaces.name(hbFace, 16) ?? FontFaces.name(hbFace, 1) ?? "Unknown"
        let style = FontFaces.name(hbFace, 17) ?? FontFaces.name(hbFace, 2) ?? "Regular"
        let read = FontFaces.style(hbFace)
        let weight = Int(saturating: read.weight.rounded())
        let italic = read.italic
        // HarfBuzz gives the width as a percentage; OS/2's usWidthClass 1...9 names these.
        let width = Double(read.width)
        let classes: [Double] = [50, 62.5, 75, 87.5, 100, 112.5, 125, 150, 200]
        let widthClass = 1 + classes.indices.min { abs(classes[$0] - width) < abs(classes[$1] - width) }!
        return FaceInfo(family: family, styleName: style, weight: min(max(weight, 1), 1000), italic: italic, widthClass: widthClass)
    }
}

/// Reads an sfnt file's table directory (OpenType, TrueType, and each face of a collection)
/// to find a file cut short: FreeType and HarfBuzz open such a face lazily and it loads with no
/// names and missing glyphs, so it is checked before it is used.
enum SfntDirectory {
    /// Why face `faceIndex` of `blob` cannot be used whole, or nil when every table it lists
    /// lies inside the file.
    static func damage(_ blob: OpaquePointer, faceIndex: Int) -> String? {
        guard let data = FontBlobs.bytes(blob) else { return "the file is empty" }
        let bytes = SfntBytes(bytes: data)
        var directory = 0
        if bytes.u32(0) == 0x7474_6366 {  // 'ttcf': a collection lists where each face's directory starts
            guard let offset = bytes.u32(12 + 4 * faceIndex) else { return "the collection header is cut short" }
            directory = offset
        }
        guard let tables = bytes.u16(directory + 4) else { return "the table directory is cut short" }
        for k in 0..<tables {
            let record = directory + 12 + 16 * k
            guard let offset = bytes.u32(record + 8), let size = bytes.u32(record + 12) else { return "the table directory is cut short" }
            if offset + size > bytes.count {
                return "a table ends at byte \(offset + size) of a \(bytes.count)-byte file (truncated?)"
            }
        }
        return nil
    }
}

/// A font's bytes read as sfnt tables store numbers: big-endian, unaligned, nil past the end.
struct SfntBytes {
    let bytes: UnsafeRawBufferPointer
    /// Valid while the blob `bytes` came from lives.
    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var count: Int { bytes.count }
    func u16(_ at: Int) -> Int? { at + 2 <= bytes.count ? Int(bytes.loadUnaligned(fromByteOffset: at, as: UInt16.self).bigEndian) : nil }
    func u32(_ at: Int) -> Int? { at + 4 <= bytes.count ? Int(bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self).bigEndian) : nil }
}

/// What a face's `cmap` table holds that HarfBuzz's set of its characters
/// (`hb_face_collect_unicodes`) leaves out, though HarfBuzz maps those characters when shaping:
/// a symbol subtable (platform 3, encoding 0), which HarfBuzz reads through its private-use
/// maps (U+0020 as U+F020; the Arabic letters of legacy Simplified and Traditional Arabic
/// fonts), and format 13's many-to-one ranges (Adobe Blank's one glyph for every character).
enum CmapSubtables {
    /// True when the face's cmap holds either.
    static func mapsBeyondItsSet(_ face: OpaquePointer) -> Bool {
        let table = FontFaces.table(face, 0x636D_6170)  // 'cmap'
        defer { FontBlobs.destroy(table) }
        guard let data = FontBlobs.bytes(table) else { return false }
        let bytes = SfntBytes(bytes: data)
        guard let count = bytes.u16(2) else { return false }
        for k in 0..<count {
            let record = 4 + 8 * k
            guard let platform = bytes.u16(record), let encoding = bytes.u16(record + 2), let offset = bytes.u32(record + 4) else {
                return false
            }
            if platform == 3 && encoding == 0 { return true }
            if bytes.u16(offset) == 13 { return true }
        }
        return false
    }
}
