/// The decorate stage for emphasis marks (`TextPaint.emphasis`): a mark for each grapheme
/// cluster of a marked run that takes one (`EmphasisMarks.marks`), centred on the cluster's
/// advance, its ink centred in a band of the marks' size just past the text (the band
/// positioning grew the line to hold). The mark's glyph comes from the run's font where that
/// font has it (CSS draws marks in the text's font), else from the first font the daemon loaded
/// that has it.
///
/// Horizontal text takes the band past the run's font's ascent (over) or descent (under).
/// Vertical text, laid out in its line frame, takes it past half the em on the column's right
/// (over) or left (under), as CSS's `over right` and `under left`; its marks stand upright.
enum EmphasisMarker {
    static func marks(_ layout: ParagraphLayout, units: ContiguousArray<UInt16>, fonts: FontRegistry,
                      writingMode: WritingMode = .horizontal, budget: WorkBudget = .unlimited) throws(LayoutError) -> [GlyphRunLayout] {
        var marked: [GlyphRunLayout] = []
        var marker = Marker(units: units, fonts: fonts, writingMode: writingMode)
        var first = 0
        while first < layout.runs.count {
            try budget.check()
            let lineIndex = layout.runs[first].lineIndex, end = LinePens.lineEnd(from: first, in: layout.runs)
            // Along a column a glyph's position carries its vertical origin: clusters span pens.
            let pens = LinePens.startsIfVertical(first..<end, of: layout, lineIndex: lineIndex)
            for index in first..<end {
                if let run = marker.marks(layout.runs[index], paints: layout.paints, pen: pens?[index - first],
                                          centreLine: layout.lines[lineIndex].baselineOrigin.y) {
                    marked.append(run)
                }
            }
            first = end
        }
        return marked
    }

    /// What placing one run's marks needs, and the last mark's ink (an outline's extents are
    /// measured by drawing it: asked once for the runs that share the mark and its font).
    private struct Marker {
        let units: ContiguousArray<UInt16>
        let fonts: FontRegistry
        let writingMode: WritingMode
        var lastInk: (font: ObjectIdentifier, glyph: UInt32, ink: (x: Int32, y: Int32, width: Int32, height: Int32))?

        init(units: ContiguousArray<UInt16>, fonts: FontRegistry, writingMode: WritingMode) {
            self.units = units
            self.fonts = fonts
            self.writingMode = writingMode
        }

        /// The marks of `run`, nil where it takes none; `pen` is where it starts along a vertical
        /// line (nil for horizontal text), `centreLine` that line's centre across.
        mutating func marks(_ run: GlyphRunLayout, paints: [TextPaint], pen: Double?, centreLine: Double) -> GlyphRunLayout? {
            guard !run.isInserted, !run.glyphs.isEmpty, paints.indices.contains(run.paint), let emphasis = paints[run.paint].emphasis,
                  let base = fonts.font(id: run.instanceID) else { return nil }
            let markScalar = emphasis.mark.value
            guard let markFont = base.covers(markScalar) ? base : fonts.fonts.first(where: { $0.covers(markScalar) }),
                  let glyph = markFont.nominalGlyph(markScalar) else { return nil }
            let size = run.size * EmphasisMarks.scale
            let markScale = markFont.scale(for: size), baseScale = base.scale(for: run.size)
            let ink: (x: Int32, y: Int32, width: Int32, height: Int32)
            if let last = lastInk, last.font == ObjectIdentifier(markFont), last.glyph == glyph {
                ink = last.ink
            } else {
                ink = markFont.inkExtents(glyph)
                lastInk = (ObjectIdentifier(markFont), glyph, ink)
            }
            // HarfBuzz's extents: x and y of the ink's top-left from the origin, y upward, height negative.
            let inkMiddle = (x: (Double(ink.x) + Double(ink.width) / 2) * markScale,
                             up: (Double(ink.y) + Double(ink.height) / 2) * markScale)
            // Across a vertical line: the right of the page is up the frame's y in right-to-left
            // columns (turning mirrors it), down it in left-to-right ones.
            let rightward = writingMode == .verticalRightToLeft ? -1.0 : 1.0
            var glyphs: [PositionedGlyph] = []
            glyphs.reserveCapacity(run.glyphs.count)
            var k = run.glyphs.startIndex
            var next = pen ?? 0
            while k < run.glyphs.endIndex {
                // A cluster's glyphs sit together: its extent is theirs.
                let cluster = run.glyphs[k].cluster, baseline = run.glyphs[k].position.y
                var left = Double.infinity, right = -Double.infinity
                let start = next
                while k < run.glyphs.endIndex && run.glyphs[k].cluster == cluster {
                    left = min(left, run.glyphs[k].position.x)
                    right = max(right, run.glyphs[k].position.x + run.glyphs[k].advance)
                    next += run.glyphs[k].advance
                    k += 1
                }
                guard cluster >= 0, cluster < units.count, EmphasisMarks.marks(scalar(at: cluster)) else { continue }
                let position: Point
                if pen != nil {
                    let side = emphasis.over ? rightward : -rightward
                    let bandMiddle = centreLine + side * (run.size / 2 + size / 2)
                    // Drawn upright: the ink's middle moves across the page, which the frame's y mirrors in right-to-left columns.
                    position = Point(x: (start + next) / 2 + inkMiddle.up, y: bandMiddle - rightward * inkMiddle.x)
                } else {
                    let bandMiddle = emphasis.over ? baseline - Double(base.ascender) * baseScale - size / 2
                        : baseline + Double(base.descender) * baseScale + size / 2
                    position = Point(x: (left + right) / 2 - inkMiddle.x, y: bandMiddle + inkMiddle.up)
                }
                glyphs.append(PositionedGlyph(id: glyph, position: position, advance: 0, cluster: cluster))
            }
            guard !glyphs.isEmpty else { return nil }
            return GlyphRunLayout(fontID: markFont.wireID, instance: markFont.isInstance ? markFont : nil, size: size,
                                  bidiLevel: run.bidiLevel, glyphs: glyphs[...], range: run.range, isTruncationToken: false,
                                  lineIndex: run.lineIndex, paint: run.paint, orientation: pen == nil ? .horizontal : .upright)
        }

        /// The scalar starting at `offset` (a lone surrogate as U+FFFD).
        private func scalar(at offset: Int) -> Unicode.Scalar {
            let unit = units[offset]
            if UTF16.isLeadSurrogate(unit), offset + 1 < units.count, UTF16.isTrailSurrogate(units[offset + 1]) {
                return Unicode.Scalar(UTF16.decode(UTF16.EncodedScalar([unit, units[offset + 1]])))
            }
            return Unicode.Scalar(unit) ?? "\u{FFFD}"
        }
    }
}
