import LayoutEngine
import LayoutWire
import Testing
import TestSupport

/// The plain layout request reader gives exactly what swift-protobuf decodes, or nothing; the
/// engine request it makes is the one the general conversion makes (the server's tests hold the
/// two ways' replies equal byte for byte).
@Suite struct PlainLayoutRequestTests {
    static func envelopes() -> [Layoutd_V1_Envelope] {
        var requests: [Layoutd_V1_LayoutRequest] = []
        for text in ["", "Hello, world", "Héllo مرحبا 👋🏽 नमस्ते\nsecond line"] {
            var request = Layoutd_V1_LayoutRequest()
            request.text = text
            requests.append(request)
            request.width = 300
            requests.append(request)
            request.defaultStyle = Layoutd_V1_Style()  // present, empty
            requests.append(request)
            request.defaultStyle.size = 24
            requests.append(request)
            request.defaultStyle.family = "Noto Sans"
            requests.append(request)
            request.width = -0.0
            requests.append(request)
        }
        return requests.enumerated().map { index, request in
            var envelope = Layoutd_V1_Envelope()
            envelope.requestID = UInt64(index) << 29 | 3
            envelope.deadlineMs = UInt32(index % 3 * 125)
            envelope.body = .layout(request)
            return envelope
        }
    }

    static func read(_ bytes: [UInt8]) -> PlainLayoutRequest? {
        bytes.withUnsafeBytes { PlainLayoutRequest.read($0) }
    }

    @Test func readsWhatSwiftProtobufWrites() throws {
        for envelope in Self.envelopes() {
            let bytes: [UInt8] = try envelope.serializedBytes()
            let plain = try #require(Self.read(bytes))
            #expect(plain.envelope == envelope)
            #expect(plain.hasDefaultStyle == envelope.layout.hasDefaultStyle)
            #expect(plain.envelope.layout.hasDefaultStyle == envelope.layout.hasDefaultStyle)
        }
    }

    @Test func takesOnlyTheTextWidthFamilyAndSize() throws {
        var base = Layoutd_V1_Envelope()
        base.body = .layout(.with { $0.text = "hi"; $0.width = 100 })
        let others: [(String, (inout Layoutd_V1_LayoutRequest) -> Void)] = [
            ("height", { $0.height = 50 }), ("alignment", { $0.alignment = .center }), ("direction", { $0.direction = .rtl }),
            ("max_lines", { $0.maxLines = 2 }), ("truncation", { $0.truncation = .init() }),
            ("spans", { $0.spans = [.with { $0.range.length = 1 }] }), ("weight", { $0.defaultStyle.weight = 700 }),
            ("slant", { $0.defaultStyle.slant = .italic }), ("letter spacing", { $0.defaultStyle.letterSpacing.points = 1 }),
            ("colour", { $0.defaultStyle.color.red = 1 }), ("language", { $0.defaultStyle.language = "en" }),
            ("ink", { $0.inkBounds = true }), ("writing mode", { $0.writingMode = .verticalRl }),
            ("fonts", { $0.fonts = [.init()] }), ("rules", { $0.builtinRules = .notes }),
        ]
        for (name, change) in others {
            var envelope = base
            change(&envelope.layout)
            let bytes: [UInt8] = try envelope.serializedBytes()
            #expect(Self.read(bytes) == nil, "\(name)")
        }
        var hello = Layoutd_V1_Envelope()
        hello.body = .hello(.init())
        #expect(Self.read(try hello.serializedBytes()) == nil)
        #expect(Self.read([]) == nil)  // no body: not a layout
    }

    @Test func leavesMergedMessagesUnknownFieldsAndBadTextToSwiftProtobuf() throws {
        var bytes: [UInt8] = try Self.envelopes()[4].serializedBytes()
        #expect(Self.read(bytes) != nil)
        bytes += [0xF8, 0x01, 0x05]  // field 31, a varint nobody declared
        #expect(Self.read(bytes) == nil)
        #expect(Self.read([0x62, 0x03, 0x0A, 0x01, 0xFF]) == nil)  // text that is not UTF-8
        // The style twice, or the body twice: swift-protobuf merges them.
        #expect(Self.read([0x62, 0x04, 0x12, 0x00, 0x12, 0x00]) == nil)
        #expect(Self.read([0x62, 0x00, 0x62, 0x00]) == nil)
        // A scalar twice is read as protobuf reads it: the last wins.
        let twice = try #require(Self.read([0x62, 0x0A, 0x25, 0, 0, 0x80, 0x3F, 0x25, 0, 0, 0, 0x40]))
        #expect(twice.width == 2)
    }

