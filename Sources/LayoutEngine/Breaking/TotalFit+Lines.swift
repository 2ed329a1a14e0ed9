/// Total fit where a line's width depends on its index: text that flows, each line in the slot
/// a greedy pass gave it. A line's cost now depends on how many lines came before it, so a
/// candidate's state also counts the lines that end at or before it (TeX keeps the line number
/// in its active nodes for `\parshape` the same way). The queues' shortcut does not hold here
/// (a start's cost to an end changes with its count), so every start whose line fits is
/// weighed, nearest first, as `byWindows` does.
///
/// The text takes `lineCount` lines, greedy's count over the widths (no choice takes fewer),
/// so every chosen line has a slot the greedy pass met. Only the counts a choice can have are
/// kept for each candidate: no fewer lines ending at or before it than greedy needs to end one
/// there, and no more than leave the rest of the text to the last lines, each in its own width
/// (greedy from the end reaches furthest back). For text that fills its lines these differ by a
/// line or two, so the states stay a small multiple of the candidates.
extension TotalFit {
    /// The most states kept: past it the paragraph breaks greedily (a paragraph of thousands
    /// of lines whose widths vary widely).
    static let maxLineStates = 1 << 21

    /// The candidates (indices into `ends`) that end the chosen lines, from 0 to the last, line
    /// `l` within `widths(l)`, in `lineCount` lines; nil when no choice fits (a word wider than
    /// its line) or the states would pass `maxLineStates`. The fit's `width` is the widest of
    /// the lines' (its penalties are for it).
    func breaks(widths: (Int) -> Double, lineCount: Int, budget: WorkBudget) throws(LayoutError) -> [Int]? {
        guard ends.count > 2, lineCount > 0 else { return nil }
        let last = ends.count - 1
        guard let fewest = fewestLines(widths: widths, lineCount: lineCount), let after = fewestLinesAfter(widths: widths, lineCount: lineCount)
        else { return nil }
        // The counts of lines ending at or before each candidate that a choice can have.
        var lowest = [Int32](repeating: 0, count: ends.count), highest = [Int32](repeating: -1, count: ends.count)
        highest[0] = 0
        for j in 1...last {
            lowest[j] = Int32(fewest[j])
            highest[j] = Int32(lineCount - after[j])
        }
        lowest[last] = Int32(lineCount)
        guard var table = LineStates(fit: self, lowest: lowest, highest: highest) else { return nil }
        table.cost[0] = 0
        let isOrphan = orphanTest()
        var weighed = 0
        for j in 1...last where lowest[j] <= highest[j] {
            let hyphen = hyphens[j]
            for count in Int(lowest[j])...Int(highest[j]) {
                let line = count - 1
                let lineWidth = widths(line)
                var i = j - 1
                let earliest = max(0, j - Self.maxStartsPerEnd)
                while i >= earliest {
                    let used = used(i, j)
                    if used > lineWidth + LineBreaker.tolerance { break }  // longer lines from earlier starts only grow
                    weighed += 1
                    if weighed & 4095 == 0 { try budget.check() }
                    defer { i -= 1 }
                    guard line >= Int(lowest[i]) && line <= Int(highest[i]) else { continue }
                    // The last line's slack is free; a word alone on it (not the only line) is not.
                    var step = j == last ? (isOrphan(i) ? orphanCost(lineWidth) : 0) : (lineWidth - used) * (lineWidth - used)
                    if hyphen != nil { step += hyphenCost(lineWidth) }
                    for (row, state) in table.states(of: i, count: line).enumerated() where table.cost[state] < .infinity {
                        // As in `byWindows`: a plain end (or no limit) has one state, a hyphen under
                        // a limit the state of one more hyphen in a row, if the limit allows it.
                        let inRow = hyphens[i] == nil || limit == 0 ? 0 : row + 1
                        let target: Int
                        if hyphen == nil || limit == 0 {
                            target = table.first(of: j, count: count)
                        } else {
                            guard inRow < limit else { continue }
                            target = table.first(of: j, count: count) + inRow
                        }
                        let cost = table.cost[state] + step
                        if cost < table.cost[target] { (table.cost[target], table.from[target]) = (cost, Int32(state)) }
                    }
                }
            }
        }
        let bestState = table.first(of: last, count: lineCount)
        guard table.cost[bestState] < .infinity else { return nil }
        var breaks = [last]
        var at = Int(table.from[bestState])
        while at > 0 {
            breaks.append(table.owner(of: at))
            at = Int(table.from[at])
        }
        guard at == 0 else { return nil }
        breaks.append(0)
        return breaks.reversed()
    }

