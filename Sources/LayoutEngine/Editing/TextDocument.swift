/// A text kept laid out between edits, as TextKit's text storage and layout manager keep a note:
/// an edit is extended to the whole paragraphs it touches (`processEditing`'s edited range),
/// and only those are analyzed, itemized, shaped, broken and positioned again; the paragraphs
/// after them move down or up, and their lines are kept.
///
/// A paragraph's lines do not depend on the paragraphs around it when the text is laid in one
/// box of a width (lines never cross a paragraph separator, and bidi resolves each paragraph
/// alone), so the lines of a paragraph line up with the old ones again at its end; spacing
/// between paragraphs is the same gap everywhere. In text that flows a paragraph depends only
/// on where the one before ended (`FlowStart`): the paragraphs after an edit are broken and
/// positioned again until one starts where it did, or only moved where that is all that
/// changes (below the last exclusion). Documents are horizontal and show every line
/// (`DocumentSettings.checkIncremental`).
///
/// Not thread-safe: one owner edits it at a time (the daemon runs a connection's document
/// requests one after another).
public final class TextDocument {
    public let layouter: ParagraphLayouter
    public let settings: DocumentSettings
    public internal(set) var paragraphs: [DocumentParagraph]
    /// Where each paragraph starts in the text, down the page, in the lines and attachments.
    var offsets: ParagraphOffsets
    /// The client's spans held, counted piece by piece (a span over three paragraphs is three).
    public internal(set) var spanCount = 0
    /// The widest line's width; nil once the paragraph that had it is replaced.
    var widest: Double?
    /// The paragraph `paragraphIndex(containing:)` found last (checked before it is trusted).
    private var lastFound = 0
    /// In text that flows: the last container's top below which text moves without changing
    /// (`FlowRegion.uniformBelow`); nil when there is none, or the text does not flow.
    let uniformBelow: Double?

    /// Lays `units` out with the client's `spans` and one attachment per U+FFFC.
    public init(units: ContiguousArray<UInt16>, spans: [AttributedText.Span] = [], attachments: [InlineAttachment] = [],
                settings: DocumentSettings, layouter: ParagraphLayouter, budget: WorkBudget = .unlimited) throws {
        try settings.checkIncremental()
        try Self.checkLength(units.count, limit: layouter.maxTextLength)
        try Bounds.check(count: spans.count, limit: Bounds.maxSpans, field: "spans")
        let holders = AttachmentResolver.objectReplacements(in: units)
        guard attachments.count == holders else {
            throw LayoutError(.invalidArgument, "a document needs one attachment for each OBJECT REPLACEMENT CHARACTER (U+FFFC): "
                              + "the text has \(holders), the request \(attachments.count)", field: "attachments")
        }
        try Bounds.check(count: attachments.count, limit: AttachmentResolver.maxAttachments, field: "attachments")
        self.layouter = layouter
        self.settings = settings
        uniformBelow = settings.request.flow.flatMap { flow in
            flow.containers.last.flatMap { FlowRegion($0, minimumWidth: 0).uniformBelow }
        }
        paragraphs = try Self.layParagraphs(units, spans: spans, attachments: attachments, firstIndex: 0, flowStart: nil, settings: settings,
                                            layouter: layouter, budget: budget)
        offsets = ParagraphOffsets(sizes: paragraphs.map { $0.size(gap: settings.paragraphGap) })
        spanCount = paragraphs.reduce(0) { $0 + $1.spans.count }
    }

    /// The document as it stands, to go back to when a later edit of several fails. Arrays are
    /// copied on write: taking one costs nothing, and the first edit after it copies the lists.
    public struct Snapshot {
        fileprivate let paragraphs: [DocumentParagraph]
        fileprivate let offsets: ParagraphOffsets
        fileprivate let spanCount: Int
        fileprivate let widest: Double?
    }

    public func snapshot() -> Snapshot {
        Snapshot(paragraphs: paragraphs, offsets: offsets, spanCount: spanCount, widest: widest)
    }

    public func restore(_ snapshot: Snapshot) {
        (paragraphs, offsets, spanCount, widest) = (snapshot.paragraphs, snapshot.offsets, snapshot.spanCount, snapshot.widest)
    }