    @Test func agreesWithSwiftProtobufOnDamagedFrames() throws {
        let bodies: [[UInt8]] = try Self.envelopes().map { try $0.serializedBytes() }
        #expect(try damagedFramesRead(bodies, copies: 1_000, seed: 0x9_1A1, by: { Self.read($0)?.envelope }) > 500)
    }

    /// The text is read straight into UTF-16 units: exactly the well-formed UTF-8 that `String`
    /// validates gives units, the same as the string's; anything else gives no request.
    @Test func readsTheTextAsUnitsOfWellFormedUTF8Only() throws {
        func frame(_ text: [UInt8]) -> [UInt8] {
            let layout: [UInt8] = [0x0A] + varint(text.count) + text
            return [0x62] + varint(layout.count) + layout
        }
        func varint(_ value: Int) -> [UInt8] {
            var value = value, bytes: [UInt8] = []
            while value >= 0x80 { bytes.append(UInt8(value & 0x7F) | 0x80); value >>= 7 }
            return bytes + [UInt8(value)]
        }
        func check(_ text: [UInt8]) {
            let expected = String(validating: text, as: UTF8.self).map { ContiguousArray($0.utf16) }
            #expect(Self.read(frame(text))?.units == expected, "\(text.map { String($0, radix: 16) })")
        }
        // Every one- and two-byte sequence; every lead of three and four bytes with continuation
        // bytes at the edges of the ranges that make overlong forms, surrogates and values past
        // U+10FFFF; sequences cut short at each length.
        // Each pair also with two bytes after it and after a two-byte letter, where the reader
        // takes sequences from loads of four bytes.
        for a in 0...255 {
            check([UInt8(a)])
            for b in 0...255 {
                check([UInt8(a), UInt8(b)])
                check([UInt8(a), UInt8(b), 0x61, 0x62])
                check([0xD0, 0xB0, UInt8(a), UInt8(b), 0xD0, 0xB0])
            }
        }
        let edges: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        for lead in 0xE0...0xFF {
            for b in edges {
                for c in edges {
                    check([UInt8(lead), b, c])
                    check([0xE4, 0xB8, 0x8D, UInt8(lead), b, c, 0xE4, 0xB8, 0x8D])
                    for d in edges { check([UInt8(lead), b, c, d]) }
                }
            }
        }
        // Random texts, mostly valid with bytes damaged here and there, and the corpus's scripts.
        var random = SystemRandomNumberGenerator()
        // Long ASCII stretches with other scripts between them: the reader takes ASCII eight bytes
        // at a time, so a damaged or multi-byte sequence must be found at every place in a word.
        let samples = ["Hello, world", "Héllo مرحبا 👋🏽 नमस्ते", "不识庐山真面目", "🇫🇷🏳️‍🌈", "\u{10FFFF}\u{FFFF}\u{E000}\u{D7FF}",
                       "The quick brown fox jumps over the lazy dog, 0123456789 times over",
                       "sixteen ascii by é then seventeen asci 中 and twenty-three bytes 😀 end", "a\u{7F}\u{80}bcdefgh\u{7FF}ijklmnop"]
        for _ in 0..<2_000 {
            var bytes = Array(samples.randomElement(using: &random)!.utf8)
            if Bool.random(using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if Bool.random(using: &random) { bytes.removeLast(Int.random(in: 0...min(3, bytes.count), using: &random)) }
            check(bytes)
        }
    }

    @Test func makesNoEngineRequestForValuesTheGeneralWayRefuses() throws {
        let fonts = try FontRegistry.load(paths: DefaultFonts.installedPaths)
        var plain = PlainLayoutRequest()
        plain.text = "hi"
        plain.width = 300
        #expect(plain.engineRequest(fonts: fonts) != nil)
        for (width, size, family) in [(Float(0), Float(0), ""), (-1, 0, ""), (.nan, 0, ""), (.infinity, 0, ""), (2e6, 0, ""),
                                      (300, -1, ""), (300, .nan, ""), (300, 1e9, ""), (300, 0, "No Such Family")] {
            plain.width = width
            plain.size = size
            plain.family = family
            #expect(plain.engineRequest(fonts: fonts) == nil, "\(width) \(size) \(family)")
            #expect(plain.engineRequest(fonts: fonts, styles: [plain.style(fonts: fonts)]) == nil, "\(width) \(size) \(family)")
            #expect(throws: LayoutError.self) { try plain.envelope.layout.formattedRequest(fonts: fonts) }
        }
    }
}
