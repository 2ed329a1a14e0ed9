import Testing
@testable import LayoutEngine

/// Balanced and total-fit breaking against greedy: on the corpus, balanced keeps greedy's line
/// count and narrows the spread of line widths; total fit's badness is never above greedy's
/// (greedy's lines are one of the choices it weighs); a word left alone is pulled a word down.
@Suite struct BreakStrategyTests {
    static func layout(_ text: String, width: Double, _ strategy: BreakStrategy, size: Double = 20) throws -> ParagraphLayout {
        try Fixtures.layout(text, width: width, size: size) { $0.breakStrategy = strategy }
    }

    static func texts() -> [String] {
        (Fixtures.corpus?.map(\.text) ?? []) + [
            "The quick brown fox jumps over the lazy dog, and then it runs away into the woods at dusk.",
            "مرحبا بالعالم، هذا نص عربي طويل بما يكفي ليلتف على عدة أسطر في هذا العرض الضيق.",
            "Ein Satz mit einigen ziemlich langen Wörtern wie Donaudampfschifffahrtsgesellschaft darin.",
        ]
    }

    /// The shaped paragraph's breaker and lines, to weigh breaks with one cost function.
    static func breaker(_ text: String, size: Double = 20) throws -> (LineBreaker, Int) {
        let layouter = Fixtures.layouter
        let context = LayoutContext(layouter: layouter)
        let shaped = try layouter.shape(AttributedText(text, style: TextStyle(family: "Noto Sans", size: size)), direction: .auto,
                                        context: context)
        let paragraph = shaped.paragraphs[0]
        return (LineBreaker(flags: paragraph.analysis.flags, prefix: paragraph.prefix), paragraph.text.units.count)
    }

    @Test func balancedKeepsTheLineCountAndNarrowsTheSpread() throws {
        var greedySpread = 0.0, balancedSpread = 0.0, compared = 0
        for text in Self.texts() where !text.contains("\n") {
            let greedy = try Self.layout(text, width: 260, .greedy)
            let balanced = try Self.layout(text, width: 260, .balanced)
            #expect(balanced.lines.count <= greedy.lines.count, "\(text.prefix(40))")
            guard greedy.lines.count > 1 else { continue }
            func spread(_ layout: ParagraphLayout) -> Double {
                let widths = layout.lines.map(\.width)
                return widths.max()! - widths.min()!
            }
            #expect(balanced.lines.allSatisfy { $0.width <= 260 + 1e-6 })
            greedySpread += spread(greedy)
            balancedSpread += spread(balanced)
            compared += 1
        }
        #expect(compared >= 3)
        #expect(balancedSpread < greedySpread * 0.7, "balanced \(balancedSpread) against greedy \(greedySpread) over \(compared) texts")
    }

    @Test func totalFitIsNeverWorseThanGreedy() throws {
        var better = 0, compared = 0
        for text in Self.texts() where !text.contains("\n") {
            let (breaker, count) = try Self.breaker(text)
            let slot = LineSlot(start: 0, width: 240)
            let greedy = try breaker.breakLines(in: 0..<count, slot: slot, strategy: .greedy)
            let optimal = try breaker.breakLines(in: 0..<count, slot: slot, strategy: .optimal)
            let (g, o) = (breaker.badness(of: greedy, width: 240), breaker.badness(of: optimal, width: 240))
            #expect(o <= g + 1e-6, "\(text.prefix(40)): optimal \(o), greedy \(g)")
            #expect(optimal.map(\.range.lowerBound).first == 0 && optimal.last?.range.upperBound == count)
            if o < g - 1e-6 { better += 1 }
            compared += 1
        }
        #expect(compared >= 3 && better >= 1)
    }

    @Test func aWordAloneOnTheLastLineIsAvoided() throws {
        // At this width greedy leaves "end." alone on the last line; total fit brings a word down.
        let text = "Every word of this caption fits well enough until the very end."
        var width = 0.0
        for candidate in stride(from: 150.0, through: 400, by: 2) {
            let greedy = try Self.layout(text, width: candidate, .greedy)
            if greedy.lines.count > 1, let last = greedy.lines.last, last.range.count <= 5 { width = candidate; break }
        }
        #expect(width > 0, "no width leaves one word alone")
        let optimal = try Self.layout(text, width: width, .optimal)
        #expect(optimal.lines.last!.range.count > 5, "the last line still holds one word")
        #expect(optimal.lines.allSatisfy { $0.width <= width + 1e-6 })
    }

    @Test func breakingStrategiesNeedOnePlainBox() throws {
        #expect(throws: LayoutError.self) {
            try Fixtures.layout("text around a circle", width: 200) {
                $0.breakStrategy = .balanced
                $0.flow = TextFlow(containers: [TextContainer(width: 200, exclusions: [Exclusion(FlowShape(.rect(Rect(x: 0, y: 0, width: 50, height: 50))))])])
            }
        }
        // Vertically centred in a plain box, balanced breaking holds.
        let centred = try Fixtures.layout("A title that balances over two lines nicely", width: 260) {
            $0.breakStrategy = .balanced
            $0.height = 200
            $0.flow = TextFlow(containers: [TextContainer(width: 260, height: 200)], verticalAlignment: .center)
        }
        let plain = try Self.layout("A title that balances over two lines nicely", width: 260, .balanced)
        #expect(centred.lines.map(\.range) == plain.lines.map(\.range))
    }
}
