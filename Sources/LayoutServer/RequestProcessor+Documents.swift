import Foundation
import LayoutEngine
import LayoutWire

extension RequestProcessor {
    /// The most edits one edit_document request may carry.
    static let maxDocumentEdits = 256
    /// An edit that lays out at most this many UTF-16 units again may be answered on the event
    /// loop (a keystroke in a paragraph of a note): about what a 1 KiB layout request costs.
    static let inlineDocumentUnits = 2_048
    /// The most views (more layouts of the text) one document may keep.
    static let maxDocumentViews = 8

    /// Whether a document request costs so little, by what it would lay out again, that the
    /// connection may answer it on its event loop: closing; opening (the caller holds its
    /// frame to the small-request size, which bounds its text); one edit of at most
    /// `inlineDocumentUnits` units with a few questions. Several edits are never small: one may
    /// join the paragraphs the next then re-lays.
    func isSmallDocumentRequest(_ envelope: Layoutd_V1_Envelope, documents: DocumentStore) -> Bool {
        switch envelope.body {
        case .closeDocument: return true
        case .openDocument(let open): return open.views.isEmpty  // each view lays the whole text out again
        case .editDocument(let request):
            guard request.edits.count <= 1, request.points.count + request.carets.count <= 16 else { return false }
            guard let edit = request.edits.first else { return true }
            func span(_ range: Layoutd_V1_Range) -> Range<Int> { Int(range.start)..<(Int(range.start) + Int(range.length)) }
            switch edit.edit {
            case .replace(let replace):
                return isSmallEdit(of: request.document, documents: documents) {
                    $0.relayoutUnits(replacing: span(replace.range), inserted: replace.text.utf16)
                }
            case .style(let style):
                return isSmallEdit(of: request.document, documents: documents) { $0.relayoutUnits(styling: span(style.range)) }
            case .none: return true
            }
        default: return false
        }
    }

    /// The same for a keystroke read plain: one replacement, nothing asked.
    func isSmallEdit(_ plain: PlainEditRequest, documents: DocumentStore) -> Bool {
        isSmallEdit(of: plain.document, documents: documents) {
            $0.relayoutUnits(replacing: Int(plain.start)..<(Int(plain.start) + Int(plain.length)), inserted: plain.units)
        }
    }

    /// Whether one edit of document `id`, which lays out `relayoutUnits` of it again in each of
    /// its layouts, is small (an unknown document is: it is refused at once).
    private func isSmallEdit(of id: UInt64, documents: DocumentStore, relayoutUnits: (TextDocument) -> Int) -> Bool {
        guard let (document, layouts, backgroundsOverAll) = documents.peek(id) else { return true }
        // A story's backgrounds are made over its whole text with every reply: weigh all of it.
        if backgroundsOverAll && document.length > Self.inlineDocumentUnits { return false }
        return relayoutUnits(document) * layouts <= Self.inlineDocumentUnits
    }

    /// The reply frame to a document request (open, edit or close) on the connection whose
    /// documents are `documents`, counted and timed as every reply is. `now` is uptime in
    /// nanoseconds, the documents' idle clock.
    public func documentReplyFrame(to envelope: Layoutd_V1_Envelope, documents: DocumentStore, now: UInt64, budget: WorkBudget) throws -> [UInt8] {
        try documentReplyFrame(RequestTag(envelope)) { () throws(WireError) in
            try documentAnswer(to: envelope.body, documents: documents, now: now, budget: budget)
        }
    }

    /// The reply frame to a keystroke read plain (`PlainEditRequest`): the same bytes, counts and
    /// errors as `documentReplyFrame(to: plain.envelope, …)`, which `PlainEditTests` holds.
    public func documentReplyFrame(toPlainEdit plain: PlainEditRequest, documents: DocumentStore, now: UInt64,
                                   budget: WorkBudget) throws -> [UInt8] {
        try documentReplyFrame(RequestTag(id: plain.requestID, kind: "edit_document", deadlineMs: plain.deadlineMs)) { () throws(WireError) in
            documents.sweep(now: now)
            return try work("edit_document") { try editDocument(plain, documents: documents, now: now, budget: budget) }
        }
    }

