/// The decorate stage for emphasis marks (`TextPaint.emphasis`): a mark for each grapheme
/// cluster of a marked run that takes one (`EmphasisMarks.marks`), centred on the cluster's
/// advance, its ink centred in a band of the marks' size just past the run's font's ascent (or
/// descent), the band positioning grew the line to hold. The mark's glyph comes from the run's
/// font where that font has it (CSS draws marks in the text's font), else from the first font
/// the daemon loaded that has it.
enum EmphasisMarker {
    static func marks(_ layout: ParagraphLayout, units: ContiguousArray<UInt16>, fonts: FontRegistry,
                      budget: WorkBudget = .unlimited) throws(LayoutError) -> [GlyphRunLayout] {
        var marked: [GlyphRunLayout] = []
        for run in layout.runs where !run.isInserted && !run.glyphs.isEmpty {
            try budget.check()
            guard layout.paints.indices.contains(run.paint), let emphasis = layout.paints[run.paint].emphasis,
                  let base = fonts.font(id: run.instanceID) else { continue }
            let markScalar = emphasis.mark.value
            guard let markFont = base.covers(markScalar) ? base : fonts.fonts.first(where: { $0.covers(markScalar) }),
                  let glyph = markFont.nominalGlyph(markScalar) else { continue }
            let size = run.size * EmphasisMarks.scale
            let markScale = markFont.scale(for: size), baseScale = base.scale(for: run.size)
            let ink = markFont.inkExtents(glyph)
            // HarfBuzz's extents: x and y of the ink's top-left from the origin, y upward, height negative.
            let inkMiddle = (x: (Double(ink.x) + Double(ink.width) / 2) * markScale,
                             up: (Double(ink.y) + Double(ink.height) / 2) * markScale)
            var glyphs: [PositionedGlyph] = []
            var k = run.glyphs.startIndex
            while k < run.glyphs.endIndex {
                // A cluster's glyphs sit together: its extent is theirs.
                let cluster = run.glyphs[k].cluster, baseline = run.glyphs[k].position.y
                var left = Double.infinity, right = -Double.infinity
                while k < run.glyphs.endIndex && run.glyphs[k].cluster == cluster {
                    left = min(left, run.glyphs[k].position.x)
                    right = max(right, run.glyphs[k].position.x + run.glyphs[k].advance)
                    k += 1
                }
                guard cluster >= 0, cluster < units.count, EmphasisMarks.marks(scalar(at: cluster, in: units)) else { continue }
                let bandMiddle = emphasis.over ? baseline - Double(base.ascender) * baseScale - size / 2
                    : baseline + Double(base.descender) * baseScale + size / 2
                glyphs.append(PositionedGlyph(id: glyph, position: Point(x: (left + right) / 2 - inkMiddle.x, y: bandMiddle + inkMiddle.up),
                                              advance: 0, cluster: cluster))
            }
            guard !glyphs.isEmpty else { continue }
            marked.append(GlyphRunLayout(fontID: markFont.wireID, instance: markFont.isInstance ? markFont : nil, size: size,
                                         bidiLevel: run.bidiLevel, glyphs: glyphs[...], range: run.range, isTruncationToken: false,
                                         lineIndex: run.lineIndex, paint: run.paint))
        }
        return marked
    }

    /// The scalar starting at `offset` (a lone surrogate as U+FFFD).
    private static func scalar(at offset: Int, in units: ContiguousArray<UInt16>) -> Unicode.Scalar {
        let unit = units[offset]
        if UTF16.isLeadSurrogate(unit), offset + 1 < units.count, UTF16.isTrailSurrogate(units[offset + 1]) {
            return Unicode.Scalar(UTF16.decode(UTF16.EncodedScalar([unit, units[offset + 1]])))
        }
        return Unicode.Scalar(unit) ?? "\u{FFFD}"
    }
}
