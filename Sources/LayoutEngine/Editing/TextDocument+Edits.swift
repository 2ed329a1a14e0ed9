/// What an edit changed: paragraphs `first..<first + removed` of the document before it were
/// replaced by `first..<first + inserted` of the document after it, and everything after them
/// moved by the deltas (their lines and glyphs are the old ones, moved).
public struct DocumentChange: Sendable, Equatable {
    public var first: Int
    public var removed: Int
    public var inserted: Int
    /// How far the paragraphs after the inserted ones moved: down the page, along the text
    /// (UTF-16 units), and in line and attachment indices.
    public var deltaY: Double
    public var deltaOffset: Int
    public var deltaLines: Int
    public var deltaAttachments: Int
    /// Where the caret stands after the edit: after the inserted text, or at a styled range's end.
    public var caret: TextPosition
}

extension TextDocument {
    /// The change that makes the document from nothing: every paragraph inserted.
    public var openingChange: DocumentChange {
        DocumentChange(first: 0, removed: 0, inserted: paragraphs.count, deltaY: 0, deltaOffset: 0, deltaLines: 0, deltaAttachments: 0,
                       caret: TextPosition(offset: 0))
    }

    /// Replaces `range` of the text with `inserted`, which brings one attachment per U+FFFC it
    /// holds. The client's spans keep their text: a span grows over text typed strictly inside
    /// it, and text typed at its edge is not in it. On any error the document is as it was.
    public func replace(_ range: Range<Int>, with inserted: ContiguousArray<UInt16>, attachments: [InlineAttachment] = [],
                        budget: WorkBudget = .unlimited) throws -> DocumentChange {
        try checkEdges(range, field: "range")
        try Self.checkLength(length - range.count + inserted.count, limit: layouter.maxTextLength)
        let holders = AttachmentResolver.objectReplacements(in: inserted)
        guard attachments.count == holders else {
            throw LayoutError(.invalidArgument, "the inserted text has \(holders) OBJECT REPLACEMENT CHARACTERs (U+FFFC) and the edit "
                              + "\(attachments.count) attachments: each needs one", field: "attachments")
        }
        let (first, last) = touched(range)
        let regionStart = start(of: first)
        var region = ContiguousArray<UInt16>()
        var spans: [AttributedText.Span] = []
        var regionAttachments: [InlineAttachment] = []
        if first == last {
            // One paragraph (a keystroke's): its own parts as they are, where the loop below
            // shifts them by nothing and appends them to empty arrays.
            let paragraph = paragraphs[first]
            (region, spans, regionAttachments) = (paragraph.units, paragraph.spans, paragraph.attachments)
        } else {
            for index in first...last {
                let shift = start(of: index) - regionStart
                region.append(contentsOf: paragraphs[index].units)
                spans += paragraphs[index].spans.map { AttributedText.Span(range: $0.range.shifted(by: shift), patch: $0.patch) }
                regionAttachments += paragraphs[index].attachments
            }
        }
        let local = (range.lowerBound - regionStart)..<(range.upperBound - regionStart)
        // The attachments before the range stay, the range's go, the edit's come, the rest stay.
        // Each U+FFFC of a document holds an attachment: a region with none has none to count.
        let (before, removedHolders) = regionAttachments.isEmpty ? (0, 0)
            : (AttachmentResolver.objectReplacements(in: region[..<local.lowerBound]), AttachmentResolver.objectReplacements(in: region[local]))
        try Bounds.check(count: offsets.last.attachment - removedHolders + holders, limit: AttachmentResolver.maxAttachments,
                         field: "attachments")
        regionAttachments.replaceSubrange(before..<(before + removedHolders), with: attachments)
        region.replaceSubrange(local, with: inserted)
        spans = spans.compactMap { $0.replacing(local, insertedCount: inserted.count) }
        try checkSpanCount(adding: spans.count - (first...last).reduce(0) { $0 + paragraphs[$1].spans.count })
        let isOneParagraph = Self.staysOneParagraph(paragraphs[first].units, editing: local, inserting: inserted, alone: first == last)
        var laid = try Self.layParagraphs(region, isOneParagraph: isOneParagraph,
                                          spans: spans, attachments: regionAttachments, firstIndex: first,
                                          flowStart: absoluteStart(of: first), displacement: top(of: first), settings: settings,
                                          layouter: layouter, budget: budget)
        let (lastReplaced, shift) = try relayFollowing(&laid, first: first, last: last, budget: budget)
        return commit(laid, replacing: first...lastReplaced, shift: shift, deltaOffset: inserted.count - range.count,
                      caret: TextPosition(offset: range.lowerBound + inserted.count))
    }

