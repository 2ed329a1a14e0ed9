import LayoutWire
import Testing
import TestSupport

/// The document edit reader (behind `RequestReader`) gives exactly what swift-protobuf decodes,
/// or nothing.
@Suite struct DocumentEditReaderTests {
    static func envelopes() -> [Layoutd_V1_Envelope] {
        func replace(_ start: UInt32, _ length: UInt32, _ text: String) -> Layoutd_V1_DocumentEdit {
            .with { $0.replace = .with { $0.range = .with { $0.start = start; $0.length = length }; $0.text = text } }
        }
        let keystroke = Layoutd_V1_EditDocumentRequest.with { $0.document = 3; $0.edits = [replace(41, 0, "x")] }
        let deletion = Layoutd_V1_EditDocumentRequest.with { $0.document = 1 << 40; $0.edits = [replace(0, 12, "")] }
        var full = keystroke
        full.edits = [replace(0, 0, "Héllo مرحبا 👋🏽\n"), replace(7, 3, "\u{FFFC}"), .with { $0.replace = .init() }]
        full.edits[1].replace.attachments = [.with { $0.width = 20; $0.height = 10 }]
        full.points = [.with { $0.x = 3.5; $0.y = -1 }, .with { $0.x = 100 }]
        full.carets = [.with { $0.offset = 4; $0.affinity = .upstream }, .with { $0.offset = 9 }]
        let bare = Layoutd_V1_EditDocumentRequest.with { $0.document = 9 }
        return [keystroke, deletion, full, bare, Layoutd_V1_EditDocumentRequest()].enumerated().map { index, request in
            var envelope = Layoutd_V1_Envelope()
            envelope.requestID = UInt64(index) << 35 | 5
            envelope.deadlineMs = UInt32(index * 100)
            envelope.body = .editDocument(request)
            return envelope
        }
    }

    static func fast(_ bytes: [UInt8]) -> Layoutd_V1_Envelope? {
        bytes.withUnsafeBytes { RequestReader.envelope($0) }
    }

    @Test func readsWhatSwiftProtobufWrites() throws {
        for envelope in Self.envelopes() {
            let bytes: [UInt8] = try envelope.serializedBytes()
            let read = try #require(Self.fast(bytes), "\(envelope)")
            #expect(read == envelope)
        }
    }

    @Test func leavesStylesMergedMessagesAndBadTextToSwiftProtobuf() throws {
        var style = Self.envelopes()[0]
        style.editDocument.edits = [.with { $0.style = .with { $0.range = .with { $0.length = 2 }; $0.style.weight = 700 } }]
        #expect(Self.fast(try style.serializedBytes()) == nil)
        // An edit whose replacement comes twice (swift-protobuf merges the two), a range twice.
        let replacement: [UInt8] = [0x0A, 0x04, 0x0A, 0x02, 0x08, 0x01]  // replace { range { start: 1 } }
        let twice: [UInt8] = [0xA2, 0x02, 0x0E, 0x12, 0x0C] + replacement + replacement
        #expect(Self.fast(twice) == nil)
        let ranges: [UInt8] = [0xA2, 0x02, 0x0C, 0x12, 0x0A, 0x0A, 0x08, 0x0A, 0x02, 0x08, 0x01, 0x0A, 0x02, 0x08, 0x02]
        #expect(Self.fast(ranges) == nil)
        #expect((try? Layoutd_V1_Envelope(serializedBytes: twice)) != nil && (try? Layoutd_V1_Envelope(serializedBytes: ranges)) != nil)
        // Text that is not UTF-8.
        let bad: [UInt8] = [0xA2, 0x02, 0x07, 0x12, 0x05, 0x0A, 0x03, 0x12, 0x01, 0xFF]
        #expect(Self.fast(bad) == nil)
    }

    @Test func agreesWithSwiftProtobufOnDamagedFrames() throws {
        let bodies: [[UInt8]] = try Self.envelopes().map { try $0.serializedBytes() }
        #expect(try damagedFramesRead(bodies, copies: 3_000, seed: 0xED17, by: Self.fast) > 500)
    }
}
