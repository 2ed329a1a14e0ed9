import Testing
import TestSupport
@testable import LayoutEngine

/// Total fit's two ways to one answer: the queues of starts (O(n log n)) against the windows
/// that weigh every start whose line fits, on random texts without ties (the same lines) and on
/// real ones (the same cost); and the budget, which stops either.
@Suite struct TotalFitTests {
    /// A text of random words: flags (a break before each word, hanging spaces) and the prefix
    /// of random advances, with hyphen points inside some words.
    struct RandomText {
        var flags = ContiguousArray<UnitFlags>()
        var prefix: [Double] = [0]
        var points = HyphenPoints()

        init(words: Int, seed: UInt64, hyphenEvery: Int = 0, limit: Int = 0) {
            var random = SeededGenerator(seed: seed)
            for word in 0..<words {
                let letters = 1 + Int(random.next() % 9)
                for letter in 0..<letters {
                    var f: UnitFlags = [.graphemeStart]
                    if letter == 0 && word > 0 { f.insert(.breakBefore) }
                    if hyphenEvery > 0 && letter > 1 && letter < letters - 1 && random.next() % UInt64(hyphenEvery) == 0 {
                        points.offsets.append(flags.count)
                        points.widths.append(3 + Double(random.next() % 100) / 1_000)
                    }
                    flags.append(f)
                    prefix.append(prefix.last! + 4 + Double(random.next() % 10_000) / 997)
                }
                flags.append([.graphemeStart, .hangingSpace, .justifiable])
                prefix.append(prefix.last! + 3.3)
            }
            points.maxConsecutive = limit
        }

        func fit(width: Double) -> TotalFit {
            TotalFit(flags: flags, prefix: prefix, range: 0..<flags.count, width: width, points: points.isEmpty ? nil : points,
                     hyphenPenalty: (width / 10) * (width / 10), orphanPenalty: width * width)
        }
    }

    /// What a choice of candidates costs, by the same rule both ways minimise.
    static func cost(_ fit: TotalFit, _ breaks: [Int]) -> Double {
        var total = 0.0
        for (start, end) in zip(breaks, breaks.dropFirst()) where end < fit.ends.count - 1 {
            total += fit.slack(start, end) + (fit.hyphens[end] == nil ? 0 : fit.hyphenPenalty)
        }
        if breaks.count > 2, fit.orphanTest()(breaks[breaks.count - 2]) { total += fit.orphanPenalty }
        return total
    }

    @Test(arguments: [0, 1, 2, 3])
    func queuesChooseTheWindowsLines(limit: Int) throws {
        var compared = 0, hyphenated = 0
        for seed in 1...60 as ClosedRange<UInt64> {
            let text = RandomText(words: 20 + Int(seed % 7) * 30, seed: seed, hyphenEvery: limit == 0 && seed % 2 == 0 ? 0 : 3, limit: limit)
            for width in [30.0, 61, 97, 150, 233, 400, 1_000] {
                let fit = text.fit(width: width)
                guard fit.monotone else { continue }
                let windows = try fit.byWindows(budget: .unlimited)
                let queues = try fit.byQueues(budget: .unlimited)
                #expect(windows == queues, "seed \(seed), width \(width), limit \(limit)")
                if let windows {
                    compared += 1
                    hyphenated += windows.filter { fit.hyphens[$0] != nil }.count
                    var inRow = 0
                    for end in windows {
                        inRow = fit.hyphens[end] == nil ? 0 : inRow + 1
                        #expect(fit.limit == 0 || inRow <= fit.limit)
                    }
                }
            }
        }
        #expect(compared > 250)
        if limit > 0 { #expect(hyphenated > 50) }
    }

    /// Real text (ties and all, where equal words make equal costs): the same least cost.
    @Test func queuesAndWindowsCostTheSameOnRealText() throws {
        var compared = 0
        for text in BreakStrategyTests.texts() where !text.contains("\n") {
            let (breaker, count) = try BreakStrategyTests.breaker(text, size: 18)
            for width in [90.0, 180, 300] {
                let fit = TotalFit(flags: breaker.flags, prefix: breaker.prefix, range: 0..<count, width: width, points: nil,
                                   hyphenPenalty: breaker.hyphenPenalty(width), orphanPenalty: breaker.orphanPenalty(width))
                guard fit.ends.count > 2, fit.monotone else { continue }
                let windows = try fit.byWindows(budget: .unlimited), queues = try fit.byQueues(budget: .unlimited)
                #expect((windows == nil) == (queues == nil))
                if let windows, let queues {
                    let (a, b) = (Self.cost(fit, windows), Self.cost(fit, queues))
                    #expect(abs(a - b) <= 1e-6 * max(1, a), "\(text.prefix(30)) at \(width): \(a) against \(b)")
                    compared += 1
                }
            }
        }
        #expect(compared >= 6)
    }

    /// Ties: every word alike, so many choices cost the same; both ways take the same one.
    @Test func equalWordsBreakAlikeBothWays() throws {
        var text = RandomText(words: 0, seed: 0)
        for word in 0..<400 {
            text.flags.append(word == 0 ? [.graphemeStart] : [.graphemeStart, .breakBefore])
            text.prefix.append(text.prefix.last! + 7)
            text.flags.append([.graphemeStart, .hangingSpace])
            text.prefix.append(text.prefix.last! + 3)
        }
        for width in [25.0, 52, 100, 333, 1_999] {
            let fit = text.fit(width: width)
            #expect(try fit.byWindows(budget: .unlimited) == fit.byQueues(budget: .unlimited), "width \(width)")
        }
    }

    /// Negative advances (tight letter spacing) make a later end narrower: the general way answers.
    @Test func fallingWidthsTakeTheGeneralWay() throws {
        var text = RandomText(words: 30, seed: 7)
        for i in 40..<text.prefix.count { text.prefix[i] -= 100 }
        let monotone = text.fit(width: 100).monotone
        #expect(!monotone)
        #expect(try text.fit(width: 100).breaks(budget: .unlimited) == text.fit(width: 100).byWindows(budget: .unlimited))
    }

    /// A box wide enough for thousands of words: the general way weighs every start on each line
    /// (quadratic); the queues answer at once, and an expired budget stops both.
    @Test func aWideBoxIsNotQuadratic() throws {
        let text = RandomText(words: 60_000, seed: 3)
        let fit = text.fit(width: text.prefix.last! * 0.7)
        #expect(fit.monotone)
        let breaks = try #require(try fit.breaks(budget: WorkBudget(milliseconds: 60_000)))
        #expect(breaks.count == 3)
        let expired = WorkBudget(deadline: 1)
        #expect(throws: LayoutError.self) { try fit.byQueues(budget: expired) }
        #expect(throws: LayoutError.self) { try fit.byWindows(budget: expired) }
        let cancelled = WorkBudget()
        cancelled.cancel()
        #expect(throws: LayoutError.self) { try fit.byWindows(budget: cancelled) }
    }

    /// A limit larger than the hyphen points can bind is no limit, and costs no states.
    @Test func aLimitPastThePointsIsNoLimit() {
        let text = RandomText(words: 50, seed: 11, hyphenEvery: 4, limit: 1_000)
        let fit = text.fit(width: 120)
        #expect(fit.limit == 0 && text.points.offsets.count < 1_000)
        #expect(TotalFitTable(fit).cost.count == fit.ends.count)
    }
}