    private func documentReplyFrame(_ tag: RequestTag, answer: () throws(WireError) -> DocumentAnswer) throws -> [UInt8] {
        let start = Uptime.nanoseconds
        let frame: [UInt8]
        var failure: Layoutd_V1_Error?
        do {
            let answer = try answer()
            frame = DocumentReplyFrame.encode(requestID: tag.id, summary: answer.summary, parts: answer.parts, story: answer.story,
                                              views: answer.views)
        } catch {
            failure = error.wireMessage
            frame = try Framing.encode(Self.errorEnvelope(tag.id, error.wireMessage))
        }
        account(tag, failure: failure, microseconds: Double(Uptime.nanoseconds - start) / 1000)
        return try bounded(frame, answering: tag, hint: "the edit changed more paragraphs than fit: send it in smaller edits")
    }

    /// A document reply's parts: everything but the changes, and the changes as each edit left them.
    struct DocumentAnswer {
        var summary = DocumentReplyFrame.Summary()
        var parts: [DocumentReplyFrame.Part] = []
        /// One per view of the document: its changes and size.
        var views: [DocumentReplyFrame.View] = []
        /// A Type Mode document's look, written after the summary.
        var story: Layoutd_V1_DocumentStory?
    }

    func documentAnswer(to body: Layoutd_V1_Envelope.OneOf_Body?, documents: DocumentStore, now: UInt64,
                        budget: WorkBudget) throws(WireError) -> DocumentAnswer {
        documents.sweep(now: now)
        switch body {
        case .openDocument(let request):
            return try work("open_document") { try openDocument(request, documents: documents, now: now, budget: budget) }
        case .editDocument(let request):
            return try work("edit_document") { try editDocument(request, documents: documents, now: now, budget: budget) }
        case .closeDocument(let request):
            return try work("close_document") {
                try documents.close(request.document)
                var answer = DocumentAnswer()
                answer.summary.document = request.document
                return answer
            }
        default:
            throw WireError(.invalidArgument, "not a document request", field: "envelope.body")
        }
    }

    private func openDocument(_ request: Layoutd_V1_OpenDocumentRequest, documents: DocumentStore, now: UInt64,
                              budget: WorkBudget) throws -> DocumentAnswer {
        let opening: DocumentOpening
        switch (request.hasLayout, request.hasTypeMode) {
        case (true, false):
            guard request.layout.fonts.isEmpty else {
                // A document outlives its request: its fonts would go with the request.
                throw LayoutError(.invalidArgument, "a document's fonts are the connection's: send them with register_fonts first",
                                  field: "layout.fonts")
            }
            opening = try under("layout") { try request.layout.documentOpening(fonts: layouter.fonts) }
        case (false, true) where !request.views.isEmpty:
            throw LayoutError(.invalidArgument, "views are more layouts of a layout's text; a Type Mode document has none", field: "views")
        case (false, true):
            opening = try under("type_mode") { try request.typeMode.documentOpening(fonts: layouter.fonts, budget: budget) }
        case (true, true):
            throw LayoutError(.invalidArgument, "open_document takes a layout or a type_mode, not both", field: "type_mode")
        case (false, false):
            throw LayoutError(.invalidArgument, "open_document needs the layout of its text (layout, or type_mode for Type Mode)",
                              field: "layout")
        }
        try Bounds.check(count: request.views.count, limit: Self.maxDocumentViews, field: "views")
        let viewSettings = try request.views.enumerated().map { index, view in
            try under("views[\(index)]") { try view.viewSettings(fonts: layouter.fonts) }
        }
        // Every layout keeps the text's glyphs and lines: the units count once per layout.
        let weighted = opening.units.count * (1 + viewSettings.count)
        try documents.admit(units: weighted)
        let document: TextDocument
        let views: [DocumentLayoutView]
        let story: Layoutd_V1_DocumentStory?
        do {
            document = try under(opening.story == nil ? "layout" : "type_mode") {
                try TextDocument(units: opening.units, spans: opening.spans, attachments: opening.attachments, settings: opening.settings,
                                 layouter: layouter, budget: budget)
            }
            views = try viewSettings.enumerated().map { index, view in
                try under("views[\(index)]") {
                    DocumentLayoutView(document: try TextDocument(units: opening.units, spans: opening.spans, attachments: opening.attachments,
                                                                  settings: view.settings, layouter: layouter, budget: budget),
                                       ruleNames: view.ruleNames)
                }
            }
            // Made before the document is kept: a story whose backgrounds are refused opens nothing.
            story = try under("type_mode") { try opening.story.map { try look($0, of: document, budget: budget) } }
        } catch {
            documents.unadmit(units: weighted)
            throw error
        }
        let id = documents.keep(document, ruleNames: opening.ruleNames, story: opening.story, views: views, now: now)
        let summary = Self.summary(of: document, id: id)
        return DocumentAnswer(summary: summary,
                              parts: [DocumentReplyFrame.Part(document.openingChange, document: document, ruleNames: opening.ruleNames)],
                              views: views.map { view in
                                  DocumentReplyFrame.View(of: view.document,
                                                          parts: [DocumentReplyFrame.Part(view.document.openingChange, document: view.document,
                                                                                          ruleNames: view.ruleNames)])
                              },
                              story: story)
    }

