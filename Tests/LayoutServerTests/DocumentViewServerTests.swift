import Foundation
import LayoutdClient
import LayoutEngine
import LayoutWire
@testable import LayoutServer
import Testing

/// One text, several layouts, through the daemon: a document opened with views (a narrow
/// column, a larger type in two columns, a markdown-like view with its own rules) answers each
/// edit in every layout; a client that splices each view's changes holds what a fresh layout of
/// the text with that view's settings gives.
@Suite struct DocumentViewServerTests {
    let daemon: Daemon
    init() throws { daemon = try Daemon() }

    /// The views' settings: each a layout request without text.
    static let views: [Layoutd_V1_LayoutRequest] = [
        .with { $0.width = 140; $0.defaultStyle.size = 14 },
        .with {
            $0.defaultStyle.size = 24
            $0.containers = [.with { $0.width = 160; $0.height = 120 }, .with { $0.origin = .with { $0.x = 180 }; $0.width = 160 }]
        },
        .with {
            $0.width = 300
            $0.defaultStyle.family = "Noto Serif"
            $0.builtinRules = .notes
        },
    ]

    static func withText(_ view: Layoutd_V1_LayoutRequest, _ text: String) -> Layoutd_V1_LayoutRequest {
        var request = view
        request.text = text
        return request
    }

    @Test func everyViewOfTheTextEqualsAFreshLayoutAfterEachEdit() throws {
        let client = try daemon.client()
        var text = "A note of *a few* paragraphs.\nThe second wraps over more than one line at these widths, surely.\nمرحبا بالعالم third.\nLast."
        guard case .documentReply(let opened) = try client.request(.openDocument(.with {
            $0.layout = DocumentServerTests.layout(text)
            $0.views = Self.views
        })) else { Issue.record("no document reply"); return }
        #expect(opened.views.count == 3 && opened.views.allSatisfy { $0.changes.count == 1 })
        var main = DocumentServerTests.Mirror()
        var mirrors = [DocumentServerTests.Mirror](repeating: .init(), count: Self.views.count)
        main.apply(opened)
        for (index, view) in opened.views.enumerated() { mirrors[index].apply(.with { $0.changes = view.changes }) }
        let edits: [(Int, Int, String)] = [(30, 30, "much longer and "), (0, 2, ""), (20, 21, "\n"), (60, 75, "joined "), (0, 0, "😀 ")]
        for (start, end, inserted) in edits {
            let units = Array(text.utf16)
            let (a, b) = (min(start, units.count), min(end, units.count))
            let reply = try DocumentServerTests.edit(client, DocumentServerTests.replace(opened.document, a, b, inserted))
            text = String(decoding: units[..<a] + Array(inserted.utf16) + units[b...], as: UTF16.self)
            main.apply(reply)
            #expect(reply.views.count == Self.views.count)
            for (index, view) in reply.views.enumerated() {
                mirrors[index].apply(.with { $0.changes = view.changes })
                guard case .layoutReply(let fresh) = try client.request(.layout(Self.withText(Self.views[index], text))) else {
                    Issue.record("no layout"); return
                }
                #expect(mirrors[index].lines.map(\.range) == fresh.lines.map(\.range), "view \(index) after replacing \(a)..<\(b)")
                #expect(zip(mirrors[index].lines, fresh.lines).allSatisfy { abs($0.usedRect.y - $1.usedRect.y) < 1e-3 && abs($0.usedRect.x - $1.usedRect.x) < 1e-3 })
                #expect(mirrors[index].glyphIDs == fresh.runs.map(\.glyphIds), "view \(index)")
                #expect(view.lineCount == UInt32(fresh.lines.count) && abs(Float(view.height) - fresh.height) < 1e-3)
            }
            guard case .layoutReply(let fresh) = try client.request(.layout(DocumentServerTests.layout(text))) else { Issue.record("no layout"); return }
            #expect(main.lines.map(\.range) == fresh.lines.map(\.range))
        }
        // The views lay the text out differently: the narrow one has more lines than the document.
        #expect(mirrors[0].lines.count > main.lines.count && mirrors[1].lines.contains { $0.container == 1 })
        // A point and a caret answer in the layout the request names, as a hit-test of that layout does.
        for view in 0...Self.views.count {
            let ask = Layoutd_V1_EditDocumentRequest.with {
                $0.document = opened.document
                $0.points = [.with { $0.x = 40; $0.y = 50 }]
                $0.carets = [.with { $0.offset = 40 }]
                $0.view = UInt32(view)
            }
            let answers = try DocumentServerTests.edit(client, ask)
            guard case .hitTestReply(let whole) = try client.request(.hitTest(.with {
                $0.layout = view == 0 ? DocumentServerTests.layout(text) : Self.withText(Self.views[view - 1], text)
                $0.points = ask.points
                $0.carets = ask.carets
            })) else { Issue.record("no hit-test reply"); return }
            #expect(answers.hits == whole.hits, "view \(view)")
            #expect(answers.carets.map(\.primary) == whole.carets.map(\.primary), "view \(view)")
        }
    }

