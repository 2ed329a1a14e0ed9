/// Reads an envelope carrying a Type Mode (justify) request without swift-protobuf's generic
/// decoder, as `LayoutRequestReader` reads a layout request: swift-protobuf (and the merge
/// guard's scan before it) cost a justify request nearly three times this reader.
///
/// The same rules: known fields with their declared wire types, each singular message field
/// at most once; anything else gives nil and the caller decodes with swift-protobuf.
/// Backgrounds, the palette colour, attachments and formatting rules, rare, are decoded by
/// swift-protobuf.
public enum JustifyRequestReader {
    private static let varint = ProtobufReader.varint, fixed32 = ProtobufReader.fixed32
    private static let lengthDelimited = ProtobufReader.lengthDelimited

    public static func envelope(_ bytes: UnsafeRawBufferPointer) -> Layoutd_V1_Envelope? {
        ProtobufReader.envelope(bytes, bodyField: 20) { justifyRequest(&$0).map { .justify($0) } }
    }

    static func justifyRequest(_ reader: inout ProtobufReader) -> Layoutd_V1_JustifyRequest? {
        var request = Layoutd_V1_JustifyRequest()
        // Local arrays, set once at the end (see `LayoutRequestReader`).
        var backgrounds: [Layoutd_V1_BackgroundSpec] = [], attachments: [Layoutd_V1_Attachment] = []
        var spans: [Layoutd_V1_StyleSpan] = [], rules: [Layoutd_V1_FormattingRule] = []
        var seen: UInt32 = 0  // singular message fields met, by number
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag() else { return nil }
            switch (field, type) {
            case (1, lengthDelimited): guard let text = reader.string() else { return nil }; request.text = text
            case (2, lengthDelimited): guard let preset = reader.string() else { return nil }; request.preset = preset
            case (3, lengthDelimited) where ProtobufReader.firstTime(3, &seen):
                guard var nested = reader.nested(), let style = LayoutRequestReader.style(&nested) else { return nil }
                request.style = style
            case (4, fixed32): guard let value = reader.float() else { return nil }; request.width = value
            case (5, fixed32): guard let value = reader.float() else { return nil }; request.minSize = value
            case (6, fixed32): guard let value = reader.float() else { return nil }; request.maxSize = value
            case (7, varint):
                guard let raw = reader.enumeration() else { return nil }
                request.sizing = Layoutd_V1_JustifyRequest.Sizing(rawValue: raw) ?? .UNRECOGNIZED(raw)
            case (8, varint):
                guard let raw = reader.enumeration() else { return nil }
                request.alignment = Layoutd_V1_Alignment(rawValue: raw) ?? .UNRECOGNIZED(raw)
            case (9, fixed32): guard let value = reader.float() else { return nil }; request.lineHeightMultiple = value
            case (10, fixed32): guard let value = reader.float() else { return nil }; request.maxHeight = value
            case (11, varint): guard let value = reader.varint() else { return nil }; request.lastLineUnscaled = value != 0
            case (12, lengthDelimited):
                guard let spec = reader.message(Layoutd_V1_BackgroundSpec.self) else { return nil }
                backgrounds.append(spec)
            case (13, lengthDelimited) where ProtobufReader.firstTime(13, &seen):
                guard let color = reader.message(Layoutd_V1_Color.self) else { return nil }
                request.color = color
            case (14, lengthDelimited):
                guard let attachment = reader.message(Layoutd_V1_Attachment.self) else { return nil }
                attachments.append(attachment)
            case (15, varint): guard let value = reader.varint() else { return nil }; request.wholePointSizes = value != 0
            case (16, lengthDelimited):
                guard var nested = reader.nested(), let span = LayoutRequestReader.span(&nested) else { return nil }
                spans.append(span)
            case (17, lengthDelimited):
                guard let rule = reader.message(Layoutd_V1_FormattingRule.self) else { return nil }
                rules.append(rule)
            case (18, varint):
                guard let raw = reader.enumeration() else { return nil }
                request.builtinRules = Layoutd_V1_BuiltinRules(rawValue: raw) ?? .UNRECOGNIZED(raw)
            case (19, varint): guard let value = reader.varint() else { return nil }; request.hideBuiltinMarkers = value != 0
            case (20, varint):
                guard let raw = reader.enumeration() else { return nil }
                request.writingMode = Layoutd_V1_WritingMode(rawValue: raw) ?? .UNRECOGNIZED(raw)
            case (21, varint):
                guard let raw = reader.enumeration() else { return nil }
                request.textOrientation = Layoutd_V1_TextOrientation(rawValue: raw) ?? .UNRECOGNIZED(raw)
            case (22, varint): guard let value = reader.varint() else { return nil }; request.textCombineUpright = UInt32(truncatingIfNeeded: value)
            case (23, varint): guard let value = reader.varint() else { return nil }; request.combineLetters = value != 0
            default: return nil
            }
        }
        request.backgrounds = backgrounds
        request.attachments = attachments
        request.spans = spans
        request.rules = rules
        return request
    }
}
