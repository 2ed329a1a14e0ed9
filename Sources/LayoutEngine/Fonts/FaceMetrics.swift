/// A face's line and decoration metrics, in font units (descender positive, downward): what a
/// face source reads from its tables (`hhea`/`OS/2`, `post`, with the shaping library's
/// fallbacks where a font lacks them).
package struct FaceMetrics {
    package var unitsPerEm: Int32
    package var ascender: Int32
    package var descender: Int32
    package var lineGap: Int32
    package var underline: (position: Int32, thickness: Int32)
    package var strikeout: (position: Int32, thickness: Int32)
    package var capHeight: Int32
    package var xHeight: Int32

    package init(unitsPerEm: Int32, ascender: Int32, descender: Int32, lineGap: Int32, underline: (position: Int32, thickness: Int32),
                 strikeout: (position: Int32, thickness: Int32), capHeight: Int32 = 0, xHeight: Int32 = 0) {
        (self.unitsPerEm, self.ascender, self.descender, self.lineGap) = (unitsPerEm, ascender, descender, lineGap)
        (self.underline, self.strikeout, self.capHeight, self.xHeight) = (underline, strikeout, capHeight, xHeight)
    }
}
