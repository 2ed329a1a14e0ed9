import CFreeType
import CHarfBuzz

/// FreeType's reading of a face: used at load time only, for the names and `OS/2` fields a
/// family match needs (and by the renderer, for drawing). One library per file loaded.
package final class FreeTypeFaces {
    /// What a family match needs of a face.
    package struct Names {
        package var family: String
        package var styleName: String
        package var weight: Int
        package var italic: Bool
        package var widthClass: Int

        package init(family: String, styleName: String, weight: Int, italic: Bool, widthClass: Int) {
            (self.family, self.styleName, self.weight, self.italic, self.widthClass) = (family, styleName, weight, italic, widthClass)
        }
    }

    private let library: FT_Library

    /// nil when FreeType fails to start.
    package init?() {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        self.library = library
    }

    deinit { FT_Done_FreeType(library) }

    /// The names and style of face `index` of `blob`, as FreeType reads them from the same
    /// bytes HarfBuzz reads (the file is opened once, so what was checked to be a regular file is
    /// what both read); nil when FreeType cannot open the face.
    package func names(_ blob: OpaquePointer, index: Int) -> Names? {
        guard let face = Self.memoryFace(library: library, blob: blob, index: index) else { return nil }
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
        return Names(family: family, styleName: style, weight: weight, italic: italic, widthClass: widthClass)
    }

    /// A FreeType face over a blob's bytes (which must outlive it); nil when FreeType cannot open
    /// face `index`. Making faces of one library must be serialized (the renderer locks around it).
    // SAFETY: FreeType reads the bytes in place for the face's life; the font holding the blob
    // outlives every face made here (the loader closes its face before returning, the renderer
    // keeps a reference to the blob beside its face).
    package static func memoryFace(library: FT_Library, blob: OpaquePointer, index: Int) -> FT_Face? {
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length) else { return nil }
        var face: FT_Face?
        let bytes = UnsafeRawPointer(data).assumingMemoryBound(to: FT_Byte.self)
        return FT_New_Memory_Face(library, bytes, FT_Long(length), FT_Long(index), &face) == 0 ? face : nil
    }
}
