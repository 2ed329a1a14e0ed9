import Testing
@testable import LayoutEngine

/// `LinePens` rebuilds where runs start along a line as `LineBoxes` does for carets: the two
/// agree on every run, in vertical text (where positions are not pens) and in horizontal text.
@Suite struct LinePensTests {
    @Test(arguments: [WritingMode.verticalRightToLeft, .verticalLeftToRight, .horizontal])
    func eachRunStartsWhereItsFirstCaretBoxDoes(_ mode: WritingMode) throws {
        let text = "縦書きABC、\u{FFFC}強調する12月の文。Latin text here"
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans CJK JP", size: 24)), width: 200,
                                       height: 200, attachments: [InlineAttachment(width: 30, extent: .height(30))])
        request.writingMode = mode
        let turned = try Fixtures.layouter.layout(request)
        let layout = VerticalFrame(turned: turned)?.unturned(turned) ?? turned
        let units = AttributedText.utf16(text)
        var flags = ContiguousArray<UnitFlags>(repeating: [], count: units.count)
        _ = TextAnalysis.markGraphemes(units, into: &flags)
        let starts = flags.map { $0.contains(.graphemeStart) } + [true]
        var checked = 0
        for lineIndex in layout.lines.indices {
            let runs = layout.runs.indices.filter { layout.runs[$0].lineIndex == lineIndex }
            guard let first = runs.first else { continue }
            let pens = LinePens.starts(first..<(runs.last! + 1), of: layout, lineIndex: lineIndex)
            let boxes = LineBoxes.make(line: layout.lines[lineIndex], index: lineIndex, runs: layout.runs, attachments: layout.attachments,
                                       graphemeStarts: starts, units: units).boxes
            for index in runs where !layout.runs[index].isInserted && layout.runs[index].bidiLevel % 2 == 0 {
                let cluster = layout.runs[index].glyphs.first!.cluster
                let box = try #require(boxes.first { $0.range.contains(cluster) })
                #expect(abs(box.start - pens[index - first]) < 1e-9, "line \(lineIndex), run \(index): \(box.start) vs \(pens[index - first])")
                checked += 1
            }
        }
        #expect(checked > 3)
    }
}
