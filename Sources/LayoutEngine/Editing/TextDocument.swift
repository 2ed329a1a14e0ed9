/// A text kept laid out between edits, as TextKit's text storage and layout manager keep a note:
/// an edit is extended to the whole paragraphs it touches (`processEditing`'s edited range),
/// and only those are analyzed, itemized, shaped, broken and positioned again; the paragraphs
/// after them move down or up, and their lines are kept.
///
/// A paragraph's lines do not depend on the paragraphs around it when the text is laid in one
/// box of a width (lines never cross a paragraph separator, and bidi resolves each paragraph
/// alone), so the lines of a paragraph line up with the old ones again at its end. Documents
/// are therefore horizontal, in one box, with no line limit (`DocumentSettings.checkIncremental`).
///
/// Not thread-safe: one owner edits it at a time (the daemon runs a connection's document
/// requests one after another).
public final class TextDocument: @unchecked Sendable {
    public let layouter: ParagraphLayouter
    public let settings: DocumentSettings
    public internal(set) var paragraphs: [DocumentParagraph]
    /// Prefix sums, one more than the paragraphs: where each paragraph starts in the text, its
    /// top, its first line and its first attachment (the last entry is the total).
    public private(set) var starts: [Int]
    public private(set) var tops: [Double]
    public private(set) var firstLines: [Int]
    public private(set) var firstAttachments: [Int]
    /// The client's spans held, counted piece by piece (a span over three paragraphs is three).
    public internal(set) var spanCount = 0

    /// Lays `units` out with the client's `spans` and one attachment per U+FFFC.
    public init(units: ContiguousArray<UInt16>, spans: [AttributedText.Span] = [], attachments: [InlineAttachment] = [],
                settings: DocumentSettings, layouter: ParagraphLayouter, budget: WorkBudget = .unlimited) throws {
        try settings.checkIncremental()
        try Self.checkLength(units.count, limit: layouter.maxTextLength)
        try Bounds.check(count: spans.count, limit: Bounds.maxSpans, field: "spans")
        let holders = DocumentParagraph.objectReplacements(in: units)
        guard attachments.count == holders else {
            throw LayoutError(.invalidArgument, "a document needs one attachment for each OBJECT REPLACEMENT CHARACTER (U+FFFC): "
                              + "the text has \(holders), the request \(attachments.count)", field: "attachments")
        }
        try Bounds.check(count: attachments.count, limit: AttachmentResolver.maxAttachments, field: "attachments")
        self.layouter = layouter
        self.settings = settings
        paragraphs = try Self.layParagraphs(units, spans: spans, attachments: attachments, settings: settings,
                                            layouter: layouter, budget: budget)
        (starts, tops, firstLines, firstAttachments) = ([0], [0], [0], [0])
        recount(from: 0)
        spanCount = paragraphs.reduce(0) { $0 + $1.spans.count }
    }

    /// The document as it stands, to go back to when a later edit of several fails. Arrays are
    /// copied on write: taking one costs nothing, and the first edit after it copies the lists.
    public struct Snapshot: @unchecked Sendable {
        fileprivate let paragraphs: [DocumentParagraph]
        fileprivate let starts: [Int], tops: [Double], firstLines: [Int], firstAttachments: [Int], spanCount: Int
    }

    public func snapshot() -> Snapshot {
        Snapshot(paragraphs: paragraphs, starts: starts, tops: tops, firstLines: firstLines, firstAttachments: firstAttachments,
                 spanCount: spanCount)
    }

    public func restore(_ snapshot: Snapshot) {
        (paragraphs, starts, tops, firstLines, firstAttachments, spanCount) = (snapshot.paragraphs, snapshot.starts, snapshot.tops,
            snapshot.firstLines, snapshot.firstAttachments, snapshot.spanCount)
    }

    public var length: Int { starts[paragraphs.count] }
    public var height: Double { tops[paragraphs.count] }
    public var lineCount: Int { firstLines[paragraphs.count] }
    /// The widest line's width.
    public var width: Double { paragraphs.reduce(0) { max($0, $1.layout.size.width) } }

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
            paragraphs[index].spans.map { AttributedText.Span(range: $0.range.shifted(by: starts[index]), patch: $0.patch) }
        }
    }

    public var attachments: [InlineAttachment] { paragraphs.flatMap(\.attachments) }

    /// The paragraph holding `offset`; an offset at a paragraph's end is in the next one, the
    /// text's end in the last.
    public func paragraphIndex(containing offset: Int) -> Int {
        var low = 0, high = paragraphs.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The paragraph whose band holds `y`, clamped to the first and last.
    public func paragraphIndex(atY y: Double) -> Int {
        var low = 0, high = paragraphs.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if tops[middle] <= y { low = middle } else { high = middle - 1 }
        }
        return low
    }

    static func checkLength(_ length: Int, limit: Int) throws(LayoutError) {
        guard length <= limit else {
            throw LayoutError(.resourceExhausted, "the document would be \(length) UTF-16 units; the limit is \(limit)", field: "text")
        }
    }

    /// Lays out each paragraph of `units`, giving each its part of the spans and attachments.
    static func layParagraphs(_ units: ContiguousArray<UInt16>, spans: [AttributedText.Span], attachments: [InlineAttachment],
                              settings: DocumentSettings, layouter: ParagraphLayouter, budget: WorkBudget) throws -> [DocumentParagraph] {
        var paragraphs: [DocumentParagraph] = []
        var start = 0
        var nextAttachment = 0
        for end in DocumentParagraph.paragraphEnds(of: units) {
            try budget.check()
            let part = ContiguousArray(units[start..<end])
            let held = DocumentParagraph.objectReplacements(in: part)
            let cut = spans.compactMap { span -> AttributedText.Span? in
                let low = max(span.range.lowerBound, start), high = min(span.range.upperBound, end)
                return low < high ? AttributedText.Span(range: (low - start)..<(high - start), patch: span.patch) : nil
            }
            paragraphs.append(try DocumentParagraph(units: part, spans: cut, attachments: Array(attachments[nextAttachment..<nextAttachment + held]),
                                                    settings: settings, layouter: layouter, budget: budget))
            nextAttachment += held
            start = end
        }
        return paragraphs
    }

    /// Makes the prefix sums right from paragraph `first` on: a pass of additions, nothing
    /// laid out (a few microseconds for thousands of paragraphs).
    func recount(from first: Int) {
        let count = paragraphs.count
        starts.removeSubrange((first + 1)...)
        tops.removeSubrange((first + 1)...)
        firstLines.removeSubrange((first + 1)...)
        firstAttachments.removeSubrange((first + 1)...)
        starts.reserveCapacity(count + 1)
        tops.reserveCapacity(count + 1)
        firstLines.reserveCapacity(count + 1)
        firstAttachments.reserveCapacity(count + 1)
        for index in first..<count {
            let paragraph = paragraphs[index]
            starts.append(starts[index] + paragraph.units.count)
            tops.append(tops[index] + paragraph.height)
            firstLines.append(firstLines[index] + paragraph.lineCount)
            firstAttachments.append(firstAttachments[index] + paragraph.attachments.count)
        }
    }
}

extension Range<Int> {
    func shifted(by delta: Int) -> Range<Int> { (lowerBound + delta)..<(upperBound + delta) }
}
