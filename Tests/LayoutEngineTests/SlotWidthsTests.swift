import Testing
import TestSupport
@testable import LayoutEngine

/// Breaking over widths that change from line to line (text that flows, `SlotWidths`): total fit
/// over line-dependent widths against an exhaustive search of every choice of breaks, and against
/// total fit's own answer where every width is the same; balanced over one width against
/// balanced's own; and the budget.
@Suite struct SlotWidthsTests {
    typealias RandomText = TotalFitTests.RandomText

    /// The fewest lines greedy needs over `widths`, from candidate to candidate.
    static func greedyCount(_ fit: TotalFit, widths: (Int) -> Double) -> Int? {
        let last = fit.ends.count - 1
        var start = 0, lines = 0
        while start < last {
            var end = start
            while end < last && fit.used(start, end + 1) <= widths(lines) + LineBreaker.tolerance { end += 1 }
            guard end > start else { return nil }
            start = end
            lines += 1
        }
        return lines
    }

    /// What a choice costs with line `l` in `widths(l)`: the rule `TotalFit+Lines` minimises,
    /// written out again (nil when a line does not fit, or too many hyphens run in a row).
    static func cost(_ fit: TotalFit, _ breaks: [Int], widths: (Int) -> Double) -> Double? {
        var total = 0.0, inRow = 0
        let last = fit.ends.count - 1
        let isOrphan = fit.orphanTest()
        for (line, (start, end)) in zip(breaks, breaks.dropFirst()).enumerated() {
            let width = widths(line), used = fit.used(start, end)
            guard used <= width + LineBreaker.tolerance else { return nil }
            if fit.hyphens[end] != nil {
                inRow += 1
                if fit.limit > 0 && inRow > fit.limit { return nil }
                total += (width / 10) * (width / 10)
            } else {
                inRow = 0
            }
            if end < last {
                total += (width - used) * (width - used)
            } else if isOrphan(start) {
                total += width * width
            }
        }
        return total
    }

    /// The least cost over every choice of breaks in at most `lineCount` lines (greedy's count,
    /// the fewest any choice takes), by trying them all.
    static func exhaustive(_ fit: TotalFit, widths: (Int) -> Double, lineCount: Int) -> Double? {
        let last = fit.ends.count - 1
        var best: Double?
        for mask in 0..<(1 << (last - 1)) where mask.nonzeroBitCount + 1 <= lineCount {
            let breaks = [0] + (1..<last).filter { mask & (1 << ($0 - 1)) != 0 } + [last]
            if let cost = cost(fit, breaks, widths: widths), cost < best ?? .infinity { best = cost }
        }
        return best
    }

    /// Random short texts in random widths per line, hyphen points and limits among them: the
    /// chosen breaks cost what the best of every choice costs, in greedy's line count.
    @Test(arguments: [0, 1, 2])
    func choosesTheCheapestOfEveryChoice(limit: Int) throws {
        var compared = 0
        for seed in 1...250 as ClosedRange<UInt64> {
            let text = RandomText(words: 4 + Int(seed % 5), seed: seed, hyphenEvery: limit == 0 && seed % 2 == 0 ? 0 : 4, limit: limit)
            var random = SeededGenerator(seed: seed &* 31)
            let table = (0..<12).map { _ in 30 + Double(random.next() % 90) }
            let widths = { (line: Int) in table[min(line, table.count - 1)] }
            let fit = text.fit(width: table.max()!)
            guard fit.ends.count > 2, fit.ends.count <= 17, let lineCount = Self.greedyCount(fit, widths: widths) else { continue }
            let breaks = try fit.breaks(widths: widths, lineCount: lineCount, budget: .unlimited)
            let best = Self.exhaustive(fit, widths: widths, lineCount: lineCount)
            #expect((breaks == nil) == (best == nil), "seed \(seed)")
            guard let breaks, let best else { continue }
            #expect(breaks.count - 1 == lineCount)
            let cost = try #require(Self.cost(fit, breaks, widths: widths), "seed \(seed): a chosen line does not fit")
            #expect(abs(cost - best) <= 1e-6 * max(1, best), "seed \(seed), limit \(limit): \(cost) against \(best)")
            compared += 1
        }
        #expect(compared > 110)
    }

