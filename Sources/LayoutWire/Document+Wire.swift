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
}

extension Layoutd_V1_LayoutRequest {
    /// The document this request opens, checked as a layout request is (fields relative to it),
    /// and refusing what a document cannot keep: backgrounds (they join lines across paragraphs).
    public func documentOpening(fonts: FontRegistry) throws(LayoutError) -> DocumentOpening {
        guard backgrounds.isEmpty else {
            throw LayoutError(.invalidArgument, "documents do not draw backgrounds; ask a layout request for them", field: "backgrounds")
        }
        // Every setting as a layout request makes it, from the request without its text and spans.
        var settingsOnly = self
        settingsOnly.text = ""
        settingsOnly.spans = []
        settingsOnly.attachments = []
        settingsOnly.rules = []
        settingsOnly.builtinRules = .none
        let template = try settingsOnly.formattedRequest(fonts: fonts).request
        let rules = try compiledRules(fonts: fonts)
        let units = AttributedText.utf16(text)
        let spans = try self.spans.engineSpans(in: text, units: units.count, fonts: fonts)
        let attachments = try self.attachments.inlineAttachments(fonts: fonts)
        let settings = DocumentSettings(request: template, style: template.text.styles[0], paint: template.text.paints[0], rules: rules)
        return DocumentOpening(settings: settings, units: units, spans: spans, attachments: attachments, ruleNames: rules.map(\.rule.name))
    }
}

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
    }
}
