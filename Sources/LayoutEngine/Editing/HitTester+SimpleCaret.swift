extension HitTester {
    /// The downstream caret at `offset` where nothing about it needs the line cut into boxes: a
    /// horizontal line of left-to-right runs without attachments, the offset inside the line (not
    /// at its ends, nor at a run's), between two units that never join a grapheme cluster, where a
    /// glyph cluster of its own starts and neither it nor the cluster before it is empty. There
    /// the caret stands at the pen of that cluster's first glyph, which the line's advances give
    /// as `LineBoxes.make` rebuilds them. nil elsewhere: the general tester answers.
    ///
    /// An editor asks this after every keystroke (`TextDocument.caret`); `HitTesterCaretTests`
    /// holds it to the general tester at every offset of its fixtures and of the corpus.
    static func simpleCaret(layout: ParagraphLayout, units: ContiguousArray<UInt16>, offset: Int) -> (primary: Rect, line: Int)? {
        guard offset > 0, offset < units.count, !layout.writingMode.isVertical,
              GraphemeFastPath.isSimple(units[offset - 1]), GraphemeFastPath.isSimple(units[offset]),
              let index = layout.lines.lastIndex(where: { $0.range.lowerBound <= offset }) else { return nil }
        let line = layout.lines[index]
        let breakLength = line.hardBreak ? LineBoxes.hardBreakLength(before: line.range.upperBound, in: units) : 0
        guard offset > line.range.lowerBound, offset < line.range.upperBound - breakLength,
              !layout.attachments.contains(where: { $0.lineIndex == index }) else { return nil }
        var pen = line.baselineOrigin.x
        var lastX = -Double.infinity
        var previousWidth = -1.0
        for run in layout.runs where run.lineIndex == index && !run.glyphs.isEmpty {
            // Runs in visual order, left to right, each starting where the one before ended.
            guard run.bidiLevel % 2 == 0, run.glyphs.first!.position.x >= lastX,
                  run.isInserted || (run.range.lowerBound != offset && run.range.upperBound != offset) else { return nil }
            lastX = run.glyphs.first!.position.x
            for (cluster, width) in RunClusters(run.glyphs) {
                if !run.isInserted && cluster == offset {
                    guard width != 0, previousWidth > 0 else { return nil }
                    // The line's top and bottom as `LineBoxes.outline` takes them, to the last bit.
                    let top = line.usedRect.y, bottom = line.usedRect.y + line.usedRect.height
                    return (Rect(x: pen, y: top, width: caretWidth, height: bottom - top), index)
                }
                if !run.isInserted && cluster > offset { return nil }  // the offset is inside a cluster
                previousWidth = width
                pen += width
            }
        }
        return nil
    }
}