    /// Where paragraph `index` starts in the text (the paragraph count: the text's length).
    public func start(of index: Int) -> Int { offsets[index].offset }
    /// Its top, points from the document's top.
    public func top(of index: Int) -> Double { offsets[index].top }
    /// The index of its first line in the document, and of its first attachment.
    public func firstLine(of index: Int) -> Int { offsets[index].line }
    public func firstAttachment(of index: Int) -> Int { offsets[index].attachment }

    /// True for a Type Mode document: asked here, so a caller in another module does not copy
    /// the whole settings to read one flag.
    public var isTypeMode: Bool { settings.isTypeMode }

    public var length: Int { offsets.last.offset }
    /// Down to the last line: the gap each paragraph with lines carries below it in the sums is
    /// not below the last (paragraphs without lines come only at the end). In text that flows:
    /// the bottom of the containers' frame, as a layout of the whole text measures it.
    public var height: Double {
        if settings.flows { return flowFrame.height }
        return max(0, offsets.last.top - (lineCount > 0 ? settings.paragraphGap : 0))
    }
    public var lineCount: Int { offsets.last.line }
    /// The widest line's width: found again only after the paragraph that held it changed.
    public var width: Double {
        if settings.flows { return flowFrame.width }
        if let widest { return widest }
        let found = paragraphs.reduce(0) { max($0, $1.layout.size.width) }
        widest = found
        return found
    }

    /// The frame of text that flows: every container's rect, the last one (which has no height
    /// in a document) down to the bottom of its lines.
    private var flowFrame: Size {
        // An empty text has no size, as a layout of it has none.
        guard let flow = settings.request.flow, length > 0 else { return Size(width: 0, height: 0) }
        var frame = Rect(x: 0, y: 0, width: 0, height: 0)
        let lastContainer = flow.containers.count - 1
        // The last container's lines are the document's last lines.
        var usedBottom = 0.0
        if let index = paragraphs.lastIndex(where: { !$0.layout.lines.isEmpty }), let line = paragraphs[index].layout.lines.last,
           line.container == lastContainer {
            usedBottom = paragraphs[index].layout.lines.lazy.filter { $0.container == lastContainer }.map { $0.usedRect.maxY }.max()!
                + top(of: index) - flow.containers[lastContainer].origin.y
        }
        for (index, container) in flow.containers.enumerated() {
            frame = frame.union(Rect(x: container.origin.x, y: container.origin.y, width: container.width,
                                     height: container.height ?? (index == lastContainer ? usedBottom : 0)))
        }
        return Size(width: frame.maxX, height: frame.maxY)
    }

    /// The whole text (for a client that asks, and for tests).
    public var units: ContiguousArray<UInt16> {
        var units = ContiguousArray<UInt16>()
        units.reserveCapacity(length)
        for paragraph in paragraphs { units.append(contentsOf: paragraph.units) }
        return units
    }

    /// The client's spans over the whole text, paragraph by paragraph (a span over several
    /// paragraphs is one piece in each).
    public var spans: [AttributedText.Span] {
        paragraphs.indices.flatMap { index in
            paragraphs[index].spans.map { AttributedText.Span(range: $0.range.shifted(by: start(of: index)), patch: $0.patch) }
        }
    }

    public var attachments: [InlineAttachment] { paragraphs.flatMap(\.attachments) }

    /// The paragraph holding `offset`; an offset at a paragraph's end is in the next one, the
    /// text's end in the last.
    public func paragraphIndex(containing offset: Int) -> Int {
        // An edit asks for its paragraph some eight times (checks, the touched range, the
        // caret): the last answer is tried first, held to the sums as they stand now.
        let last = lastFound
        if last < paragraphs.count && start(of: last) <= offset && offset < start(of: last + 1) { return last }
        let found = min(offsets.firstEnding(after: offset), paragraphs.count - 1)
        lastFound = found
        return found
    }

    /// The paragraph whose band holds `y`, clamped to the first and last; a point in the gap
    /// between two paragraphs goes to the nearer one, as a layout's nearest line does.
    public func paragraphIndex(atY y: Double) -> Int {
        let half = settings.paragraphGap / 2
        var index = min(ShapedParagraph.firstIndex(paragraphs.count) { top(of: $0 + 1) - half > y }, paragraphs.count - 1)
        // Paragraphs without lines come only at the end: below the text is the last with lines.
        while index > 0 && paragraphs[index].layout.lines.isEmpty { index -= 1 }
        return index
    }

