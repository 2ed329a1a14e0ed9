import LayoutWire
import Testing
import TestSupport

/// The fast justify request reader gives exactly what swift-protobuf decodes, or nothing.
@Suite struct JustifyRequestReaderTests {
    static func envelopes() -> [Layoutd_V1_Envelope] {
        var full = Layoutd_V1_JustifyRequest()
        full.text = "Héllo مرحبا 👋🏽 नमस्ते\nsecond line"
        full.preset = "neon"
        full.style = .with {
            $0.family = "Noto Sans"; $0.weight = 700; $0.slant = .italic
            $0.letterSpacing = .with { $0.points = -0.5 }
            $0.features = [.with { $0.tag = "liga"; $0.value = 0 }]
            $0.language = "en-US"
            $0.color = .with { $0.red = 0.5 }
        }
        full.width = 300; full.minSize = 18; full.maxSize = 80; full.sizing = .uniform; full.alignment = .center
        full.lineHeightMultiple = 1.1; full.maxHeight = 400; full.lastLineUnscaled = true
        full.backgrounds = [.with { $0.kind = .perLine; $0.touching = true }]
        full.color = .with { $0.green = 1 }
        full.wholePointSizes = true
        full.spans = [.with { $0.range = .with { $0.start = 0; $0.length = 5 }; $0.style.weight = 900 }]
        full.builtinRules = .notes
        full.hideBuiltinMarkers = true
        var minimal = Layoutd_V1_JustifyRequest()
        minimal.text = "hi"
        minimal.width = 100
        var unknownEnums = minimal
        unknownEnums.sizing = .UNRECOGNIZED(9)
        unknownEnums.alignment = .UNRECOGNIZED(-3)
        return [full, minimal, unknownEnums, Layoutd_V1_JustifyRequest()].enumerated().map { index, request in
            var envelope = Layoutd_V1_Envelope()
            envelope.requestID = UInt64(index) << 33 | 7
            envelope.deadlineMs = UInt32(index * 250)
            envelope.body = .justify(request)
            return envelope
        }
    }

    static func fast(_ bytes: [UInt8]) -> Layoutd_V1_Envelope? {
        bytes.withUnsafeBytes { JustifyRequestReader.envelope($0) }
    }

    @Test func readsWhatSwiftProtobufWrites() throws {
        for envelope in Self.envelopes() {
            let bytes: [UInt8] = try envelope.serializedBytes()
            let read = try #require(Self.fast(bytes))
            #expect(read == envelope)
            #expect(read.justify.hasStyle == envelope.justify.hasStyle)
            #expect(read.justify.hasColor == envelope.justify.hasColor)
        }
    }

    @Test func theRequestReaderTakesLayoutAndJustifyBodies() throws {
        for envelope in Self.envelopes() + LayoutRequestReaderTests.envelopes() {
            let bytes: [UInt8] = try envelope.serializedBytes()
            #expect(bytes.withUnsafeBytes { RequestReader.envelope($0) } == envelope)
        }
        var hello = Layoutd_V1_Envelope()
        hello.body = .hello(.init())
        let bytes: [UInt8] = try hello.serializedBytes()
        #expect(bytes.withUnsafeBytes { RequestReader.envelope($0) } == nil)
    }

    @Test func leavesMergedMessagesUnknownFieldsAndBadTextToSwiftProtobuf() throws {
        var bytes: [UInt8] = try Self.envelopes()[1].serializedBytes()
        bytes += [0xF8, 0x01, 0x05]  // field 31, a varint nobody declared
        #expect(Self.fast(bytes) == nil)
        #expect(Self.fast([0xA2, 0x01, 0x03, 0x0A, 0x01, 0xFF]) == nil)  // text that is not UTF-8
        // The style twice: swift-protobuf merges the two, which this reader leaves to it.
        let twice: [UInt8] = [0xA2, 0x01, 0x06, 0x1A, 0x01, 0x00, 0x1A, 0x01, 0x00]
        #expect(Self.fast(twice) == nil)
    }

    @Test func agreesWithSwiftProtobufOnDamagedFrames() throws {
        let bodies: [[UInt8]] = try Self.envelopes().map { try $0.serializedBytes() }
        #expect(try damagedFramesRead(bodies, copies: 3_000, seed: 0x7E5E, by: Self.fast) > 500)
    }
}
