import Foundation
import LayoutEngine
import LayoutWire
import TestSupport
import Testing
@testable import LayoutServer

/// Keystrokes read plain (`PlainEditRequest`: one replacement, nothing else) are the requests
/// swift-protobuf decodes from the same bytes, and are answered with the general way's bytes:
/// edits, refusals and the documents they leave alike.
@Suite struct PlainEditTests {
    static func body(_ envelope: Layoutd_V1_Envelope) throws -> [UInt8] {
        Array(try Framing.encode(envelope).dropFirst(Framing.headerBytes))
    }

    static func keystroke(_ id: UInt64, document: UInt64 = 1, _ start: Int, _ length: Int, _ text: String) -> Layoutd_V1_Envelope {
        .with {
            $0.requestID = id
            $0.editDocument = DocumentServerTests.replace(document, start, start + length, text)
        }
    }

    static let processor: RequestProcessor = {
        do {
            return try RequestProcessor.standalone()
        } catch {
            fatalError("default fonts missing (run scripts/setup.sh): \(error)")
        }
    }()

    static func read(_ bytes: [UInt8]) -> PlainEditRequest? { bytes.withUnsafeBytes { PlainEditRequest.read($0) } }

    static func decoded(_ bytes: [UInt8]) -> Layoutd_V1_Envelope? {
        guard case .success(let envelope) = bytes.withUnsafeBytes({ processor.decode($0) }) else { return nil }
        return envelope
    }

