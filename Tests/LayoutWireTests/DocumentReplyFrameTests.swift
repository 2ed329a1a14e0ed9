import Foundation
import LayoutEngine
import LayoutRules
import LayoutWire
import Testing

/// The document reply written straight from the document equals swift-protobuf's bytes for the
/// same envelope: opening (rule matches, attachments, paints, ink), an edit that moves what
/// follows up (negative deltas), and a summary with a caret and hits.
@Suite struct DocumentReplyFrameTests {
    static let layouter = LayoutReplyFrameTests.layouter
    static let rule = try! CompiledRule(FormattingRule(name: "bold", pattern: #"\*([^*\n]+)\*"#, group: 1, patch: StylePatch(weight: 700),
                                                       hidesMarkers: true), field: "rules[0]")

    static func swiftProtobufFrame(_ id: UInt64, summary: Layoutd_V1_DocumentReply, changes: [Layoutd_V1_ParagraphChange]) throws -> [UInt8] {
        var reply = summary
        reply.changes = changes
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = id
        envelope.body = .documentReply(reply)
        return try Framing.encode(envelope)
    }

    @Test func equalsSwiftProtobufForOpeningAndEditing() throws {
        let style = TextStyle(family: "Noto Sans", size: 20)
        var request = ParagraphRequest(text: AttributedText("", style: style), width: 220)
        request.measuresInk = true
        let settings = DocumentSettings(request: request, style: style, rules: [Self.rule])
        let text = "Some *bold* words and a box \u{FFFC} here.\nمرحبا بالعالم second paragraph.\nA third, coloured one."
        let units = AttributedText.utf16(text)
        let document = try TextDocument(units: units, spans: [AttributedText.Span(range: 60..<70, patch: StylePatch(color: Color(red: 1, green: 0, blue: 0)))],
                                        attachments: [InlineAttachment(width: 20, extent: .height(16))], settings: settings, layouter: Self.layouter)
        var summary = Layoutd_V1_DocumentReply()
        summary.document = 3
        summary.textLength = UInt32(document.length)
        summary.paragraphCount = UInt32(document.paragraphs.count)
        summary.lineCount = UInt32(document.lineCount)
        summary.width = document.width
        summary.height = document.height
        let opening = document.openingChange
        let ours = DocumentReplyFrame.encode(requestID: 11, summary: summary, parts: [DocumentReplyFrame.Part(opening, document: document, ruleNames: ["bold"])])
        let theirs = try Self.swiftProtobufFrame(11, summary: summary, changes: [Layoutd_V1_ParagraphChange(opening, document: document, ruleNames: ["bold"])])
        #expect(ours == theirs)
        // Deleting most of the first paragraph moves the rest up: negative deltas.
        let change = try document.replace(4..<30, with: [])
        #expect(change.deltaY <= 0 && change.deltaOffset < 0)
        summary.caretPosition = .with { $0.offset = UInt32(change.caret.offset) }
        summary.caret = .with { $0.primary = .with { $0.x = 3; $0.height = 20 }; $0.lineIndex = 0 }
        summary.hits = [.with { $0.position.offset = 2; $0.lineIndex = 1 }]
        summary.textLength = UInt32(document.length)
        let edited = DocumentReplyFrame.encode(requestID: .max, summary: summary, parts: [DocumentReplyFrame.Part(change, document: document, ruleNames: ["bold"])])
        let reference = try Self.swiftProtobufFrame(.max, summary: summary, changes: [Layoutd_V1_ParagraphChange(change, document: document, ruleNames: ["bold"])])
        #expect(edited == reference)
        let decoded = try Layoutd_V1_Envelope(serializedBytes: Array(edited.dropFirst(Framing.headerBytes)))
        guard case .documentReply(let reply) = decoded.body else { Issue.record("not a document reply"); return }
        #expect(reply.changes.count == 1 && reply.changes[0].deltaOffset == -26 && reply.hits.count == 1)

        // A keystroke's summary, without hits or carets asked for: written field by field.
        let typed = try document.replace(4..<4, with: [0x78])
        summary.hits = []
        summary.textLength = UInt32(document.length)
        summary.width = -0.0
        for caret in [Layoutd_V1_Caret.with { $0.primary = .with { $0.x = -0.0; $0.y = 1.5; $0.width = 1; $0.height = 20 }
                                               $0.secondary = .with { $0.x = 40 }; $0.lineIndex = 2 },
                      Layoutd_V1_Caret.with { $0.primary = .init() }, Layoutd_V1_Caret()] {
            for position in [Layoutd_V1_TextPosition.with { $0.offset = 5; $0.affinity = .upstream }, Layoutd_V1_TextPosition()] {
                summary.caret = caret
                summary.caretPosition = position
                let keystroke = DocumentReplyFrame.encode(requestID: 12, summary: summary,
                                                          parts: [DocumentReplyFrame.Part(typed, document: document, ruleNames: ["bold"])])
                let expected = try Self.swiftProtobufFrame(12, summary: summary,
                                                           changes: [Layoutd_V1_ParagraphChange(typed, document: document, ruleNames: ["bold"])])
                #expect(keystroke == expected, "\(caret) \(position)")
            }
        }
        summary.clearCaret()
        summary.clearCaretPosition()
        let bare = DocumentReplyFrame.encode(requestID: 13, summary: summary, parts: [])
        #expect(bare == (try Self.swiftProtobufFrame(13, summary: summary, changes: [])))
    }