    /// True when replacing `range` of the one paragraph `units` with `inserted` leaves one
    /// paragraph (`alone`: the edit touches only it): the text typed holds no separator and the
    /// paragraph's own, at its end, is left whole. Asked so that a keystroke's paragraph is not
    /// scanned for separators again (`layParagraphs` asserts the answer in debug builds).
    static func staysOneParagraph(_ units: ContiguousArray<UInt16>, editing range: Range<Int>, inserting inserted: ContiguousArray<UInt16>,
                                  alone: Bool) -> Bool {
        guard alone, !inserted.contains(where: BidiResolver.isParagraphSeparator) else { return false }
        let endsWithSeparator = units.last.map(BidiResolver.isParagraphSeparator) ?? false
        let separatorStart = units.count - (endsWithSeparator ? LineBoxes.hardBreakLength(before: units.count, in: units) : 0)
        return range.upperBound <= separatorStart
    }

    /// Applies `patch` over `range` (a span added over each paragraph it crosses, after the
    /// spans there, so it wins). An empty range changes nothing.
    public func style(_ range: Range<Int>, patch: StylePatch, budget: WorkBudget = .unlimited) throws -> DocumentChange {
        try checkEdges(range, field: "range")
        if settings.isTypeMode, patch.size != nil {
            throw LayoutError(.invalidArgument, "a Type Mode line's size comes from the fit; a style sets no size", field: "size")
        }
        let caret = TextPosition(offset: range.upperBound)
        guard !range.isEmpty else {
            return DocumentChange(first: 0, removed: 0, inserted: 0, deltaY: 0, deltaOffset: 0, deltaLines: 0, deltaAttachments: 0,
                                  caret: caret)
        }
        let first = paragraphIndex(containing: range.lowerBound)
        let last = paragraphIndex(containing: range.upperBound - 1)
        try checkSpanCount(adding: last - first + 1)
        var laid: [DocumentParagraph] = []
        for index in first...last {
            try budget.check()
            let paragraph = paragraphs[index]
            let start = start(of: index)
            let low = max(range.lowerBound, start) - start, high = min(range.upperBound, self.start(of: index + 1)) - start
            let displacement = top(of: first)
            laid.append(try DocumentParagraph(units: paragraph.units, spans: paragraph.spans + [AttributedText.Span(range: low..<high, patch: patch)],
                                              attachments: paragraph.attachments, index: index,
                                              flowStart: laid.last?.flowEnd?.moved(down: displacement) ?? absoluteStart(of: first),
                                              displacement: displacement, settings: settings, layouter: layouter, budget: budget))
        }
        let (lastReplaced, shift) = try relayFollowing(&laid, first: first, last: last, budget: budget)
        return commit(laid, replacing: first...lastReplaced, shift: shift, deltaOffset: 0, caret: caret)
    }

    /// Where paragraph `index` starts in text that flows, in the document's coordinates.
    func absoluteStart(of index: Int) -> FlowStart? {
        paragraphs[index].flowStart?.moved(down: top(of: index))
    }