    /// Protobuf's bytes by hand, for what swift-protobuf never writes (a field twice).
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value, bytes: [UInt8] = []
        while value >= 0x80 { bytes.append(UInt8(value & 0x7F) | 0x80); value >>= 7 }
        return bytes + [UInt8(value)]
    }
    static func scalar(_ field: Int, _ value: UInt64) -> [UInt8] { varint(UInt64(field << 3)) + varint(value) }
    static func message(_ field: Int, _ payload: [UInt8]) -> [UInt8] { varint(UInt64(field << 3 | 2)) + varint(UInt64(payload.count)) + payload }
    static func envelope(_ request: [UInt8]) -> [UInt8] { scalar(1, 5) + message(36, request) }
    static func request(document: [UInt64] = [1], replaces: [[UInt8]]) -> [UInt8] {
        document.flatMap { scalar(1, $0) } + message(2, replaces.flatMap { message(1, $0) })
    }
    static let range = message(1, scalar(1, 2) + scalar(2, 1))

    @Test func readsTheKeystrokesShapeAndNothingElse() throws {
        var accepted: [Layoutd_V1_Envelope] = [Self.keystroke(1, 0, 0, ""), Self.keystroke(2, 17, 3, "x"), Self.keystroke(.max, 5, 0, "👋🏽 नमस्ते\n")]
        accepted.append(.with { $0.requestID = 4; $0.deadlineMs = 250; $0.editDocument.document = 9; $0.editDocument.edits = [.with { $0.replace.text = "no range" }] })
        for envelope in accepted {
            let bytes = try Self.body(envelope)
            let plain = try #require(Self.read(bytes), "\(envelope)")
            #expect(plain.envelope == envelope && Self.decoded(bytes) == envelope, "\(envelope)")
        }
        // A scalar sent twice: the last wins, as protobuf reads it (the document, the text).
        for bytes in [Self.envelope(Self.request(document: [3, 7], replaces: [Self.range + Self.message(2, Array("ab".utf8))])),
                      Self.envelope(Self.request(replaces: [Self.range + Self.message(2, Array("ab".utf8)) + Self.message(2, Array("cd".utf8))]))] {
            let plain = try #require(Self.read(bytes))
            #expect(Self.decoded(bytes) == plain.envelope)
        }
        #expect(Self.read(Self.envelope(Self.request(document: [3, 7], replaces: [Self.range])))?.document == 7)
        // A message sent twice, which protobuf merges (a range, a replacement), malformed UTF-8,
        // a frame cut short: the general way's.
        #expect(Self.read(Self.envelope(Self.request(replaces: [Self.range + Self.range]))) == nil)
        #expect(Self.read(Self.envelope(Self.request(replaces: [Self.range, Self.range]))) == nil)
        let badText = Self.envelope(Self.request(replaces: [Self.range + Self.message(2, [0x61, 0xFF])]))
        #expect(Self.read(badText) == nil && Self.decoded(badText) == nil)
        let whole = try Self.body(Self.keystroke(15, 2, 1, "ab"))
        #expect(Self.read(Array(whole.dropLast())) == nil)
        // Anything else asked goes the general way.
        var refused: [Layoutd_V1_Envelope] = []
        var two = Self.keystroke(7, 0, 0, "a")
        two.editDocument.edits.append(two.editDocument.edits[0])
        refused.append(two)
        var carets = Self.keystroke(8, 0, 0, "a")
        carets.editDocument.carets = [.with { $0.offset = 1 }]
        refused.append(carets)
        var points = Self.keystroke(9, 0, 0, "a")
        points.editDocument.points = [.with { $0.x = 1 }]
        refused.append(points)
        var view = Self.keystroke(10, 0, 0, "a")
        view.editDocument.view = 1
        refused.append(view)
        var attachments = Self.keystroke(11, 0, 0, "\u{FFFC}")
        attachments.editDocument.edits[0].replace.attachments = [.with { $0.width = 10; $0.height = 10 }]
        refused.append(attachments)
        var style = Self.keystroke(12, 0, 0, "a")
        style.editDocument.edits = [.with { $0.style = .with { $0.range.length = 1; $0.style.size = 20 } }]
        refused.append(style)
        refused.append(.with { $0.requestID = 13; $0.editDocument.document = 1 })  // no edit
        refused.append(.with { $0.requestID = 14; $0.closeDocument.document = 1 })
        refused.append(.with { $0.requestID = 15; $0.layout.text = "a layout" })
        for envelope in refused { #expect(Self.read(try Self.body(envelope)) == nil, "\(envelope)") }
    }

    /// Two stores with the same document: one edited plain, the other the general way, with
    /// keystrokes of every kind — typed, deleted, replaced, separators typed and joined, outside
    /// the text, inside a surrogate pair, without a range, in a stranger's document.
    @Test func answersWithTheGeneralWaysBytes() throws {
        let processor = Self.processor
        let plainStore = DocumentStore(ledger: DocumentLedger(limits: DocumentLimits())), generalStore = DocumentStore(ledger: DocumentLedger(limits: DocumentLimits()))
        var open = Layoutd_V1_Envelope()
        open.requestID = 1
        open.openDocument = .with { $0.layout = DocumentServerTests.layout("Hello world, a first paragraph.\nمرحبا 👋🏽 second one\r\nthird") }
        for store in [plainStore, generalStore] {
            let opened = try Layoutd_V1_Envelope(serializedBytes: Array(try processor.documentReplyFrame(to: open, documents: store, now: 0,
                                                                                                          budget: .unlimited).dropFirst(Framing.headerBytes)))
            #expect(opened.errorReply == nil)
        }
        var random = SeededGenerator(seed: 44)
        let insertions = ["x", "", "é", "👋🏽", "\n", "\r", " word ", "مرحبا", "\u{2029}"]
        var answered = 0, refused = 0
        for step in 0..<300 {
            let length = plainStore.peek(1)!.document.length
            var plain = PlainEditRequest()
            plain.requestID = UInt64(step + 2)
            plain.document = step % 97 == 5 ? 2 : 1
            plain.hasRange = step % 89 != 7
            plain.start = UInt32(Int(random.next() % UInt64(length + 3)))
            plain.length = UInt32(random.next() % 3 == 0 ? Int(random.next() % 6) : 0)
            plain.units = ContiguousArray(insertions[Int(random.next() % UInt64(insertions.count))].utf16)
            let fast = try processor.documentReplyFrame(toPlainEdit: plain, documents: plainStore, now: 0, budget: .unlimited)
            let general = try processor.documentReplyFrame(to: plain.envelope, documents: generalStore, now: 0, budget: .unlimited)
            let same = fast == general
            #expect(same, "step \(step): \(plain)")
            if !same { break }
            let reply = try Layoutd_V1_Envelope(serializedBytes: Array(fast.dropFirst(Framing.headerBytes)))
            if reply.errorReply == nil { answered += 1 } else { refused += 1 }
            #expect(plainStore.peek(1)!.document.units == generalStore.peek(1)!.document.units)
        }
        #expect(answered > 150 && refused > 10)
    }
}
