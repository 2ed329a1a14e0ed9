import Testing
@testable import LayoutEngine

/// The line stream every layout takes its lines from, over fixed-advance faces (a letter 5
/// points, a space 2.5 at size 10): a line in a slot, taken or put back, chosen lines handed
/// out, indents and hyphenated lines in a row. Expected lines are worked out by hand.
@Suite struct ParagraphLinesStageTests {
    /// The stream of `text`'s first paragraph, with the request changed by `configure`; the
    /// positioner is returned too, as the stream's paragraph points into it.
    func stream(_ text: String, configure: (inout ParagraphRequest) -> Void = { _ in }) throws -> (ParagraphLines, TextPositioner) {
        let layouter = FixedAdvance.layouter
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: FixedAdvance.family, size: 10)), width: 100)
        configure(&request)
        let context = LayoutContext(layouter: layouter)
        let positioner = TextPositioner(shaped: try layouter.shape(request.text, direction: request.direction, context: context),
                                        request: request, context: context)
        return (positioner.lines(of: 0), positioner)
    }

    func slot(_ width: Double) -> LineSlot { LineSlot(start: 0, width: width) }

    func text(of line: BrokenLine, _ text: String) -> String {
        String(decoding: Array(text.utf16)[line.range.lowerBound..<line.contentEnd], as: UTF16.self)
    }

    /// Words of 20 points: each line fills the slot it is asked with, from where the last one
    /// taken ended; the stream ends with the text.
    @Test func eachLineFillsItsOwnSlotFromWhereTheTextHasGot() throws {
        let text = "aaaa bbbb cccc dddd eeee"
        var (lines, positioner) = try stream(text)
        var got: [String] = []
        for width in [30.0, 50, 70] where !lines.isAtEnd {
            let line = lines.take(try lines.line(in: slot(width), budget: .unlimited))
            got.append(self.text(of: line.broken, text))
        }
        #expect(got == ["aaaa", "bbbb cccc", "dddd eeee"])
        #expect(lines.isAtEnd)
        _ = positioner
    }

    /// A line asked for but not taken moves nothing; a position put back breaks from there
    /// again, as a band of text that flows tried at another height does.
    @Test func aLineNotTakenOrAPositionPutBackBreaksAgainFromThere() throws {
        let text = "aaaa bbbb cccc dddd"
        var (lines, positioner) = try stream(text)
        let wide = try lines.line(in: slot(70), budget: .unlimited)
        let narrow = try lines.line(in: slot(30), budget: .unlimited)
        #expect(self.text(of: wide, text) == "aaaa bbbb cccc")
        #expect(self.text(of: narrow, text) == "aaaa")
        let mark = lines.position
        _ = lines.take(wide)
        #expect(lines.offset == 15)
        lines.position = mark
        #expect(self.text(of: try lines.line(in: slot(50), budget: .unlimited), text) == "aaaa bbbb")
        _ = positioner
    }

    /// The first line has its own indent and the others theirs, taken off the slot the
    /// stream is asked with; the line keeps the indented slot.
    @Test func indentsComeOffTheSlot() throws {
        let text = "aaaa bbbb cccc dddd"
        var (lines, positioner) = try stream(text) { $0.paragraphStyle = ParagraphStyle(firstLineHeadIndent: 30, headIndent: 10) }
        let first = lines.take(try lines.line(in: slot(70), budget: .unlimited))
        #expect(first.broken.slot == LineSlot(start: 30, width: 40, leadingIndent: 30))
        #expect(self.text(of: first.broken, text) == "aaaa")
        let second = try lines.line(in: slot(70), budget: .unlimited)
        #expect(second.slot == LineSlot(start: 10, width: 60, leadingIndent: 10))
        #expect(self.text(of: second, text) == "bbbb cccc")
        _ = positioner
    }

    /// Balanced breaking chooses every line at the first (two even lines at 100 points, as
    /// `BreakerStageTests` works out) and hands them out whatever slot later lines ask with;
    /// where no chosen line starts, the stream breaks greedily.
    @Test func chosenLinesAreHandedOutInOrder() throws {
        let text = "aaaa bbbb cccc dddd eeee"
        var (lines, positioner) = try stream(text) { $0.breakStrategy = .balanced }
        let first = lines.take(try lines.line(in: slot(100), budget: .unlimited))
        #expect(self.text(of: first.broken, text) == "aaaa bbbb cccc")
        let mark = lines.position
        #expect(self.text(of: try lines.line(in: slot(30), budget: .unlimited), text) == "dddd eeee")
        lines.position.offset = 5
        #expect(self.text(of: try lines.line(in: slot(30), budget: .unlimited), text) == "bbbb")
        lines.position = mark
        _ = positioner
    }

    /// Lines handed out (text that flows, chosen over a greedy pass's slots) are each checked
    /// against the slot they are asked with: one that does not fit is broken greedily there.
    @Test func handedOutLinesThatDoNotFitBreakGreedily() throws {
        let text = "aaaa bbbb cccc dddd"
        var (lines, positioner) = try stream(text)
        let chosen = [BrokenLine(range: 0..<10, contentEnd: 9, hardBreak: false, slot: slot(50)),
                      BrokenLine(range: 10..<19, contentEnd: 19, hardBreak: false, slot: slot(50))]
        lines.handOut(chosen)
        #expect(self.text(of: try lines.line(in: slot(100), budget: .unlimited), text) == "aaaa bbbb")
        #expect(self.text(of: try lines.line(in: slot(30), budget: .unlimited), text) == "aaaa")
        _ = lines.take(try lines.line(in: slot(45), budget: .unlimited))
        #expect(self.text(of: try lines.line(in: slot(45), budget: .unlimited), text) == "cccc dddd")
        _ = positioner
    }

    /// "hyphenation" splits hy-phen-ation: in 20-point slots each line may end at a hyphen
    /// point, but with at most one hyphenated line in a row the second is cut at the slot's
    /// last grapheme instead; a position put back also puts back the count.
    @Test func hyphenatedLinesInARowAreCounted() throws {
        let text = "hyphenation hyphenation"
        var (lines, positioner) = try stream(text) {
            $0.hyphenation = Hyphenation(minWordLength: 5, maxConsecutiveLines: 1)
            $0.text = AttributedText(text, style: TextStyle(family: FixedAdvance.family, size: 10, language: "en-US"))
        }
        let mark = lines.position
        let first = lines.take(try lines.line(in: slot(20), budget: .unlimited))
        #expect(first.broken.hyphenated)
        #expect(lines.position.hyphenatedInRow == 1)
        let second = try lines.line(in: slot(30), budget: .unlimited)
        #expect(!second.hyphenated)
        lines.position = mark
        #expect(lines.position.hyphenatedInRow == 0)
        _ = positioner
    }
}
