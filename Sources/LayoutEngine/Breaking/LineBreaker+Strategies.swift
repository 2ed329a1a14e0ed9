/// How lines are chosen in a box of one width.
public enum BreakStrategy: Sendable, Equatable {
    /// Each line takes as much as fits (CoreText, TextKit; Android's `BREAK_STRATEGY_SIMPLE`).
    case greedy
    /// As many lines as greedy, each as near the others' width as can be (CSS `text-wrap:
    /// balance`, Android's `BREAK_STRATEGY_BALANCED`): for captions and titles.
    case balanced
    /// Total fit (Knuth–Plass, minikin's `OptimalLineBreaker`): the breaks that leave the least
    /// squared slack over all lines but the last, and no word alone on the last line where
    /// another break avoids it (CSS `text-wrap: pretty`): for paragraphs.
    case optimal
}

extension LineBreaker {
    /// The lines of `range` in `slot` by `strategy`. Each run of text between mandatory breaks
    /// is broken on its own; every line keeps `slot`, so alignment places it in the full width.
    func breakLines(in range: Range<Int>, slot: LineSlot, strategy: BreakStrategy) -> [BrokenLine] {
        var lines: [BrokenLine] = []
        var start = range.lowerBound
        while start < range.upperBound {
            var end = start + 1
            while end < range.upperBound && !flags[end].contains(.mustBreakBefore) { end += 1 }
            let greedy = breakLines(in: start..<end, width: slot.width)
            switch strategy {
            case .greedy: lines += greedy
            case .balanced: lines += balanced(start..<end, slot: slot, greedy: greedy)
            case .optimal: lines += greedy.count > 1 ? optimal(start..<end, slot: slot) ?? greedy : greedy  // one line is already the best
            }
            start = end
        }
        return lines
    }

    /// The narrowest width that still breaks `range` into as many lines as greedy does, found
    /// by bisection (greedy's line count only grows as the width shrinks), and greedy at it.
    /// No width below the text's content over the line count can hold it in that many lines,
    /// so the search starts there; half a point is as close as a reader can see.
    private func balanced(_ range: Range<Int>, slot: LineSlot, greedy: [BrokenLine]) -> [BrokenLine] {
        guard greedy.count > 1 else { return greedy }
        let content = greedy.reduce(0.0) { $0 + prefix[$1.contentEnd] - prefix[$1.range.lowerBound] }
        var low = content / Double(greedy.count) - Self.tolerance, high = slot.width
        var best = greedy
        while high - low > 0.5 {
            let middle = (low + high) / 2
            let trial = breakLines(in: range, width: middle)
            if trial.count <= greedy.count {
                high = middle
                best = trial
            } else {
                low = middle
            }
        }
        return best.map { BrokenLine(range: $0.range, contentEnd: $0.contentEnd, hardBreak: $0.hardBreak, slot: slot) }
    }

    /// What a choice of lines costs: the squared slack of every line but the last, and a word
    /// alone on a last line that is not the only one (`orphanPenalty`). Lines wider than the
    /// width cost `overfull` each. Greedy's lines are one choice among those total fit weighs.
    func badness(of lines: [BrokenLine], width: Double) -> Double {
        var total = 0.0
        for (index, line) in lines.enumerated() {
            let used = prefix[line.contentEnd] - prefix[line.range.lowerBound]
            if used > width + Self.tolerance { total += Self.overfull; continue }
            if index < lines.count - 1 {
                total += (width - used) * (width - used)
            } else if lines.count > 1 && isOneWord(line.range.lowerBound, line.contentEnd) {
                total += orphanPenalty(width)
            }
        }
        return total
    }

    static let overfull = 1e30

    /// A last line of one word costs as much as an empty line: more than pulling a word down
    /// onto it can cost the line above (whose slack stays within the width), so total fit
    /// leaves a word alone only where no other choice fits.
    func orphanPenalty(_ width: Double) -> Double { width * width }

    /// True when no break opportunity lies inside `start..<end` (its content: one word).
    private func isOneWord(_ start: Int, _ end: Int) -> Bool {
        var i = start + 1
        while i < end {
            if flags[i].contains(.breakBefore) { return false }
            i += 1
        }
        return true
    }

    /// Total fit over the break opportunities of `range` (no mandatory break inside it): for
    /// each opportunity, the least badness of the text before it, over every line that can end
    /// there and fit. nil when no choice fits (a word wider than the width): greedy breaks it.
    private func optimal(_ range: Range<Int>, slot: LineSlot) -> [BrokenLine]? {
        let width = slot.width
        var ends = [range.lowerBound]
        for i in (range.lowerBound + 1)..<range.upperBound where flags[i].contains(.breakBefore) { ends.append(i) }
        ends.append(range.upperBound)
        guard ends.count > 2 else { return nil }
        let count = ends.count
        var best = [Double](repeating: .infinity, count: count)
        var from = [Int](repeating: -1, count: count)
        // best[j] counts lines before ends[j]; the last line's own cost is decided at the end.
        best[0] = 0
        // The cheapest finish: the last line ending the range, from each start.
        var finish = Double.infinity, finishFrom = -1
        for j in 1..<count {
            let end = ends[j]
            var i = j - 1
            while i >= 0 {
                let start = ends[i]
                let contentEnd = flags.contentEnd(end, from: start)
                let used = prefix[contentEnd] - prefix[start]
                if used > width + Self.tolerance { break }  // longer lines from earlier starts only grow
                if best[i] < .infinity {
                    if j == count - 1 {
                        let orphan = i > 0 && isOneWord(start, contentEnd) ? orphanPenalty(width) : 0
                        if best[i] + orphan < finish { (finish, finishFrom) = (best[i] + orphan, i) }
                    } else {
                        let cost = best[i] + (width - used) * (width - used)
                        if cost < best[j] { (best[j], from[j]) = (cost, i) }
                    }
                }
                i -= 1
            }
        }
        guard finishFrom >= 0 else { return nil }
        var breaks = [count - 1]
        var at = finishFrom
        while at > 0 {
            breaks.append(at)
            at = from[at]
            if at < 0 { return nil }
        }
        breaks.append(0)
        breaks.reverse()
        return zip(breaks, breaks.dropFirst()).map { start, end in
            let (a, b) = (ends[start], ends[end])
            let hard = b == range.upperBound && b > a && flags[b - 1].contains(.hardBreak)
            return BrokenLine(range: a..<b, contentEnd: flags.contentEnd(b, from: a), hardBreak: hard, slot: slot)
        }
    }
}
