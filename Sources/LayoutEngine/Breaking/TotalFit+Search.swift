/// Total fit's table: every candidate's states (hyphenated lines in a row ending there), each
/// with the least cost of the text before it and the state its last line starts from.
struct TotalFitTable {
    /// The first state of each candidate, and one past the last candidate's.
    var first: [Int32]
    var cost: [Double]
    var from: [Int32]
    /// The candidate each state belongs to.
    var owner: [Int32]

    init(_ fit: TotalFit) {
        first = []
        first.reserveCapacity(fit.ends.count + 1)
        var total = 0
        for j in 0..<fit.ends.count {
            first.append(Int32(total))
            total += fit.stateCount(j)
        }
        first.append(Int32(total))
        cost = [Double](repeating: .infinity, count: total)
        from = [Int32](repeating: -1, count: total)
        owner = [Int32](repeating: 0, count: total)
        for j in 0..<fit.ends.count {
            for state in Int(first[j])..<Int(first[j + 1]) { owner[state] = Int32(j) }
        }
        cost[0] = 0
    }

    func states(of j: Int) -> Range<Int> { Int(first[j])..<Int(first[j + 1]) }

    /// The cheapest state of candidate `j`, the fewest hyphens in a row on a tie.
    func cheapest(_ j: Int) -> Int {
        var best = Int(first[j])
        for state in states(of: j) where cost[state] < cost[best] { best = state }
        return best
    }
}

extension TotalFit {
    /// The most starts the general way weighs for one end.
    static let maxStartsPerEnd = 1_024

    /// The general way: for each end, every start whose line fits, nearest first, at most
    /// `maxStartsPerEnd` of them. Where widths fall along the text a line from an earlier start
    /// can fit again past one that did not, so this way is total fit only over the starts it
    /// weighs; the cap keeps a box wide enough for thousands of words from making it quadratic
    /// (a line of more than a thousand words has no better break for a reader to see).
    func byWindows(budget: WorkBudget) throws(LayoutError) -> [Int]? {
        var table = TotalFitTable(self)
        let last = ends.count - 1
        var weighed = 0
        for j in 1..<last {
            let hyphen = hyphens[j]
            var i = j - 1
            let earliest = max(0, j - Self.maxStartsPerEnd)
            while i >= earliest {
                let slack = slack(i, j)
                if slack == .infinity { break }  // longer lines from earlier starts only grow
                weighed += 1
                if weighed & 4095 == 0 { try budget.check() }
                for (row, state) in table.states(of: i).enumerated() where table.cost[state] < .infinity {
                    // Hyphenated lines in a row ending at i: none at a plain break, row + 1 at a hyphen.
                    let inRow = hyphens[i] == nil || limit == 0 ? 0 : row + 1
                    // A plain end, or a hyphen without a limit, has one state; a hyphen under a
                    // limit the state of one more hyphen in a row, if the limit allows it.
                    let target: Int
                    if hyphen == nil || limit == 0 {
                        target = Int(table.first[j])
                    } else {
                        guard inRow < limit else { continue }
                        target = Int(table.first[j]) + inRow
                    }
                    let cost = table.cost[state] + slack + (hyphen == nil ? 0 : hyphenPenalty)
                    if cost < table.cost[target] { (table.cost[target], table.from[target]) = (cost, Int32(state)) }
                }
                i -= 1
            }
        }
        return try finish(table, budget: budget)
    }

    /// The fast way: queues of starts, one for plain ends and one for hyphen ends (one per count
    /// of hyphens in a row before the line, under a limit), each start owning the ends where it is
    /// cheapest. Sound where `monotone` holds.
    func byQueues(budget: WorkBudget) throws(LayoutError) -> [Int]? {
        var table = TotalFitTable(self)
        let last = ends.count - 1
        var plainEnds: [Int] = [], hyphenEnds: [Int] = []
        for j in 1..<last { if hyphens[j] == nil { plainEnds.append(j) } else { hyphenEnds.append(j) } }
        var plain = StartQueue(ends: plainEnds)
        var hyphenated = (0..<max(limit, 1)).map { _ in StartQueue(ends: hyphenEnds) }
        insert(0, into: &plain, &hyphenated, table: table)
        for j in 1..<last {
            if j & 1023 == 0 { try budget.check() }
            if hyphens[j] != nil {
                for row in 0..<hyphenated.count {
                    guard let start = hyphenated[row].cheapest(for: j, fit: self, table: table) else { continue }
                    let target = Int(table.first[j]) + row
                    (table.cost[target], table.from[target]) = (start.cost + hyphenPenalty, Int32(start.state))
                }
                for row in 0..<hyphenated.count { hyphenated[row].passed += 1 }
            } else {
                if let start = plain.cheapest(for: j, fit: self, table: table) {
                    (table.cost[Int(table.first[j])], table.from[Int(table.first[j])]) = (start.cost, Int32(start.state))
                }
                plain.passed += 1
            }
            insert(j, into: &plain, &hyphenated, table: table)
        }
        return try finish(table, budget: budget)
    }