    /// A Type Mode document's backgrounds over its whole text, and its preset's colours for its
    /// largest line, as a justify reply gives them.
    private func look(_ story: StoryLook, of document: TextDocument, budget: WorkBudget) throws -> Layoutd_V1_DocumentStory {
        var look = Layoutd_V1_DocumentStory()
        if !story.backgrounds.isEmpty {
            let whole = Decorator(layout: document.assembled(), text: String(decoding: document.units, as: UTF16.self),
                                  fonts: layouter.fonts, budget: budget)
            look.backgrounds = try decorate(story.backgrounds, with: whole).map(Layoutd_V1_BackgroundShape.init)
        }
        let largest = document.paragraphs.lazy.compactMap { $0.fitted?.sizes.max() }.max() ?? document.settings.style.size
        look.effects = Layoutd_V1_TextEffects(TextEffects.derive(preset: story.presetName, palette: story.palette, largestSize: largest))
        look.preset = story.presetName
        return look
    }

    private func editDocument(_ request: Layoutd_V1_EditDocumentRequest, documents: DocumentStore, now: UInt64,
                              budget: WorkBudget) throws -> DocumentAnswer {
        try Bounds.check(count: request.edits.count, limit: Self.maxDocumentEdits, field: "edits")
        try Bounds.check(count: request.points.count, limit: Self.maxHitTestQuestions, field: "points")
        try Bounds.check(count: request.carets.count, limit: Self.maxHitTestQuestions, field: "carets")
        try Self.checkFinite(request.points)
        return try editDocument(request.document, edits: request.edits.count, view: request.view, points: request.points,
                                carets: request.carets, documents: documents, now: now, budget: budget) { index, entry, layouts in
            try resolve(request.edits[index], in: entry, layouts: layouts, documents: documents)
        }
    }

    /// A keystroke read plain: the one replacement, resolved as `resolve` resolves a replace.
    private func editDocument(_ plain: PlainEditRequest, documents: DocumentStore, now: UInt64, budget: WorkBudget) throws -> DocumentAnswer {
        try editDocument(plain.document, edits: 1, view: 0, points: [], carets: [], documents: documents, now: now,
                         budget: budget) { _, entry, layouts in
            let range = try Self.range(start: plain.start, length: plain.length, has: plain.hasRange, field: "replace.range")
            return try resolveReplacement(range, plain.units, attachments: [], in: entry, layouts: layouts, documents: documents)
        }
    }

