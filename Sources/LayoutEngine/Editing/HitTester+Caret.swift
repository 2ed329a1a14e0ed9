extension HitTester {
    /// A tester that can answer `caret` for offsets in `range` alone: only the lines that hold
    /// such an offset (or end at one, or are empty) are cut into boxes and have their clusters found, the others
    /// keep their ranges and extents. An editor asks for one caret per keystroke, and cutting
    /// every line of a long paragraph made that caret cost as much as a third of its layout.
    /// Horizontal text only (vertical text's frame turns the whole layout); nil where an offset
    /// of `range` lies past the laid-out lines (truncated text), where the general tester answers.
    /// `HitTesterCaretTests` holds it to the general tester at every offset. For one offset its
    /// lines hold only the boxes a caret there needs: such a tester answers `caret` alone.
    init?(layout: ParagraphLayout, units: ContiguousArray<UInt16>, caretsIn range: ClosedRange<Int>) {
        guard VerticalFrame(turned: layout) == nil, let lastLine = layout.lines.last,
              range.lowerBound >= 0, range.upperBound <= lastLine.range.upperBound else { return nil }
        var starts = [Bool](repeating: false, count: units.count + 1)
        starts[units.count] = true
        // Lines start at grapheme boundaries, so a line's clusters are found from its own units.
        var marked: [Int] = []
        func mark(_ index: Int) {
            let line = layout.lines[index]
            guard !line.range.isEmpty, !marked.contains(index) else { return }
            marked.append(index)
            // The line's flags on the stack: a caret per keystroke allocates none. SAFETY: the
            // buffer is initialized before it is read, and lives only inside its closure; the
            // line's range lies within the units (a paragraph's lines cover its text).
            withUnsafeTemporaryAllocation(of: UnitFlags.self, capacity: line.range.count) { flags in
                flags.initialize(repeating: [])
                var span = flags.mutableSpan
                TextAnalysis.markGraphemes(units.span.extracting(line.range), into: &span)
                for k in flags.indices where flags[k].contains(.graphemeStart) { starts[line.range.lowerBound + k] = true }
            }
        }
        // An offset inside a cluster moves back to its start, which may be its line's start:
        // the line that ends there holds it too.
        let home = layout.lines.lastIndex { $0.range.lowerBound <= range.lowerBound } ?? 0
        mark(home)
        // One offset (an editor's caret), taken back to its grapheme's start as `caret` takes it:
        // only the lines that hold that start (its own, and the one ending there) and only the
        // clusters that reach it are cut.
        var single: Int?
        if range.count == 1 {
            var offset = min(range.lowerBound, units.count)
            while offset > layout.lines[home].range.lowerBound && !starts[offset] { offset -= 1 }
            single = offset
        }
        let lineStart = layout.lines[home].range.lowerBound
        func holds(_ line: LineLayout) -> Bool {
            if let single { return line.range.lowerBound <= single && single <= line.range.upperBound }
            return line.range.lowerBound <= range.upperBound && lineStart <= line.range.upperBound
        }
        for index in layout.lines.indices where holds(layout.lines[index]) { mark(index) }
        let lines = layout.lines.indices.map { index in
            let line = layout.lines[index]
            guard holds(line) || line.range.isEmpty else { return LineBoxes.outline(of: line, units: units) }
            if let single, let near = LineBoxes.make(line: line, index: index, runs: layout.runs, attachments: layout.attachments,
                                                     graphemeStarts: starts, units: units, near: single) {
                return near
            }
            return LineBoxes.make(line: line, index: index, runs: layout.runs, attachments: layout.attachments,
                                  graphemeStarts: starts, units: units)
        }
        self.init(lines: lines, textLength: units.count, graphemeStarts: starts, rightToLeft: layout.direction == .rightToLeft)
    }
}
