import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Editing sessions through the daemon: a client that splices in the paragraphs each edit sends
/// and moves the rest by the deltas holds the same lines as a fresh layout of the text; bad
/// edits, strangers' ids, limits and idle documents are refused by name.
@Suite struct DocumentServerTests {
    /// How the tests' documents are set: plain, spaced as a numbered list (a split or a join
    /// renumbers the rest), around an ellipse, or in two columns (the second growing).
    enum Setting: CaseIterable { case plain, spacedList, aroundEllipse, columns }

    static func layout(_ text: String, width: Float = 240, setting: Setting = .plain) -> Layoutd_V1_LayoutRequest {
        .with {
            $0.text = text
            $0.width = width
            $0.defaultStyle.size = 18
            switch setting {
            case .plain: break
            case .spacedList:
                $0.paragraphStyle.spacingAfter = 12
                $0.paragraphStyle.list = .with { $0.marker = .decimal; $0.start = 1 }
            case .aroundEllipse:
                $0.exclusions = [.with {
                    $0.shape.ellipse = .with { $0.x = 90; $0.y = 10; $0.width = 70; $0.height = 80 }
                    $0.margin = 4
                }]
            case .columns:
                $0.width = 0  // each container has its own
                $0.containers = [.with { $0.width = 150; $0.height = 100 },
                                 .with { $0.origin = .with { $0.x = 170 }; $0.width = 150 }]
            }
        }
    }

    static func replace(_ document: UInt64, _ start: Int, _ end: Int, _ text: String) -> Layoutd_V1_EditDocumentRequest {
        .with {
            $0.document = document
            $0.edits = [.with { $0.replace = .with { $0.range = .with { $0.start = UInt32(start); $0.length = UInt32(end - start) }; $0.text = text } }]
        }
    }

    static func open(_ client: LayoutClient, _ text: String, width: Float = 240, setting: Setting = .plain) throws -> Layoutd_V1_DocumentReply {
        guard case .documentReply(let reply) = try client.request(.openDocument(.with { $0.layout = layout(text, width: width, setting: setting) })) else {
            throw ClientError.protocolViolation("no document reply")
        }
        return reply
    }

    static func edit(_ client: LayoutClient, _ request: Layoutd_V1_EditDocumentRequest) throws -> Layoutd_V1_DocumentReply {
        guard case .documentReply(let reply) = try client.request(.editDocument(request)) else {
            throw ClientError.protocolViolation("no document reply")
        }
        return reply
    }

    /// A client's copy of the lines, kept by the protocol's rules.
    struct Mirror {
        var paragraphs: [Layoutd_V1_LayoutReply] = []

        mutating func apply(_ reply: Layoutd_V1_DocumentReply) {
            for change in reply.changes {
                let first = Int(change.first)
                paragraphs.replaceSubrange(first..<(first + Int(change.removed)), with: change.paragraphs)
                for index in (first + change.paragraphs.count)..<paragraphs.count {
                    for line in paragraphs[index].lines.indices {
                        paragraphs[index].lines[line].range.start = UInt32(Int64(paragraphs[index].lines[line].range.start) + change.deltaOffset)
                        paragraphs[index].lines[line].usedRect.y += Float(change.deltaY)
                    }
                    for run in paragraphs[index].runs.indices {
                        paragraphs[index].runs[run].lineIndex = UInt32(Int64(paragraphs[index].runs[run].lineIndex) + change.deltaLines)
                    }
                }
            }
        }

        var lines: [Layoutd_V1_Line] { paragraphs.flatMap(\.lines) }
        var glyphIDs: [[UInt32]] { paragraphs.flatMap { $0.runs.map(\.glyphIds) } }
    }