    /// Rescales total fit's two penalties to a line's own width (their rule:
    /// `LineBreaker.hyphenPenalty`, `orphanPenalty`), from the ones given for `width`.
    private func hyphenCost(_ lineWidth: Double) -> Double { hyphenPenalty * scale(lineWidth) }
    private func orphanCost(_ lineWidth: Double) -> Double { orphanPenalty * scale(lineWidth) }
    private func scale(_ lineWidth: Double) -> Double { width > 0 ? (lineWidth / width) * (lineWidth / width) : 1 }

    /// For each candidate, the fewest lines that can end one there, in the first `lineCount`:
    /// greedy over the candidates with each line's own width (its hyphen limit aside: fewer
    /// constraints, no more lines). Greedy's k-th line ends at or past every other choice's; where
    /// nothing fits a line's width from where greedy got, no choice's line of that index ends
    /// past there either, and the next line tries from the same place. nil when the text's end
    /// is out of reach.
    private func fewestLines(widths: (Int) -> Double, lineCount: Int) -> [Int]? {
        var fewest = [Int](repeating: 0, count: ends.count)
        let last = ends.count - 1
        var reach = 0
        for line in 0..<lineCount where reach < last {
            let lineWidth = widths(line)
            var end = reach
            while end < last && used(reach, end + 1) <= lineWidth + LineBreaker.tolerance { end += 1 }
            if end > reach { for j in (reach + 1)...end { fewest[j] = line + 1 } }
            reach = end
        }
        return reach == last ? fewest : nil
    }

    /// For each candidate, the fewest of the last lines (line `lineCount - 1`, then the one
    /// before…, each in its own width) that can hold the text after it: greedy from the text's
    /// end, each line starting as early as fits (and, as above, where nothing fits, the next
    /// line tries from the same place). nil when the text's start is out of reach.
    private func fewestLinesAfter(widths: (Int) -> Double, lineCount: Int) -> [Int]? {
        var after = [Int](repeating: 0, count: ends.count)
        var reach = ends.count - 1
        for lines in 1...lineCount where reach > 0 {
            let lineWidth = widths(lineCount - lines)
            var start = reach
            while start > 0 && used(start - 1, reach) <= lineWidth + LineBreaker.tolerance { start -= 1 }
            for j in start..<reach { after[j] = lines }
            reach = start
        }
        return reach == 0 ? after : nil
    }
}

/// Total fit's table over line-dependent widths: for each candidate, a block of states for each
/// count of lines it may end, each block a state per hyphenated line in a row (`stateCount`).
struct LineStates {
    private let lowest: [Int32]
    private var base: [Int32]
    private let rows: [Int32]
    var cost: [Double]
    var from: [Int32]

    /// nil when the blocks would hold more than `TotalFit.maxLineStates` states.
    init?(fit: TotalFit, lowest: [Int32], highest: [Int32]) {
        self.lowest = lowest
        rows = (0..<fit.ends.count).map { Int32(fit.stateCount($0)) }
        base = []
        base.reserveCapacity(fit.ends.count + 1)
        var total = 0
        for j in 0..<fit.ends.count {
            base.append(Int32(total))
            total += max(0, Int(highest[j]) - Int(lowest[j]) + 1) * Int(rows[j])
            if total > TotalFit.maxLineStates { return nil }
        }
        base.append(Int32(total))
        cost = [Double](repeating: .infinity, count: total)
        from = [Int32](repeating: -1, count: total)
    }

    /// The first state of candidate `j` ending `count` lines.
    func first(of j: Int, count: Int) -> Int { Int(base[j]) + (count - Int(lowest[j])) * Int(rows[j]) }
    /// Candidate `j`'s states ending `count` lines.
    func states(of j: Int, count: Int) -> Range<Int> { first(of: j, count: count)..<(first(of: j, count: count) + Int(rows[j])) }
    /// The candidate state `state` belongs to (by bisection over the blocks).
    func owner(of state: Int) -> Int {
        ShapedParagraph.firstIndex(base.count - 1) { Int(base[$0 + 1]) > state }
    }
}
