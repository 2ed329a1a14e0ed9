/// Items that shape alike, shaped in one HarfBuzz call.
///
/// Every call to HarfBuzz pays its plan look-up and a pass over the font's lookups before the
/// first glyph.
/// Vertical text cuts a Han caption into six runs where horizontal text has two (the upright
/// text is cut wherever a dash, a space or a Latin name lies on its side), so the upright pieces
/// of one font, script and style go to HarfBuzz together.
///
/// HarfBuzz says where that is exact: a glyph without `HB_GLYPH_FLAG_UNSAFE_TO_BREAK` starts a
/// cluster where the text may be cut and each side shaped alone with the same glyphs. A piece
/// whose two edges are safe keeps the joined glyphs; one with an unsafe edge (kerning or a
/// ligature across it, a context that looked over it) is shaped alone after all.
extension Shaper {
    /// Shapes `pieces` of `units` (in text order, apart, of one font, script, style and
    /// direction, never right to left) in one call where the face's shaping can, and stores the
    /// glyphs of each piece it vouches for: `store(index, run)`. The others are left to the caller.
    /// Only scripts whose shaping reads no context beyond the glyphs (no joining, no syllables) may
    /// be joined: `ShapedParagraph.joins`.
    func shapeJoined(_ units: ContiguousArray<UInt16>, pieces: Span<Range<Int>>, context: Range<Int>, font: Font,
                     upright: Bool, script: Script, style: ShapingStyle, store: (Int, ShapedRun) -> Void) {
        font.shaping.shapeJoined(units.span, pieces: pieces, context: context, upright: upright, script: script, style: style,
                                 buffer: buffer, store: store)
    }
}
