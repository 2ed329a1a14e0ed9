import Foundation
import Testing
import TestSupport
import LayoutWire
@testable import LayoutEngine
@testable import LayoutServer

/// Editing sessions under hostile edits: seeded random edit requests — ranges past the text or
/// inside surrogate pairs, styles out of range, attachments that do not match, text past the
/// limit, several edits of which one fails — answered as a worker answers them. None traps;
/// each is answered; a refused request leaves the document as it was, and after every request
/// the document equals a fresh layout of its text.
@Suite struct HostileEditTests {
    static func edit(_ random: inout SeededGenerator, length: Int) -> Layoutd_V1_DocumentEdit {
        func offset() -> UInt32 {
            switch random.next() % 6 {
            case 0: return UInt32(truncatingIfNeeded: random.next())  // anywhere, mostly far past the text
            case 1: return UInt32(length + Int(random.next() % 3))
            default: return UInt32(Int(random.next() % UInt64(length + 1)))
            }
        }
        let start = offset(), span = UInt32(random.next() % 12)
        let texts = ["x", "", "\n", "😀", "\u{FFFC}", "\r", "مرحبا", String(repeating: "long ", count: 30), "e\u{301}"]
        switch random.next() % 4 {
        case 0, 1:
            return .with {
                $0.replace = .with {
                    $0.range = .with { $0.start = start; $0.length = span }
                    $0.text = texts[Int(random.next() % UInt64(texts.count))]
                    if random.next() % 3 == 0 { $0.attachments = [.with { $0.width = 10; $0.height = 10 }] }
                }
            }
        case 2:
            return .with {
                $0.style = .with {
                    $0.range = .with { $0.start = start; $0.length = span }
                    switch random.next() % 5 {
                    case 0: $0.style.weight = 700
                    case 1: $0.style.size = random.next() % 2 == 0 ? 30 : -4  // -4 is out of range
                    case 2: $0.style.color = .with { $0.red = random.next() % 2 == 0 ? 1 : 7 }  // 7 is out of range
                    case 3: $0.style.family = random.next() % 2 == 0 ? "Noto Serif" : "No Such Family"
                    default: $0.style.underline = .with { $0.style = .double }
                    }
                }
            }
        default:
            return random.next() % 4 == 0 ? Layoutd_V1_DocumentEdit() : .with { $0.replace = .with { $0.text = "no range" } }
        }
    }

    @Test func randomHostileEditsNeverTrapAndNeverLeaveAHalfEdit() throws {
        var configuration = ServerConfiguration()
        configuration.maxTextUnits = 400
        let processor = try RequestProcessor.standalone(configuration: configuration)
        let store = DocumentStore(ledger: DocumentLedger(limits: DocumentLimits()))
        var random = SeededGenerator(seed: 2_111)
        var accepted = 0, refused = 0
        for session in 0..<8 {
            var open = Layoutd_V1_Envelope()
            open.openDocument = .with {
                $0.layout = .with {
                    $0.text = "A first paragraph 😀 here.\nمرحبا بالعالم second.\nThird."
                    $0.width = 180
                    $0.defaultStyle.size = 18
                }
            }
            _ = try processor.documentReplyFrame(to: open, documents: store, now: 0, budget: .unlimited)
            let id = UInt64(session + 1)
            let document = try #require(store.peek(id)).document
            for _ in 0..<60 {
                let before = document.units
                var envelope = Layoutd_V1_Envelope()
                envelope.requestID = 5
                envelope.editDocument = .with {
                    $0.document = random.next() % 20 == 0 ? 999 : id
                    $0.edits = (0..<(1 + Int(random.next() % 3))).map { _ in Self.edit(&random, length: document.length) }
                }
                let frame = try processor.documentReplyFrame(to: envelope, documents: store, now: 0, budget: .unlimited)
                let reply = try Layoutd_V1_Envelope(serializedBytes: Array(frame.dropFirst(4)))
                #expect(reply.requestID == 5)
                switch reply.body {
                case .error(let error):
                    refused += 1
                    #expect(document.units == before, "refused (\(error.field): \(error.message)) but the text changed")
                    #expect(error.field.hasPrefix("edit_document."), "\(error.field)")
                case .documentReply(let answer):
                    accepted += 1
                    #expect(answer.textLength == UInt32(document.length))
                default:
                    Issue.record("neither an error nor a document reply")
                }
                // Whatever happened, the document is a fresh layout of its text.
                var request = document.settings.request
                request.text = AttributedText(String(decoding: document.units, as: UTF16.self), units: document.units,
                                              style: document.settings.style, paint: document.settings.paint, spans: document.spans)
                request.attachments = document.attachments
                let fresh = try processor.layouter.layout(request)
                let kept = document.assembled()
                #expect(kept.lines.map(\.range) == fresh.lines.map(\.range))
                #expect(kept.runs.map(\.glyphIDs) == fresh.runs.map(\.glyphIDs))
            }
        }
        #expect(accepted > 50 && refused > 50, "accepted \(accepted), refused \(refused)")
    }
}
