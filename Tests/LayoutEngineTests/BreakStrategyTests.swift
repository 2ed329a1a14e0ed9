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

    /// Text around a picture (the flowed benchmark row's ellipse): balanced and total fit keep
    /// greedy's line count and every line fits its fragment. Each is measured by what it aims
    /// at, in the fragments the lines got: balanced by its fullest line (the share of every slot
    /// it narrows to), total fit by the squared slack of every line but the last plus a word
    /// alone on the last line (as much as an empty line). Over the texts, each does better than
    /// greedy, and on nearly every text no worse.
    @Test func strategiesBreakTextThatFlows() throws {
        var compared = 0, sameCount = 0, optimalNoWorse = 0, balancedNoWorse = 0
        var cost = (greedy: 0.0, optimal: 0.0), fullest = (greedy: 0.0, balanced: 0.0)
        for text in Self.texts() where !text.contains("\n") {
            let layouts = try [BreakStrategy.greedy, .balanced, .optimal].map { strategy in
                try Fixtures.layout(text, width: 300) {
                    $0.breakStrategy = strategy
                    $0.flow = TextFlow(containers: [TextContainer(width: 300, exclusions: [
                        Exclusion(FlowShape(.ellipse(Rect(x: 170, y: 8, width: 110, height: 80))), margin: 6)])])
                }
            }
            for layout in layouts {
                #expect(layout.lines.allSatisfy { $0.width <= $0.fragmentRect!.width + 1e-6 }, "\(text.prefix(30))")
            }
            guard layouts[0].lines.count > 1 else { continue }
            compared += 1
            if layouts[1].lines.count == layouts[0].lines.count && layouts[2].lines.count == layouts[0].lines.count { sameCount += 1 }
            let flags = try Self.breaker(text).0.flags
            let totalFit = { (layout: ParagraphLayout) -> Double in
                let squared = layout.lines.dropLast().reduce(0.0) { $0 + ($1.fragmentRect!.width - $1.width) * ($1.fragmentRect!.width - $1.width) }
                let last = layout.lines.last!, end = flags.contentEnd(last.range.upperBound, from: last.range.lowerBound)
                let alone = !(last.range.lowerBound + 1..<max(last.range.lowerBound + 1, end)).contains { flags[$0].contains(.breakBefore) }
                return squared + (alone ? last.fragmentRect!.width * last.fragmentRect!.width : 0)
            }
            let fill = { (layout: ParagraphLayout) in layout.lines.map { $0.width / $0.fragmentRect!.width }.max()! }
            let (g, o) = (totalFit(layouts[0]), totalFit(layouts[2]))
            cost.greedy += g
            cost.optimal += o
            if o <= g * 1.001 + 1 { optimalNoWorse += 1 }
            fullest.greedy += fill(layouts[0])
            fullest.balanced += fill(layouts[1])
            if fill(layouts[1]) <= fill(layouts[0]) + 0.01 { balancedNoWorse += 1 }
        }
        #expect(compared >= 3)
        #expect(Double(sameCount) >= Double(compared) * 0.98, "\(sameCount) of \(compared)")
        #expect(cost.optimal < cost.greedy, "\(cost)")
        #expect(fullest.balanced < fullest.greedy, "\(fullest)")
        #expect(Double(optimalNoWorse) >= Double(compared) * 0.95, "\(optimalNoWorse) of \(compared)")
        #expect(Double(balancedNoWorse) >= Double(compared) * 0.95, "\(balancedNoWorse) of \(compared)")
    }

    @Test func balancedHoldsInAPlainBoxAlignedVertically() throws {
        let centred = try Fixtures.layout("A title that balances over two lines nicely", width: 260) {
            $0.breakStrategy = .balanced
            $0.height = 200
            $0.flow = TextFlow(containers: [TextContainer(width: 260, height: 200)], verticalAlignment: .center)
        }
        let plain = try Self.layout("A title that balances over two lines nicely", width: 260, .balanced)
        #expect(centred.lines.map(\.range) == plain.lines.map(\.range))
    }
}
