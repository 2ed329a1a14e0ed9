/// One paragraph's lines as a stream, as parley's `BreakLines` yields them: asked for a line
/// in a slot, it breaks the text where the paragraph has got to, and a line taken moves it on.
/// Every layout takes its lines from these: a plain box asks for one slot under another,
/// text that flows for each free interval of a band, and vertical text does either in its
/// lines' frame. What the loops around it decide is only where each line sits.
///
/// Greedy breaking breaks each line as it is asked for. Balanced and total-fit breaking choose
/// the paragraph's lines together at its first line, in the narrower of the first line's and
/// the other lines' indented widths, and hand them out. Text that flows chooses them over the
/// slots a greedy pass met (`handOut`); a line handed out that does not fit the slot it is
/// asked for (the text fell otherwise than in that pass) is broken greedily there.
struct ParagraphLines {
    let paragraph: ParagraphPositioner
    /// The paragraph's breaker, with its hyphen points and tabs: made once, used line by line.
    let breaker: LineBreaker
    /// The paragraph's length: the stream ends there.
    let count: Int
    /// Read once from the request's settings.
    private var strategy: BreakStrategy
    private let indents: Bool
    /// What taking a line changes. Text that flows tries a band again at another height: it
    /// keeps the position from before the band and puts it back.
    struct Position: Equatable {
        /// Where the next line starts, in the paragraph's offsets.
        var offset = 0
        /// How many lines just before it ended with a hyphen (`max_consecutive_lines`).
        var hyphenatedInRow = 0
    }
    var position = Position()
    /// Balanced and total fit: the paragraph's lines, chosen at its first line.
    private var chosen: [BrokenLine]?
    /// The chosen lines came from `handOut`: each is checked against its real slot.
    private var handedOut = false

    /// The lines of `paragraph` broken by `strategy`; `indents` says whether the request sets
    /// any (both from the request's settings: `TextPositioner.lines(of:)`).
    /// `breaker`, when given, is the paragraph's own, made before (`paragraph.breaker()`).
    init(_ paragraph: ParagraphPositioner, breaker: LineBreaker? = nil, strategy: BreakStrategy, indents: Bool) {
        self.paragraph = paragraph
        self.breaker = breaker ?? paragraph.breaker()
        count = paragraph.shaped.unitCount
        self.strategy = strategy
        self.indents = indents
    }

    var offset: Int { position.offset }
    var isAtEnd: Bool { position.offset >= count }
    var rightToLeft: Bool { paragraph.shaped.baseLevel & 1 == 1 }

    /// `slot` less the paragraph's indents for the next line (its first line has its own).
    func indented(_ slot: LineSlot) -> LineSlot {
        guard indents else { return slot }
        return paragraph.settings.paragraphStyle.indented(slot, firstLine: position.offset == 0, rightToLeft: rightToLeft)
    }

    /// The next line, broken to fit `slot` (the paragraph's indents are taken off it here); not
    /// taken until `take` is called with it.
    mutating func line(in slot: LineSlot, budget: WorkBudget) throws(LayoutError) -> BrokenLine {
        if strategy != .greedy && chosen == nil { chosen = try choose(slot, budget: budget) }
        let indented = indented(slot)
        var broken: BrokenLine
        if let chosen = chosenLine(at: position.offset), !handedOut || breaker.fits(chosen, indented.width) {
            broken = chosen
        } else {
            broken = breaker.line(from: position.offset, limit: count, slot: indented, hyphenatedBefore: position.hyphenatedInRow)
        }
        broken.slot = indented
        broken.hasTabs = breaker.tabs != nil
        return broken
    }

    /// Text that flows: hands out `lines`, chosen over the slots a greedy pass met, in place of
    /// choosing at the first line; nil breaks greedily (that pass itself).
    mutating func handOut(_ lines: [BrokenLine]?) {
        strategy = .greedy
        chosen = lines
        handedOut = true
    }

    /// Takes `broken` (from `line(in:)`): its pieces and metrics planned, the stream after it.
    mutating func take(_ broken: BrokenLine) -> ParagraphPositioner.PlannedLine {
        position.hyphenatedInRow = broken.hyphenated ? position.hyphenatedInRow + 1 : 0
        position.offset = broken.range.upperBound
        return paragraph.plan(broken)
    }

    /// The paragraph's lines chosen together, in the narrower of its first and other lines'
    /// indented widths of `slot`.
    private func choose(_ slot: LineSlot, budget: WorkBudget) throws(LayoutError) -> [BrokenLine] {
        let style = paragraph.settings.paragraphStyle
        let narrowest = min(style.indented(slot, firstLine: true, rightToLeft: rightToLeft).width,
                            style.indented(slot, firstLine: false, rightToLeft: rightToLeft).width)
        return try breaker.breakLines(in: 0..<count, slot: LineSlot(start: 0, width: narrowest), strategy: strategy, budget: budget)
    }

    /// The chosen line that starts at `offset`, found by bisection (the lines are in order);
    /// nil without chosen lines, or where none starts there.
    private func chosenLine(at offset: Int) -> BrokenLine? {
        guard let chosen else { return nil }
        let index = ShapedParagraph.firstIndex(chosen.count) { chosen[$0].range.lowerBound >= offset }
        guard index < chosen.count, chosen[index].range.lowerBound == offset else { return nil }
        return chosen[index]
    }
}
