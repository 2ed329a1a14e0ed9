/// A text shaped as its bidi paragraphs (UAX #9 P1: each ends after a paragraph separator),
/// one `ShapedParagraph` value apiece, each with its offsets counted from its own start.
///
/// A paragraph owes nothing to the others: its analysis, items, runs and widths stand alone,
/// so a layout after an edit can keep the paragraphs the edit did not touch, wherever they
/// move in the text. Lines never cross a paragraph separator (it is a hard break), so breaking
/// and planning go paragraph by paragraph; only placing adds each paragraph's `start`.
/// A text of one paragraph (every caption of the corpus) is shaped as it is, with no copy.
struct ShapedText {
    /// The request's text, whole: the reply's offsets and paints refer to it.
    let text: AttributedText
    /// The first paragraph (nil once recycled), which starts at 0, and the others with where
    /// each starts in `text`: a text of one paragraph, nearly every request, allocates no array.
    private var first: ShapedParagraph?
    private var others: [ShapedParagraph] = []
    private var otherStarts: [Int] = []

    /// Borrows what it only reads (see `ShapedParagraph.init`).
    init(text: AttributedText, direction: BaseDirection, attachments: borrowing [InlineAttachment] = [], vertical: VerticalSetting? = nil,
         fonts: borrowing FontRegistry, context: borrowing LayoutContext) throws {
        self.text = text
        // The analysis of the whole text finds the paragraphs; a text of one (almost every
        // request) goes on with it, and a text of several is cut into each paragraph's part:
        // no analysis looks across a paragraph separator (graphemes and breaks end there, and
        // UAX #9 resolves each paragraph alone), so the parts equal each paragraph analyzed alone.
        var analysis = TextAnalysis.analyze(text, direction: direction, unicode: context.unicode, scratch: context.scratch)
        guard analysis.paragraphs.count > 1 else {
            // Consumed: a copy counted its three arrays twice.
            first = try ShapedParagraph(text: text, direction: direction, attachments: attachments, analysis: consume analysis,
                                        vertical: vertical, fonts: fonts, context: context)
            return
        }
        defer { analysis.giveBack(to: context.scratch) }
        if let offset = analysis.overlongCluster {
            throw ShapedParagraph.overlongCluster(at: offset)
        }
        let ranges = analysis.paragraphs.map(\.range)
        let holders = ranges.map { AttachmentResolver.objectReplacements(in: text.units[$0]) }
        let total = holders.reduce(0, +)
        guard attachments.count <= total else {
            throw LayoutError(.invalidArgument, "\(attachments.count) attachments but the text has \(total) "
                              + "OBJECT REPLACEMENT CHARACTERs (U+FFFC) to hold them", field: "attachments")
        }
        try Bounds.check(count: attachments.count, limit: AttachmentResolver.maxAttachments, field: "attachments")
        let styles = try context.scratch.resolved(text.styles, fonts: fonts, user: context.budget.user)
        var paragraphs: [ShapedParagraph] = []
        paragraphs.reserveCapacity(ranges.count)
        var nextAttachment = 0
        for (index, (range, holding)) in zip(ranges, holders).enumerated() {
            if index % 64 == 0 { try context.budget.check() }
            // The Nth attachment goes to the Nth U+FFFC of the whole text.
            let taken = min(holding, attachments.count - nextAttachment)
            let part = TextAnalysis(flags: ContiguousArray(analysis.flags[range]), levels: ContiguousArray(analysis.levels[range]),
                                    paragraphs: [BidiParagraph(range: 0..<range.count, baseLevel: analysis.paragraphs[index].baseLevel)],
                                    firstControl: analysis.firstControl.flatMap { $0 < range.upperBound ? max(0, $0 - range.lowerBound) : nil },
                                    hasSoftHyphen: analysis.hasSoftHyphen, hasTabs: analysis.hasTabs,
                                    hasHardBreaks: analysis.hasHardBreaks, hardBreaksEndParagraphs: analysis.hardBreaksEndParagraphs,
                                    overlongCluster: nil,
                                    isLeftToRightOnly: analysis.isLeftToRightOnly)
            paragraphs.append(try ShapedParagraph(
                text: AttributedText(slicing: text, range), direction: direction,
                attachments: Array(attachments[nextAttachment..<nextAttachment + taken]), firstAttachment: nextAttachment,
                offset: range.lowerBound, analysis: part, styles: styles, vertical: vertical, fonts: fonts, context: context))
            nextAttachment += taken
        }
        first = paragraphs.removeFirst()
        others = paragraphs
        otherStarts = Array(ranges.dropFirst().map(\.lowerBound))
    }

    var paragraphCount: Int { first == nil ? 0 : others.count + 1 }

    /// Paragraph `index`.
    func paragraph(_ index: Int) -> ShapedParagraph { index == 0 ? first! : others[index - 1] }

    /// Where paragraph `index` starts in the text.
    func start(of index: Int) -> Int { index == 0 ? 0 : otherStarts[index - 1] }

    /// Every paragraph, in order (an array made for the asking: for the rare readers of all of them).
    var paragraphs: [ShapedParagraph] { (first.map { [$0] } ?? []) + others }

    /// Where each paragraph starts in the text (made for the asking, as `paragraphs`).
    var starts: [Int] { [0] + otherStarts }

    /// The first paragraph's resolved direction, which a layout reports.
    var firstDirection: BaseDirection { first!.firstDirection }

    /// The attachments' boxes in every paragraph.
    var boxCount: Int { others.reduce(first?.boxes.count ?? 0) { $0 + $1.boxes.count } }

    /// True when some paragraph holds an attachment.
    var hasBoxes: Bool { first?.boxes.isEmpty == false || others.contains { !$0.boxes.isEmpty } }

    /// Gives every paragraph's arrays back (see `LayoutContext.recycle`), leaving none here.
    mutating func recycle(into context: LayoutContext) {
        var taken = others.movedOut()  // moved, so each paragraph popped is its only copy
        while let paragraph = taken.popLast() { context.recycle(paragraph) }
        if let paragraph = first.take() { context.recycle(paragraph) }
    }
}