    /// Edits document `id` with `edits` edits, the one at each index resolved by `resolveEdit`
    /// (given the document's entry and how many layouts it has), and answers in layout `view`.
    private func editDocument(_ id: UInt64, edits: Int, view: UInt32, points: [Layoutd_V1_Point], carets: [Layoutd_V1_TextPosition],
                              documents: DocumentStore, now: UInt64, budget: WorkBudget,
                              resolveEdit: (_ index: Int, DocumentStore.Entry, _ layouts: Int) throws -> ResolvedEdit) throws -> DocumentAnswer {
        let entry = try documents.entry(id, now: now)
        let document = entry.document
        let views = entry.views, layouts = 1 + views.count
        guard Int(view) <= views.count else {
            throw LayoutError(.invalidArgument, "view \(view) is not one of the document's: 0 is its own layout, 1 to "
                              + "\(views.count) its views", field: "view")
        }
        // Several edits, or one in several layouts, are all or none: the layouts go back to these if one fails.
        // So is a Type Mode document's story after them: backgrounds that cannot be made undo the edits.
        let before = edits > 1 || layouts > 1 || entry.story != nil ? entry.layouts.map { $0.snapshot() } : nil
        var caret: TextPosition?
        var parts: [DocumentReplyFrame.Part] = []
        parts.reserveCapacity(edits)
        var viewParts: [[DocumentReplyFrame.Part]] = layouts == 1 ? [] : Array(repeating: [], count: views.count)
        let story: Layoutd_V1_DocumentStory?
        do {
            for index in 0..<edits {
                let resolved = try under("edits[\(index)]") { try resolveEdit(index, entry, layouts) }
                let change = try under("edits[\(index)]") { try resolved.apply(to: document, budget: budget) }
                parts.append(DocumentReplyFrame.Part(change, document: document, ruleNames: entry.ruleNames))
                for (number, view) in views.enumerated() {
                    let viewChange = try under("edits[\(index)]") { try resolved.apply(to: view.document, budget: budget) }
                    viewParts[number].append(DocumentReplyFrame.Part(viewChange, document: view.document, ruleNames: view.ruleNames))
                }
                caret = change.caret
            }
            // Named as the document's: the story is its, made over all of its text.
            story = try under("document") { try entry.story.map { try look($0, of: document, budget: budget) } }
        } catch {
            if let before { zip(entry.layouts, before).forEach { $0.restore($1) } }
            documents.settle(entry, length: document.length * layouts)
            throw error
        }
        documents.settle(entry, length: document.length * layouts)
        let length = document.length
        for (index, caret) in carets.enumerated() {
            try Self.check(caret, within: length, of: "document", field: "carets[\(index)]")
        }
        // The caret, points and carets answer in the layout the request names.
        let answering = view == 0 ? document : views[Int(view) - 1].document
        // The summary is the reply's start: filled in place, not built apart and copied over.
        var reply = Self.summary(of: document, id: id)
        if let caret {
            reply.caretPosition = caret
            if let rects = answering.caret(caret) { reply.caret = (rects.primary, rects.secondary, rects.line) }
        }
        reply.hits = points.map { point in
            var hit = Layoutd_V1_Hit()
            if let found = answering.hit(Point(x: Double(point.x), y: Double(point.y))) {
                hit.position = Layoutd_V1_TextPosition(found.position)
                hit.lineIndex = UInt32(found.line)
            }
            return hit
        }
        reply.carets = carets.map { answering.caret(TextPosition($0)).map(Layoutd_V1_Caret.init) ?? Layoutd_V1_Caret() }
        return DocumentAnswer(summary: reply, parts: parts,
                              views: layouts == 1 ? [] : zip(views, viewParts).map { DocumentReplyFrame.View(of: $0.document, parts: $1) },
                              story: story)
    }

