import Testing
@testable import LayoutEngine

/// How a request is made: the public initializer (through the compiler's memberwise one) and a
/// document paragraph's request from its document's (`init(_:text:attachments:)`), which passes
/// every field on by name.
@Suite struct ParagraphRequestTests {
    static let style = TextStyle(family: "Noto Sans", size: 17)

    static func text(_ string: String) -> AttributedText { AttributedText(string, style: style) }

    /// Every stored field, as `Mirror` lists them. A field added to `ParagraphRequest` fails this
    /// until it is added here, and to `init(_:text:attachments:)` where a template's must carry over.
    static let fields = ["text", "width", "height", "alignment", "direction", "lineHeightMultiple", "lineHeight", "maxLines",
                         "truncationToken", "truncationMode", "attachments", "flow", "flowStart", "writingMode", "combineUpright",
                         "combinesLetters", "textOrientation", "typography", "memberwiseInitializerIsPrivate"]

    static func described(_ request: ParagraphRequest) -> [String: String] {
        Dictionary(uniqueKeysWithValues: Mirror(reflecting: request).children.map { ($0.label ?? "?", String(describing: $0.value)) })
    }

    @Test func theFieldsAreTheOnesListed() {
        let labels = Mirror(reflecting: ParagraphRequest(text: Self.text("a"), width: 10)).children.map { $0.label ?? "?" }
        #expect(labels == Self.fields)
    }

    @Test func thePublicInitializerSetsWhatItIsGivenAndDefaultsTheRest() {
        let request = ParagraphRequest(text: Self.text("abc"), width: 120, height: 40, alignment: .center, direction: .rightToLeft,
                                       lineHeightMultiple: 1.5, lineHeight: 30, maxLines: 2, truncationToken: "~")
        #expect(request.width == 120 && request.height == 40 && request.alignment == .center && request.direction == .rightToLeft)
        #expect(request.lineHeightMultiple == 1.5 && request.lineHeight == 30 && request.maxLines == 2 && request.truncationToken == "~")
        #expect(request.truncationMode == .tail && request.flow == nil && request.flowStart == nil && request.writingMode == .horizontal)
        #expect(request.combineUpright == 0 && !request.combinesLetters && request.textOrientation == .mixed && request.typography == nil)
        #expect(request.attachments.isEmpty && request.text.units == Self.text("abc").units)
        let plain = ParagraphRequest(text: Self.text("abc"), width: 120)
        #expect(plain.truncationToken == ParagraphRequest.defaultTruncationToken && plain.height == nil && plain.maxLines == nil)
        #expect(plain.alignment == .natural && plain.direction == .auto && plain.lineHeightMultiple == 1 && plain.lineHeight == nil)
    }

    /// A template with every field set away from its default: the paragraph's request keeps each
    /// but its text and attachments.
    @Test func aParagraphsRequestKeepsEveryFieldOfItsTemplateButTheText() {
        var template = ParagraphRequest(text: Self.text("template"), width: 300, height: 500, alignment: .justified,
                                        direction: .leftToRight, lineHeightMultiple: 1.2, lineHeight: 28, maxLines: 9,
                                        truncationToken: "...", attachments: [InlineAttachment(width: 5, extent: .height(5))])
        template.truncationMode = .middle
        template.flow = TextFlow(containers: [TextContainer(width: 300, height: 500)], minimumFragmentWidth: 12)
        template.flowStart = FlowStart(container: 0, top: 7)
        template.writingMode = .verticalRightToLeft
        template.combineUpright = 2
        template.combinesLetters = true
        template.textOrientation = .upright
        template.paragraphStyle = ParagraphStyle(firstLineHeadIndent: 10, spacingAfter: 4)
        template.measuresInk = true
        let text = Self.text("paragraph")
        let made = ParagraphRequest(template, text: text, attachments: [])
        var changed = template
        changed.text = text
        changed.attachments = []
        let (want, got) = (Self.described(changed), Self.described(made))
        for field in Self.fields { #expect(got[field] == want[field], "\(field)") }
        // The two fields that are references print alike whatever they hold: held by identity.
        #expect(made.text.units == text.units && made.typography === template.typography && made.typography != nil)
    }
}
