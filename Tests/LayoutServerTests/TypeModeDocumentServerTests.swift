import Foundation
import LayoutdClient
import LayoutEngine
import LayoutWire
@testable import LayoutServer
import Testing

/// Type Mode in an editing session, through the daemon: a client that splices in the paragraphs
/// and line sizes each keystroke sends holds what justify gives for the whole text, backgrounds
/// and colours included; what would tie every line to the whole text is refused by name.
@Suite struct TypeModeDocumentServerTests {
    let daemon: Daemon
    init() throws { daemon = try Daemon() }

    static func story(_ text: String, preset: String = "strong") -> Layoutd_V1_JustifyRequest {
        .with {
            $0.text = text
            $0.preset = preset
            $0.width = 300
        }
    }

    static func open(_ client: LayoutClient, _ request: Layoutd_V1_JustifyRequest) throws -> Layoutd_V1_DocumentReply {
        guard case .documentReply(let reply) = try client.request(.openDocument(.with { $0.typeMode = request })) else {
            throw ClientError.protocolViolation("no document reply")
        }
        return reply
    }

    /// A client's copy: each paragraph's lines and its lines' sizes, spliced and moved by the
    /// changes as the protocol says.
    struct Mirror {
        var paragraphs: [Layoutd_V1_LayoutReply] = []
        var sizes: [Layoutd_V1_FittedLines] = []

        mutating func apply(_ reply: Layoutd_V1_DocumentReply) {
            for change in reply.changes {
                let first = Int(change.first), removed = Int(change.removed)
                #expect(change.fittedLines.count == change.paragraphs.count)
                paragraphs.replaceSubrange(first..<(first + removed), with: change.paragraphs)
                sizes.replaceSubrange(first..<(first + removed), with: change.fittedLines)
                for index in (first + change.paragraphs.count)..<paragraphs.count {
                    for line in paragraphs[index].lines.indices {
                        paragraphs[index].lines[line].range.start = UInt32(Int64(paragraphs[index].lines[line].range.start) + change.deltaOffset)
                        paragraphs[index].lines[line].usedRect.y += Float(change.deltaY)
                    }
                }
            }
        }
    }

    @Test func aClientsSplicedLinesEqualJustifyOfTheText() throws {
        let client = try daemon.client()
        var text = "so\nHAPPY\nto see you"
        let opened = try Self.open(client, Self.story(text))
        #expect(opened.paragraphCount == 3 && opened.story.preset == "strong" && opened.story.backgrounds.count == 1)
        var mirror = Mirror()
        mirror.apply(opened)
        let edits: [(Int, Int, String)] = [(8, 8, "!!"), (6, 6, "\n"), (0, 2, "oh so"), (Int.max, Int.max, " tonight"),
                                           (4, 6, ""), (0, 0, "😀 "), (12, 14, "")]
        for (start, end, inserted) in edits {
            let units = Array(text.utf16)
            let (a, b) = (min(start, units.count), min(end, units.count))
            do {
                let reply = try DocumentServerTests.edit(client, DocumentServerTests.replace(opened.document, a, b, inserted))
                text = String(decoding: units[..<a] + Array(inserted.utf16) + units[b...], as: UTF16.self)
                mirror.apply(reply)
                guard case .justifyReply(let fresh) = try client.request(.justify(Self.story(text))) else { Issue.record("no justify"); return }
                #expect(mirror.paragraphs.flatMap(\.lines).map(\.range) == fresh.lines.map(\.range), "after replacing \(a)..<\(b)")
                #expect(zip(mirror.paragraphs.flatMap(\.lines), fresh.lines).allSatisfy { abs($0.usedRect.y - $1.usedRect.y) < 1e-3 })
                #expect(mirror.paragraphs.flatMap { $0.runs.map(\.glyphIds) } == fresh.runs.map(\.glyphIds))
                #expect(mirror.sizes.flatMap(\.lineSizes) == fresh.lineSizes && mirror.sizes.flatMap(\.clamped) == fresh.clamped)
                #expect(abs(Float(reply.height) - fresh.height) < 1e-3 && reply.lineCount == UInt32(fresh.lines.count))
                // The connected background joins lines across paragraphs: it comes back whole.
                #expect(reply.story.backgrounds.count == fresh.backgrounds.count)
                for (ours, theirs) in zip(reply.story.backgrounds, fresh.backgrounds) {
                    #expect(ours.rects.count == theirs.rects.count && ours.path.count == theirs.path.count)
                    #expect(zip(ours.rects, theirs.rects).allSatisfy { abs($0.y - $1.y) < 1e-3 && abs($0.height - $1.height) < 1e-3 })
                }
                #expect(reply.story.effects == fresh.effects && reply.story.preset == fresh.preset)
            }
        }
        #expect(text == "😀 oh sHAP\nP!\nto see you tonight")
    }