    /// Candidate `j`, its costs known, offered as a start to the ends after it.
    private func insert(_ j: Int, into plain: inout StartQueue, _ hyphenated: inout [StartQueue], table: TotalFitTable) {
        let cheapest = table.cheapest(j)
        plain.offer(j, state: cheapest, fit: self, table: table)
        if limit == 0 || hyphens[j] == nil {
            // No hyphen in a row before a line from here (or none counted).
            hyphenated[0].offer(j, state: cheapest, fit: self, table: table)
        } else {
            // The state with `row + 1` hyphens in a row may start a line that ends with another.
            for (row, state) in table.states(of: j).enumerated() where row + 1 < limit {
                hyphenated[row + 1].offer(j, state: state, fit: self, table: table)
            }
        }
    }

    /// The last line, from every start that fits it (its slack is free, a word alone on it is
    /// not), and the chosen candidates traced back from the cheapest.
    private func finish(_ table: TotalFitTable, budget: WorkBudget) throws(LayoutError) -> [Int]? {
        let last = ends.count - 1
        let isOrphan = orphanTest()
        var best = Double.infinity, bestState = -1
        var i = last - 1
        while i >= 0 && used(i, last) <= width + LineBreaker.tolerance {
            if i & 4095 == 0 { try budget.check() }
            let orphan = isOrphan(i) ? orphanPenalty : 0
            for state in table.states(of: i) where table.cost[state] + orphan < best {
                (best, bestState) = (table.cost[state] + orphan, state)
            }
            i -= 1
        }
        guard bestState >= 0 else { return nil }
        var breaks = [last]
        var at = bestState
        while table.owner[at] > 0 {
            breaks.append(Int(table.owner[at]))
            at = Int(table.from[at])
            if at < 0 { return nil }
        }
        breaks.append(0)
        return breaks.reversed()
    }
}

/// Starts of lines waiting for the ends of one kind (`ends`, candidate indices ascending): each
/// entry owns the ends from its position among them up to the next entry's, where it is the
/// cheapest start. A later start, once cheaper than an earlier one at some end, stays so at every
/// end after it (the costs are Monge), so a new start takes over a suffix of the ends: it pops the
/// entries it beats everywhere and finds where it overtakes the last one by galloping and bisection.
struct StartQueue {
    let ends: [Int]
    /// How many of `ends` have been priced: positions before it are past.
    var passed = 0
    private var candidates: [Int32] = []
    private var states: [Int32] = []
    private var owns: [Int32] = []
    private var head = 0

    init(ends: [Int]) { self.ends = ends }

    /// The cheapest start for end `j` (the next of this kind) and what the text up to `j` costs
    /// through it; nil when no start is waiting or none fits.
    mutating func cheapest(for j: Int, fit: TotalFit, table: TotalFitTable) -> (state: Int, cost: Double)? {
        guard head < candidates.count else { return nil }
        while head + 1 < candidates.count && Int(owns[head + 1]) <= passed { head += 1 }
        let cost = table.cost[Int(states[head])] + fit.slack(Int(candidates[head]), j)
        return cost < .infinity ? (Int(states[head]), cost) : nil
    }

    /// Offers candidate `i` in state `state` as a start for the ends after it.
    mutating func offer(_ i: Int, state: Int, fit: TotalFit, table: TotalFitTable) {
        let base = table.cost[state]
        guard passed < ends.count, base < .infinity else { return }
        // True when the new start costs no more than entry `k` at the end in position `p`
        // (a tie goes to the later start, as the general way's nearest-first scan does).
        func wins(over k: Int, at p: Int) -> Bool {
            let end = ends[p]
            return base + fit.slack(i, end) <= table.cost[Int(states[k])] + fit.slack(Int(candidates[k]), end)
        }
        while head < candidates.count {
            let back = candidates.count - 1
            let from = max(Int(owns[back]), passed)
            if wins(over: back, at: from) {
                candidates.removeLast(); states.removeLast(); owns.removeLast()
                continue
            }
            // It loses at `from`: the first position where it wins, galloping then bisecting.
            var low = from, high = ends.count, step = 1
            while low + step < ends.count {
                if wins(over: back, at: low + step) { high = low + step; break }
                low += step
                step &*= 2
            }
            while high - low > 1 {
                let middle = (low + high) / 2
                if middle < ends.count && wins(over: back, at: middle) { high = middle } else { low = middle }
            }
            guard high < ends.count else { return }  // never cheaper than the last start
            append(i, state, owning: high)
            return
        }
        append(i, state, owning: passed)
    }

    private mutating func append(_ i: Int, _ state: Int, owning position: Int) {
        candidates.append(Int32(i))
        states.append(Int32(state))
        owns.append(Int32(position))
    }
}