    @Test(arguments: Setting.allCases)
    func aClientsSplicedLinesEqualAFreshLayout(setting: Setting) throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var text = "A note of a few paragraphs.\nThe second wraps over more than one line at this width, surely.\nمرحبا بالعالم third.\nLast."
        let opened = try Self.open(client, text, setting: setting)
        #expect(opened.document == 1 && opened.paragraphCount == 4 && opened.changes.count == 1)
        var mirror = Mirror()
        mirror.apply(opened)
        if setting == .columns { #expect(mirror.lines.contains { $0.container == 1 }, "the text reaches the second column") }
        if setting == .aroundEllipse { #expect(mirror.lines.contains { $0.usedRect.x > 150 }, "text beside the ellipse") }
        let edits: [(Int, Int, String)] = [(30, 30, "much longer and "), (0, 2, ""), (20, 21, "\n"), (60, 75, "joined "), (0, 0, "😀 "),
                                           (text.utf16.count - 5, text.utf16.count - 5, " and more words to wrap the line")]
        for (start, end, inserted) in edits {
            let units = Array(text.utf16)
            let (a, b) = (min(start, units.count), min(end, units.count))
            let reply = try Self.edit(client, Self.replace(opened.document, a, b, inserted))
            text = String(decoding: units[..<a] + Array(inserted.utf16) + units[b...], as: UTF16.self)
            #expect(reply.textLength == UInt32(text.utf16.count))
            #expect(reply.caretPosition.offset == UInt32(a + inserted.utf16.count) && reply.hasCaret)
            mirror.apply(reply)
            guard case .layoutReply(let fresh) = try client.request(.layout(Self.layout(text, setting: setting))) else { Issue.record("no layout"); return }
            #expect(mirror.lines.map(\.range) == fresh.lines.map(\.range), "after replacing \(a)..<\(b)")
            #expect(zip(mirror.lines, fresh.lines).allSatisfy { abs($0.usedRect.y - $1.usedRect.y) < 1e-3 && abs($0.usedRect.x - $1.usedRect.x) < 1e-3 })
            #expect(mirror.lines.map(\.container) == fresh.lines.map(\.container))
            #expect(mirror.glyphIDs == fresh.runs.map(\.glyphIds))
            #expect(reply.lineCount == UInt32(fresh.lines.count) && abs(Float(reply.height) - fresh.height) < 1e-3)
        }
        // A point hit-tested and a caret placed in the document agree with a hit-test of the text.
        let ask = Layoutd_V1_EditDocumentRequest.with {
            $0.document = opened.document
            $0.points = [.with { $0.x = 30; $0.y = 40 }]
            $0.carets = [.with { $0.offset = 12 }]
        }
        let answers = try Self.edit(client, ask)
        guard case .hitTestReply(let whole) = try client.request(.hitTest(.with {
            $0.layout = Self.layout(text, setting: setting)
            $0.points = ask.points
            $0.carets = ask.carets
        })) else { Issue.record("no hit-test reply"); return }
        #expect(answers.hits == whole.hits)
        #expect(answers.carets.map(\.primary) == whole.carets.map(\.primary))
        #expect(answers.changes.isEmpty && !answers.hasCaret)
    }

    @Test func pipelinedEditsApplyInTheOrderSent() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        let opened = try Self.open(client, "")
        let letters = (0..<40).map { String(UnicodeScalar(UInt8(97 + $0 % 26))) }
        var ids: [UInt64] = []
        for (index, letter) in letters.enumerated() {
            var envelope = Layoutd_V1_Envelope()
            envelope.requestID = client.makeID()
            envelope.editDocument = Self.replace(opened.document, index, index, letter)
            try client.send(envelope)
            ids.append(envelope.requestID)
        }
        var lengths: [UInt32] = []
        for id in ids {
            guard case .documentReply(let reply) = try client.receive(id: id).body else { Issue.record("no reply"); return }
            lengths.append(reply.textLength)
        }
        #expect(lengths == (1...40).map(UInt32.init))
        let ask = Layoutd_V1_EditDocumentRequest.with { $0.document = opened.document; $0.carets = [.with { $0.offset = 40 }] }
        #expect(try Self.edit(client, ask).textLength == 40)
        // Edits of a long paragraph go to the workers, edits of a short one may be answered on
        // the connection's loop: sent alternately without waiting, they still apply in order.
        let long = String(repeating: "word ", count: 800)
        let mixed = try Self.open(client, long + "\nshort")
        ids = []
        for index in 0..<20 {
            var envelope = Layoutd_V1_Envelope()
            envelope.requestID = client.makeID()
            // Each edit inserts at the end of the text as it stands after the ones before.
            let end = long.utf16.count + 6 + index
            envelope.editDocument = index % 2 == 0 ? Self.replace(mixed.document, 0, 0, "a") : Self.replace(mixed.document, end, end, "b")
            try client.send(envelope)
            ids.append(envelope.requestID)
        }
        var failures: [String] = []
        for id in ids {
            let reply = try client.receive(id: id)
            if case .error(let error) = reply.body { failures.append(error.message) }
        }
        #expect(failures.isEmpty)
        let text = try Self.edit(client, .with { $0.document = mixed.document })
        #expect(text.textLength == UInt32(long.utf16.count + 6 + 20))
    }

