import Testing
@testable import LayoutEngine

/// Balanced and total-fit breaking in text that flows, over fixed-advance faces (a letter 5
/// points, a space 2.5, lines 10 tall at size 10): each paragraph's lines are chosen over the
/// slots a greedy pass met. The expected lines are worked out by hand.
@Suite struct FlowBreakStrategyStageTests {
    let words = "aaaa bbbb cccc dddd eeee ffff gggg"

    /// A 100-point container with a 50-point exclusion beside its second line: slots of 100,
    /// 50 (from x = 50) and 100. Words of 20 points, 22.5 with their space.
    func layout(_ strategy: BreakStrategy, _ text: String? = nil) throws -> ParagraphLayout {
        let exclusion = Exclusion(FlowShape(.rect(Rect(x: 0, y: 11, width: 50, height: 8))))
        return try FixedAdvance.layout(text ?? words, width: 100) {
            $0.flow = TextFlow(containers: [TextContainer(width: 100, exclusions: [exclusion])])
            $0.breakStrategy = strategy
        }
    }

    /// Greedy fills the first line (87.5 of 100) and the second (42.5 of 50), leaving "gggg"
    /// alone on the last.
    @Test func greedyFillsEachSlot() throws {
        let layout = try layout(.greedy)
        #expect(FixedAdvance.lineTexts(layout, words) == ["aaaa bbbb cccc dddd", "eeee ffff", "gggg"])
        #expect(layout.lines.map { $0.fragmentRect?.width } == [100, 50, 100])
    }

    /// Balanced: the smallest share of every slot that still holds the text in three lines.
    /// Three words, one, three fill 65%, 40% and 65% of their slots; every other choice fills
    /// one slot more (four, one, two: 87.5%).
    @Test func balancedFillsEverySlotAlike() throws {
        let layout = try layout(.balanced)
        #expect(FixedAdvance.lineTexts(layout, words) == ["aaaa bbbb cccc", "dddd", "eeee ffff gggg"])
        #expect(layout.lines.map(\.baselineOrigin) == [Point(x: 0, y: 8), Point(x: 50, y: 18), Point(x: 0, y: 28)])
    }

    /// Total fit: four words, one, two cost 12.5² + 30² = 1,056.25; three, one, three cost
    /// 35² + 30² = 2,125; four, two, one leave a word alone on the last line (100² more).
    @Test func optimalLeavesTheLeastSquaredSlack() throws {
        let layout = try layout(.optimal)
        #expect(FixedAdvance.lineTexts(layout, words) == ["aaaa bbbb cccc dddd", "eeee", "ffff gggg"])
        #expect(layout.lines.map { $0.fragmentRect?.width } == [100, 50, 100])
    }

    /// Through two containers: the first a line of 60 points, the second 100 wide. "aaaa" alone
    /// on the first line would fill a third of it: balanced and total fit keep greedy's lines,
    /// and each container keeps its share.
    @Test func linesAreChosenAcrossContainers() throws {
        let text = "aaaa bbbb cccc dddd eeee"
        for strategy in [BreakStrategy.balanced, .optimal] {
            let layout = try FixedAdvance.layout(text, width: 100) {
                $0.flow = TextFlow(containers: [TextContainer(width: 60, height: 10),
                                                TextContainer(origin: Point(x: 0, y: 50), width: 100, height: 40)])
                $0.breakStrategy = strategy
            }
            #expect(FixedAdvance.lineTexts(layout, text) == ["aaaa bbbb", "cccc dddd eeee"], "\(strategy)")
            #expect(layout.lines.map(\.container) == [0, 1])
        }
    }

    /// Text past the last container is not chosen over (its slots are unknown): it breaks
    /// greedily and the last line shown is truncated, as with greedy.
    @Test func textThatDoesNotFitBreaksGreedily() throws {
        let exclusion = Exclusion(FlowShape(.rect(Rect(x: 0, y: 11, width: 50, height: 8))))
        let layouts = try [BreakStrategy.greedy, .optimal].map { strategy in
            try FixedAdvance.layout(words, width: 100) {
                $0.flow = TextFlow(containers: [TextContainer(width: 100, height: 20, exclusions: [exclusion])])
                $0.breakStrategy = strategy
            }
        }
        #expect(layouts[0].lines.map(\.range) == layouts[1].lines.map(\.range))
        #expect(layouts[1].lines.last?.truncated == true)
    }

    /// Each paragraph is chosen over its own slots: the second, below, has the full width.
    @Test func eachParagraphIsChosenOverItsOwnSlots() throws {
        let text = words + "\n" + "aaaa bbbb cccc dddd eeee"
        let layout = try layout(.balanced, text)
        #expect(FixedAdvance.lineTexts(layout, text) == ["aaaa bbbb cccc", "dddd", "eeee ffff gggg",
                                                         "aaaa bbbb cccc", "dddd eeee"])
    }
}
