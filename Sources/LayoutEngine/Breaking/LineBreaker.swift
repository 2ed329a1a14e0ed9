/// A line as the break stage decides it, before positioning.
struct BrokenLine: Equatable {
    var range: Range<Int>
    /// End of the text without trailing whitespace (hanging spaces and the hard break).
    var contentEnd: Int
    var hardBreak: Bool
    /// Where the line may sit, as the width provider gave it.
    var slot: LineSlot
    /// It ends inside a word, at a hyphenation point or a soft hyphen: a hyphen is drawn after it.
    var hyphenated = false
    /// Its paragraph has tabs: placing the line moves the pen to the tab stops.
    var hasTabs = false
}

/// Breaks text into lines first-fit, as CoreText and TextKit do: each line takes as much text
/// as fits, ending at the last UAX #14 opportunity. Trailing whitespace hangs (CSS Text §4.1.3)
/// and is not measured. A word wider than the line is broken at the last grapheme boundary
/// that fits, and a line always takes at least one grapheme so breaking always advances.
struct LineBreaker {
    let flags: ContiguousArray<UnitFlags>
    /// prefix[i] is the advance of units 0..<i, in points.
    let prefix: [Double]
    /// What few paragraphs need (hyphens, tabs, hanging punctuation), boxed: a breaker is made
    /// for every paragraph, and nil here keeps it three words and its lines on the plain loop.
    private var extras: BreakExtras? = nil
    /// The text has no mandatory break and `prefix` never falls: a line's end is then found
    /// by bisection and a walk back to its last opportunity, not by a walk over every unit
    /// (`bisectedLine`). False unless the caller knows both.
    var bisects: Bool

    init(flags: ContiguousArray<UnitFlags>, prefix: [Double], bisects: Bool = false) {
        self.flags = flags
        self.prefix = prefix
        self.bisects = bisects
    }

    /// Where a line may end with a hyphen; nil when the paragraph has none (no soft hyphen and
    /// no hyphenation asked for). A soft hyphen's break is taken only as one of these.
    var hyphens: HyphenPoints? {
        get { extras?.hyphens }
        set { changeExtras { $0.hyphens = newValue } }
    }
    /// Hyphenation found word by word as greedy breaking needs it (nil: none, or all of it in
    /// `hyphens`, as balanced and total fit need).
    var wordHyphens: WordHyphens? {
        get { extras?.wordHyphens }
        set { changeExtras { $0.wordHyphens = newValue } }
    }
    /// The paragraph's tabs and their stops; nil when it has none. A line is measured with each
    /// tab taking the pen to its stop as a start-aligned stop would: the most any alignment
    /// takes, so a line never overflows (end, centre and decimal stops can leave room unused).
    var tabs: (offsets: [Int], stops: TabStops)? {
        get { extras?.tabs }
        set { changeExtras { $0.tabs = newValue } }
    }
    /// With hanging punctuation, the units that may hang past a line's end: one that ends a line
    /// takes no room in it.
    var endHangers: [Bool]? {
        get { extras?.endHangers }
        set { changeExtras { $0.endHangers = newValue } }
    }

    /// A new box for every change: copies of a breaker never share one they could alter.
    private mutating func changeExtras(_ change: (BreakExtras) -> Void) {
        let box = BreakExtras(copying: extras)
        change(box)
        extras = box
    }

    /// Measurements within this much of the width count as fitting: float noise, not overflow.
    static let tolerance = 1e-6

    func breakLines(in range: Range<Int>, width: Double) -> [BrokenLine] {
        var lines: [BrokenLine] = []
        breakLines(in: range, widths: FixedWidth(width: width), into: &lines)
        return lines
    }

    /// Appends the lines of `range` to `lines`, each within the slot `widths` gives its index.
    /// A provider whose slots depend on a line's top needs the lines' heights, which only
    /// positioning knows: `ParagraphPositioner.run(widths:)` breaks line by line with it.
    func breakLines(in range: Range<Int>, widths: some LineWidths, into lines: inout [BrokenLine]) {
        precondition(!widths.dependsOnTop, "a top-dependent provider breaks through the positioner")
        // Room for the lines the first width suggests, so the array rarely grows.
        let first = widths.slot(line: lines.count, top: 0)
        let estimate = (prefix[range.upperBound] - prefix[range.lowerBound]) / max(first.width, 1)
        lines.reserveCapacity(lines.count + Int(saturating: min(estimate, 1_000)) + 2)
        var start = range.lowerBound
        var slot = first
        var hyphenatedInRow = 0
        while start < range.upperBound {
            let line = line(from: start, limit: range.upperBound, slot: slot, hyphenatedBefore: hyphenatedInRow)
            lines.append(line)
            hyphenatedInRow = line.hyphenated ? hyphenatedInRow + 1 : 0
            start = line.range.upperBound
            slot = widths.slot(line: lines.count, top: 0)
        }
    }

