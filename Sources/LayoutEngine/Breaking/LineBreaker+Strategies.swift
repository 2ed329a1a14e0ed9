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
    /// The budget is checked between runs, between balanced's trials and inside total fit.
    func breakLines(in range: Range<Int>, slot: LineSlot, strategy: BreakStrategy,
                    budget: WorkBudget = .unlimited) throws(LayoutError) -> [BrokenLine] {
        let strategy = applicable(strategy)
        return try breakRuns(in: range, budget: budget) { (run, _) throws(LayoutError) in
            let greedy = breakLines(in: run, width: slot.width)
            switch strategy {
            case .greedy: return greedy
            case .balanced: return try balanced(run, slot: slot, greedy: greedy, budget: budget)
            case .optimal: return greedy.count > 1 ? try optimal(run, slot: slot, budget: budget) ?? greedy : greedy  // one line is already the best
            }
        }
    }

    /// `strategy`, or greedy for a paragraph with tabs: a tab's width depends on where its line
    /// starts, which only a line-by-line pass knows.
    func applicable(_ strategy: BreakStrategy) -> BreakStrategy { tabs == nil ? strategy : .greedy }

    /// The lines of each run of `range` between mandatory breaks, broken on its own by
    /// `breakRun` (given the run and how many lines came before it), in order. The budget is
    /// checked before each run.
    func breakRuns(in range: Range<Int>, budget: WorkBudget,
                   _ breakRun: (Range<Int>, Int) throws(LayoutError) -> [BrokenLine]) throws(LayoutError) -> [BrokenLine] {
        var lines: [BrokenLine] = []
        var start = range.lowerBound
        while start < range.upperBound {
            try budget.check()
            var end = start + 1
            while end < range.upperBound && !flags[end].contains(.mustBreakBefore) { end += 1 }
            lines += try breakRun(start..<end, lines.count)
            start = end
        }
        return lines
    }

    /// The narrowest width that still breaks `range` into as many lines as greedy does, found
    /// by bisection (greedy's line count only grows as the width shrinks), and greedy at it.
    /// No width below the text's content over the line count can hold it in that many lines,
    /// so the search starts there; half a point is as close as a reader can see.
    private func balanced(_ range: Range<Int>, slot: LineSlot, greedy: [BrokenLine], budget: WorkBudget) throws(LayoutError) -> [BrokenLine] {
        guard greedy.count > 1 else { return greedy }
        let content = greedy.reduce(0.0) { $0 + prefix[$1.contentEnd] - prefix[$1.range.lowerBound] }
        var low = content / Double(greedy.count) - Self.tolerance, high = slot.width
        var best = greedy
        while high - low > 0.5 {
            try budget.check()
            let middle = (low + high) / 2
            let trial = breakLines(in: range, width: middle)
            if trial.count <= greedy.count {
                high = middle
                best = trial
            } else {
                low = middle
            }
        }
        return best.map { var line = $0; line.slot = slot; return line }
    }

    /// What a choice of lines costs: the squared slack of every line but the last (a hyphen's
    /// width counted, and `hyphenPenalty` for each hyphen), and a word alone on a last line that
    /// is not the only one (`orphanPenalty`). Lines wider than the
    /// width cost `overfull` each. Greedy's lines are one choice among those total fit weighs.
    func badness(of lines: [BrokenLine], width: Double) -> Double {
        var total = 0.0
        for (index, line) in lines.enumerated() {
            let used = usedWidth(line)
            if line.hyphenated && hyphens != nil { total += hyphenPenalty(width) }
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

    /// Total fit over the break opportunities and hyphen points of `range` (no mandatory break
    /// inside it), as `TotalFit` weighs them; nil when no choice fits (a word wider than the
    /// width): greedy breaks it.
    private func optimal(_ range: Range<Int>, slot: LineSlot, budget: WorkBudget) throws(LayoutError) -> [BrokenLine]? {
        let fit = TotalFit(flags: flags, prefix: prefix, range: range, width: slot.width, points: hyphens,
                           hyphenPenalty: hyphenPenalty(slot.width), orphanPenalty: orphanPenalty(slot.width))
        guard let breaks = try fit.breaks(budget: budget) else { return nil }
        return lines(of: fit, breaks: breaks, range: range, slot: slot)
    }

    /// The lines between the candidates total fit chose.
    func lines(of fit: TotalFit, breaks: [Int], range: Range<Int>, slot: LineSlot) -> [BrokenLine] {
        zip(breaks, breaks.dropFirst()).map { start, end in
            let (a, b) = (fit.ends[start], fit.ends[end])
            let hard = b == range.upperBound && b > a && flags[b - 1].contains(.hardBreak)
            let hyphenated = fit.hyphens[end] != nil
            var line = BrokenLine(range: a..<b, contentEnd: hyphenated ? b : flags.contentEnd(b, from: a), hardBreak: hard, slot: slot)
            line.hyphenated = hyphenated
            return line
        }
    }

    /// What ending a line with a hyphen costs beside its slack: a tenth of the width's slack,
    /// squared. A hyphen is worth it where it saves more than that (TeX's \hyphenpenalty plays
    /// this part), so total fit hyphenates ragged lines and leaves even ones whole.
    func hyphenPenalty(_ width: Double) -> Double { (width / 10) * (width / 10) }
}

extension LineBreaker {
    /// True when `line` ends inside a word: the breaker found no opportunity that fit its slot
    /// and cut where the slot ended (not at a hyphen it chose, not at a hard break).
    func cutsWord(_ line: BrokenLine) -> Bool {
        let end = line.range.upperBound
        return end < flags.count && !line.hardBreak && !line.hyphenated && !flags[end].contains(.breakBefore)
    }
}