    /// One edit as the engine takes it, checked once and applied to each layout of the text.
    /// Small, as it is moved about on every keystroke: a style's patch (large, and rare beside
    /// typing) is held by reference.
    enum ResolvedEdit {
        case replace(Range<Int>, ContiguousArray<UInt16>, [InlineAttachment])
        case style(Range<Int>, PatchBox)

        final class PatchBox {
            let patch: StylePatch
            init(_ patch: StylePatch) { self.patch = patch }
        }

        func apply(to document: TextDocument, budget: WorkBudget) throws -> DocumentChange {
            switch self {
            case .replace(let range, let units, let attachments):
                return try under("replace") { try document.replace(range, with: units, attachments: attachments, budget: budget) }
            case .style(let range, let box):
                return try under("style") { try document.style(range, patch: box.patch, budget: budget) }
            }
        }
    }

    /// One edit checked against the document, its growth taken from the connection's and the
    /// server's room first (once per layout of the text).
    private func resolve(_ edit: Layoutd_V1_DocumentEdit, in entry: DocumentStore.Entry, layouts: Int,
                         documents: DocumentStore) throws -> ResolvedEdit {
        let document = entry.document
        switch edit.edit {
        case .replace(let replacement):
            let range = try Self.range(replacement.range, has: replacement.hasRange, field: "replace.range")
            let units = AttributedText.utf16(replacement.text)
            let attachments = try under("replace") { try replacement.attachments.inlineAttachments(fonts: layouter.fonts) }
            return try resolveReplacement(range, units, attachments: attachments, in: entry, layouts: layouts, documents: documents)
        case .style(let change):
            let range = try Self.range(change.range, has: change.hasRange, field: "style.range")
            if document.isTypeMode { try under("style") { try change.style.checkUnsized(field: "style") } }
            let patch = try under("style") { try change.style.patch(field: "style", fonts: layouter.fonts) }
            return .style(range, ResolvedEdit.PatchBox(patch))
        case .none:
            throw LayoutError(.invalidArgument, "an edit needs a replace or a style", field: "edit")
        }
    }

    /// A replacement of `range` by `units` checked against the document: its edges, and its
    /// growth taken from the room (once per layout of the text).
    private func resolveReplacement(_ range: Range<Int>, _ units: ContiguousArray<UInt16>, attachments: [InlineAttachment],
                                    in entry: DocumentStore.Entry, layouts: Int, documents: DocumentStore) throws -> ResolvedEdit {
        try under("replace") {
            try entry.document.checkEdges(range, field: "range")
            try documents.grow(entry, by: (units.count - range.count) * layouts)
        }
        return .replace(range, units, attachments)
    }

    private static func range(_ range: Layoutd_V1_Range, has: Bool, field: String) throws(LayoutError) -> Range<Int> {
        try Self.range(start: range.start, length: range.length, has: has, field: field)
    }

    private static func range(start: UInt32, length: UInt32, has: Bool, field: String) throws(LayoutError) -> Range<Int> {
        guard has else { throw LayoutError(.invalidArgument, "an edit needs a range", field: field) }
        return Int(start)..<(Int(start) + Int(length))
    }

    private static func summary(of document: TextDocument, id: UInt64) -> DocumentReplyFrame.Summary {
        var reply = DocumentReplyFrame.Summary()
        reply.document = id
        reply.textLength = UInt32(document.length)
        reply.paragraphCount = UInt32(document.paragraphs.count)
        reply.lineCount = UInt32(document.lineCount)
        reply.width = document.width
        reply.height = document.height
        return reply
    }
}

extension Layoutd_V1_Caret {
    init(_ caret: (primary: Rect, secondary: Rect?, line: Int)) {
        self.init()
        primary = Layoutd_V1_Rect(caret.primary)
        if let secondary = caret.secondary { self.secondary = Layoutd_V1_Rect(secondary) }
        lineIndex = UInt32(caret.line)
    }
}