    /// The line that starts at `start`: as much of the text before `limit` as fits `slot`.
    /// It may end at a hyphen point, with the hyphen fitting too, unless `hyphenatedBefore`
    /// lines in a row already did and the points' limit says no more.
    func line(from start: Int, limit: Int, slot: LineSlot, hyphenatedBefore: Int = 0) -> BrokenLine {
        if extras != nil { return specialLine(from: start, limit: limit, slot: slot, hyphenatedBefore: hyphenatedBefore) }
        let maxRight = prefix[start] + slot.width + Self.tolerance
        if bisects { return bisectedLine(from: start, limit: limit, slot: slot, maxRight: maxRight) }
        var lastBreak = -1
        var i = start
        while i < limit {
            let f = flags[i]
            if i > start && f.contains(.breakBefore) {
                if f.contains(.mustBreakBefore) { return line(start, i, hard: true, slot) }
                lastBreak = i
            }
            if !f.contains(.hangingSpace) && prefix[i + 1] > maxRight {
                if lastBreak > start { return line(start, lastBreak, hard: false, slot) }
                return line(start, emergencyEnd(start: start, overflowAt: i, limit: limit), hard: false, slot)
            }
            i += 1
        }
        return line(start, limit, hard: limit > start && flags[limit - 1].contains(.hardBreak), slot)
    }

    /// The plain loop's line, found without visiting every unit; only where `bisects` holds.
    /// The loop stops at the first unit that is not a hanging space and ends past the width,
    /// and ends the line at the last opportunity up to it. With a prefix that never falls, every
    /// unit from the first ending past the width on does too: a search finds that one, hanging
    /// spaces are stepped over, and the opportunity is the nearest one back from there. With no
    /// mandatory break in the text, the loop's other exit never happens.
    private func bisectedLine(from start: Int, limit: Int, slot: LineSlot, maxRight: Double) -> BrokenLine {
        // Galloping from the line's start (4, 8, 16… units on), then bisecting the last stride:
        // a line ends a few dozen units on, and a slot too narrow for anything (text beside an
        // exclusion tries many) overflows within the first stride, where bisecting the rest of a
        // long paragraph took 17 steps (the hostile table's narrow box grew slower).
        var low = start, high = limit, step = 4
        while low < high {
            let probe = min(low + step, high) - 1
            if prefix[probe + 1] > maxRight {
                high = probe + 1
                break
            }
            low = probe + 1
            step &*= 2
        }
        let past = low + ShapedParagraph.firstIndex(high - low) { prefix[low + $0 + 1] > maxRight }
        var overflow = past
        // Wrapping steps: each walk stays between `start` and `limit` (checked, the steps cost a
        // test and a branch a unit, on every line).
        while overflow < limit && flags[overflow].contains(.hangingSpace) { overflow &+= 1 }
        guard overflow < limit else { return line(start, limit, hard: limit > start && flags[limit - 1].contains(.hardBreak), slot) }
        var lastBreak = overflow
        while lastBreak > start && !flags[lastBreak].contains(.breakBefore) { lastBreak &-= 1 }
        if lastBreak > start { return line(start, lastBreak, hard: false, slot) }
        return line(start, emergencyEnd(start: start, overflowAt: overflow, limit: limit), hard: false, slot)
    }