    static func checkLength(_ length: Int, limit: Int) throws(LayoutError) {
        guard length <= limit else {
            throw LayoutError(.resourceExhausted, "the document would be \(length) UTF-16 units; the limit is \(limit)", field: "text")
        }
    }

    /// Lays out each paragraph of `units`, giving each its part of the spans and attachments;
    /// the first is paragraph `firstIndex` of the document, and in text that flows starts at
    /// `flowStart` (nil: the first container's top), each next one where the one before ended.
    /// Each is kept moved up by `displacement` (where the document will place them).
    /// `isOneParagraph`: the caller knows `units` are one paragraph (`DocumentParagraph.paragraphEnds`
    /// finds no other end). `attachments` holds one per U+FFFC of `units`.
    static func layParagraphs(_ units: ContiguousArray<UInt16>, isOneParagraph: Bool = false, spans: [AttributedText.Span],
                              attachments: [InlineAttachment], firstIndex: Int, flowStart: FlowStart?, displacement: Double = 0,
                              settings: borrowing DocumentSettings, layouter: ParagraphLayouter, budget: WorkBudget) throws -> [DocumentParagraph] {
        assert(!isOneParagraph || DocumentParagraph.paragraphEnds(of: units) == [units.count], "the caller's one paragraph is one")
        var nextAttachment = 0
        if isOneParagraph {
            // A keystroke's paragraph, in an array made around it: room reserved for one went
            // through the array's growth path.
            return [try layParagraph(units, 0..<units.count, spans: spans, attachments: attachments, nextAttachment: &nextAttachment,
                                     index: firstIndex, flowStart: flowStart, displacement: displacement, settings: settings,
                                     layouter: layouter, budget: budget)]
        }
        var start = 0
        let ends = DocumentParagraph.paragraphEnds(of: units)
        var paragraphs: [DocumentParagraph] = []
        paragraphs.reserveCapacity(ends.count)
        for end in ends {
            paragraphs.append(try layParagraph(units, start..<end, spans: spans, attachments: attachments, nextAttachment: &nextAttachment,
                                               index: firstIndex + paragraphs.count,
                                               flowStart: paragraphs.last?.flowEnd?.moved(down: displacement) ?? flowStart,
                                               displacement: displacement, settings: settings, layouter: layouter, budget: budget))
            start = end
        }
        return paragraphs
    }

    /// Paragraph `bounds` of `units` laid out, with its part of the spans and the attachments from
    /// `nextAttachment` on (moved past them).
    private static func layParagraph(_ units: ContiguousArray<UInt16>, _ bounds: Range<Int>, spans: [AttributedText.Span],
                                     attachments: [InlineAttachment], nextAttachment: inout Int, index: Int, flowStart: FlowStart?,
                                     displacement: Double, settings: borrowing DocumentSettings, layouter: ParagraphLayouter,
                                     budget: WorkBudget) throws -> DocumentParagraph {
        let (start, end) = (bounds.lowerBound, bounds.upperBound)
        try budget.check()
        // One paragraph (a keystroke's) is the units themselves, not a copy.
        let part = start == 0 && end == units.count ? units : ContiguousArray(units[start..<end])
        // Without attachments there is no U+FFFC to count.
        let held = attachments.isEmpty ? 0 : AttachmentResolver.objectReplacements(in: part)
        let cut = spans.compactMap { span -> AttributedText.Span? in
            let low = max(span.range.lowerBound, start), high = min(span.range.upperBound, end)
            return low < high ? AttributedText.Span(range: (low - start)..<(high - start), patch: span.patch) : nil
        }
        let first = nextAttachment
        nextAttachment += held
        return try DocumentParagraph(units: part, spans: cut, attachments: Array(attachments[first..<first + held]),
                                     index: index, flowStart: flowStart, displacement: displacement, settings: settings,
                                     layouter: layouter, budget: budget)
    }
}

extension Range<Int> {
    func shifted(by delta: Int) -> Range<Int> { (lowerBound + delta)..<(upperBound + delta) }
}
