/// One glyph as HarfBuzz shaped it, in font units (size-independent).
struct ShapedGlyph {
    var id: UInt32
    /// UTF-16 offset of the first unit of the glyph's cluster, from the start of the run it
    /// was shaped in: a cached run serves any place in any text without being copied.
    var cluster: Int32
    var advance: Int32
    var xOffset: Int32
    var yOffset: Int32
    /// HarfBuzz's HB_GLYPH_FLAG_UNSAFE_TO_BREAK: cutting the text before this cluster
    /// may change the shaping, so a line that starts or ends here must be shaped again.
    var unsafeToBreak: Bool
}

/// The glyphs of one item, in visual order (HarfBuzz reverses right-to-left runs).
struct ShapedRun {
    var range: Range<Int>
    /// Clusters count from `range.lowerBound`.
    var glyphs: [ShapedGlyph]
}