    /// One width for every line: the same least cost as total fit's own (`byWindows`), wherever
    /// its answer needs no more lines than greedy's.
    @Test func oneWidthCostsWhatTotalFitCosts() throws {
        var compared = 0
        for seed in 1...40 as ClosedRange<UInt64> {
            let text = RandomText(words: 30 + Int(seed % 5) * 20, seed: seed, hyphenEvery: seed % 3 == 0 ? 3 : 0, limit: Int(seed % 3))
            for width in [61.0, 97, 150, 233] {
                let fit = text.fit(width: width)
                let widths = { (_: Int) in width }
                guard let lineCount = Self.greedyCount(fit, widths: widths),
                      let windows = try fit.byWindows(budget: .unlimited), windows.count - 1 <= lineCount else { continue }
                let lines = try #require(try fit.breaks(widths: widths, lineCount: lineCount, budget: .unlimited))
                let (a, b) = (try #require(Self.cost(fit, lines, widths: widths)), TotalFitTests.cost(fit, windows))
                #expect(abs(a - b) <= 1e-6 * max(1, b), "seed \(seed), width \(width): \(a) against \(b)")
                compared += 1
            }
        }
        #expect(compared > 80)
    }

    /// A long paragraph in widths that alternate: the states stay near the candidates, and an
    /// expired or cancelled budget stops the search.
    @Test func theBudgetStopsIt() throws {
        let text = RandomText(words: 20_000, seed: 5)
        let widths = { (line: Int) in line % 2 == 0 ? 300.0 : 200 }
        let fit = text.fit(width: 300)
        let lineCount = try #require(Self.greedyCount(fit, widths: widths))
        let breaks = try #require(try fit.breaks(widths: widths, lineCount: lineCount, budget: WorkBudget(milliseconds: 60_000)))
        #expect(breaks.count - 1 == lineCount)
        #expect(throws: LayoutError.self) { try fit.breaks(widths: widths, lineCount: lineCount, budget: WorkBudget(deadline: 1)) }
        let cancelled = WorkBudget()
        cancelled.cancel()
        #expect(throws: LayoutError.self) { try fit.breaks(widths: widths, lineCount: lineCount, budget: cancelled) }
    }

    /// Over one width, balanced over `SlotWidths` breaks as balanced in a box does; over widths
    /// that vary, it keeps greedy's line count and every line fits its own width.
    @Test func balancedOverOneWidthIsBalanced() throws {
        var compared = 0
        for text in BreakStrategyTests.texts() where !text.contains("\n") {
            let (breaker, count) = try BreakStrategyTests.breaker(text, size: 18)
            for width in [120.0, 200, 310] {
                let box = try breaker.breakLines(in: 0..<count, slot: LineSlot(start: 0, width: width), strategy: .balanced)
                let slots = try breaker.breakLines(in: 0..<count, widths: SlotWidths([width]), strategy: .balanced, budget: .unlimited)
                #expect(box.map(\.range) == slots.map(\.range), "\(text.prefix(30)) at \(width)")
                let varying = SlotWidths([width, width * 0.6, width * 1.3, width * 0.8])
                let greedy = try breaker.breakLines(in: 0..<count, widths: varying, strategy: .greedy, budget: .unlimited)
                let balanced = try breaker.breakLines(in: 0..<count, widths: varying, strategy: .balanced, budget: .unlimited)
                #expect(balanced.count == greedy.count)
                if !greedy.contains(where: breaker.cutsWord) {
                    for (index, line) in balanced.enumerated() { #expect(breaker.fits(line, varying.width(index))) }
                }
                compared += 1
            }
        }
        #expect(compared >= 9)
    }
}
