import LayoutEngine

/// A justify request resolved against its preset: what the engine runs and draws.
public struct JustifyPlan: Sendable {
    public var request: TypeModeRequest
    public var backgrounds: [BackgroundStyle]
    public var presetName: String
    public var palette: Color
    /// What the request's formatting rules matched, as the reply lists them.
    public var ruleMatches: [Layoutd_V1_RuleMatch] = []
}

extension Layoutd_V1_JustifyRequest {
    /// The palette colour a preset uses when the request names none.
    static func defaultPalette(_ preset: String) -> Color {
        switch preset {
        case "neon": Color(red: 1, green: 0.2, blue: 0.6)
        case "strong": Color(red: 0.1, green: 0.4, blue: 0.95)
        default: Color(red: 1, green: 1, blue: 1)
        }
    }

    /// Applies the preset, then every field the request sets; names the first bad field.
    public func plan(fonts: FontRegistry, budget: WorkBudget = .unlimited) throws(LayoutError) -> JustifyPlan {
        var preset: TypeModePreset?
        if !self.preset.isEmpty {
            guard let named = TypeModePreset.named(self.preset) else {
                throw LayoutError(.invalidArgument, "unknown preset \"\(self.preset)\"; known: \(TypeModePreset.names.joined(separator: ", "))",
                                  field: "preset")
            }
            preset = named
        }
        try Bounds.check(count: backgrounds.count, limit: Bounds.maxBackgrounds, field: "backgrounds")
        var style = preset?.style ?? TextStyle(family: fonts.defaultFamily)
        let patch = hasStyle ? try self.style.patch(field: "style", fonts: fonts) : StylePatch()
        style = patch.applied(to: style)
        if style.family.isEmpty { style.family = fonts.defaultFamily }
        try Bounds.check(width, upTo: Bounds.maxLength, field: "width")
        for (value, upper, name, unit) in [(minSize, Bounds.maxFontSize, "min_size", "points"), (maxSize, Bounds.maxFontSize, "max_size", "points"),
                                           (lineHeightMultiple, Bounds.maxLineHeightMultiple, "line_height_multiple", ""),
                                           (maxHeight, Bounds.maxLength, "max_height", "points")] {
            try Bounds.check(value, upTo: upper, field: name, unit: unit, zero: "takes the default")
        }
        let minimum = minSize > 0 ? Double(minSize) : preset?.minSize ?? 14
        let maximum = maxSize > 0 ? Double(maxSize) : preset?.maxSize ?? 96
        guard minimum <= maximum else {
            throw LayoutError(.invalidArgument, "min_size \(minimum) is larger than max_size \(maximum)", field: "min_size")
        }
        let sizing: TypeModeSizing
        switch self.sizing {
        case .unspecified: sizing = preset?.sizing ?? .perLine
        case .perLine: sizing = .perLine
        case .uniform: sizing = .uniform
        case .UNRECOGNIZED(let value): throw LayoutError(.invalidArgument, "unknown sizing \(value)", field: "sizing")
        }
        let alignment: TextAlignment
        switch self.alignment {
        case .natural: alignment = preset?.alignment ?? .left
        case .left: alignment = .left
        case .right: alignment = .right
        case .center: alignment = .center
        case .justified, .UNRECOGNIZED:
            throw LayoutError(.invalidArgument, "alignment must be left, right or center (lines fill the width by size)",
                              field: "alignment")
        }
        let name = preset?.name ?? ""
        let palette = hasColor ? try color.checked(field: "color") : Self.defaultPalette(name)
        var backgrounds: [BackgroundStyle] = []
        for (index, spec) in self.backgrounds.enumerated() {
            backgrounds.append(try spec.style(field: "backgrounds[\(index)]", text: text))
        }
        if backgrounds.isEmpty, let background = preset?.backgroundStyle(fill: palette) {
            backgrounds = [background]
        }
        var request = TypeModeRequest(
            text: text, style: style, width: Double(width), minSize: minimum, maxSize: maximum, alignment: alignment,
            lineHeightMultiple: lineHeightMultiple > 0 ? Double(lineHeightMultiple) : preset?.lineHeightMultiple ?? 1,
            maxHeight: maxHeight > 0 ? Double(maxHeight) : nil, sizing: sizing,
            lastLineUnscaled: lastLineUnscaled)
        request.attachments = try attachments.inlineAttachments(fonts: fonts)
        request.wholePointSizes = wholePointSizes
        let vertical = try VerticalFields(self)
        (request.writingMode, request.textOrientation) = (vertical.writingMode, vertical.textOrientation)
        (request.combineUpright, request.combinesLetters) = (vertical.combineUpright, vertical.combinesLetters)
        request.paint = patch.appliedPaint(to: TextPaint())
        // Spans and rules style the text; none may size it (the fit does).
        try Bounds.check(count: spans.count, limit: Bounds.maxSpans, field: "spans")
        let rules = try compiledRules(fonts: fonts)
        let units = AttributedText.utf16(text)
        request.units = units
        let formatted = try FormattingRules.apply(rules, to: units, budget: budget)
        request.spans = formatted.spans + (try spans.engineSpans(in: text, units: units.count, fonts: fonts) { style, field throws(LayoutError) in
            try style.checkUnsized(field: field)
        })
        return JustifyPlan(request: request, backgrounds: backgrounds, presetName: name, palette: palette,
                           ruleMatches: formatted.matches.map { Layoutd_V1_RuleMatch($0, names: rules.map(\.rule.name)) })
    }
}

extension Layoutd_V1_JustifyReply {
    public init(_ layout: TypeModeLayout, backgrounds: [Background], effects: TextEffects, preset: String,
                ruleMatches: [Layoutd_V1_RuleMatch] = []) {
        self.init()
        lines = layout.paragraph.lines.map(Layoutd_V1_Line.init)
        lineSizes = layout.lineSizes.map(Float.init)
        runs = layout.paragraph.runs.map(Layoutd_V1_GlyphRun.init)
        width = Float(layout.paragraph.size.width)
        height = Float(layout.paragraph.size.height)
        self.backgrounds = backgrounds.map(Layoutd_V1_BackgroundShape.init)
        self.effects = Layoutd_V1_TextEffects(effects)
        self.preset = preset
        attachments = layout.paragraph.attachments.map(Layoutd_V1_AttachmentBox.init)
        clamped = layout.clamped
        decorations = layout.paragraph.decorations.map(Layoutd_V1_TextDecoration.init)
        fillRegions = layout.paragraph.fillRegions.map(Layoutd_V1_FillRegion.init)
        emphasisMarks = layout.paragraph.emphasisMarks.map(Layoutd_V1_GlyphRun.init)
        paints = Layoutd_V1_Paint.list(layout.paragraph.paints)
        self.ruleMatches = ruleMatches
        writingMode = Layoutd_V1_WritingMode(layout.paragraph.writingMode)
    }
}

extension Layoutd_V1_TextEffects {
    public init(_ effects: TextEffects) {
        self.init()
        textColor = Layoutd_V1_Color(effects.textColor)
        if let glow = effects.glowColor {
            glowColor = Layoutd_V1_Color(glow)
            glowRadius = Float(effects.glowRadius)
        }
    }
}
