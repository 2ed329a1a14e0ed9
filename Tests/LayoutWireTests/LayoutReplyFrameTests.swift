import Foundation
import LayoutEngine
@testable import LayoutWire
import Testing
import TestSupport
import LayoutUnicode

/// The hand-written layout reply frame must be byte for byte what swift-protobuf writes for
/// the same reply built as generated structs, and must read back through swift-protobuf.
@Suite struct LayoutReplyFrameTests {
    static let fonts = try! FontRegistry.load(paths: DefaultFonts.paths)
    static let layouter = ParagraphLayouter(fonts: fonts)

    static let texts = [
        "Hello, world! A caption that runs over several lines at this width.",
        "مرحبا بالعالم، هذا نص عربي طويل بما يكفي ليلتف على أكثر من سطر واحد",
        "Привет, мир! Это подпись на русском языке.",
        "今日は天気がいいので散歩に行きました。桜がとてもきれいでした。",
        "नमस्ते दुनिया, यह एक हिंदी वाक्य है।",
        "Family 👨‍👩‍👧‍👦 flags 🇫🇷🇯🇵 and skin 👋🏽 tones",
        "mixed English עם עברית and ١٢٣ digits",
        "",
        "line one\nline two\n\nline four",
        String(repeating: "word ", count: 600),
        String(repeating: "x", count: 3000),
    ]

    static func swiftProtobufFrame(_ id: UInt64, _ layout: ParagraphLayout, _ backgrounds: [Background],
                                   ruleMatches: [Layoutd_V1_RuleMatch] = []) throws -> [UInt8] {
        var reply = Layoutd_V1_LayoutReply(layout)
        reply.backgrounds = backgrounds.map(Layoutd_V1_BackgroundShape.init)
        reply.ruleMatches = ruleMatches
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = id
        envelope.body = .layoutReply(reply)
        return try Framing.encode(envelope)
    }

