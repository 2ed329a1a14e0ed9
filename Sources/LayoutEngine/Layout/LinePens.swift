/// Where a line's runs start along its axis, rebuilt from advances as `LineBoxes` rebuilds its
/// pens: the line's items tile it from its origin, each run advancing by its glyphs' advances
/// and each attachment standing where its rect does.
///
/// Vertical text needs it: an upright glyph's position carries its vertical origin (most of
/// an em down the column), so where it stands is not where its advance starts. What spans
/// characters along a column (a background, an emphasis mark's centre) measures from pens.
enum LinePens {
    /// The end of the runs of the line `runs[first]` is on: a layout's runs stand line by line.
    static func lineEnd(from first: Int, in runs: [GlyphRunLayout]) -> Int {
        let lineIndex = runs[first].lineIndex
        var end = first + 1
        while end < runs.count && runs[end].lineIndex == lineIndex { end += 1 }
        return end
    }

    /// `starts` for a vertical line's runs, where positions are not pens; nil for a horizontal
    /// line, whose glyph positions serve.
    static func startsIfVertical(_ runs: Range<Int>, of layout: ParagraphLayout, lineIndex: Int) -> [Double]? {
        layout.runs[runs.lowerBound].orientation == .horizontal ? nil : starts(runs, of: layout, lineIndex: lineIndex)
    }

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
