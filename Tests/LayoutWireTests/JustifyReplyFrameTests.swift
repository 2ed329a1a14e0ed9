import LayoutEngine
import LayoutWire
import Testing

/// The hand-written Type Mode reply frame must be byte for byte what swift-protobuf writes for
/// the same reply built as generated structs.
@Suite struct JustifyReplyFrameTests {
    static let layouter = LayoutReplyFrameTests.layouter

    static func swiftProtobufFrame(_ id: UInt64, _ fitted: TypeModeLayout, _ backgrounds: [Background], _ effects: TextEffects,
                                   _ preset: String) throws -> [UInt8] {
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = id
        envelope.body = .justifyReply(Layoutd_V1_JustifyReply(fitted, backgrounds: backgrounds, effects: effects, preset: preset))
        return try Framing.encode(envelope)
    }

    @Test(arguments: LayoutReplyFrameTests.texts.indices)
    func equalsSwiftProtobufForEveryScriptAndPreset(_ index: Int) throws {
        let text = LayoutReplyFrameTests.texts[index]
        for name in ["strong", "neon", "classic", "typewriter", "modern"] {
            let preset = try #require(TypeModePreset.named(name))
            let fitted = try Self.layouter.justify(preset.request(text: text, width: 300))
            var backgrounds: [Background] = []
            if let style = preset.backgroundStyle(fill: Color(red: 0.9, green: 0.2, blue: 0.4)), !fitted.paragraph.lines.isEmpty {
                backgrounds.append(try Decorator(layout: fitted.paragraph, text: text, fonts: LayoutReplyFrameTests.fonts).decorate(style))
            }
            let effects = TextEffects.derive(preset: name, palette: Color(red: 0.1, green: 0.7, blue: 0.3),
                                             largestSize: fitted.lineSizes.max() ?? 14)
            for id: UInt64 in [0, 5, .max] {
                let ours = JustifyReplyFrame.encode(requestID: id, fitted: fitted, backgrounds: backgrounds, effects: effects,
                                                    preset: name)
                #expect(ours == (try Self.swiftProtobufFrame(id, fitted, backgrounds, effects, name)), "text \(index), \(name), id \(id)")
            }
        }
    }

    /// The effects are written by hand: every colour's edges (black, white, clear, opaque) and a
    /// glow of no radius give swift-protobuf's bytes.
    @Test func effectsOfEveryKindAreWrittenAsSwiftProtobufWritesThem() throws {
        let fitted = try Self.layouter.justify(TypeModeRequest(text: "GLOW", style: TextStyle(family: "Noto Sans"), width: 200,
                                                               minSize: 14, maxSize: 40))
        let colors = [Color(red: 0, green: 0, blue: 0), Color(red: 1, green: 1, blue: 1, alpha: 0), Color(red: 0.25, green: 0.5, blue: 0.75, alpha: 0.5)]
        for text in colors {
            for glow in [nil] + colors.map(Optional.some) {
                for radius in [0.0, 7.5] {
                    var effects = TextEffects.derive(preset: "neon", palette: text, largestSize: 40)
                    (effects.textColor, effects.glowColor, effects.glowRadius) = (text, glow, radius)
                    let ours = JustifyReplyFrame.encode(requestID: 9, fitted: fitted, backgrounds: [], effects: effects, preset: "neon")
                    #expect(ours == (try Self.swiftProtobufFrame(9, fitted, [], effects, "neon")), "\(effects)")
                }
            }
        }
    }

    @Test func clampedLinesAndAttachmentsAreWrittenToo() throws {
        let text = "A \u{FFFC} story\nwith an emphasized line"
        var request = TypeModeRequest(text: text, style: TextStyle(family: "Noto Sans"), width: 200, minSize: 14, maxSize: 30)
        request.attachments = [InlineAttachment(width: 1, extent: .height(1), inEms: true)]
        let fitted = try Self.layouter.justify(request)
        #expect(fitted.clamped.contains(true) && !fitted.paragraph.attachments.isEmpty)
        let effects = TextEffects.derive(preset: nil, palette: Color(red: 1, green: 1, blue: 1), largestSize: 30)
        let ours = JustifyReplyFrame.encode(requestID: 3, fitted: fitted, backgrounds: [], effects: effects, preset: "")
        #expect(ours == (try Self.swiftProtobufFrame(3, fitted, [], effects, "")))
    }

