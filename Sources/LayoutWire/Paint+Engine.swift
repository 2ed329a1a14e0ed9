import LayoutEngine

extension Layoutd_V1_Style {
    /// The paint fields of this style into `patch`, or the first thing wrong with them.
    func addPaint(to patch: inout StylePatch, field: String) throws(LayoutError) {
        if hasColor { patch.color = try color.checked(field: field + ".color") }
        if hasBackground { patch.background = try background.checked(field: field + ".background") }
        if hasUnderline { patch.underline = try underline.setting(field: field + ".underline", allowsSkipInk: true) }
        if hasStrikethrough {
            patch.strikethrough = try strikethrough.setting(field: field + ".strikethrough", allowsSkipInk: false)
        }
        if hasShadow { patch.shadow = try shadow.setting(field: field + ".shadow") }
        if hasEffect { patch.effect = try effect.setting(field: field + ".effect") }
    }
}

extension Layoutd_V1_TextEffect {
    func setting(field: String) throws(LayoutError) -> Setting<TextEffect> {
        let effect: TextEffect
        switch kind {
        case .none: return .cleared
        case .letterpress:
            effect = .letterpress(surface: hasSurface ? try surface.checked(field: field + ".surface") : Color(red: 1, green: 1, blue: 1),
                                  depth: depth == 0 ? 1 : Double(depth))
        case .outline:
            effect = .outline(width: strokeWidth == 0 ? 1 : Double(strokeWidth),
                              color: hasStrokeColor ? try strokeColor.checked(field: field + ".stroke_color") : nil, keepsFill: fill)
        case .UNRECOGNIZED(let value):
            throw LayoutError(.invalidArgument, "unknown effect \(value); NONE, LETTERPRESS or OUTLINE", field: field + ".kind")
        }
        try StyleRules.checkEffect(effect, field: field)
        return .set(effect)
    }
}

extension Layoutd_V1_EffectLayer {
    public init(_ layer: EffectLayer) {
        self.init()
        switch layer.mode {
        case .fill: mode = .fill
        case .stroke: mode = .stroke
        case .innerEdge: mode = .innerEdge
        }
        color = Layoutd_V1_Color(layer.color)
        offsetX = Float(layer.offset.x)
        offsetY = Float(layer.offset.y)
        strokeWidth = Float(layer.strokeWidth)
    }
}

extension Layoutd_V1_DecorationLine {
    func setting(field: String, allowsSkipInk: Bool) throws(LayoutError) -> Setting<DecorationLine> {
        let style: DecorationLine.Style
        switch self.style {
        case .single: style = .single
        case .double: style = .double
        case .thick: style = .thick
        case .dotted: style = .dotted
        case .dashed: style = .dashed
        case .none: return .cleared
        case .UNRECOGNIZED(let value):
            throw LayoutError(.invalidArgument, "unknown line style \(value); SINGLE, DOUBLE, THICK, DOTTED, DASHED or NONE",
                              field: field + ".style")
        }
        guard allowsSkipInk || !skipInk else {
            throw LayoutError(.invalidArgument, "skip_ink applies to underlines only", field: field + ".skip_ink")
        }
        return .set(DecorationLine(style: style, color: hasColor ? try color.checked(field: field + ".color") : nil,
                                   skipsInk: skipInk))
    }

    public init(_ line: DecorationLine) {
        self.init()
        style = Layoutd_V1_LineStyle(line.style)
        if let color = line.color { self.color = Layoutd_V1_Color(color) }
        skipInk = line.skipsInk
    }
}

extension Layoutd_V1_LineStyle {
    public init(_ style: DecorationLine.Style) {
        switch style {
        case .single: self = .single
        case .double: self = .double
        case .thick: self = .thick
        case .dotted: self = .dotted
        case .dashed: self = .dashed
        }
    }
}

extension Layoutd_V1_Shadow {
    func setting(field: String) throws(LayoutError) -> Setting<TextShadow> {
        if none { return .cleared }
        let shadow = TextShadow(offset: Point(x: Double(offsetX), y: Double(offsetY)), blurRadius: Double(blurRadius),
                                color: hasColor ? try color.checked(field: field + ".color") : TextShadow.defaultColor)
        try StyleRules.checkShadow(shadow, field: field)
        return .set(shadow)
    }

    public init(_ shadow: TextShadow) {
        self.init()
        offsetX = Float(shadow.offset.x)
        offsetY = Float(shadow.offset.y)
        blurRadius = Float(shadow.blurRadius)
        color = Layoutd_V1_Color(shadow.color)
    }
}

extension Layoutd_V1_Paint {
    public init(_ paint: TextPaint) {
        self.init()
        if let color = paint.color { self.color = Layoutd_V1_Color(color) }
        if let shadow = paint.shadow { self.shadow = Layoutd_V1_Shadow(shadow) }
        switch paint.effect {
        case nil: effect = .none
        case .letterpress: effect = .letterpress
        case .outline: effect = .outline
        }
        effectLayers = paint.effectLayers.map(Layoutd_V1_EffectLayer.init)
    }

    /// The reply's paints: none when every run is drawn in the client's colour, plain.
    static func list(_ paints: [TextPaint]) -> [Layoutd_V1_Paint] {
        paints.contains { $0.color != nil || $0.shadow != nil || $0.effect != nil } ? paints.map(Layoutd_V1_Paint.init) : []
    }
}

extension Layoutd_V1_TextDecoration {
    public init(_ decoration: TextDecoration) {
        self.init()
        switch decoration.kind {
        case .background: kind = .background
        case .underline: kind = .underline
        case .strikethrough: kind = .strikethrough
        }
        style = Layoutd_V1_LineStyle(decoration.style)
        if let color = decoration.color { self.color = Layoutd_V1_Color(color) }
        range = Layoutd_V1_Range(decoration.range)
        lineIndex = UInt32(decoration.lineIndex)
        rects = decoration.rects.map(Layoutd_V1_Rect.init)
        thickness = Float(decoration.thickness)
        if !decoration.path.commands.isEmpty {
            path = decoration.path.commands.map(Layoutd_V1_PathCommand.init)
            svgPath = decoration.path.svg
        }
    }
}
