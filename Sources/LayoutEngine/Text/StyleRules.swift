/// The rules every style obeys, whoever made it: the wire's span patches and an in-process
/// `ParagraphRequest` are checked by these same functions, so a value one refuses the other
/// refuses too, with the same limits and words. Each takes the path of the value it checks.
public enum StyleRules {
    /// CSS's and OpenType's weight scale.
    public static let weights = 1...1000
    /// A BCP 47 tag is at most 35 characters in practice (RFC 5646 §4.4.1 asks for that much room).
    public static let maxLanguageBytes = 35

    public static func checkSize(_ size: Double, field: @autoclosure () -> String) throws(LayoutError) {
        guard !Bounds.containsFontSize(size) else { return }
        throw LayoutError(.invalidArgument, "size must be in [\(Bounds.minFontSize), \(Bounds.text(Bounds.maxFontSize))] points, got \(size)",
                          field: field())
    }

    public static func checkWeight(_ weight: Int, field: @autoclosure () -> String) throws(LayoutError) {
        guard !weights.contains(weight) else { return }
        throw LayoutError(.invalidArgument, "weight must be in 1...1000, got \(weight)", field: field())
    }

    /// A length either way from zero (letter spacing, a baseline offset), in [-10,000, 10,000] points.
    public static func checkSignedPoints(_ points: Double, name: String, field: @autoclosure () -> String) throws(LayoutError) {
        guard !(points.isFinite && abs(points) <= Bounds.maxLetterSpacing) else { return }
        let limit = Bounds.text(Bounds.maxLetterSpacing)
        throw LayoutError(.invalidArgument, "\(name) must be in [-\(limit), \(limit)] points, got \(points)", field: field())
    }

    /// At most `Bounds.maxFeatures`, each tag four printable ASCII characters.
    public static func checkFeatures(_ features: [FontFeature], field: @autoclosure () -> String) throws(LayoutError) {
        try Bounds.check(count: features.count, limit: Bounds.maxFeatures, field: field())
        for (index, feature) in features.enumerated() where !isFeatureTag(feature.tag) {
            throw LayoutError(.invalidArgument, "feature tag \"\(feature.tag)\" is not four ASCII characters",
                              field: "\(field())[\(index)].tag")
        }
    }

    /// At most 64 axis values, each a four-character tag and a finite value; a named instance's
    /// name no longer than a `name` table string is likely to be.
    public static func checkVariations(_ settings: FontVariationSettings, field: @autoclosure () -> String) throws(LayoutError) {
        try Bounds.check(count: settings.axes.count, limit: Bounds.maxFeatures, field: field() + ".variations")
        for (index, axis) in settings.axes.enumerated() {
            guard isFeatureTag(axis.tag) else {
                throw LayoutError(.invalidArgument, "axis tag \"\(axis.tag)\" is not four ASCII characters",
                                  field: "\(field()).variations[\(index)].tag")
            }
            guard axis.value.isFinite else {
                throw LayoutError(.invalidArgument, "axis value must be finite, got \(axis.value)",
                                  field: "\(field()).variations[\(index)].value")
            }
        }
        guard settings.namedInstance.utf8.count <= 256 else {
            throw LayoutError(.invalidArgument, "a named instance's name is at most 256 bytes", field: field() + ".named_instance")
        }
        if let size = settings.opticalSize, !(size > 0 && size <= maxOpticalSize) {
            throw LayoutError(.invalidArgument, "an optical size is above 0 and at most \(Int(saturating: maxOpticalSize)) points, got \(size)",
                              field: field() + ".optical_size")
        }
    }

    /// The largest optical size a style may give, in points: beyond any `opsz` axis or `trak`
    /// table's sizes (Apple's tables end at a few hundred points).
    public static let maxOpticalSize = 10_000.0

    /// Four characters from space to tilde, as OpenType's Tag type is.
    public static func isFeatureTag(_ tag: String) -> Bool {
        tag.utf8.count == 4 && tag.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// Letters, digits, hyphens and underscores, at most 35 of them; empty means none.
    public static func checkLanguage(_ language: String, field: @autoclosure () -> String) throws(LayoutError) {
        guard !language.isEmpty else { return }
        guard language.utf8.count <= maxLanguageBytes, language.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw LayoutError(.invalidArgument, "language \"\(language)\" is not a BCP 47 tag", field: field())
        }
    }

