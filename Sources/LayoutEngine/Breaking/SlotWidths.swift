/// Widths that change from line to line, known before breaking: the slots a greedy pass of
/// text that flows gave a paragraph's lines, in order. Past the last, the last repeats.
struct SlotWidths: LineWidths {
    let widths: [Double]
    /// The index of this provider's line 0 in `widths`: a run after a mandatory break goes on
    /// from the lines before it.
    var first = 0

    init(_ widths: [Double], first: Int = 0) {
        precondition(!widths.isEmpty, "a line needs a width")
        self.widths = widths
        self.first = first
    }

    func width(_ line: Int) -> Double { widths[min(first + line, widths.count - 1)] }
    func slot(line: Int, top: Double) -> LineSlot { LineSlot(start: 0, width: width(line)) }
    var dependsOnTop: Bool { false }

    /// The same lines from line `line` on.
    func from(_ line: Int) -> SlotWidths { SlotWidths(widths, first: first + line) }

    /// The widest of the first `count` lines.
    func widest(_ count: Int) -> Double { (0..<max(count, 1)).reduce(0) { max($0, width($1)) } }
}

/// Each line of `widths` scaled by one factor: balanced breaking over widths that vary.
private struct ScaledWidths: LineWidths {
    let widths: SlotWidths
    let factor: Double
    func slot(line: Int, top: Double) -> LineSlot { LineSlot(start: 0, width: widths.width(line) * factor) }
    var dependsOnTop: Bool { false }
}

extension LineBreaker {
    /// The lines of `range` by `strategy`, line `i` within `widths.width(i)`: text that flows,
    /// where a greedy pass met each line's slot. Balanced and total fit keep greedy's line count
    /// over these widths, so every line they choose has a slot that pass met (the slots past
    /// them wait on where the lines fall). Each run between mandatory breaks is broken on its
    /// own, its lines numbered on from the runs before; a paragraph with tabs breaks greedily.
    /// A line's `slot` here is only what it was measured against: `ParagraphLines` gives each
    /// line handed out its real slot. One width for every line is
    /// `breakLines(in:slot:strategy:budget:)`.
    func breakLines(in range: Range<Int>, widths: SlotWidths, strategy: BreakStrategy,
                    budget: WorkBudget) throws(LayoutError) -> [BrokenLine] {
        let strategy = applicable(strategy)
        return try breakRuns(in: range, budget: budget) { (run, linesBefore) throws(LayoutError) in
            let widths = widths.from(linesBefore)
            var greedy: [BrokenLine] = []
            breakLines(in: run, widths: widths, into: &greedy)
            switch strategy {
            case .greedy: return greedy
            case .balanced: return try balanced(run, widths: widths, greedy: greedy, budget: budget)
            case .optimal:
                return greedy.count > 1 ? try optimal(run, widths: widths, lineCount: greedy.count, budget: budget) ?? greedy : greedy
            }
        }
    }

    /// The smallest factor of every line's width that still breaks `range` into as many lines
    /// as greedy does, by bisection to half a point on the widest line, and greedy at it: each
    /// line as full of its own slot as the others (with one width, balanced's own answer).
    private func balanced(_ range: Range<Int>, widths: SlotWidths, greedy: [BrokenLine],
                          budget: WorkBudget) throws(LayoutError) -> [BrokenLine] {
        guard greedy.count > 1 else { return greedy }
        let content = greedy.reduce(0.0) { $0 + prefix[$1.contentEnd] - prefix[$1.range.lowerBound] }
        let total = (0..<greedy.count).reduce(0.0) { $0 + widths.width($1) }
        let widest = widths.widest(greedy.count)
        guard total > 0, widest > 0 else { return greedy }
        // No factor below the content over the widths' sum can hold it in as many lines.
        var low = content / total - Self.tolerance, high = 1.0
        var best = greedy
        while (high - low) * widest > 0.5 {
            try budget.check()
            let middle = (low + high) / 2
            var trial: [BrokenLine] = []
            breakLines(in: range, widths: ScaledWidths(widths: widths, factor: middle), into: &trial)
            if trial.count <= greedy.count {
                high = middle
                best = trial
            } else {
                low = middle
            }
        }
        return best
    }

    /// Total fit over line-dependent widths in exactly `lineCount` lines, greedy's count and the
    /// fewest any choice has (`TotalFit+Lines`); nil when no choice fits (greedy breaks it).
    private func optimal(_ range: Range<Int>, widths: SlotWidths, lineCount: Int,
                         budget: WorkBudget) throws(LayoutError) -> [BrokenLine]? {
        let widest = widths.widest(lineCount)
        let fit = TotalFit(flags: flags, prefix: prefix, range: range, width: widest, points: hyphens,
                           hyphenPenalty: hyphenPenalty(widest), orphanPenalty: orphanPenalty(widest))
        guard let breaks = try fit.breaks(widths: widths.width, lineCount: lineCount, budget: budget) else { return nil }
        return lines(of: fit, breaks: breaks, range: range, slot: LineSlot(start: 0, width: widest))
    }

    /// True when `line` fits `width`, as breaking measured it: a unit hanging past its end
    /// (hanging punctuation) takes no room.
    func fits(_ line: BrokenLine, _ width: Double) -> Bool {
        var used = usedWidth(line)
        if let endHangers, line.contentEnd > line.range.lowerBound, endHangers[line.contentEnd - 1] {
            used -= prefix[line.contentEnd] - prefix[line.contentEnd - 1]
        }
        return used <= width + Self.tolerance
    }

    /// The width `line` takes: its content and, when hyphenated, its hyphen. (A line's tabs
    /// are not counted: a paragraph with tabs breaks greedily.)
    func usedWidth(_ line: BrokenLine) -> Double {
        var used = prefix[line.contentEnd] - prefix[line.range.lowerBound]
        if line.hyphenated, let hyphens {
            let point = hyphens.index(atOrAfter: line.range.upperBound)
            if point < hyphens.offsets.count { used += hyphens.widths[point] }
        }
        return used
    }
}