    /// After `laid` replaced paragraphs `first...last`, the paragraphs after them laid out again
    /// while they must be: in a numbered list after a split or a join (every later item's number
    /// changed), and in text that flows until one would start where it started before (from
    /// there every line is where it was: the lines line up again) or, in the last container
    /// below its last exclusion, only lower or higher (from there every line is the same, moved:
    /// the document moves them by `shift`, as it moves the paragraphs of a plain box). Returns
    /// the last paragraph of the old list that `laid` now replaces, and that shift.
    private func relayFollowing(_ laid: inout [DocumentParagraph], first: Int, last: Int,
                                budget: WorkBudget) throws -> (last: Int, shift: Double) {
        let renumber = settings.numbersParagraphs && laid.count != last - first + 1
        let displacement = top(of: first)
        var next = last + 1
        while next < paragraphs.count {
            // Where paragraph `next` would start now, and where it started before.
            let start = laid.last?.flowEnd?.moved(down: displacement), before = absoluteStart(of: next)
            let startsElsewhere = settings.flows && start != before
            if startsElsewhere && !renumber, let shift = uniformShift(from: before, to: start) { return (next - 1, shift) }
            guard renumber || startsElsewhere else { break }
            try budget.check()
            let paragraph = paragraphs[next]
            // Text that flows keeps its shaped paragraphs: one that only starts elsewhere is
            // broken and positioned again, not analyzed and shaped again.
            if let moved = try DocumentParagraph(moving: paragraph, to: start, index: first + laid.count, displacement: displacement,
                                                 layouter: layouter, budget: budget) {
                laid.append(moved)
            } else {
                laid.append(try DocumentParagraph(units: paragraph.units, spans: paragraph.spans, attachments: paragraph.attachments,
                                                  index: first + laid.count, flowStart: start, displacement: displacement,
                                                  settings: settings, layouter: layouter, budget: budget))
            }
            next += 1
        }
        return (next - 1, 0)
    }

    /// How far text starting at `old` moves when it starts at `new` instead, if that is all that
    /// changes: both in the last container, below the top where its bands are all alike.
    private func uniformShift(from old: FlowStart?, to new: FlowStart?) -> Double? {
        guard let uniformBelow, let old, let new, let oldTop = old.top, let newTop = new.top,
              let last = settings.request.flow?.containers.indices.last,
              old.container == last, new.container == last, oldTop >= uniformBelow, newTop >= uniformBelow else { return nil }
        return newTop - oldTop
    }

    /// How many UTF-16 units replacing `range` with `inserted` would lay out again, at most:
    /// the touched paragraphs' and the new text's, and everything after them in text that flows
    /// (a paragraph of new height moves the ones below) and in a numbered list when the edit
    /// may split or join paragraphs (0 for a range outside the text, which is refused at
    /// once). What an edit costs, known before it runs.
    public func relayoutUnits(replacing range: Range<Int>, inserted: String.UTF16View) -> Int {
        relayoutUnits(range, inserted)
    }

    public func relayoutUnits(replacing range: Range<Int>, inserted: ContiguousArray<UInt16>) -> Int {
        relayoutUnits(range, inserted)
    }

    /// Specialized for each of the two above (a public generic is called unspecialized from other modules).
    private func relayoutUnits(_ range: Range<Int>, _ inserted: some Collection<UInt16>) -> Int {
        guard range.lowerBound >= 0, range.upperBound <= length else { return 0 }
        let (first, last) = touched(range)
        var units = start(of: last + 1) - start(of: first) + inserted.count
        if settings.flows || settings.numbersParagraphs && (first != last || inserted.contains(where: BidiResolver.isParagraphSeparator)) {
            units += length - start(of: last + 1)
        }
        return units
    }

    /// The same for a style over `range`: the paragraphs it crosses.
    public func relayoutUnits(styling range: Range<Int>) -> Int {
        guard range.lowerBound >= 0, range.upperBound <= length, !range.isEmpty else { return 0 }
        let end = settings.flows ? length : start(of: paragraphIndex(containing: range.upperBound - 1) + 1)
        return end - start(of: paragraphIndex(containing: range.lowerBound))
    }

    /// The paragraphs an edit of `range` touches, extended as TextKit extends an edited range:
    /// every paragraph the range meets, edges included (a separator deleted or typed at a
    /// paragraph's end joins or splits it with the next), and the paragraph before when it ends
    /// with a CR that a LF typed after it would join.
    func touched(_ range: Range<Int>) -> (first: Int, last: Int) {
        var first = paragraphIndex(containing: range.lowerBound)
        if first > 0 && start(of: first) == range.lowerBound && paragraphs[first - 1].units.last == 0x0D { first -= 1 }
        return (first, paragraphIndex(containing: range.upperBound))
    }

