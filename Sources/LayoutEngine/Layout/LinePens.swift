/// Where a line's runs start along its axis, rebuilt from advances as `LineBoxes` rebuilds its
/// pens: the line's items tile it from its origin, each run advancing by its glyphs' advances
/// and each attachment standing where its rect does.
///
/// Vertical text needs it: an upright glyph's position carries its vertical origin (most of
/// an em down the column), so where it stands is not where its advance starts. What spans
/// characters along a column (a background, an emphasis mark's centre) measures from pens.
enum LinePens {
    /// The pen at the first glyph of each of `runs` (the runs of line `lineIndex`), in their order.
    static func starts(_ runs: Range<Int>, of layout: ParagraphLayout, lineIndex: Int) -> [Double] {
        let origin = layout.lines[lineIndex].baselineOrigin.x
        // A run by its index, an attachment by nil; each with where it stands and its length.
        var items: [(x: Double, run: Int?, length: Double)] = []
        items.reserveCapacity(runs.count)
        for index in runs where !layout.runs[index].glyphs.isEmpty {
            var length = 0.0
            for glyph in layout.runs[index].glyphs { length += glyph.advance }
            items.append((layout.runs[index].glyphs.first!.position.x, index, length))
        }
        for box in layout.attachments where box.lineIndex == lineIndex { items.append((box.rect.x, nil, box.rect.width)) }
        items.sort { $0.x < $1.x }
        var starts = [Double](repeating: origin, count: runs.count)
        var pen = origin
        for item in items {
            if let run = item.run {
                starts[run - runs.lowerBound] = pen
                pen += item.length
            } else {
                pen = item.x + item.length
            }
        }
        return starts
    }
}
