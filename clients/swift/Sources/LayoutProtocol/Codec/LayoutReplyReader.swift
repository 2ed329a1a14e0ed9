/// Reads an envelope carrying a layout reply without swift-protobuf's generic decoder.
///
/// It takes only what `LayoutReplyFrame` and other conforming writers produce: known
/// fields with their declared wire types, each message field at most once. Anything else
/// (unknown fields, unpacked repeated scalars, merged messages, malformed bytes, other
/// bodies) gives nil, and the caller decodes with swift-protobuf, whose result this
/// equals whenever this gives one (a test holds the two together).
public enum LayoutReplyReader {
    private static let varint = ProtobufReader.varint, fixed32 = ProtobufReader.fixed32
    private static let lengthDelimited = ProtobufReader.lengthDelimited

    public static func envelope(_ body: [UInt8]) -> Layoutd_V1_Envelope? {
        body.withUnsafeBytes { envelope($0) }
    }

    public static func envelope(_ bytes: UnsafeRawBufferPointer) -> Layoutd_V1_Envelope? {
        ProtobufReader.envelope(bytes, bodyField: 13) { layoutReply(&$0).map { .layoutReply($0) } }
    }

    private static func layoutReply(_ reader: inout ProtobufReader) -> Layoutd_V1_LayoutReply? {
        var reply = Layoutd_V1_LayoutReply()
        var counting = reader
        let (lineCount, runCount) = counting.countFields(1, 2)
        // Repeated fields fill local arrays, set once at the end: appending through a message's
        // property copies the whole array each time (its storage holds a second reference).
        var lines: [Layoutd_V1_Line] = [], runs: [Layoutd_V1_GlyphRun] = [], backgrounds: [Layoutd_V1_BackgroundShape] = []
        var attachments: [Layoutd_V1_AttachmentBox] = []
        var decorations: [Layoutd_V1_TextDecoration] = [], paints: [Layoutd_V1_Paint] = [], ruleMatches: [Layoutd_V1_RuleMatch] = []
        lines.reserveCapacity(lineCount)
        runs.reserveCapacity(runCount)
        var containers: [Layoutd_V1_ContainerLayout] = [], fillRegions: [Layoutd_V1_FillRegion] = []
        var sawRange = false, sawOverflow = false, sawInk = false, sawFirstInk = false
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag() else { return nil }
            switch (field, type) {
            case (1, lengthDelimited):
                guard var nested = reader.nested(), let line = line(&nested) else { return nil }
                lines.append(line)
            case (2, lengthDelimited):
                guard var nested = reader.nested(), let run = glyphRun(&nested) else { return nil }
                runs.append(run)
            case (3, lengthDelimited) where !sawRange:
                guard var nested = reader.nested(), let range = nested.range() else { return nil }
                reply.visibleRange = range
                sawRange = true
            case (4, fixed32): guard let value = reader.float() else { return nil }; reply.width = value
            case (5, fixed32): guard let value = reader.float() else { return nil }; reply.height = value
            case (6, varint):
                guard let raw = reader.enumeration() else { return nil }
                reply.direction = Layoutd_V1_Direction(rawValue: raw) ?? .auto
            case (7, lengthDelimited):
                guard let shape = reader.message(Layoutd_V1_BackgroundShape.self) else { return nil }
                backgrounds.append(shape)
            case (8, lengthDelimited):
                guard let box = reader.message(Layoutd_V1_AttachmentBox.self) else { return nil }
                attachments.append(box)
            // Decorations and paints, only in painted text: swift-protobuf reads them.
            case (9, lengthDelimited):
                guard let decoration = reader.message(Layoutd_V1_TextDecoration.self) else { return nil }
                decorations.append(decoration)
            case (10, lengthDelimited):
                guard let paint = reader.message(Layoutd_V1_Paint.self) else { return nil }
                paints.append(paint)
            case (11, lengthDelimited):
                guard let match = reader.message(Layoutd_V1_RuleMatch.self) else { return nil }
                ruleMatches.append(match)
            // Containers and the overflow, only in text that flows or is cut: swift-protobuf reads them.
            case (12, lengthDelimited):
                guard let container = reader.message(Layoutd_V1_ContainerLayout.self) else { return nil }
                containers.append(container)
            case (13, lengthDelimited) where !sawOverflow:
                guard var nested = reader.nested(), let range = nested.range() else { return nil }
                reply.overflowRange = range
                sawOverflow = true
            case (14, varint):
                guard let raw = reader.enumeration() else { return nil }
                reply.writingMode = Layoutd_V1_WritingMode(rawValue: raw) ?? .horizontalTb
            case (15, lengthDelimited) where !sawInk:
                guard var nested = reader.nested(), let rect = rect(&nested) else { return nil }
                reply.inkBounds = rect
                sawInk = true
            case (17, fixed32): guard let value = reader.float() else { return nil }; reply.appliedScale = value
            case (18, fixed32): guard let value = reader.float() else { return nil }; reply.minContentWidth = value
            case (19, fixed32): guard let value = reader.float() else { return nil }; reply.maxContentWidth = value
            case (16, lengthDelimited) where !sawFirstInk:
                guard var nested = reader.nested(), let rect = rect(&nested) else { return nil }
                reply.firstGlyphInk = rect
                sawFirstInk = true
            case (20, lengthDelimited):
                guard let region = reader.message(Layoutd_V1_FillRegion.self) else { return nil }
                fillRegions.append(region)
            case (21, lengthDelimited):
                guard var nested = reader.nested(), let run = glyphRun(&nested) else { return nil }
                reply.emphasisMarks.append(run)
            case (22, lengthDelimited):
                guard var nested = reader.nested(), let run = glyphRun(&nested) else { return nil }
                reply.rubyRuns.append(run)
            default: return nil
            }
        }
        reply.lines = lines
        reply.runs = runs
        reply.backgrounds = backgrounds
        reply.attachments = attachments
        reply.decorations = decorations
        reply.paints = paints
        reply.ruleMatches = ruleMatches
        reply.containers = containers
        reply.fillRegions = fillRegions
        return reply
    }

    private static func line(_ reader: inout ProtobufReader) -> Layoutd_V1_Line? {
        var line = Layoutd_V1_Line()
        var seen: UInt16 = 0  // message fields met, by number: each at most once
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag() else { return nil }
            switch (field, type) {
            case (1, lengthDelimited) where ProtobufReader.firstTime(1, &seen):
                guard var nested = reader.nested(), let range = nested.range() else { return nil }
                line.range = range
            case (2, lengthDelimited) where ProtobufReader.firstTime(2, &seen):
                guard var nested = reader.nested(), let floats = floats(&nested, fields: 2) else { return nil }
                line.baselineOrigin = .with { $0.x = floats[0]; $0.y = floats[1] }
            case (3, fixed32): guard let value = reader.float() else { return nil }; line.ascent = value
            case (4, fixed32): guard let value = reader.float() else { return nil }; line.descent = value
            case (5, fixed32): guard let value = reader.float() else { return nil }; line.leading = value
            case (6, fixed32): guard let value = reader.float() else { return nil }; line.width = value
            case (7, fixed32): guard let value = reader.float() else { return nil }; line.trailingWhitespaceWidth = value
            case (8, lengthDelimited) where ProtobufReader.firstTime(8, &seen):
                guard var nested = reader.nested(), let floats = floats(&nested, fields: 4) else { return nil }
                line.usedRect = .with { $0.x = floats[0]; $0.y = floats[1]; $0.width = floats[2]; $0.height = floats[3] }
            case (9, varint): guard let value = reader.varint() else { return nil }; line.hardBreak = value != 0
            case (10, varint): guard let value = reader.varint() else { return nil }; line.truncated = value != 0
            case (11, varint): guard let value = reader.varint() else { return nil }; line.container = UInt32(truncatingIfNeeded: value)
            case (12, lengthDelimited) where ProtobufReader.firstTime(12, &seen):
                guard var nested = reader.nested(), let floats = floats(&nested, fields: 4) else { return nil }
                line.fragmentRect = .with { $0.x = floats[0]; $0.y = floats[1]; $0.width = floats[2]; $0.height = floats[3] }
            case (13, lengthDelimited) where ProtobufReader.firstTime(13, &seen):
                guard var nested = reader.nested(), let rect = rect(&nested) else { return nil }
                line.inkBounds = rect
            default: return nil
            }
        }
        return line
    }

    private static func glyphRun(_ reader: inout ProtobufReader) -> Layoutd_V1_GlyphRun? {
        var run = Layoutd_V1_GlyphRun()
        var sawRange = false, sawInk = false
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag() else { return nil }
            switch (field, type) {
            case (1, varint): guard let value = reader.varint() else { return nil }; run.fontID = UInt32(truncatingIfNeeded: value)
            case (2, fixed32): guard let value = reader.float() else { return nil }; run.size = value
            case (3, varint): guard let value = reader.varint() else { return nil }; run.bidiLevel = UInt32(truncatingIfNeeded: value)
            case (4, lengthDelimited):
                guard var nested = reader.nested(), let values = nested.packedUInt32() else { return nil }
                if run.glyphIds.isEmpty { run.glyphIds = values } else { run.glyphIds += values }
            case (5, lengthDelimited):
                guard var nested = reader.nested(), let values = nested.packedFloats() else { return nil }
                if run.positions.isEmpty { run.positions = values } else { run.positions += values }
            case (6, lengthDelimited):
                guard var nested = reader.nested(), let values = nested.packedFloats() else { return nil }
                if run.advances.isEmpty { run.advances = values } else { run.advances += values }
            case (7, lengthDelimited):
                guard var nested = reader.nested(), let values = nested.packedUInt32() else { return nil }
                if run.clusters.isEmpty { run.clusters = values } else { run.clusters += values }
            case (8, lengthDelimited) where !sawRange:
                guard var nested = reader.nested(), let range = nested.range() else { return nil }
                run.range = range
                sawRange = true
            case (9, varint): guard let value = reader.varint() else { return nil }; run.truncationToken = value != 0
            case (10, varint): guard let value = reader.varint() else { return nil }; run.lineIndex = UInt32(truncatingIfNeeded: value)
            case (11, varint): guard let value = reader.varint() else { return nil }; run.paint = UInt32(truncatingIfNeeded: value)
            case (12, varint):
                guard let raw = reader.enumeration() else { return nil }
                run.orientation = Layoutd_V1_GlyphOrientation(rawValue: raw) ?? .horizontal
            case (13, lengthDelimited) where !sawInk:
                guard var nested = reader.nested(), let rect = rect(&nested) else { return nil }
                run.inkBounds = rect
                sawInk = true
            case (14, lengthDelimited):
                guard var nested = reader.nested(), let variation = nested.variation() else { return nil }
                run.variations.append(variation)
            case (15, varint): guard let value = reader.varint() else { return nil }; run.hyphen = value != 0
            case (16, varint): guard let value = reader.varint() else { return nil }; run.listMarker = value != 0
            case (17, fixed32): guard let value = reader.float() else { return nil }; run.ascent = value
            case (18, fixed32): guard let value = reader.float() else { return nil }; run.descent = value
            case (19, fixed32): guard let value = reader.float() else { return nil }; run.leading = value
            case (20, fixed32): guard let value = reader.float() else { return nil }; run.syntheticBold = value
            case (21, fixed32): guard let value = reader.float() else { return nil }; run.syntheticSlant = value
            case (22, lengthDelimited):
                guard var nested = reader.nested(), let values = nested.packedFloats() else { return nil }
                if run.angles.isEmpty { run.angles = values } else { run.angles += values }
            case (23, lengthDelimited):
                guard var nested = reader.nested(), let values = nested.packedUInt32() else { return nil }
                if run.glyphFlags.isEmpty { run.glyphFlags = values } else { run.glyphFlags += values }
            default: return nil
            }
        }
        return run
    }

    /// A Rect message's body.
    private static func rect(_ reader: inout ProtobufReader) -> Layoutd_V1_Rect? {
        guard let floats = floats(&reader, fields: 4) else { return nil }
        return .with { $0.x = floats[0]; $0.y = floats[1]; $0.width = floats[2]; $0.height = floats[3] }
    }

    /// A Point or Rect: float fields 1...`fields` in any order, the last of a repeated one winning.
    private static func floats(_ reader: inout ProtobufReader, fields: Int) -> SIMD4<Float>? {
        var values = SIMD4<Float>()
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag(), type == fixed32, (1...fields).contains(field),
                  let value = reader.float() else { return nil }
            values[field - 1] = value
        }
        return values
    }
}