    /// The most families a style's own fallback list may name.
    public static let maxFallbackFamilies = 16

    /// An ISO 15924 script code: four ASCII letters, any case ("qaag" is "Qaag", as HarfBuzz
    /// reads `--script`).
    public static func script(_ code: String, field: @autoclosure () -> String) throws(LayoutError) -> Script {
        let bytes = Array(code.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else {
            throw LayoutError(.invalidArgument, "script \"\(code)\" is not an ISO 15924 code of four letters (e.g. Latn, Qaag)",
                              field: field())
        }
        // Title case, as the codes are written and HarfBuzz's values are packed.
        let tag = bytes.enumerated().reduce(UInt32(0)) { tag, letter in
            tag << 8 | UInt32(letter.offset == 0 ? letter.element & ~0x20 : letter.element | 0x20)
        }
        return Script(tag: tag)
    }

    /// A shadow's offset, each way, in points.
    public static let maxShadowOffset = 1000.0

    /// Components finite and in 0...1.
    public static func checkColor(_ color: Color, field: @autoclosure () -> String) throws(LayoutError) {
        for (value, name) in [(color.red, "red"), (color.green, "green"), (color.blue, "blue"), (color.alpha, "alpha")]
        where !(value.isFinite && value >= 0 && value <= 1) {
            throw LayoutError(.invalidArgument, "\(name) must be in 0...1, got \(value)", field: "\(field()).\(name)")
        }
    }

    /// Offsets in [-1,000, 1,000] points, a blur radius in [0, 100], a valid colour.
    public static func checkShadow(_ shadow: TextShadow, field: @autoclosure () -> String) throws(LayoutError) {
        for (value, name) in [(shadow.offset.x, "offset_x"), (shadow.offset.y, "offset_y")]
        where !(value.isFinite && abs(value) <= maxShadowOffset) {
            throw LayoutError(.invalidArgument, "\(name) must be in [-1000, 1000] points, got \(value)", field: "\(field()).\(name)")
        }
        guard shadow.blurRadius.isFinite, shadow.blurRadius >= 0, shadow.blurRadius <= TextShadow.maxBlurRadius else {
            throw LayoutError(.invalidArgument, "blur_radius must be in [0, 100] points, got \(shadow.blurRadius)",
                              field: "\(field()).blur_radius")
        }
        try checkColor(shadow.color, field: "\(field()).color")
    }

    /// Every rule on a resolved paint; `field` names the style it came from.
    public static func check(_ paint: TextPaint, field: String) throws(LayoutError) {
        if let color = paint.color { try checkColor(color, field: field + ".color") }
        if let fill = paint.background { try checkColor(fill, field: field + ".background") }
        if let color = paint.underline?.color { try checkColor(color, field: field + ".underline.color") }
        if let color = paint.strikethrough?.color { try checkColor(color, field: field + ".strikethrough.color") }
        for (index, shadow) in paint.shadows.enumerated() { try checkShadow(shadow, field: field + ".shadows[\(index)]") }
        if paint.shadows.count > maxShadows {
            throw LayoutError(.invalidArgument, "\(paint.shadows.count) shadows; at most \(maxShadows)", field: field + ".shadows")
        }
        if let glow = paint.glow { try checkGlow(glow, field: field + ".glow") }
        if let fill = paint.fill { try checkFill(fill, field: field + ".fill") }
        if let effect = paint.effect { try checkEffect(effect, field: field + ".effect") }
    }

    /// The most shadows a paint may have: each is a blur of every glyph it covers.
    public static let maxShadows = 8

    /// A glow's radius in (0, 100] points, its strength in 1...8, its colour valid.
    public static func checkGlow(_ glow: TextGlow, field: @autoclosure () -> String) throws(LayoutError) {
        guard glow.radius.isFinite, glow.radius > 0, glow.radius <= TextShadow.maxBlurRadius else {
            throw LayoutError(.invalidArgument, "radius must be in (0, 100] points, got \(glow.radius)", field: "\(field()).radius")
        }
        guard (1...TextGlow.maxStrength).contains(glow.strength) else {
            throw LayoutError(.invalidArgument, "strength must be in 1...\(TextGlow.maxStrength), got \(glow.strength)",
                              field: "\(field()).strength")
        }
        if let color = glow.color { try checkColor(color, field: "\(field()).color") }
    }

    /// A gradient's 2 to 64 stops in order in 0...1, its points finite and within ten boxes of
    /// the box; a picture's index within the limit (the render request says whether it exists).
    public static func checkFill(_ fill: TextFill, field: @autoclosure () -> String) throws(LayoutError) {
        func checkPoints(_ points: [(Point, String)], stops: [GradientStop], kind: String) throws(LayoutError) {
            for (point, name) in points {
                for (value, axis) in [(point.x, "x"), (point.y, "y")]
                where !(value.isFinite && abs(value) <= TextFill.maxReach) {
                    throw LayoutError(.invalidArgument, "\(axis) must be in [-10, 10] (fractions of the box), got \(value)",
                                      field: "\(field()).\(kind).\(name).\(axis)")
                }
            }
            try checkGradientStops(stops, field: "\(field()).\(kind)")
        }
        switch fill.kind {
        case let .linearGradient(start, end, stops):
            try checkPoints([(start, "start"), (end, "end")], stops: stops, kind: "linear_gradient")
            guard start != end else {
                throw LayoutError(.invalidArgument, "a linear gradient's start and end must differ", field: "\(field()).linear_gradient.end")
            }
        case let .radialGradient(center, edge, stops):
            try checkPoints([(center, "start"), (edge, "end")], stops: stops, kind: "radial_gradient")
            guard center != edge else {
                throw LayoutError(.invalidArgument, "a radial gradient's edge must differ from its centre",
                                  field: "\(field()).radial_gradient.end")
            }
        case .image(let index, _):
            guard index >= 0, index < maxFillImages else {
                throw LayoutError(.invalidArgument, "image \(index) is past the \(maxFillImages) fill pictures a render may have",
                                  field: "\(field()).image.image")
            }
        }
    }

    /// A gradient's stops, text fills' and story frames' alike: 2 to `TextFill.maxStops`, offsets
    /// in 0...1 and in order, valid colours. `field` names the gradient.
    public static func checkGradientStops(_ stops: [GradientStop], field: @autoclosure () -> String) throws(LayoutError) {
        guard (2...TextFill.maxStops).contains(stops.count) else {
            throw LayoutError(.invalidArgument, "a gradient needs 2 to \(TextFill.maxStops) stops, got \(stops.count)",
                              field: "\(field()).stops")
        }
        var last = 0.0
        for (index, stop) in stops.enumerated() {
            guard stop.offset.isFinite, stop.offset >= last, stop.offset <= 1 else {
                throw LayoutError(.invalidArgument, "offsets must be in 0...1 and in order, got \(stop.offset)",
                                  field: "\(field()).stops[\(index)].offset")
            }
            last = stop.offset
            try checkColor(stop.color, field: "\(field()).stops[\(index)].color")
        }
    }

    /// The most fill pictures a render request may bring.
    public static let maxFillImages = 64

    /// A letterpress's depth in (0, 20] points over a valid surface; an outline's width in
    /// (0, 100] points in a valid colour.
    public static func checkEffect(_ effect: TextEffect, field: @autoclosure () -> String) throws(LayoutError) {
        switch effect {
        case let .letterpress(surface, depth):
            guard depth.isFinite, depth > 0, depth <= TextEffect.maxDepth else {
                throw LayoutError(.invalidArgument, "depth must be in (0, 20] points, got \(depth)", field: "\(field()).depth")
            }
            try checkColor(surface, field: "\(field()).surface")
        case let .outline(width, color, _):
            guard width.isFinite, width > 0, width <= TextEffect.maxStrokeWidth else {
                throw LayoutError(.invalidArgument, "stroke_width must be in (0, 100] points, got \(width)", field: "\(field()).stroke_width")
            }
            if let color { try checkColor(color, field: "\(field()).stroke_color") }
        }
    }

    /// Every rule on a resolved style; `field` names the style ("default_style").
    public static func check(_ style: TextStyle, field: String) throws(LayoutError) {
        try checkSize(style.size, field: field + ".size")
        try checkWeight(style.weight, field: field + ".weight")
        try checkSignedPoints(style.letterSpacing, name: "letter_spacing", field: field + ".letter_spacing")
        try checkSignedPoints(style.baselineOffset, name: "baseline_offset", field: field + ".baseline_offset")
        if !style.features.isEmpty { try checkFeatures(style.features, field: field + ".features") }
        try checkLanguage(style.language, field: field + ".language")
        if !style.variations.isAutomatic { try checkVariations(style.variations, field: field) }
    }
}