    /// A document's views (more layouts of its text) follow the summary: each view's changes and
    /// size, as swift-protobuf writes `DocumentReply.views`, with and without hits asked for.
    @Test func equalsSwiftProtobufWithViews() throws {
        let style = TextStyle(family: "Noto Sans", size: 20)
        let text = AttributedText.utf16("A first paragraph that wraps at the narrow width.\nA second, short.")
        func document(width: Double, size: Double) throws -> TextDocument {
            var viewStyle = style
            viewStyle.size = size
            let settings = DocumentSettings(request: ParagraphRequest(text: AttributedText("", style: viewStyle), width: width), style: viewStyle)
            return try TextDocument(units: text, settings: settings, layouter: Self.layouter)
        }
        let main = try document(width: 300, size: 20), narrow = try document(width: 120, size: 16), empty = try TextDocument(
            units: [], settings: DocumentSettings(request: ParagraphRequest(text: AttributedText("", style: style), width: 100), style: style),
            layouter: Self.layouter)
        var summary = Layoutd_V1_DocumentReply()
        summary.document = 2
        summary.lineCount = UInt32(main.lineCount)
        for hits in [[], [Layoutd_V1_Hit.with { $0.lineIndex = 1 }]] {
            summary.hits = hits
            let views = [narrow, empty].map { view in
                DocumentReplyFrame.View(of: view, parts: [DocumentReplyFrame.Part(view.openingChange, document: view, ruleNames: [])])
            }
            let ours = DocumentReplyFrame.encode(requestID: 4, summary: summary, parts: [DocumentReplyFrame.Part(main.openingChange, document: main, ruleNames: [])],
                                                 views: views)
            var reference = summary
            reference.views = [narrow, empty].map { view in
                Layoutd_V1_DocumentView.with {
                    $0.changes = [Layoutd_V1_ParagraphChange(view.openingChange, document: view, ruleNames: [])]
                    $0.lineCount = UInt32(view.lineCount)
                    $0.width = view.width
                    $0.height = view.height
                }
            }
            let theirs = try Self.swiftProtobufFrame(4, summary: reference, changes: [Layoutd_V1_ParagraphChange(main.openingChange, document: main, ruleNames: [])])
            #expect(ours == theirs, "hits \(hits.count)")
            let decoded = try Layoutd_V1_Envelope(serializedBytes: Array(ours.dropFirst(Framing.headerBytes)))
            guard case .documentReply(let reply) = decoded.body else { Issue.record("not a document reply"); return }
            #expect(reply.views.count == 2 && reply.views[0].lineCount > reply.lineCount && reply.views[1].lineCount == 0)
        }
    }