    static func request(_ text: String, _ configure: (inout ParagraphRequest) -> Void = { _ in }) -> ParagraphRequest {
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 24)), width: 300)
        configure(&request)
        return request
    }

    @Test(arguments: texts.indices)
    func equalsSwiftProtobufForEveryScript(_ index: Int) throws {
        let configurations: [(inout ParagraphRequest) -> Void] = [
            { _ in },
            { $0.alignment = .justified },
            { $0.alignment = .right; $0.width = 40 },  // lines wider than the box: negative x
            { $0.alignment = .center; $0.maxLines = 2 },
            { $0.direction = .rightToLeft; $0.lineHeight = 40 },
            { $0.measuresInk = true; $0.width = 120 },
            { $0.measuresIntrinsics = true; $0.maxLines = 2 },
        ]
        for (variant, configure) in configurations.enumerated() {
            let layout = try Self.layouter.layout(Self.request(Self.texts[index], configure))
            for id: UInt64 in [0, 1, 300, .max] {
                let ours = LayoutReplyFrame.encode(requestID: id, layout: layout)
                let theirs = try Self.swiftProtobufFrame(id, layout, [])
                #expect(ours == theirs, "text \(index), variant \(variant), id \(id)")
            }
        }
    }

    /// A run's message keeps room for its length from its glyph count (`runLengthBytes`): runs
    /// whose length falls short of that room, fills it or passes it all give swift-protobuf's
    /// bytes, and the guess is right for the runs most replies hold.
    @Test func runsOfEverySizeAroundTheRoomKeptForTheirLength() throws {
        for count in Array(1...12) + [20, 100, 1_100] {
            let text = String(repeating: "a", count: count)
            let layout = try Self.layouter.layout(Self.request(text) { $0.width = 100_000 })
            #expect(layout.runs.count == 1 && layout.glyphCount == count)
            #expect(LayoutReplyFrame.encode(requestID: 7, layout: layout) == (try Self.swiftProtobufFrame(7, layout, [])), "\(count) glyphs")
        }
        #expect(LayoutReplyFrame.runLengthBytes(glyphs: 5) == 1 && LayoutReplyFrame.runLengthBytes(glyphs: 6) == 2
                && LayoutReplyFrame.runLengthBytes(glyphs: 1_021) == 2 && LayoutReplyFrame.runLengthBytes(glyphs: 1_022) == 3)
    }

    @Test func carriesBackgroundsAsSwiftProtobufWritesThem() throws {
        let text = "Type Mode with a background behind each line of text"
        let layout = try Self.layouter.layout(Self.request(text))
        let decorator = Decorator(layout: layout, text: text, fonts: Self.fonts)
        let backgrounds = try [BackgroundStyle(kind: .perLine), BackgroundStyle(kind: .connected)].map(decorator.decorate)
        let ours = LayoutReplyFrame.encode(requestID: 7, layout: layout, backgrounds: backgrounds)
        #expect(ours == (try Self.swiftProtobufFrame(7, layout, backgrounds)))
        let decoded = try Layoutd_V1_Envelope(serializedBytes: Array(ours.dropFirst(Framing.headerBytes)))
        guard case .layoutReply(let reply) = decoded.body else { Issue.record("not a layout reply"); return }
        #expect(reply.backgrounds.count == 2 && reply.lines.count == layout.lines.count)
    }

    @Test func carriesAttachmentsAsSwiftProtobufWritesThem() throws {
        let text = "A \u{FFFC} box, and an Arabic مرحبا \u{FFFC} one on a line of its own"
        let layout = try Self.layouter.layout(Self.request(text) {
            $0.width = 160
            $0.attachments = [InlineAttachment(width: 30, extent: .height(30), alignment: .fontCenter),
                              InlineAttachment(width: 12, extent: .metrics(ascent: 8, descent: 4))]
        })
        #expect(layout.attachments.count == 2)
        let ours = LayoutReplyFrame.encode(requestID: 9, layout: layout)
        #expect(ours == (try Self.swiftProtobufFrame(9, layout, [])))
        let decoded = try #require(LayoutReplyReader.envelope(Array(ours.dropFirst(Framing.headerBytes))))
        guard case .layoutReply(let reply) = decoded.body else { Issue.record("not a layout reply"); return }
        #expect(reply.attachments.map(\.index) == [0, 1])
        #expect(reply.attachments[0].rect.width == 30)
    }

    @Test func carriesDecorationsAndPaintsAsSwiftProtobufWritesThem() throws {
        let red = Color(red: 1, green: 0, blue: 0)
        let spans = [AttributedText.Span(range: 0..<5, patch: StylePatch(color: red, background: Color(red: 1, green: 1, blue: 0))),
                     AttributedText.Span(range: 6..<20, patch: StylePatch(underline: .set(DecorationLine(style: .double, skipsInk: true)),
                                                                          shadows: .set([TextShadow(offset: Point(x: 1, y: 2), blurRadius: 3)]))),
                     AttributedText.Span(range: 21..<30, patch: StylePatch(strikethrough: .set(DecorationLine(style: .dotted, color: red)))),
                     AttributedText.Span(range: 31..<35, patch: StylePatch(effect: .set(.letterpress(surface: red, depth: 2))))]
        let text = AttributedText("Paint every glyph you see here, and wrap", style: TextStyle(family: "Noto Sans", size: 24), spans: spans)
        let layout = try Self.layouter.layout(ParagraphRequest(text: text, width: 200))
        #expect(layout.decorations.count >= 3 && layout.paints.count == 5)
        let ours = LayoutReplyFrame.encode(requestID: 11, layout: layout)
        #expect(ours == (try Self.swiftProtobufFrame(11, layout, [])))
        let decoded = try #require(LayoutReplyReader.envelope(Array(ours.dropFirst(Framing.headerBytes))))
        guard case .layoutReply(let reply) = decoded.body else { Issue.record("not a layout reply"); return }
        #expect(reply.decorations.count == layout.decorations.count && reply.paints.count == 5)
        #expect(reply.paints[4].effect == .letterpress && reply.paints[4].effectLayers.map(\.mode) == [.fill, .fill, .innerEdge, .innerEdge, .innerEdge])
        #expect(reply.paints[4].effectLayers[0].offsetY == 2 && reply.paints[4].effectLayers[0].offsetX == 0)
        #expect(reply.runs.map(\.paint) == layout.runs.map { UInt32($0.paint) })
        #expect(reply.decorations.map(\.kind).contains(.strikethrough))
        #expect(reply.paints[2].shadow.blurRadius == 3)
    }

    @Test func carriesGlyphFlagsAsSwiftProtobufWritesThem() throws {
        for text in ["office AVAT مرحبا", "plain"] {
            var request = Self.request(text)
            request.reportsGlyphFlags = true
            let layout = try Self.layouter.layout(request)
            let ours = LayoutReplyFrame.encode(requestID: 13, layout: layout)
            #expect(ours == (try Self.swiftProtobufFrame(13, layout, [])))
            let decoded = try #require(LayoutReplyReader.envelope(Array(ours.dropFirst(Framing.headerBytes))))
            guard case .layoutReply(let reply) = decoded.body else { Issue.record("not a layout reply"); return }
            #expect(reply.runs.allSatisfy { $0.glyphFlags.count == $0.glyphIds.count })
            #expect(reply.runs.map(\.glyphFlags) == layout.runs.map { $0.glyphs.map { UInt32($0.flags.rawValue) } })
        }
    }

    @Test func carriesRubyAsSwiftProtobufWritesIt() throws {
        let text = AttributedText("漢字の東京", style: TextStyle(family: "Noto Sans CJK JP", size: 24))
            .withRuby([RubyAnnotation(base: 0..<2, reading: "かんじ"), RubyAnnotation(base: 3..<5, readings: ["とう", "きょう"])])
        let layout = try Self.layouter.layout(ParagraphRequest(text: text, width: 300))
        #expect(layout.rubyRuns.count == 3)
        let ours = LayoutReplyFrame.encode(requestID: 12, layout: layout)
        #expect(ours == (try Self.swiftProtobufFrame(12, layout, [])))
        let decoded = try #require(LayoutReplyReader.envelope(Array(ours.dropFirst(Framing.headerBytes))))
        guard case .layoutReply(let reply) = decoded.body else { Issue.record("not a layout reply"); return }
        #expect(reply.rubyRuns.map(\.clusters) == [[0, 1, 2], [0, 1], [2, 3, 4]])
    }

    @Test func carriesRuleMatchesAsSwiftProtobufWritesThem() throws {
        var request = Layoutd_V1_LayoutRequest()
        request.text = "1. *bold* and _italic_ NOW"
        request.width = 300
        request.builtinRules = .notes
        request.hideBuiltinMarkers = true
        let formatted = try request.formattedRequest(fonts: Self.fonts)
        let matches = formatted.matches.map { Layoutd_V1_RuleMatch($0, names: formatted.ruleNames) }
        #expect(matches.map(\.name) == ["bold", "italic", "list-number", "capitals"])
        let layout = try Self.layouter.layout(formatted.request)
        let ours = LayoutReplyFrame.encode(requestID: 5, layout: layout, ruleMatches: matches)
        #expect(ours == (try Self.swiftProtobufFrame(5, layout, [], ruleMatches: matches)))
        let decoded = try #require(LayoutReplyReader.envelope(Array(ours.dropFirst(Framing.headerBytes))))
        guard case .layoutReply(let reply) = decoded.body else { Issue.record("not a layout reply"); return }
        #expect(reply.ruleMatches == matches && reply.ruleMatches[0].hidden.count == 2)
    }

    static let corpus: [String]? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        guard let data = try? Data(contentsOf: root.appendingPathComponent("shared/corpus/captions.jsonl")) else { return nil }
        struct Caption: Decodable { var text: String }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONDecoder().decode(Caption.self, from: Data($0)).text }
    }()

    @Test(.enabled(if: corpus != nil, "no ../shared/corpus beside the repository"))
    func equalsSwiftProtobufOverTheCorpus() throws {
        for (index, text) in (Self.corpus ?? []).enumerated() {
            let layout = try Self.layouter.layout(Self.request(text) { $0.alignment = .justified })
            let ours = LayoutReplyFrame.encode(requestID: UInt64(index), layout: layout)
            #expect(ours == (try Self.swiftProtobufFrame(UInt64(index), layout, [])), "caption \(index)")
        }
    }
}

