/// Total fit (Knuth–Plass without stretch, minikin's `OptimalLineBreaker`) over one run of text
/// with no mandatory break: the lines that leave the least squared slack over all lines but the
/// last, a hyphen costing `hyphenPenalty`, a word alone on the last line `orphanPenalty`, and no
/// more hyphenated lines in a row than the limit.
///
/// Two ways to the same answer. The general one (`byWindows`) weighs, for each place a line may
/// end, every start whose line fits: its work per line grows with the candidates a line can hold,
/// so a box wide enough for thousands of words made it quadratic in the text. Where a line's cost
/// depends only on its content width, through a convex function (squared slack, infinite past
/// the width), the costs form a Monge array and the best start for each end moves forward with
/// the end: a queue of starts, each owning the ends where it is best, gives every answer in
/// O(n log n) (`byQueues`; the least-weight-subsequence method of Hirschberg and Larmore, as
/// Eppstein, Galil and Giancarlo survey it). That holds when the content widths of the ends never
/// fall from one end to the next of its kind (plain ends, hyphen ends): negative letter spacing
/// or a hyphen wider than the text after it breaks that, and the general way answers instead,
/// under the request's budget. A test holds the two equal.
struct TotalFit {
    let flags: ContiguousArray<UnitFlags>
    let prefix: [Double]
    let width: Double
    /// Where a line may end, ascending: the range's start, its opportunities and hyphen points, its end.
    var ends: [Int] = []
    /// The hyphen's width where a line ending there gets one; nil for a plain break.
    var hyphens: [Double?] = []
    /// The end of each candidate's text without hanging whitespace (the candidate itself for a hyphen).
    var contentEnds: [Int] = []
    /// Hyphenated lines in a row at most, 0 for none; no more than there are hyphen points
    /// (a larger limit can never bind, and each step of it costs a state per hyphen point).
    var limit = 0
    let hyphenPenalty: Double
    let orphanPenalty: Double

    /// The candidates of `range` (no mandatory break inside it) with `points` as hyphen points.
    init(flags: ContiguousArray<UnitFlags>, prefix: [Double], range: Range<Int>, width: Double, points: HyphenPoints?,
         hyphenPenalty: Double, orphanPenalty: Double) {
        self.flags = flags
        self.prefix = prefix
        self.width = width
        self.hyphenPenalty = hyphenPenalty
        self.orphanPenalty = orphanPenalty
        ends.append(range.lowerBound)
        hyphens.append(nil)
        var point = points.map { $0.index(atOrAfter: range.lowerBound + 1) } ?? Int.max
        var hyphenCount = 0
        for i in (range.lowerBound + 1)..<max(range.lowerBound + 1, range.upperBound) {
            if let points, point < points.offsets.count, points.offsets[point] == i {
                ends.append(i)
                hyphens.append(points.widths[point])
                point += 1
                hyphenCount += 1
            } else if flags[i].contains(.breakBefore) {
                ends.append(i)
                hyphens.append(nil)
            }
        }
        ends.append(range.upperBound)
        hyphens.append(nil)
        contentEnds = zip(ends, hyphens).map { end, hyphen in hyphen == nil ? flags.contentEnd(end, from: 0) : end }
        let asked = points?.maxConsecutive ?? 0
        limit = asked > 0 && asked < hyphenCount ? asked : 0
    }

    /// What the line from candidate `i` to candidate `j` takes: its content and its hyphen.
    @inline(__always)
    func used(_ i: Int, _ j: Int) -> Double {
        let start = ends[i]
        return prefix[max(contentEnds[j], start)] - prefix[start] + (hyphens[j] ?? 0)
    }

    /// The line's squared slack, infinite when it does not fit (its hyphen's penalty aside).
    @inline(__always)
    func slack(_ i: Int, _ j: Int) -> Double {
        let used = used(i, j)
        return used > width + LineBreaker.tolerance ? .infinity : (width - used) * (width - used)
    }

    /// Hyphenated lines in a row, 1 up to the limit, each a state of a hyphen candidate; a plain
    /// candidate has one state (none in a row), and so has every candidate without a limit.
    func stateCount(_ j: Int) -> Int { hyphens[j] != nil && limit > 0 ? limit : 1 }

    /// True when the line from candidate `i` to the range's end would hold one word alone.
    /// Every start that fits the last line shares its content end, so the last opportunity
    /// before that end decides it for all of them.
    func orphanTest() -> (Int) -> Bool {
        let last = ends.count - 1
        let contentEnd = contentEnds[last]
        var lastBreak = contentEnd - 1
        while lastBreak > ends[0] && !flags[lastBreak].contains(.breakBefore) { lastBreak -= 1 }
        return { [ends] i in i > 0 && (ends[i] >= contentEnd || lastBreak <= ends[i]) }
    }

    /// True when the fast way gives total fit's answer: see the type's comment.
    var monotone: Bool {
        var lastPlain = -Double.infinity, lastHyphen = -Double.infinity
        for j in 1..<ends.count {
            if prefix[ends[j]] < prefix[ends[j - 1]] { return false }
            if let hyphen = hyphens[j] {
                let q = prefix[ends[j]] + hyphen
                if q < lastHyphen { return false }
                lastHyphen = q
            } else {
                // A line of hanging whitespace alone would clamp its content width at zero.
                if contentEnds[j] < ends[j - 1] { return false }
                let q = prefix[contentEnds[j]]
                if q < lastPlain { return false }
                lastPlain = q
            }
        }
        return true
    }

    /// The candidates (indices into `ends`) that end the chosen lines, from 0 to the last; nil
    /// when no choice fits (a word wider than the width).
    func breaks(budget: WorkBudget) throws(LayoutError) -> [Int]? {
        guard ends.count > 2 else { return nil }
        return monotone ? try byQueues(budget: budget) : try byWindows(budget: budget)
    }
}
