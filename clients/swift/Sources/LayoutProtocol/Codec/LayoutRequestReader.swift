/// Reads an envelope carrying a layout request without swift-protobuf's generic decoder:
/// the daemon's most frequent request, whose decoding cost as much as a short layout.
///
/// Like `LayoutReplyReader`, it takes only known fields with their declared wire types and
/// each singular message field at most once; anything else (unknown fields, merged
/// messages, malformed bytes or UTF-8, other bodies) gives nil and the caller decodes with
/// swift-protobuf. Background specs, attachments and ruby, rare and intricate, are decoded by
/// swift-protobuf.
public enum LayoutRequestReader {
    private static let varint = ProtobufReader.varint, fixed32 = ProtobufReader.fixed32
    private static let lengthDelimited = ProtobufReader.lengthDelimited

    public static func envelope(_ bytes: UnsafeRawBufferPointer) -> Layoutd_V1_Envelope? {
        ProtobufReader.envelope(bytes, bodyField: 12) { layoutRequest(&$0).map { .layout($0) } }
    }

    static func layoutRequest(_ reader: inout ProtobufReader) -> Layoutd_V1_LayoutRequest? {
        var request = Layoutd_V1_LayoutRequest()
        // Repeated fields fill local arrays, set once at the end: appending through a message's
        // property copies the whole array each time (its storage holds a second reference),
        // which made 40,000 empty spans take seconds.
        var spans: [Layoutd_V1_StyleSpan] = [], backgrounds: [Layoutd_V1_BackgroundSpec] = []
        var attachments: [Layoutd_V1_Attachment] = []
        var rules: [Layoutd_V1_FormattingRule] = []
        var exclusions: [Layoutd_V1_Exclusion] = [], containers: [Layoutd_V1_Container] = []
        var rubyAnnotations: [Layoutd_V1_Ruby] = []
        var seen: UInt32 = 0  // singular message fields met, by number
        var sawTextPath = false  // field 33, past `seen`'s bits
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag() else { return nil }
            switch (field, type) {
            case (1, lengthDelimited): guard let text = reader.string() else { return nil }; request.text = text
            case (2, lengthDelimited) where ProtobufReader.firstTime(2, &seen):
                guard var nested = reader.nested(), let style = style(&nested) else { return nil }
                request.defaultStyle = style
            case (3, lengthDelimited):
                guard var nested = reader.nested(), let span = span(&nested) else { return nil }
                spans.append(span)
            case (4, fixed32): guard let value = reader.float() else { return nil }; request.width = value
            case (5, fixed32): guard let value = reader.float() else { return nil }; request.height = value
            case (6, varint):
                guard let raw = reader.enumeration() else { return nil }
                request.alignment = Layoutd_V1_Alignment(rawValue: raw) ?? .natural
            case (7, varint):
                guard let raw = reader.enumeration() else { return nil }
                request.direction = Layoutd_V1_Direction(rawValue: raw) ?? .auto
            case (8, fixed32): guard let value = reader.float() else { return nil }; request.lineHeightMultiple = value
            case (9, fixed32): guard let value = reader.float() else { return nil }; request.lineHeight = value
            case (10, varint): guard let value = reader.varint() else { return nil }; request.maxLines = UInt32(truncatingIfNeeded: value)
            case (11, lengthDelimited) where ProtobufReader.firstTime(11, &seen):
                guard var nested = reader.nested() else { return nil }
                var truncation = Layoutd_V1_Truncation()
                while !nested.isAtEnd {
                    guard let (inner, innerType) = nested.tag() else { return nil }
                    switch (inner, innerType) {
                    case (1, lengthDelimited): guard let token = nested.string() else { return nil }; truncation.token = token
                    case (2, varint):
                        guard let raw = nested.enumeration() else { return nil }
                        truncation.mode = Layoutd_V1_TruncationMode(rawValue: raw) ?? .tail
                    default: return nil
                    }
                }
                request.truncation = truncation
            case (12, lengthDelimited):
                guard let spec = reader.message(Layoutd_V1_BackgroundSpec.self) else { return nil }
                backgrounds.append(spec)
            case (13, lengthDelimited):
                guard let attachment = reader.message(Layoutd_V1_Attachment.self) else { return nil }
                attachments.append(attachment)
            // Formatting rules, rare: swift-protobuf reads each.
            case (14, lengthDelimited):
                guard let rule = reader.message(Layoutd_V1_FormattingRule.self) else { return nil }
                rules.append(rule)
            case (15, varint):
                guard let raw = reader.enumeration() else { return nil }
                request.builtinRules = Layoutd_V1_BuiltinRules(rawValue: raw) ?? .none
            case (16, varint): guard let value = reader.varint() else { return nil }; request.hideBuiltinMarkers = value != 0
            // Text that flows, rare: swift-protobuf reads each shape, exclusion and container.
            case (17, lengthDelimited):
                guard let exclusion = reader.message(Layoutd_V1_Exclusion.self) else { return nil }
                exclusions.append(exclusion)
            case (18, lengthDelimited) where ProtobufReader.firstTime(18, &seen):
                guard let shape = reader.message(Layoutd_V1_Shape.self) else { return nil }
                request.shape = shape
            case (19, fixed32): guard let value = reader.float() else { return nil }; request.shapeInset = value
            case (20, lengthDelimited):
                guard let container = reader.message(Layoutd_V1_Container.self) else { return nil }
                containers.append(container)
            case (21, varint):
                guard let raw = reader.enumeration() else { return nil }
                request.verticalAlignment = Layoutd_V1_VerticalAlignment(rawValue: raw) ?? .top
            case (22, fixed32): guard let value = reader.float() else { return nil }; request.minFragmentWidth = value
            case (23, varint):
                guard let raw = reader.enumeration() else { return nil }
                request.writingMode = Layoutd_V1_WritingMode(rawValue: raw) ?? .horizontalTb
            case (24, varint): guard let value = reader.varint() else { return nil }; request.textCombineUpright = UInt32(truncatingIfNeeded: value)
            case (25, varint): guard let value = reader.varint() else { return nil }; request.combineLetters = value != 0
            case (26, varint): guard let value = reader.varint() else { return nil }; request.inkBounds = value != 0
            case (32, varint): guard let value = reader.varint() else { return nil }; request.intrinsicMetrics = value != 0
            case (35, varint): guard let value = reader.varint() else { return nil }; request.glyphFlags = value != 0
            case (36, varint):
                guard let raw = reader.enumeration() else { return nil }
                request.textOrientation = Layoutd_V1_TextOrientation(rawValue: raw) ?? .UNRECOGNIZED(raw)
            case (27, varint):
                guard let raw = reader.enumeration() else { return nil }
                request.breakStrategy = Layoutd_V1_BreakStrategy(rawValue: raw) ?? .UNRECOGNIZED(raw)
            case (28, lengthDelimited) where ProtobufReader.firstTime(28, &seen):
                guard var nested = reader.nested() else { return nil }
                var fit = Layoutd_V1_AutoSize()
                while !nested.isAtEnd {
                    guard let (inner, innerType) = nested.tag() else { return nil }
                    switch (inner, innerType) {
                    case (1, fixed32): guard let value = nested.float() else { return nil }; fit.minScale = value
                    case (2, fixed32): guard let value = nested.float() else { return nil }; fit.step = value
                    default: return nil
                    }
                }
                request.autoSize = fit
            case (29, lengthDelimited) where ProtobufReader.firstTime(29, &seen):
                guard let style = reader.message(Layoutd_V1_ParagraphStyle.self) else { return nil }
                request.paragraphStyle = style
            case (30, lengthDelimited):
                // A client's font: its bytes are copied once, here, as swift-protobuf would.
                guard let font = reader.message(Layoutd_V1_ClientFont.self) else { return nil }
                request.fonts.append(font)
            case (31, lengthDelimited) where ProtobufReader.firstTime(31, &seen):
                guard let hyphenation = reader.message(Layoutd_V1_Hyphenation.self) else { return nil }
                request.hyphenation = hyphenation
            case (33, lengthDelimited) where !sawTextPath:
                guard let path = reader.message(Layoutd_V1_TextPath.self) else { return nil }
                request.textPath = path
                sawTextPath = true
            case (34, lengthDelimited):
                // Ruby, rare: each annotation decoded by swift-protobuf.
                guard let ruby = reader.message(Layoutd_V1_Ruby.self) else { return nil }
                rubyAnnotations.append(ruby)
            default: return nil
            }
        }
        request.spans = spans
        request.rules = rules
        request.backgrounds = backgrounds
        if !rubyAnnotations.isEmpty { request.rubyAnnotations = rubyAnnotations }
        request.attachments = attachments
        request.exclusions = exclusions
        request.containers = containers
        return request
    }

    static func style(_ reader: inout ProtobufReader) -> Layoutd_V1_Style? {
        var style = Layoutd_V1_Style()
        var features: [Layoutd_V1_Feature] = []
        var variations: [Layoutd_V1_Variation] = []
        var sawSpacing = false, sawOffset = false
        var seen: UInt32 = 0  // the paint's message fields met, by number
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag() else { return nil }
            switch (field, type) {
            case (1, lengthDelimited): guard let family = reader.string() else { return nil }; style.family = family
            case (2, varint): guard let value = reader.varint() else { return nil }; style.weight = UInt32(truncatingIfNeeded: value)
            case (3, varint):
                guard let raw = reader.enumeration() else { return nil }
                style.slant = Layoutd_V1_Slant(rawValue: raw) ?? .inherit
            case (4, fixed32): guard let value = reader.float() else { return nil }; style.size = value
            case (5, lengthDelimited) where !sawSpacing:
                guard var nested = reader.nested(), let spacing = spacing(&nested) else { return nil }
                style.letterSpacing = spacing
                sawSpacing = true
            case (6, lengthDelimited):
                guard var nested = reader.nested() else { return nil }
                var feature = Layoutd_V1_Feature()
                while !nested.isAtEnd {
                    guard let (inner, innerType) = nested.tag() else { return nil }
                    switch (inner, innerType) {
                    case (1, lengthDelimited): guard let tag = nested.string() else { return nil }; feature.tag = tag
                    case (2, varint): guard let value = nested.varint() else { return nil }; feature.value = UInt32(truncatingIfNeeded: value)
                    default: return nil
                    }
                }
                features.append(feature)
            case (7, lengthDelimited): guard let language = reader.string() else { return nil }; style.language = language
            case (8, lengthDelimited) where !sawOffset:
                guard var nested = reader.nested(), let offset = spacing(&nested) else { return nil }
                style.baselineOffset = offset
                sawOffset = true
            // Paint, rare beside plain text: swift-protobuf reads each message's bytes.
            case (9, lengthDelimited) where ProtobufReader.firstTime(9, &seen):
                guard let message = reader.message(Layoutd_V1_Color.self) else { return nil }
                style.color = message
            case (10, lengthDelimited) where ProtobufReader.firstTime(10, &seen):
                guard let message = reader.message(Layoutd_V1_Color.self) else { return nil }
                style.background = message
            case (11, lengthDelimited) where ProtobufReader.firstTime(11, &seen):
                guard let message = reader.message(Layoutd_V1_DecorationLine.self) else { return nil }
                style.underline = message
            case (12, lengthDelimited) where ProtobufReader.firstTime(12, &seen):
                guard let message = reader.message(Layoutd_V1_DecorationLine.self) else { return nil }
                style.strikethrough = message
            case (13, lengthDelimited) where ProtobufReader.firstTime(13, &seen):
                guard let message = reader.message(Layoutd_V1_Shadow.self) else { return nil }
                style.shadow = message
            case (14, varint):
                guard let raw = reader.enumeration() else { return nil }
                style.textStyle = Layoutd_V1_TextStyleName(rawValue: raw) ?? .textStyleNone
            case (15, varint):
                guard let raw = reader.enumeration() else { return nil }
                style.sizeCategory = Layoutd_V1_ContentSizeCategory(rawValue: raw) ?? .contentSizeLarge
            case (16, fixed32): guard let value = reader.float() else { return nil }; style.maxScaledSize = value
            case (17, lengthDelimited) where ProtobufReader.firstTime(17, &seen):
                guard let message = reader.message(Layoutd_V1_TextEffect.self) else { return nil }
                style.effect = message
            case (18, lengthDelimited):
                guard var nested = reader.nested(), let variation = nested.variation() else { return nil }
                variations.append(variation)
            case (19, lengthDelimited): guard let name = reader.string() else { return nil }; style.namedInstance = name
            case (20, varint): guard let value = reader.varint() else { return nil }; style.fixedOpticalSize = value != 0
            case (21, varint): guard let value = reader.varint() else { return nil }; style.noFontFallback = value != 0
            case (22, lengthDelimited): guard let code = reader.string() else { return nil }; style.script = code
            case (23, lengthDelimited): guard let name = reader.string() else { return nil }; style.fallbackFamilies.append(name)
            case (24, varint):
                guard let raw = reader.enumeration() else { return nil }
                style.fontSynthesis = Layoutd_V1_FontSynthesis(rawValue: raw) ?? .UNRECOGNIZED(raw)
            case (25, lengthDelimited) where ProtobufReader.firstTime(25, &seen):
                guard let message = reader.message(Layoutd_V1_TextFill.self) else { return nil }
                style.fill = message
            case (26, lengthDelimited):
                guard let message = reader.message(Layoutd_V1_Shadow.self) else { return nil }
                style.shadows.append(message)
            case (27, lengthDelimited) where ProtobufReader.firstTime(27, &seen):
                guard let message = reader.message(Layoutd_V1_Glow.self) else { return nil }
                style.glow = message
            case (28, varint): guard let value = reader.varint() else { return nil }; style.boldText = value != 0
            case (29, varint):
                guard let raw = reader.enumeration() else { return nil }
                style.lineBreak = Layoutd_V1_LineBreak(rawValue: raw) ?? .UNRECOGNIZED(raw)
            case (30, varint):
                guard let raw = reader.enumeration() else { return nil }
                style.wordBreak = Layoutd_V1_WordBreak(rawValue: raw) ?? .UNRECOGNIZED(raw)
            case (31, lengthDelimited) where ProtobufReader.firstTime(31, &seen):
                guard let message = reader.message(Layoutd_V1_EmphasisMarks.self) else { return nil }
                style.emphasis = message
            case (32, fixed32): guard let value = reader.float() else { return nil }; style.opticalSize = value
            default: return nil
            }
        }
        style.features = features
        style.variations = variations
        return style
    }

    /// A `Spacing` message: points, a float.
    private static func spacing(_ reader: inout ProtobufReader) -> Layoutd_V1_Spacing? {
        var spacing = Layoutd_V1_Spacing()
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag(), field == 1, type == fixed32, let points = reader.float() else { return nil }
            spacing.points = points
        }
        return spacing
    }

    static func span(_ reader: inout ProtobufReader) -> Layoutd_V1_StyleSpan? {
        var span = Layoutd_V1_StyleSpan()
        var seen: UInt16 = 0
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag(), type == lengthDelimited, var nested = reader.nested() else { return nil }
            switch field {
            case 1 where ProtobufReader.firstTime(1, &seen):
                guard let range = nested.range() else { return nil }
                span.range = range
            case 2 where ProtobufReader.firstTime(2, &seen):
                guard let style = style(&nested) else { return nil }
                span.style = style
            default: return nil
            }
        }
        return span
    }
}
