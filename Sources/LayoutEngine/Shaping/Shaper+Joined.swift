import LayoutFonts

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
    func shapeJoined(_ units: ContiguousArray<UInt16>, pieces: UnsafeBufferPointer<Range<Int>>, context: Range<Int>, font: Font,
                     upright: Bool, script: Script, style: ShapingStyle, store: (Int, ShapedRun) -> Void) {
        units.withUnsafeBufferPointer { units in
            font.shaping.shapeJoined(units, pieces: pieces, context: context, upright: upright, script: script, style: style,
                                     buffer: buffer, store: store)
        }
    }
}

extension HarfBuzzShaping {
    /// Stores the glyphs of each piece both of whose edges HarfBuzz calls safe, every run a part
    /// of one glyph buffer.
    func shapeJoined(_ units: UnsafeBufferPointer<UInt16>, pieces: UnsafeBufferPointer<Range<Int>>, context: Range<Int>,
                     upright: Bool, script: Script, style: ShapingStyle, buffer: ShapingBuffer,
                     store: (Int, ShapedRun) -> Void) {
        // Each piece with its own offset: HarfBuzz numbers clusters from the context's start, so
        // every glyph says which piece it came from. The text before the first piece and after
        // the last is HarfBuzz's context, as for one run.
        buffer.shape(units, pieces: pieces, context: context, font: font, direction: upright ? .topToBottom : .leftToRight,
                     script: script.tag, language: style.language, features: style.features) { buffered in
            let glyphCount = buffered.count
            // Each piece's glyphs end where the next piece's begin: clusters rise through the
            // buffer (left to right or top to bottom, HarfBuzz's monotone clusters).
            withUnsafeTemporaryAllocation(of: Int.self, capacity: pieces.count) { ends in
                var end = 0
                for index in pieces.indices {
                    let upper = UInt32(pieces[index].upperBound - context.lowerBound)
                    while end < glyphCount && buffered.cluster(end) < upper { end += 1 }
                    ends[index] = end
                }
                // One buffer for every piece's glyphs, each piece's where HarfBuzz put them
                // (glyphs past the last piece, of which there are none, so every element is
                // initialized).
                let glyphs = ShapedGlyphs.make(count: glyphCount) { out in
                    var start = 0
                    for index in pieces.indices {
                        Self.convert(buffered, start..<ends[index],
                                     clusterOffset: Int32(context.lowerBound - pieces[index].lowerBound),
                                     upright: upright, into: out.baseAddress! + start)
                        start = ends[index]
                    }
                    Self.convert(buffered, start..<glyphCount, clusterOffset: 0, upright: upright,
                                 into: out.baseAddress! + start)
                }
                var start = 0
                var safeStart = true  // the buffer's start
                for index in pieces.indices {
                    let end = ends[index]
                    // The cut after the piece is at the next piece's first glyph (or the buffer's end).
                    let safeEnd = end == glyphCount || buffered.mask(end) & GlyphMask.unsafeToBreak == 0
                    let lower = UInt32(pieces[index].lowerBound - context.lowerBound)
                    if safeStart && safeEnd && end > start && buffered.cluster(start) >= lower {
                        store(index, ShapedRun(range: pieces[index], glyphs: glyphs, first: start, count: end - start))
                    }
                    safeStart = safeEnd
                    start = end
                }
            }
        }
    }
}