    @Test func badEditsAreRefusedByNameAndChangeNothing() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        let opened = try Self.open(client, "a 😀 b\nsecond")
        let id = opened.document
        let outside = try refusal(client, .editDocument(Self.replace(id, 5, 99, "x")))
        #expect(outside?.code == .invalidArgument && outside?.field == "edit_document.edits[0].replace.range")
        let split = try refusal(client, .editDocument(Self.replace(id, 3, 3, "x")))
        #expect(split?.field == "edit_document.edits[0].replace.range" && split?.message.contains("surrogate pair") == true)
        let holder = try refusal(client, .editDocument(Self.replace(id, 0, 0, "\u{FFFC}")))
        #expect(holder?.field == "edit_document.edits[0].replace.attachments")
        // Several edits are all or none: the second cuts the pair the first moved to 8..<10, so the first is undone.
        var both = Self.replace(id, 0, 0, "first ")
        both.edits.append(.with { $0.style = .with { $0.range = .with { $0.start = 9; $0.length = 1 }; $0.style.weight = 700 } })
        let second = try refusal(client, .editDocument(both))
        #expect(second?.field == "edit_document.edits[1].style.range")
        let unknown = try refusal(client, .editDocument(.with { $0.document = 77 }))
        #expect(unknown?.code == .notFound && unknown?.field == "edit_document.document")
        let empty = try refusal(client, .editDocument(.with { $0.document = id; $0.edits = [.init()] }))
        #expect(empty?.field == "edit_document.edits[0].edit")
        let after = try Self.edit(client, .with { $0.document = id })
        #expect(after.textLength == 13 && after.paragraphCount == 2)
        // What a document cannot keep is refused when it opens.
        var limited = Self.layout("x")
        limited.maxLines = 2
        #expect(try refusal(client, .openDocument(.with { $0.layout = limited }))?.field == "open_document.layout.max_lines")
        var vertical = Self.layout("x")
        vertical.writingMode = .verticalRl
        vertical.height = 100
        #expect(try refusal(client, .openDocument(.with { $0.layout = vertical }))?.field == "open_document.layout.writing_mode")
        #expect(try refusal(client, .openDocument(.init()))?.field == "open_document.layout")
        // Closing twice: the second is NOT_FOUND.
        _ = try client.request(.closeDocument(.with { $0.document = id }))
        #expect(try refusal(client, .closeDocument(.with { $0.document = id }))?.code == .notFound)
    }

    @Test func documentsBelongToTheirConnection() throws {
        let daemon = try Daemon()
        let owner = try daemon.client()
        let stranger = try daemon.client()
        let opened = try Self.open(owner, "mine")
        let refused = try refusal(stranger, .editDocument(.with { $0.document = opened.document }))
        #expect(refused?.code == .notFound)
        #expect(try Self.edit(owner, .with { $0.document = opened.document }).textLength == 4)
    }

    @Test func limitsAndIdleDocumentsAreEnforced() throws {
        let daemon = try Daemon(arguments: ["--max-documents", "2", "--document-idle-timeout", "1", "--max-text", "64"])
        let client = try daemon.client()
        let first = try Self.open(client, "one")
        _ = try Self.open(client, "two")
        let third = try refusal(client, .openDocument(.with { $0.layout = Self.layout("three") }))
        #expect(third?.code == .resourceExhausted && third?.message.contains("2 documents") == true)
        let long = try refusal(client, .editDocument(Self.replace(first.document, 0, 0, String(repeating: "x", count: 80))))
        #expect(long?.code == .resourceExhausted && long?.field == "edit_document.edits[0].replace.text")
        // Unused past the idle time, both close; room opens again.
        Thread.sleep(forTimeInterval: 2.5)
        #expect(try refusal(client, .editDocument(.with { $0.document = first.document }))?.code == .notFound)
        #expect(try Self.open(client, "again").document == 3)
    }

    @Test func layoutctlEditRunsASessionFromStandardInput() throws {
        let daemon = try Daemon()
        let ctl = Daemon.binary("layoutctl")
        let commands = "replace 5 5 , longer\nstyle 0 5 bold\nreplace 99 100 x\nhit 10 30\ncaret 3\nbogus\nshow\n"
        let session = try run("/bin/sh", ["-c", "printf '\(commands)' | \"$0\" \"$@\"", ctl, "edit", "--socket", daemon.socketPath,
                                          "--width", "200", "First paragraph.\\nSecond one."])
        #expect(session.status == 0, "\(session.err)")
        let out = session.out
        #expect(out.contains("open: paragraphs 0..<0 laid out again as 2"))
        #expect(out.contains("edit 1: paragraphs 0..<1 laid out again as 1; 1 after them moved"))
        #expect(out.contains("edit 2: paragraphs 0..<1 laid out again as 1"))
        #expect(out.contains("error: edit_document.edits[0].replace.range: range 99..<100 is outside the document's 36 UTF-16 units"))
        #expect(out.contains("hit → offset ") && out.contains("caret → x "))
        #expect(out.contains("error: unknown command bogus"))
        // show prints the lines the client kept by splicing: the edited text, then the untouched one.
        #expect(out.contains("\"First, longer paragraph.\\n\"") && out.hasSuffix("\"Second one.\"\n"), "\(out)")
    }
}