/// The fast reader gives exactly what swift-protobuf decodes, or nothing.
@Suite struct LayoutReplyReaderTests {
    static func frames() throws -> [[UInt8]] {
        let decorator = { (layout: ParagraphLayout, text: String) in
            Decorator(layout: layout, text: text, fonts: LayoutReplyFrameTests.fonts)
        }
        return try LayoutReplyFrameTests.texts.enumerated().map { index, text in
            // Every other text with its intrinsic metrics, which the reader reads too.
            let layout = try LayoutReplyFrameTests.layouter.layout(LayoutReplyFrameTests.request(text) {
                $0.alignment = .justified
                $0.measuresIntrinsics = index % 2 == 1
            })
            let backgrounds = index == 0 ? [try decorator(layout, text).decorate(BackgroundStyle(kind: .perLine))] : []
            return Array(LayoutReplyFrame.encode(requestID: UInt64(index) << 40, layout: layout, backgrounds: backgrounds)
                .dropFirst(Framing.headerBytes))
        }
    }

    @Test func readsWhatTheWriterWrites() throws {
        for body in try Self.frames() {
            let fast = try #require(LayoutReplyReader.envelope(body))
            #expect(fast == (try Layoutd_V1_Envelope(serializedBytes: body)))
        }
    }

    @Test func leavesOtherBodiesAndUnknownFieldsToSwiftProtobuf() throws {
        var hello = Layoutd_V1_Envelope()
        hello.body = .helloReply(.with { $0.serverVersion = "x" })
        #expect(LayoutReplyReader.envelope(try hello.serializedBytes()) == nil)
        var reply = Layoutd_V1_Envelope()
        reply.body = .layoutReply(.with { $0.width = 3 })
        var bytes: [UInt8] = try reply.serializedBytes()
        #expect(LayoutReplyReader.envelope(bytes) == reply)
        bytes += [0xF8, 0x01, 0x05]  // field 31, a varint nobody declared
        #expect(LayoutReplyReader.envelope(bytes) == nil)
        #expect(LayoutReplyReader.envelope([]) == nil)
    }

    /// Flipped, dropped and inserted bytes: whenever the fast reader answers, swift-protobuf
    /// decodes the same bytes to an equal envelope.
    @Test func agreesWithSwiftProtobufOnDamagedFrames() throws {
        // The damage must leave many frames readable, or this proves little.
        #expect(try damagedFramesRead(try Self.frames(), copies: 400, seed: 0x1A70_07) { LayoutReplyReader.envelope($0) } > 100)
    }
}