    @Test func whatTiesEveryLineToTheWholeTextIsRefusedByName() throws {
        let client = try daemon.client()
        var uniform = Self.story("a\nb")
        uniform.sizing = .uniform
        var tall = Self.story("a\nb")
        tall.maxHeight = 200
        var highlight = Self.story("a\nb")
        highlight.backgrounds = [.with { $0.kind = .highlight; $0.range = .with { $0.length = 1 } }]
        var sized = Self.story("a\nb")
        sized.spans = [.with { $0.range = .with { $0.length = 1 }; $0.style.size = 30 }]
        var vertical = Self.story("縦\n書き")
        vertical.writingMode = .verticalRl
        let cases: [(Layoutd_V1_OpenDocumentRequest, String)] = [
            (.with { $0.typeMode = vertical }, "open_document.type_mode.writing_mode"),
            (.with { $0.typeMode = uniform }, "open_document.type_mode.sizing"),
            (.with { $0.typeMode = Self.story("a", preset: "classic") }, "open_document.type_mode.sizing"),
            (.with { $0.typeMode = tall }, "open_document.type_mode.max_height"),
            (.with { $0.typeMode = highlight }, "open_document.type_mode.backgrounds[0].kind"),
            (.with { $0.typeMode = sized }, "open_document.type_mode.spans[0].style.size"),
            (.with { $0.typeMode = Self.story("a"); $0.layout = layoutRequest("a") }, "open_document.type_mode"),
            (.with { $0.typeMode = Self.story("a", preset: "glossy") }, "open_document.type_mode.preset"),
        ]
        for (request, field) in cases {
            let error = try refusal(client, .openDocument(request))
            #expect(error?.code == .invalidArgument && error?.field == field, "\(field): \(String(describing: error))")
        }
        // A preset that sizes uniformly is edited per line when the request says so.
        var perLine = Self.story("a\nb", preset: "classic")
        perLine.sizing = .perLine
        let opened = try Self.open(client, perLine)
        // A style edit sets no size; the document is as it was.
        let sizedEdit = try refusal(client, .editDocument(.with {
            $0.document = opened.document
            $0.edits = [.with { $0.style = .with { $0.range = .with { $0.length = 1 }; $0.style.size = 40 } }]
        }))
        #expect(sizedEdit?.field == "edit_document.edits[0].style.style.size")
        let bold = try DocumentServerTests.edit(client, .with {
            $0.document = opened.document
            $0.edits = [.with { $0.style = .with { $0.range = .with { $0.length = 1 }; $0.style.weight = 900 } }]
        })
        #expect(bold.changes.first?.fittedLines.count == 1 && bold.story.preset == "classic")
    }