    @Test func decorationsAndPaintsAreWrittenAtEachLinesSize() throws {
        var request = TypeModeRequest(text: "so\nHAPPY\nto see you", style: TextStyle(family: "Noto Sans"), width: 300, minSize: 14, maxSize: 96)
        request.paint = TextPaint(color: Color(red: 1, green: 1, blue: 1), underline: DecorationLine(style: .thick),
                                  shadows: [TextShadow(offset: Point(x: 2, y: 2), blurRadius: 3)])
        let fitted = try Self.layouter.justify(request)
        #expect(fitted.paragraph.decorations.count == fitted.paragraph.lines.count)
        // Each line's underline is as thick as its own size makes it.
        let thicknesses = fitted.paragraph.decorations.map(\.thickness)
        #expect(Set(thicknesses.map { ($0 * 100).rounded() }).count > 1)
        let effects = TextEffects.derive(preset: nil, palette: Color(red: 1, green: 1, blue: 1), largestSize: 96)
        let ours = JustifyReplyFrame.encode(requestID: 4, fitted: fitted, backgrounds: [], effects: effects, preset: "")
        #expect(ours == (try Self.swiftProtobufFrame(4, fitted, [], effects, "")))
        let decoded = try Layoutd_V1_Envelope(serializedBytes: Array(ours.dropFirst(Framing.headerBytes)))
        guard case .justifyReply(let reply) = decoded.body else { Issue.record("not a justify reply"); return }
        #expect(reply.decorations.count == 3 && reply.paints.count == 1 && reply.paints[0].hasShadow)
    }

    @Test func ruleMatchesAreWrittenToo() throws {
        var wire = Layoutd_V1_JustifyRequest()
        wire.text = "1. *so* HAPPY"
        wire.width = 300
        wire.builtinRules = .notes
        let plan = try wire.plan(fonts: LayoutReplyFrameTests.fonts)
        #expect(plan.ruleMatches.count == 3)
        let fitted = try Self.layouter.justify(plan.request)
        let effects = TextEffects.derive(preset: nil, palette: Color(red: 1, green: 1, blue: 1), largestSize: 96)
        let ours = JustifyReplyFrame.encode(requestID: 6, fitted: fitted, backgrounds: [], effects: effects, preset: "",
                                            ruleMatches: plan.ruleMatches)
        var reply = Layoutd_V1_JustifyReply(fitted, backgrounds: [], effects: effects, preset: "", ruleMatches: plan.ruleMatches)
        reply.ruleMatches = plan.ruleMatches
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = 6
        envelope.body = .justifyReply(reply)
        #expect(ours == (try Framing.encode(envelope)))
    }

    /// Vertical Type Mode: columns of upright, sideways and combined runs, underlined, with the
    /// writing mode the reply now carries, in both directions; and the request's vertical fields
    /// read onto the engine's request.
    @Test func verticalTypeModeIsWrittenAsSwiftProtobufWritesIt() throws {
        for mode in [Layoutd_V1_WritingMode.verticalRl, .verticalLr] {
            var wire = Layoutd_V1_JustifyRequest()
            wire.text = "2024年の\n夏休みSUMMER\nまた来年"
            wire.width = 300
            wire.style.family = "Noto Sans CJK JP"
            wire.style.underline.style = .single
            wire.writingMode = mode
            wire.textCombineUpright = 4
            let plan = try wire.plan(fonts: LayoutReplyFrameTests.fonts)
            #expect(plan.request.writingMode == (mode == .verticalRl ? .verticalRightToLeft : .verticalLeftToRight))
            #expect(plan.request.combineUpright == 4)
            let fitted = try Self.layouter.justify(plan.request)
            let orientations = Set(fitted.paragraph.runs.map(\.orientation))
            #expect(orientations == [.upright, .sideways, .combined])
            let effects = TextEffects.derive(preset: nil, palette: Color(red: 1, green: 1, blue: 1), largestSize: 96)
            let ours = JustifyReplyFrame.encode(requestID: 8, fitted: fitted, backgrounds: [], effects: effects, preset: "")
            #expect(ours == (try Self.swiftProtobufFrame(8, fitted, [], effects, "")))
            let decoded = try Layoutd_V1_Envelope(serializedBytes: Array(ours.dropFirst(Framing.headerBytes)))
            guard case .justifyReply(let reply) = decoded.body else { Issue.record("not a justify reply"); return }
            #expect(reply.writingMode == mode)
        }
        // Out of range, each named.
        for (field, set) in [("writing_mode", { (r: inout Layoutd_V1_JustifyRequest) in r.writingMode = .UNRECOGNIZED(9) }),
                             ("text_orientation", { $0.textOrientation = .UNRECOGNIZED(-1) }),
                             ("text_combine_upright", { $0.textCombineUpright = 5 })] {
            var wire = Layoutd_V1_JustifyRequest()
            (wire.text, wire.width) = ("縦", 100)
            set(&wire)
            #expect { _ = try wire.plan(fonts: LayoutReplyFrameTests.fonts) } throws: { ($0 as? LayoutError)?.field == field }
        }
    }
}
