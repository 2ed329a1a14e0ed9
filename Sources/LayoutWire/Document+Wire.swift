import LayoutEngine

/// What opening a document needs from its layout request: how every paragraph is laid out, and
/// the text with the client's spans and attachments.
public struct DocumentOpening: Sendable {
    public var settings: DocumentSettings
    public var units: ContiguousArray<UInt16>
    public var spans: [AttributedText.Span]
    public var attachments: [InlineAttachment]
    /// The rules' names, for the rule matches a reply lists.
    public var ruleNames: [String]
    /// A Type Mode document's look: its backgrounds and preset colours, made over the whole
    /// text with every reply; nil for a layout's document.
    public var story: StoryLook?
}

/// What a Type Mode document draws around its text: made again after every edit, because a
/// connected background joins lines across paragraphs and the colours follow the largest line.
public struct StoryLook: Sendable {
    public var backgrounds: [BackgroundStyle]
    public var presetName: String
    public var palette: Color
}

extension Layoutd_V1_LayoutRequest {
    /// The document this request opens, checked as a layout request is (fields relative to it),
    /// and refusing what a document cannot keep: backgrounds (they join lines across paragraphs).
    public func documentOpening(fonts: FontRegistry) throws(LayoutError) -> DocumentOpening {
        guard backgrounds.isEmpty else {
            throw LayoutError(.invalidArgument, "documents do not draw backgrounds; ask a layout request for them", field: "backgrounds")
        }
        guard !glyphFlags else {
            throw LayoutError(.invalidArgument, "documents give no glyph flags; ask a layout request for them", field: "glyph_flags")
        }
        guard rubyAnnotations.isEmpty else {
            throw LayoutError(.invalidArgument, "documents keep no ruby yet (a base's range would not follow edits); ask a layout "
                              + "request for it", field: "ruby_annotations")
        }
        // Every setting as a layout request makes it, from the request without its text and spans.
        let template = try settingsOnly.formattedRequest(fonts: fonts).request
        let rules = try compiledRules(fonts: fonts)
        let units = AttributedText.utf16(text)
        let spans = try self.spans.engineSpans(in: text, units: units.count, fonts: fonts)
        let attachments = try self.attachments.inlineAttachments(fonts: fonts)
        let settings = DocumentSettings(request: template, style: template.text.styles[0], paint: template.text.paints[0], rules: rules)
        return DocumentOpening(settings: settings, units: units, spans: spans, attachments: attachments, ruleNames: rules.map(\.rule.name))
    }
}

extension Layoutd_V1_LayoutRequest {
    /// One more layout of a document's text (`OpenDocumentRequest.views`): how every paragraph
    /// is laid out in it and its rules' names, checked as the document's own layout is. The text,
    /// spans and attachments are the document's: a view bringing its own is refused by name.
    public func viewSettings(fonts: FontRegistry) throws(LayoutError) -> (settings: DocumentSettings, ruleNames: [String]) {
        for (set, field) in [(!text.isEmpty, "text"), (!spans.isEmpty, "spans"), (!attachments.isEmpty, "attachments"),
                             (!self.fonts.isEmpty, "fonts")] where set {
            throw LayoutError(.invalidArgument, "a view lays out the document's text, spans and attachments (those of open_document.layout); "
                              + "it has no \(field) of its own", field: field)
        }
        let opening = try documentOpening(fonts: fonts)
        return (opening.settings, opening.ruleNames)
    }
}

extension Layoutd_V1_JustifyRequest {
    /// The Type Mode document this request opens, checked as a justify request is (fields
    /// relative to it), and refusing what a document cannot keep: uniform sizing and a maximum
    /// height (each ties every line to the whole text), and highlights (their ranges are the
    /// text's at opening).
    public func documentOpening(fonts: FontRegistry, budget: WorkBudget = .unlimited) throws(LayoutError) -> DocumentOpening {
        if let index = backgrounds.firstIndex(where: { $0.kind == .highlight }) {
            throw LayoutError(.invalidArgument, "a Type Mode document's backgrounds follow its lines; a highlight's range would not "
                              + "follow its edits: style the range's background instead", field: "backgrounds[\(index)].kind")
        }
        // Every setting as a justify request makes it, from the request without its text, spans and rules.
        let plan = try settingsOnly.plan(fonts: fonts, budget: budget)
        if plan.request.writingMode.isVertical {
            // As a layout request's documents are: paragraphs stack down the page.
            throw LayoutError(.invalidArgument, "documents are horizontal text", field: "writing_mode")
        }
        if plan.request.sizing == .uniform && sizing != .uniform {
            throw LayoutError(.invalidArgument, "preset \"\(preset)\" sizes the whole text uniformly, which ties every line to all of it: "
                              + "set sizing PER_LINE to edit it as a document", field: "sizing")
        }
        let rules = try compiledRules(fonts: fonts)
        let units = AttributedText.utf16(text)
        let spans = try self.spans.engineSpans(in: text, units: units.count, fonts: fonts) { style, field throws(LayoutError) in
            try style.checkUnsized(field: field)
        }
        let attachments = try self.attachments.inlineAttachments(fonts: fonts)
        let settings = DocumentSettings(typeMode: plan.request, rules: rules)
        return DocumentOpening(settings: settings, units: units, spans: spans, attachments: attachments, ruleNames: rules.map(\.rule.name),
                               story: StoryLook(backgrounds: plan.backgrounds, presetName: plan.presetName, palette: plan.palette))
    }
}

/// A request that opens a document: its settings are made once, from it without its text, spans,
/// attachments and rules, and apply to every paragraph.
protocol DocumentTemplate {
    var text: String { get set }
    var spans: [Layoutd_V1_StyleSpan] { get set }
    var attachments: [Layoutd_V1_Attachment] { get set }
    var rules: [Layoutd_V1_FormattingRule] { get set }
    var builtinRules: Layoutd_V1_BuiltinRules { get set }
}

extension DocumentTemplate {
    var settingsOnly: Self {
        var settings = self
        settings.text = ""
        settings.spans = []
        settings.attachments = []
        settings.rules = []
        settings.builtinRules = .none
        return settings
    }
}

extension Layoutd_V1_LayoutRequest: DocumentTemplate {}
extension Layoutd_V1_JustifyRequest: DocumentTemplate {}

extension Layoutd_V1_ParagraphChange {
    /// The wire form of `change`, its new paragraphs read from `document` as it stands now.
    public init(_ change: DocumentChange, document: TextDocument, ruleNames: [String]) {
        self.init()
        first = UInt32(change.first)
        removed = UInt32(change.removed)
        paragraphs = (change.first..<(change.first + change.inserted)).map { index in
            var reply = Layoutd_V1_LayoutReply(document.placed(index))
            reply.ruleMatches = document.placedRuleMatches(index, names: ruleNames)
            return reply
        }
        deltaY = change.deltaY
        deltaOffset = Int64(change.deltaOffset)
        deltaLines = Int64(change.deltaLines)
        deltaAttachments = Int64(change.deltaAttachments)
        if document.isTypeMode {
            fittedLines = (change.first..<(change.first + change.inserted)).map { Layoutd_V1_FittedLines(document.paragraphs[$0].fitted) }
        }
    }
}

extension Layoutd_V1_FittedLines {
    public init(_ fitted: FittedLines?) {
        self.init()
        lineSizes = fitted?.sizes.map(Float.init) ?? []
        clamped = fitted?.clamped ?? []
    }
}
