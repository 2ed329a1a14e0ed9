extension HitTester {
    /// The downstream caret at `offset` where nothing about it needs the line cut into boxes: a
    /// horizontal line of runs in visual order without attachments, the offset inside the line
    /// (not at its ends, nor at a bidi boundary: at a run's ends only between two left-to-right
    /// runs of one level, where the font or style changes), between two units that never join a
    /// grapheme cluster, where a glyph cluster of its own starts and neither it nor the cluster
    /// before it is empty. There the caret stands at that cluster's leading edge — its first
    /// glyph's pen left to right, the pen after its glyphs right to left — which the line's
    /// advances give as `LineBoxes.make` rebuilds them. nil elsewhere: the general tester answers.
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
        // The line's top and bottom as `LineBoxes.outline` takes them, to the last bit.
        let top = line.usedRect.y, bottom = line.usedRect.y + line.usedRect.height
        var pen = line.baselineOrigin.x
        var lastX = -Double.infinity
        var previousWidth = -1.0
        // The level of the run before when it ended at the offset: a run after it at the same
        // level, left to right, makes the offset no bidi boundary but a change of font or style.
        var levelEndingAtOffset: Int?
        for run in layout.runs where run.lineIndex == index && !run.glyphs.isEmpty {
            // Runs in visual order, left to right, each starting where the one before ended.
            guard run.glyphs.first!.position.x >= lastX else { return nil }
            let rightToLeft = run.bidiLevel % 2 == 1
            if !run.isInserted && (run.range.lowerBound == offset || run.range.upperBound == offset) {
                guard !rightToLeft else { return nil }
                // Starting at the offset: after a run of its level that ended there.
                if run.range.lowerBound == offset {
                    guard levelEndingAtOffset == Int(run.bidiLevel) else { return nil }
                }
            }
            if levelEndingAtOffset != nil && run.range.lowerBound != offset { return nil }
            levelEndingAtOffset = !run.isInserted && run.range.upperBound == offset ? Int(run.bidiLevel) : nil
            lastX = run.glyphs.first!.position.x
            // Right to left, the offset's cluster is found first and the one before it (in the
            // text) stands to its right: the caret waits for it at the offset cluster's right edge.
            var waiting: Double?
            for (cluster, width) in RunClusters(run.glyphs) {
                if let edge = waiting {
                    guard width > 0 else { return nil }
                    // Leaning into the character after it, on its left: the edge less the caret's width.
                    return (Rect(x: edge - caretWidth, y: top, width: caretWidth, height: bottom - top), index)
                }
                if !run.isInserted && cluster == offset {
                    if rightToLeft {
                        guard width != 0 else { return nil }
                        waiting = pen + width
                    } else {
                        guard width != 0, previousWidth > 0 else { return nil }
                        return (Rect(x: pen, y: top, width: caretWidth, height: bottom - top), index)
                    }
                }
                // Past the offset without finding its cluster: the offset is inside one.
                if !run.isInserted && (rightToLeft ? cluster < offset : cluster > offset) { return nil }
                previousWidth = width
                pen += width
            }
            if waiting != nil { return nil }
        }
        return nil
    }
}