    /// The story's backgrounds are made over the whole text after each edit: where they pass the
    /// rects one reply may hold, opening keeps nothing and an edit is undone.
    @Test func backgroundsThatCannotBeMadeOpenNothingAndUndoTheEdit() throws {
        let processor = try RequestProcessor.standalone()
        let ledger = DocumentLedger(limits: DocumentLimits())
        let store = DocumentStore(ledger: ledger)
        func answer(_ body: Layoutd_V1_Envelope.OneOf_Body) throws -> Layoutd_V1_Envelope {
            var envelope = Layoutd_V1_Envelope()
            envelope.body = body
            let frame = try processor.documentReplyFrame(to: envelope, documents: store, now: 0, budget: .unlimited)
            return try Layoutd_V1_Envelope(serializedBytes: Array(frame.dropFirst(Framing.headerBytes)))
        }
        // 64 per-line backgrounds: a rect each a line, so 64 lines reach the 4,096 rects a reply may hold.
        func story(lines: Int) -> Layoutd_V1_JustifyRequest {
            var request = Self.story(Array(repeating: "ab", count: lines).joined(separator: "\n"), preset: "modern")
            request.backgrounds = Array(repeating: .with { $0.kind = .perLine }, count: 64)
            return request
        }
        let tooMany = try answer(.openDocument(.with { $0.typeMode = story(lines: 80) }))
        #expect(tooMany.errorReply?.code == .resourceExhausted && tooMany.errorReply?.field == "open_document.type_mode.backgrounds",
                "\(String(describing: tooMany.errorReply))")
        #expect(store.count == 0 && ledger.units == 0, "nothing kept")
        let opened = try answer(.openDocument(.with { $0.typeMode = story(lines: 40) }))
        guard case .documentReply(let reply) = opened.body else { Issue.record("no document reply: \(opened)"); return }
        #expect(reply.story.backgrounds.count == 64 && reply.lineCount == 40)
        let longer = try answer(.editDocument(DocumentServerTests.replace(reply.document, 0, 0, String(repeating: "cd\n", count: 40))))
        #expect(longer.errorReply?.code == .resourceExhausted && longer.errorReply?.field == "edit_document.document.backgrounds",
                "\(String(describing: longer.errorReply))")
        let after = try answer(.editDocument(.with { $0.document = reply.document }))
        guard case .documentReply(let unchanged) = after.body else { Issue.record("no document reply"); return }
        #expect(unchanged.lineCount == 40 && unchanged.textLength == reply.textLength && ledger.units == Int(reply.textLength),
                "the edit was undone")
    }

    /// A keystroke is answered on the event loop only when it is small: in a long story with a
    /// background, the background made over the whole story is not.
    @Test func aKeystrokeInALongStoryWithABackgroundIsNotSmall() throws {
        let processor = try RequestProcessor.standalone()
        let store = DocumentStore(ledger: DocumentLedger(limits: DocumentLimits()))
        let text = Array(repeating: "a caption of a few words", count: 120).joined(separator: "\n")  // ~3,000 units
        for (preset, small) in [("modern", true), ("strong", false)] {
            var open = Layoutd_V1_Envelope()
            open.openDocument = .with { $0.typeMode = Self.story(text, preset: preset) }
            let frame = try processor.documentReplyFrame(to: open, documents: store, now: 0, budget: .unlimited)
            guard case .documentReply(let opened) = try Layoutd_V1_Envelope(serializedBytes: Array(frame.dropFirst(Framing.headerBytes))).body else {
                Issue.record("no document reply"); return
            }
            var keystroke = Layoutd_V1_Envelope()
            keystroke.editDocument = DocumentServerTests.replace(opened.document, 3, 3, "x")
            #expect(processor.isSmallDocumentRequest(keystroke, documents: store) == small, "\(preset)")
        }
    }

    @Test func layoutctlEditsATypeModeStory() throws {
        let ctl = Daemon.binary("layoutctl")
        let commands = "replace 8 8 !!\nstyle 0 2 size=30\nshow\n"
        let session = try run("/bin/sh", ["-c", "printf '\(commands)' | \"$0\" \"$@\"", ctl, "typemode", "--edit", "--socket", daemon.socketPath,
                                          "--style", "strong", "--width", "300", "so\\nHAPPY\\nto see you"])
        #expect(session.status == 0, "\(session.err)")
        let out = session.out
        #expect(out.contains("open: paragraphs 0..<0 laid out again as 3"))
        #expect(out.contains("size  96.00  \"so\\n\""), "\(out)")
        #expect(out.contains("edit 1: paragraphs 1..<2 laid out again as 1; 1 after them moved -"))
        #expect(out.contains("preset strong, 1 background(s)"))
        #expect(out.contains("error: edit_document.edits[0].style.style.size"))
        #expect(out.hasSuffix("\"to see you\"\n"), "\(out)")
    }
}
