import LayoutEngine

/// Items that shape alike, in one HarfBuzz call where that is exact (see the engine's
/// `Shaper+Joined.swift`).
extension HarfBuzzShaping {
    /// Stores the glyphs of each piece both of whose edges HarfBuzz calls safe, every run a part
    /// of one glyph buffer.
    package func shapeJoined(_ units: Span<UInt16>, pieces: Span<Range<Int>>, context: Range<Int>,
                             upright: Bool, script: Script, style: ShapingStyle, buffer scratch: ShapingScratch,
                             store: (Int, ShapedRun) -> Void) {
        precondition(context.upperBound <= units.count)
        units.withUnsafeBufferPointer { units in
            pieces.withUnsafeBufferPointer { pieces in
                shapeJoined(units, pieces: pieces, context: context, upright: upright, script: script, style: style,
                            buffer: scratch, store: store)
            }
        }
    }

    private func shapeJoined(_ units: UnsafeBufferPointer<UInt16>, pieces: UnsafeBufferPointer<Range<Int>>, context: Range<Int>,
                             upright: Bool, script: Script, style: ShapingStyle, buffer scratch: ShapingScratch,
                             store: (Int, ShapedRun) -> Void) {
        // Each piece with its own offset: HarfBuzz numbers clusters from the context's start, so
        // every glyph says which piece it came from. The text before the first piece and after
        // the last is HarfBuzz's context, as for one run.
        let harfBuzzStyle = HarfBuzzStyle.of(style)
        withShapingFont(for: harfBuzzStyle) { font in
            ShapingBuffer.of(scratch).shape(units, pieces: pieces, context: context, font: font,
                                            direction: upright ? .topToBottom : .leftToRight, script: script.tag,
                                            language: harfBuzzStyle.language, features: harfBuzzStyle.features) { buffered in
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
}
