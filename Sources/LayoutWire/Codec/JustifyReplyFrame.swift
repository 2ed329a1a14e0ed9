import LayoutEngine

/// The frame of a Type Mode reply, written straight from the fitted layout, as
/// `LayoutReplyFrame` writes a layout's: its lines and glyph runs are most of the bytes, and
/// building them as generated structs for swift-protobuf cost more than fitting the text.
/// Its bytes equal `Framing.encode` of the envelope built through `Layoutd_V1_JustifyReply(_:…)`
/// (a test holds the two together).
public enum JustifyReplyFrame {
    /// Field numbers, from proto/layoutd/v1/{envelope,typemode}.proto.
    private enum Envelope { static let requestID = 1, justifyReply = 21 }
    private enum Reply {
        static let lines = 1, lineSizes = 2, runs = 3, width = 4, height = 5, backgrounds = 6, effects = 7, preset = 8
        static let attachments = 9, clamped = 10, decorations = 11, paints = 12, ruleMatches = 13, fillRegions = 14
        static let emphasisMarks = 15, writingMode = 16
    }
    private enum Effects { static let textColor = 1, glowColor = 2, glowRadius = 3 }
    private enum ColorField { static let red = 1, green = 2, blue = 3, transparency = 4 }

    /// Every field this writer writes (lines and runs as `LayoutReplyFrame` writes them; the
    /// small nested messages through swift-protobuf, whole): a test holds it to the .proto.
    public static let writtenFields: [String: Set<Int>] = [
        "layoutd.v1.JustifyReply": [Reply.lines, Reply.lineSizes, Reply.runs, Reply.width, Reply.height, Reply.backgrounds,
                                    Reply.effects, Reply.preset, Reply.attachments, Reply.clamped, Reply.decorations, Reply.paints,
                                    Reply.ruleMatches, Reply.fillRegions, Reply.emphasisMarks, Reply.writingMode],
        "layoutd.v1.TextEffects": [Effects.textColor, Effects.glowColor, Effects.glowRadius],
        "layoutd.v1.Color": [ColorField.red, ColorField.green, ColorField.blue, ColorField.transparency],
    ]

    public static func encode(requestID: UInt64, fitted: TypeModeLayout, backgrounds: [Background], effects: TextEffects,
                              preset: String, ruleMatches: [Layoutd_V1_RuleMatch] = []) -> [UInt8] {
        let layout = fitted.paragraph
        let glyphs = layout.glyphCount
        return ProtobufWriter.frame(capacity: 96 + layout.lines.count * 72 + layout.runs.count * 48 + glyphs * 20) { writer in
            writer.fixed32(0)  // the frame header, filled in at the end
            writer.uint64(Envelope.requestID, requestID)
            writer.message(Envelope.justifyReply, lengthBytes: LayoutReplyFrame.lengthBytes(glyphs: glyphs)) { reply in
                for line in layout.lines { reply.message(Reply.lines) { LayoutReplyFrame.write(line, ink: nil, to: &$0) } }
                let sizes = fitted.lineSizes
                reply.packedFloats(Reply.lineSizes, count: sizes.count) { out in
                    for i in sizes.indices {
                        out.storeBytes(of: Float(sizes[i]).bitPattern.littleEndian, toByteOffset: i * 4, as: UInt32.self)
                    }
                }
                LayoutReplyFrame.writeRuns(layout.runs, field: Reply.runs, to: &reply) { run, _, writer in
                    LayoutReplyFrame.write(runAt: run, ink: nil, bounds: nil, to: &writer)
                }
                reply.float(Reply.width, Float(layout.size.width))
                reply.float(Reply.height, Float(layout.size.height))
                for background in backgrounds {
                    let bytes: [UInt8] = (try? Layoutd_V1_BackgroundShape(background).serializedBytes()) ?? []
                    reply.message(Reply.backgrounds, serialized: bytes)
                }
                reply.message(Reply.effects) { write(effects, to: &$0) }
                reply.string(Reply.preset, preset)
                for box in layout.attachments {
                    let bytes: [UInt8] = (try? Layoutd_V1_AttachmentBox(box).serializedBytes()) ?? []
                    reply.message(Reply.attachments, serialized: bytes)
                }
                let clamped = fitted.clamped
                reply.packedUInt32(Reply.clamped, count: clamped.count) { clamped[$0] ? 1 : 0 }
                for decoration in layout.decorations {
                    reply.message(Reply.decorations, serialized: (try? Layoutd_V1_TextDecoration(decoration).serializedBytes()) ?? [])
                }
                for paint in Layoutd_V1_Paint.list(layout.paints) {
                    reply.message(Reply.paints, serialized: (try? paint.serializedBytes()) ?? [])
                }
                for match in ruleMatches { reply.message(Reply.ruleMatches, serialized: (try? match.serializedBytes()) ?? []) }
                for region in layout.fillRegions {
                    reply.message(Reply.fillRegions, serialized: (try? Layoutd_V1_FillRegion(region).serializedBytes()) ?? [])
                }
                LayoutReplyFrame.writeRuns(layout.emphasisMarks, field: Reply.emphasisMarks, to: &reply) { marks, _, writer in
                    LayoutReplyFrame.write(runAt: marks, ink: nil, bounds: nil, to: &writer)
                }
                reply.enumeration(Reply.writingMode, Layoutd_V1_WritingMode(layout.writingMode).rawValue)
            }
            writer.finishFrame()
        }
    }

    /// The preset's colours, as `Layoutd_V1_TextEffects(effects)` has them: written here, on every
    /// reply, where building and serializing the message cost more than writing the whole line list.
    static func write(_ effects: TextEffects, to writer: inout ProtobufWriter) {
        writer.message(Effects.textColor) { write(effects.textColor, to: &$0) }
        if let glow = effects.glowColor {
            writer.message(Effects.glowColor) { write(glow, to: &$0) }
            writer.float(Effects.glowRadius, Float(effects.glowRadius))
        }
    }

    /// A colour as `Layoutd_V1_Color(color)` has it: its transparency is one less its alpha.
    static func write(_ color: Color, to writer: inout ProtobufWriter) {
        writer.float(ColorField.red, Float(color.red))
        writer.float(ColorField.green, Float(color.green))
        writer.float(ColorField.blue, Float(color.blue))
        writer.float(ColorField.transparency, Float(1 - color.alpha))
    }
}
