import LayoutWire
import Testing

/// The plain Type Mode request reader gives exactly what swift-protobuf decodes, or nothing (the
/// server's tests hold the two ways' replies equal byte for byte).
@Suite struct PlainJustifyRequestTests {
    static func envelopes() -> [Layoutd_V1_Envelope] {
        var requests: [Layoutd_V1_JustifyRequest] = []
        for text in ["", "TYPE MODE", "so\nHAPPY\nto see you 👋🏽 مرحبا"] {
            var request = Layoutd_V1_JustifyRequest()
            request.text = text
            requests.append(request)
            request.width = 300
            requests.append(request)
            request.style = Layoutd_V1_Style()  // present, empty
            requests.append(request)
            request.style.family = "Noto Sans"
            requests.append(request)
            request.width = -0.0
            requests.append(request)
        }
        return requests.enumerated().map { index, request in
            var envelope = Layoutd_V1_Envelope()
            envelope.requestID = UInt64(index) << 29 | 5
            envelope.deadlineMs = UInt32(index % 3 * 125)
            envelope.body = .justify(request)
            return envelope
        }
    }

    static func read(_ bytes: [UInt8]) -> PlainJustifyRequest? {
        bytes.withUnsafeBytes { PlainJustifyRequest.read($0) }
    }

    @Test func readsWhatSwiftProtobufWrites() throws {
        for envelope in Self.envelopes() {
            let plain = try #require(Self.read(try envelope.serializedBytes()))
            #expect(plain.envelope == envelope)
            #expect(plain.hasStyle == envelope.justify.hasStyle)
        }
    }

    @Test func takesOnlyTheTextWidthAndFamily() throws {
        var base = Layoutd_V1_Envelope()
        base.body = .justify(.with { $0.text = "hi"; $0.width = 100; $0.style.family = "Noto Sans" })
        #expect(Self.read(try base.serializedBytes()) != nil)
        let others: [(String, (inout Layoutd_V1_JustifyRequest) -> Void)] = [
            ("preset", { $0.preset = "neon" }), ("size", { $0.style.size = 30 }), ("weight", { $0.style.weight = 700 }),
            ("min size", { $0.minSize = 20 }), ("max size", { $0.maxSize = 40 }), ("sizing", { $0.sizing = .uniform }),
            ("alignment", { $0.alignment = .center }), ("line height", { $0.lineHeightMultiple = 1.2 }),
            ("max height", { $0.maxHeight = 100 }), ("last line", { $0.lastLineUnscaled = true }),
            ("backgrounds", { $0.backgrounds = [.init()] }), ("colour", { $0.color.red = 1 }),
            ("attachments", { $0.attachments = [.init()] }), ("whole sizes", { $0.wholePointSizes = true }),
            ("spans", { $0.spans = [.with { $0.range.length = 1 }] }), ("rules", { $0.builtinRules = .notes }),
            ("style colour", { $0.style.color.red = 1 }), ("language", { $0.style.language = "en" }),
        ]
        for (name, change) in others {
            var envelope = base
            change(&envelope.justify)
            #expect(Self.read(try envelope.serializedBytes()) == nil, "\(name)")
        }
        var layout = Layoutd_V1_Envelope()
        layout.body = .layout(.with { $0.text = "hi" })
        #expect(Self.read(try layout.serializedBytes()) == nil)
        #expect(Self.read([]) == nil)  // no body: not a justify
    }

    @Test func leavesMergedMessagesUnknownFieldsAndBadTextToSwiftProtobuf() throws {
        var bytes: [UInt8] = try Self.envelopes()[3].serializedBytes()
        #expect(Self.read(bytes) != nil)
        bytes += [0xF8, 0x01, 0x05]  // field 31, a varint nobody declared
        #expect(Self.read(bytes) == nil)
        #expect(Self.read([0xA2, 0x01, 0x03, 0x0A, 0x01, 0xFF]) == nil)  // text that is not UTF-8
        // The style twice, or the body twice: swift-protobuf merges them.
        #expect(Self.read([0xA2, 0x01, 0x04, 0x1A, 0x00, 0x1A, 0x00]) == nil)
        #expect(Self.read([0xA2, 0x01, 0x00, 0xA2, 0x01, 0x00]) == nil)
        // A scalar twice is read as protobuf reads it: the last wins.
        let twice = try #require(Self.read([0xA2, 0x01, 0x0A, 0x25, 0, 0, 0x80, 0x3F, 0x25, 0, 0, 0, 0x40]))
        #expect(twice.width == 2)
    }

    @Test func agreesWithSwiftProtobufOnDamagedFrames() throws {
        var random = SystemRandomNumberGenerator()
        var read = 0
        for envelope in Self.envelopes() {
            let bytes: [UInt8] = try envelope.serializedBytes()
            for _ in 0..<300 {
                var damaged = bytes
                if !damaged.isEmpty { damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
                guard let plain = Self.read(damaged) else { continue }
                read += 1
                // Whatever the plain reader takes, swift-protobuf reads as the same request (compared
                // as bytes: a damaged width may be a NaN, which is not equal to itself).
                let decoded: [UInt8]? = try? Layoutd_V1_Envelope(serializedBytes: damaged).serializedBytes()
                #expect(decoded == (try plain.envelope.serializedBytes()), "\(damaged)")
            }
        }
        #expect(read > 500)
    }
}
