import Testing
@testable import LayoutEngine

/// The breakers over fixed-advance faces (a letter 5 points, a space 2.5 at size 10): greedy
/// with widths that change from line to line, balanced, total fit and hyphenation. Each
/// expected set of lines is worked out by hand from those widths.
@Suite struct BreakerStageTests {
    /// Line i gets `widths[i]` (the last one for every line after).
    struct Steps: LineWidths {
        let widths: [Double]
        func slot(line: Int, top: Double) -> LineSlot { LineSlot(start: 0, width: widths[min(line, widths.count - 1)]) }
        var dependsOnTop: Bool { false }
    }

    func lines(_ text: String, widths: [Double]) throws -> [String] {
        let layouter = FixedAdvance.layouter
        let request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: FixedAdvance.family, size: 10)),
                                       width: widths[0])
        let context = LayoutContext(layouter: layouter)
        let positioner = TextPositioner(shaped: try layouter.shape(request.text, direction: request.direction, context: context),
                                        request: request, context: context)
        return FixedAdvance.lineTexts(try positioner.run(widths: Steps(widths: widths)), text)
    }

    /// Words of 20 points: 30 holds one, 50 two (42.5), 70 three (65).
    @Test func greedyFillsEachLineToItsOwnWidth() throws {
        #expect(try lines("aaaa bbbb cccc dddd eeee ffff", widths: [30, 50, 70]) == ["aaaa", "bbbb cccc", "dddd eeee ffff"])
        #expect(try lines("aaaa bbbb cccc dddd eeee ffff", widths: [70, 30]) == ["aaaa bbbb cccc", "dddd", "eeee", "ffff"])
    }

    /// A word wider than its line is cut between graphemes, as much on each line as fits.
    @Test func aWordWiderThanTheLineIsCut() throws {
        #expect(try lines("aaaaaaaaaa", widths: [22]) == ["aaaa", "aaaa", "aa"])
        #expect(try lines("aaaaaaaaaa", widths: [12, 40]) == ["aa", "aaaaaaaa"])
    }

    /// Greedy gives "aaaa bbbb cccc dddd" (87.5) and "eeee"; the narrowest width keeping two lines
    /// is 65, where greedy gives three words and two.
    @Test func balancedEvensTheLines() throws {
        let text = "aaaa bbbb cccc dddd eeee"
        let greedy = try FixedAdvance.layout(text, width: 100)
        #expect(FixedAdvance.lineTexts(greedy, text) == ["aaaa bbbb cccc dddd", "eeee"])
        let balanced = try FixedAdvance.layout(text, width: 100) { $0.breakStrategy = .balanced }
        #expect(FixedAdvance.lineTexts(balanced, text) == ["aaaa bbbb cccc", "dddd eeee"])
        #expect(balanced.lines.map(\.width) == [65, 42.5])
    }

    /// At 40 points greedy leaves 5 and 15 points of slack (25 + 225); total fit takes "c" down
    /// and leaves 12.5 and 7.5 (156.25 + 56.25).
    @Test func totalFitLeavesTheLeastSquaredSlack() throws {
        let text = "aaa bb c ddddd eee f gg"
        let greedy = try FixedAdvance.layout(text, width: 40)
        #expect(FixedAdvance.lineTexts(greedy, text) == ["aaa bb c", "ddddd", "eee f gg"])
        let optimal = try FixedAdvance.layout(text, width: 40) { $0.breakStrategy = .optimal }
        #expect(FixedAdvance.lineTexts(optimal, text) == ["aaa bb", "c ddddd", "eee f gg"])
    }

    /// Greedy leaves "cccc" alone on the last line; total fit pays 30 points of slack on the
    /// first line (900) rather than the orphan (50², plus 7.5² on the first line).
    @Test func totalFitAvoidsAWordAloneOnTheLastLine() throws {
        let text = "aaaa bbbb cccc"
        #expect(FixedAdvance.lineTexts(try FixedAdvance.layout(text, width: 50), text) == ["aaaa bbbb", "cccc"])
        let optimal = try FixedAdvance.layout(text, width: 50) { $0.breakStrategy = .optimal }
        #expect(FixedAdvance.lineTexts(optimal, text) == ["aaaa", "bbbb cccc"])
    }

    /// libhyphen's English patterns split "hyphenation" as hy-phen-ation. "aaaa hyphen-" would be
    /// 57.5 points, over 50; "aaaa hy-" is 37.5, and "phenation" (45) fits the next line.
    @Test func hyphenationBreaksInsideAWord() throws {
        let text = "aaaa hyphenation"
        let layout = try FixedAdvance.layout(text, width: 50) {
            $0.hyphenation = Hyphenation(minWordLength: 5, maxConsecutiveLines: 0)
            $0.text = AttributedText(text, style: TextStyle(family: FixedAdvance.family, size: 10, language: "en-US"))
        }
        #expect(FixedAdvance.lineTexts(layout, text) == ["aaaa hy", "phenation"])
        let hyphen = try #require(layout.runs.first { $0.isHyphen })
        #expect(hyphen.lineIndex == 0)
        #expect(hyphen.glyphs.map(\.position.x) == [32.5])
        #expect(layout.lines[0].width == 37.5)
    }
}
