import LayoutWire
import Testing
import TestSupport

/// The fast request reader gives exactly what swift-protobuf decodes, or nothing.
@Suite struct LayoutRequestReaderTests {
    static func envelopes() -> [Layoutd_V1_Envelope] {
        var full = Layoutd_V1_LayoutRequest()
        full.text = "Héllo مرحبا 👋🏽 नमस्ते\nsecond line"
        full.defaultStyle = .with {
            $0.family = "Noto Sans"; $0.weight = 700; $0.slant = .italic; $0.size = 24
            $0.letterSpacing = .with { $0.points = -0.5 }
            $0.features = [.with { $0.tag = "liga"; $0.value = 0 }, .with { $0.tag = "kern"; $0.value = 1 }]
            $0.language = "en-US"
        }
        full.spans = [.with { $0.range = .with { $0.start = 0; $0.length = 5 }; $0.style.size = 30 },
                      .with { $0.range = .with { $0.start = 6 }; $0.style.family = "Noto Naskh Arabic" }]
        full.width = 300; full.height = 200; full.alignment = .justified; full.direction = .rtl
        full.lineHeightMultiple = 1.2; full.lineHeight = 0; full.maxLines = 3
        full.truncation = .with { $0.token = "…more" }
        full.backgrounds = [.with { $0.kind = .perLine; $0.touching = true }]
        var minimal = Layoutd_V1_LayoutRequest()
        minimal.text = "hi"
        minimal.width = 100
        var emptyTruncation = minimal
        emptyTruncation.truncation = .init()  // present but empty: "no token"
        return [full, minimal, emptyTruncation, Layoutd_V1_LayoutRequest()].enumerated().map { index, request in
            var envelope = Layoutd_V1_Envelope()
            envelope.requestID = UInt64(index) << 33
            envelope.deadlineMs = UInt32(index * 250)
            envelope.body = .layout(request)
            return envelope
        }
    }

    static func fast(_ bytes: [UInt8]) -> Layoutd_V1_Envelope? {
        bytes.withUnsafeBytes { LayoutRequestReader.envelope($0) }
    }

    @Test func readsWhatSwiftProtobufWrites() throws {
        for envelope in Self.envelopes() {
            let bytes: [UInt8] = try envelope.serializedBytes()
            let read = try #require(Self.fast(bytes))
            #expect(read == envelope)
            #expect(read.layout.hasTruncation == envelope.layout.hasTruncation)
            #expect(read.layout.hasDefaultStyle == envelope.layout.hasDefaultStyle)
        }
    }

    @Test func leavesOtherBodiesAndUnknownFieldsToSwiftProtobuf() throws {
        var hello = Layoutd_V1_Envelope()
        hello.body = .hello(.init())
        #expect(Self.fast(try hello.serializedBytes()) == nil)
        var bytes: [UInt8] = try Self.envelopes()[1].serializedBytes()
        bytes += [0xF8, 0x01, 0x05]  // field 31, a varint nobody declared
        #expect(Self.fast(bytes) == nil)
        #expect(Self.fast([0x62, 0x02, 0x0A, 0x01, 0xFF]) == nil)  // text that is not UTF-8
        // A cut four-byte sequence: repaired, it becomes U+FFFD, three bytes as well.
        #expect(Self.fast([0x62, 0x05, 0x0A, 0x03, 0xF0, 0x9F, 0x98]) == nil)
        #expect(Self.fast([0x62, 0x06, 0x0A, 0x04, 0xF0, 0x9F, 0x98, 0x80])?.layout.text == "😀")
    }

    @Test func agreesWithSwiftProtobufOnDamagedFrames() throws {
        let bodies: [[UInt8]] = try Self.envelopes().map { try $0.serializedBytes() }
        #expect(try damagedFramesRead(bodies, copies: 3_000, seed: 0x5EED, by: Self.fast) > 500)
    }
}