    @Test func badViewsAndEditsAreRefusedByNameAndChangeNothing() throws {
        let client = try daemon.client()
        let cases: [(Layoutd_V1_OpenDocumentRequest, String)] = [
            (.with { $0.layout = DocumentServerTests.layout("a"); $0.views = [.with { $0.width = 100; $0.text = "b" }] }, "open_document.views[0].text"),
            (.with { $0.layout = DocumentServerTests.layout("a"); $0.views = [.with { $0.width = 100; $0.maxLines = 2 }] }, "open_document.views[0].max_lines"),
            (.with { $0.layout = DocumentServerTests.layout("a"); $0.views = [.with { $0.width = -1 }] }, "open_document.views[0].width"),
            (.with { $0.layout = DocumentServerTests.layout("a"); $0.views = Array(repeating: .with { $0.width = 100 }, count: 9) }, "open_document.views"),
            (.with { $0.typeMode = .with { $0.text = "a"; $0.width = 200 }; $0.views = [.with { $0.width = 100 }] }, "open_document.views"),
        ]
        for (request, field) in cases {
            let error = try refusal(client, .openDocument(request))
            // Past the count of views is RESOURCE_EXHAUSTED, as every count past its bound is.
            #expect(error?.code == (request.views.count > 8 ? .resourceExhausted : .invalidArgument) && error?.field == field,
                    "\(field): \(String(describing: error))")
        }
        guard case .documentReply(let opened) = try client.request(.openDocument(.with {
            $0.layout = DocumentServerTests.layout("Some text.\nMore.")
            $0.views = [.with { $0.width = 60 }]
        })) else { Issue.record("no document reply"); return }
        let unknown = try refusal(client, .editDocument(.with { $0.document = opened.document; $0.view = 2 }))
        #expect(unknown?.field == "edit_document.view")
        // A failing second edit undoes the first in every layout.
        var bad = DocumentServerTests.replace(opened.document, 0, 0, "New ")
        bad.edits.append(.with { $0.replace = .with { $0.range = .with { $0.start = 99 }; $0.text = "x" } })
        #expect(try refusal(client, .editDocument(bad))?.field == "edit_document.edits[1].replace.range")
        let after = try DocumentServerTests.edit(client, .with { $0.document = opened.document; $0.carets = [.with { $0.offset = 4 }]; $0.view = 1 })
        #expect(after.textLength == 16 && after.views.count == 1 && after.views[0].changes.isEmpty)
        guard case .hitTestReply(let fresh) = try client.request(.hitTest(.with {
            $0.layout = Self.withText(.with { $0.width = 60 }, "Some text.\nMore.")
            $0.carets = [.with { $0.offset = 4 }]
        })) else { Issue.record("no hit-test reply"); return }
        #expect(after.carets.map(\.primary) == fresh.carets.map(\.primary), "the view is as it was before the failed request")
    }

    @Test func layoutctlEditKeepsAViewAtAnotherWidth() throws {
        let ctl = Daemon.binary("layoutctl")
        let session = try run("/bin/sh", ["-c", "printf 'replace 5 5 , longer\\nshow 1\\nshow 3\\n' | \"$0\" \"$@\"", ctl, "edit", "--socket",
                                          daemon.socketPath, "--width", "200", "--view-width", "100", "First paragraph.\\nSecond one."])
        #expect(session.status == 0, "\(session.err)")
        let out = session.out
        #expect(out.contains("view 1 open: paragraphs 0..<0 laid out again as 2"), "\(out)")
        #expect(out.contains("view 1 edit 1: paragraphs 0..<1 laid out again as 1; 1 after them moved"))
        #expect(out.contains("\"First, longer \"") && out.contains("  view 1 edit 1: 3 lines"), "the narrow view wraps the edited line")
        #expect(out.contains("error: show takes a view, 0 to 1: show 3"))
    }

    /// Each layout keeps the text's glyphs and lines: the units count once per layout, at
    /// opening and as edits grow and shrink the text, and all of them go with the document.
    @Test func aDocumentCountsItsUnitsOncePerLayout() throws {
        let processor = try RequestProcessor.standalone()
        var limits = DocumentLimits()
        limits.maxUnitsPerConnection = 100
        let ledger = DocumentLedger(limits: limits)
        let store = DocumentStore(ledger: ledger)
        func open(_ text: String, views: Int) throws -> Layoutd_V1_Envelope {
            var envelope = Layoutd_V1_Envelope()
            envelope.openDocument = .with {
                $0.layout = DocumentServerTests.layout(text)
                $0.views = Array(repeating: .with { $0.width = 100 }, count: views)
            }
            let frame = try processor.documentReplyFrame(to: envelope, documents: store, now: 0, budget: .unlimited)
            return try Layoutd_V1_Envelope(serializedBytes: Array(frame.dropFirst(Framing.headerBytes)))
        }
        let text = String(repeating: "word ", count: 12)  // 60 units: one layout fits in 100, two do not
        #expect(try open(text, views: 1).errorReply?.code == .resourceExhausted)
        #expect(ledger.units == 0)
        #expect(try open("twenty units of text", views: 2).errorReply == nil)
        #expect(ledger.units == 60)
        var edit = Layoutd_V1_Envelope()
        edit.editDocument = DocumentServerTests.replace(1, 0, 0, "12345")
        _ = try processor.documentReplyFrame(to: edit, documents: store, now: 0, budget: .unlimited)
        #expect(ledger.units == 75)
        edit.editDocument = DocumentServerTests.replace(1, 0, 0, String(repeating: "x", count: 9))  // 34 units × 3 > 100
        let refused = try Layoutd_V1_Envelope(serializedBytes: Array(try processor.documentReplyFrame(to: edit, documents: store, now: 0,
                                                                                                        budget: .unlimited).dropFirst(Framing.headerBytes)))
        #expect(refused.errorReply?.code == .resourceExhausted && ledger.units == 75)
        store.closeAll()
        #expect(ledger.units == 0)
    }
}