    /// The same with hyphen points (a point is a break only with its hyphen, which must fit)
    /// and tabs (each moving the pen to its stop). Apart from the plain loop above, which nearly
    /// every paragraph takes.
    private func specialLine(from start: Int, limit: Int, slot: LineSlot, hyphenatedBefore: Int) -> BrokenLine {
        var lastBreak = -1, lastHyphen = -1
        var i = start
        let maxRight = prefix[start] + slot.width + Self.tolerance
        let points = hyphens?.offsets ?? [], hyphenWidths = hyphens?.widths ?? []
        var point = hyphens?.index(atOrAfter: start + 1) ?? 0
        let limitInRow = wordHyphens?.maxConsecutive ?? hyphens?.maxConsecutive ?? 0
        let mayHyphenate = (hyphens != nil || wordHyphens != nil) && (limitInRow == 0 || hyphenatedBefore < limitInRow)
        let tabOffsets = tabs?.offsets ?? []
        var tab = ShapedParagraph.firstIndex(tabOffsets.count) { tabOffsets[$0] >= start }
        // What the tabs so far add to the shaped advances.
        var extra = 0.0
        while i < limit {
            let f = flags[i]
            if tab < tabOffsets.count && tabOffsets[tab] == i, let stops = tabs?.stops {
                let pen = slot.leadingIndent + prefix[i] - prefix[start] + extra
                extra += stops.stop(after: pen).location - pen - (prefix[i + 1] - prefix[i])
                tab += 1
            }
            if point < points.count && points[point] == i {
                if mayHyphenate && prefix[i] + extra + hyphenWidths[point] <= maxRight { lastHyphen = i }
                point += 1
            } else if i > start && f.contains(.breakBefore) {
                if f.contains(.mustBreakBefore) { return line(start, i, hard: true, slot) }
                lastBreak = i
            }
            if !f.contains(.hangingSpace) && prefix[i + 1] + extra > maxRight && !hangsAtEnd(i, limit: limit) {
                if mayHyphenate, let wordHyphens {
                    // The word that overflows, from the last break to the next: its points, now.
                    // (Whole, though the line may start inside it, after a hyphen.)
                    let wordStart = max(lastBreak, start)
                    var wholeStart = wordStart
                    while wholeStart > 0 && !flags[wholeStart].contains(.breakBefore) { wholeStart -= 1 }
                    var wordEnd = i + 1
                    while wordEnd < flags.count && !flags[wordEnd].contains(.breakBefore) { wordEnd += 1 }
                    for point in wordHyphens.points(wholeStart..<wordEnd).reversed()
                    where point.offset > wordStart && point.offset <= i && prefix[point.offset] + extra + point.width <= maxRight {
                        lastHyphen = max(lastHyphen, point.offset)
                        break
                    }
                }
                if lastHyphen > lastBreak {
                    var hyphenated = line(start, lastHyphen, hard: false, slot)
                    hyphenated.hyphenated = true
                    return hyphenated
                }
                if lastBreak > start { return line(start, lastBreak, hard: false, slot) }
                return line(start, emergencyEnd(start: start, overflowAt: i, limit: limit), hard: false, slot)
            }
            i += 1
        }
        return line(start, limit, hard: limit > start && flags[limit - 1].contains(.hardBreak), slot)
    }

    /// True when unit `i` may hang past the line's end and would end it: a line may break after
    /// it (or the text ends there).
    private func hangsAtEnd(_ i: Int, limit: Int) -> Bool {
        guard let endHangers, endHangers[i] else { return false }
        return i + 1 == limit || flags[i + 1].contains(.breakBefore) || flags[i + 1].contains(.hangingSpace)
    }

    /// The grapheme boundary before the overflowing unit, or after the first grapheme.
    private func emergencyEnd(start: Int, overflowAt index: Int, limit: Int) -> Int {
        var g = index
        while g > start && !flags[g].contains(.graphemeStart) { g -= 1 }
        if g > start { return g }
        var next = start + 1
        while next < limit && !flags[next].contains(.graphemeStart) { next += 1 }
        return next
    }

    private func line(_ start: Int, _ end: Int, hard: Bool, _ slot: LineSlot) -> BrokenLine {
        BrokenLine(range: start..<end, contentEnd: flags.contentEnd(end, from: start), hardBreak: hard, slot: slot)
    }
}

/// A breaker's rarely set parts (see `LineBreaker.extras`).
final class BreakExtras {
    var hyphens: HyphenPoints?
    var wordHyphens: WordHyphens?
    var tabs: (offsets: [Int], stops: TabStops)?
    var endHangers: [Bool]?

    init(copying other: BreakExtras?) {
        hyphens = other?.hyphens
        wordHyphens = other?.wordHyphens
        tabs = other?.tabs
        endHangers = other?.endHangers
    }
}