    /// A Type Mode document's changes carry each paragraph's line sizes, and its summary the
    /// story's look: both written as swift-protobuf writes them, an empty paragraph's too.
    @Test func equalsSwiftProtobufForTypeModeDocuments() throws {
        let fit = TypeModeRequest(text: "", style: TextStyle(family: "Noto Sans", weight: 900), width: 300, minSize: 14, maxSize: 96,
                                  alignment: .center)
        let document = try TextDocument(units: [], settings: DocumentSettings(typeMode: fit), layouter: Self.layouter)
        var summary = Layoutd_V1_DocumentReply()
        summary.document = 5
        summary.story.preset = "strong"
        summary.story.effects = .with { $0.textColor = .with { $0.red = 1; $0.green = 0.5 } }
        let empty = DocumentReplyFrame.Part(document.openingChange, document: document, ruleNames: [])
        #expect(empty.fittedLines.count == 1 && empty.fittedLines[0].lineSizes.isEmpty)
        #expect(DocumentReplyFrame.encode(requestID: 1, summary: summary, parts: [empty], story: summary.story)
                == (try Self.swiftProtobufFrame(1, summary: summary, changes: [Layoutd_V1_ParagraphChange(document.openingChange, document: document, ruleNames: [])])))
        let typed = try document.replace(0..<0, with: AttributedText.utf16("so\nHAPPY\nto see you"))
        summary.story.backgrounds = [.with { $0.rects = [.with { $0.x = 1; $0.width = 20; $0.height = 30 }] }]
        summary.textLength = UInt32(document.length)
        let part = DocumentReplyFrame.Part(typed, document: document, ruleNames: [])
        #expect(part.fittedLines.map(\.lineSizes.count) == [1, 1, 1])
        let ours = DocumentReplyFrame.encode(requestID: 2, summary: summary, parts: [part], story: summary.story)
        let theirs = try Self.swiftProtobufFrame(2, summary: summary, changes: [Layoutd_V1_ParagraphChange(typed, document: document, ruleNames: [])])
        #expect(ours == theirs)
        // With hits asked for, the summary's rest is swift-protobuf's; the story still follows it.
        summary.hits = [.with { $0.lineIndex = 2 }]
        #expect(DocumentReplyFrame.encode(requestID: 3, summary: summary, parts: [part], story: summary.story)
                == (try Self.swiftProtobufFrame(3, summary: summary, changes: [Layoutd_V1_ParagraphChange(typed, document: document, ruleNames: [])])))
        summary.hits = []
        let decoded = try Layoutd_V1_Envelope(serializedBytes: Array(ours.dropFirst(Framing.headerBytes)))
        guard case .documentReply(let reply) = decoded.body else { Issue.record("not a document reply"); return }
        #expect(reply.changes[0].fittedLines[0].lineSizes == [96] && reply.changes[0].fittedLines[0].clamped == [true])
        #expect(reply.story.backgrounds.count == 1 && reply.story.preset == "strong")
    }

    /// Paragraphs without ink, attachments or decorations are put in place as they are written
    /// (`LayoutReplyFrame.writeReply(_:placed:…)`), the others from a placed copy: both give
    /// swift-protobuf's bytes for the placed layout, at every paragraph of a document, after an
    /// edit in its middle, and over the corpus where it is beside the repository.
    @Test func paragraphsPlacedAsTheyAreWrittenEqualPlacedCopies() throws {
        let style = TextStyle(family: "Noto Sans", size: 18)
        let settings = DocumentSettings(request: ParagraphRequest(text: AttributedText("", style: style), width: 180), style: style)
        let captions = (LayoutReplyFrameTests.corpus ?? []).prefix(120)
        let own = ["A first paragraph that wraps onto a second line.", "مرحبا بالعالم, and back to English.",
                   "A box \u{FFFC} inside.", "An underlined paragraph, then one more.", "", "The last one."]
        let text = (own + captions.map { $0.replacingOccurrences(of: "\n", with: " ") }).joined(separator: "\n")
        let units = AttributedText.utf16(text)
        let underlined = AttributedText.utf16(own[0..<3].joined(separator: "\n")).count + 1
        let document = try TextDocument(units: units, spans: [AttributedText.Span(range: underlined..<(underlined + 10),
                                                                                  patch: StylePatch(underline: .set(DecorationLine())))],
                                        attachments: [InlineAttachment(width: 20, extent: .height(16))], settings: settings,
                                        layouter: Self.layouter)
        #expect(document.paragraphs.contains { $0.layout.movesOnlyLinesAndRuns }
                && document.paragraphs.contains { !$0.layout.movesOnlyLinesAndRuns })
        var summary = Layoutd_V1_DocumentReply()
        summary.document = 1
        func check(_ change: DocumentChange) throws {
            let ours = DocumentReplyFrame.encode(requestID: 5, summary: summary, parts: [DocumentReplyFrame.Part(change, document: document, ruleNames: [])])
            let theirs = try Self.swiftProtobufFrame(5, summary: summary, changes: [Layoutd_V1_ParagraphChange(change, document: document, ruleNames: [])])
            // Compared as one Bool: a failure names the paragraphs, not a megabyte of both frames.
            let same = ours == theirs
            #expect(same, "paragraphs \(change.first)..<\(change.first + change.inserted): \(ours.count) bytes against \(theirs.count)")
        }
        try check(document.openingChange)
        // A keystroke in the fourth paragraph, and its deletion: the paragraph is placed below three.
        let middle = AttributedText.utf16(own[0..<3].joined(separator: "\n")).count + 5
        try check(try document.replace(middle..<middle, with: [0x78]))
        try check(try document.replace(middle..<(middle + 1), with: []))
        try check(try document.replace(0..<0, with: [0x41]))
    }
}