    /// Puts `laid` in place of `old` and moves what follows.
    /// In text that flows the paragraphs after them move down by `shift` (their entries in the
    /// sums carry it: the last new paragraph's entry takes the old ones' and the shift).
    private func commit(_ laid: [DocumentParagraph], replacing old: ClosedRange<Int>, shift: Double = 0, deltaOffset: Int,
                        caret: TextPosition) -> DocumentChange {
        spanCount += laid.reduce(0) { $0 + $1.spans.count } - old.reduce(0) { $0 + paragraphs[$1].spans.count }
        if let widest {
            let lost = old.contains { paragraphs[$0].layout.size.width >= widest }
            let gained = laid.reduce(0) { max($0, $1.layout.size.width) }
            self.widest = lost && gained < widest ? nil : max(widest, gained)
        }
        var sizes = laid.map { $0.size(gap: settings.paragraphGap) }
        if settings.flows, !sizes.isEmpty {
            // The new paragraphs all stand where the first old one stood; what the old entries
            // moved the paragraphs after them, and the shift, go after the last new one.
            sizes[sizes.count - 1].top = top(of: old.upperBound + 1) - top(of: old.lowerBound) + shift
        }
        // One for one (a keystroke's) in place: the general replacement cost more than the swap.
        if laid.count == 1 && old.count == 1 { paragraphs[old.lowerBound] = laid[0] } else { paragraphs.replaceSubrange(old, with: laid) }
        let moved = offsets.replace(old, with: sizes)
        return DocumentChange(first: old.lowerBound, removed: old.count, inserted: laid.count, deltaY: moved.top,
                              deltaOffset: deltaOffset, deltaLines: moved.line, deltaAttachments: moved.attachment, caret: caret)
    }

    /// A range must lie in the text and not cut a surrogate pair.
    public func checkEdges(_ range: Range<Int>, field: String) throws(LayoutError) {
        guard range.lowerBound >= 0, range.upperBound <= length else {
            throw LayoutError(.invalidArgument, "range \(range.lowerBound)..<\(range.upperBound) is outside the document's \(length) "
                              + "UTF-16 units", field: field)
        }
        // Each edge on its own (an empty range's once): an array of the two was made per edit.
        func checkEdge(_ offset: Int) throws(LayoutError) {
            guard offset > 0 && offset < length else { return }
            let index = paragraphIndex(containing: offset)
            let units = paragraphs[index].units
            let local = offset - start(of: index)
            // A paragraph never starts inside a pair (separators are not surrogates).
            if local > 0 && UTF16.isTrailSurrogate(units[local]) && UTF16.isLeadSurrogate(units[local - 1]) {
                throw LayoutError(.invalidArgument, "range edge \(offset) falls inside a surrogate pair", field: field)
            }
        }
        try checkEdge(range.lowerBound)
        if !range.isEmpty { try checkEdge(range.upperBound) }
    }

    private func checkSpanCount(adding added: Int) throws(LayoutError) {
        guard spanCount + added <= Bounds.maxSpans else {
            throw LayoutError(.resourceExhausted, "the document would hold \(spanCount + added) style spans (one per paragraph a "
                              + "style edit crosses); at most \(Bounds.maxSpans)", field: "style")
        }
    }
}

extension AttributedText.Span {
    /// The span after `range` of its text is replaced by `insertedCount` units; nil when it is gone.
    func replacing(_ range: Range<Int>, insertedCount: Int) -> AttributedText.Span? {
        let delta = insertedCount - range.count
        func start(_ offset: Int) -> Int {
            offset < range.lowerBound ? offset : offset >= range.upperBound ? offset + delta : range.lowerBound + insertedCount
        }
        func end(_ offset: Int) -> Int {
            offset <= range.lowerBound ? offset : offset >= range.upperBound ? offset + delta : range.lowerBound
        }
        let low = start(self.range.lowerBound), high = end(self.range.upperBound)
        return low < high ? AttributedText.Span(range: low..<high, patch: patch) : nil
    }
}
