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
        if hasShadow || !shadows.isEmpty { patch.shadows = try shadowList(field: field) }
        if hasGlow { patch.glow = try glow.setting(field: field + ".glow") }
        if hasFill { patch.fill = try fill.setting(field: field + ".fill") }
        if hasEffect { patch.effect = try effect.setting(field: field + ".effect") }
        if hasEmphasis { patch.emphasis = try emphasis.setting(field: field + ".emphasis") }
    }

    /// `shadow` then `shadows`, or cleared where either says `none`.
    private func shadowList(field: String) throws(LayoutError) -> Setting<[TextShadow]> {
        guard shadows.count <= StyleRules.maxShadows else {
            throw LayoutError(.invalidArgument, "\(shadows.count) shadows; at most \(StyleRules.maxShadows)", field: field + ".shadows")
        }
        var list: [TextShadow] = []
        if hasShadow {
            guard case .set(let first) = try shadow.setting(field: field + ".shadow") else { return .cleared }
            list.append(first)
        }
        for (index, entry) in shadows.enumerated() {
            guard case .set(let next) = try entry.setting(field: field + ".shadows[\(index)]") else { return .cleared }
            list.append(next)
        }
        guard list.count <= StyleRules.maxShadows else {
            throw LayoutError(.invalidArgument, "\(list.count) shadows; at most \(StyleRules.maxShadows)", field: field + ".shadows")
        }
        return .set(list)
    }
}

extension Layoutd_V1_EmphasisMarks {
    func setting(field: String) throws(LayoutError) -> Setting<EmphasisMarks> {
        if none { return .cleared }
        let over = !under
        guard !custom.isEmpty else {
            let shape: EmphasisMarks.Shape
            switch self.shape {
            case .dot: shape = .dot
            case .circle: shape = .circle
            case .doubleCircle: shape = .doubleCircle
            case .triangle: shape = .triangle
            case .sesame: shape = .sesame
            case .UNRECOGNIZED(let value): throw LayoutError(.invalidArgument, "unknown emphasis shape \(value)", field: field + ".shape")
            }
            return .set(EmphasisMarks(shape, filled: !open, over: over))
        }
        let scalars = custom.unicodeScalars
        guard scalars.count == 1, let mark = scalars.first else {
            throw LayoutError(.invalidArgument, "a mark is one character, got \(scalars.count)", field: field + ".custom")
        }
        return .set(EmphasisMarks(mark: mark, over: over))
    }
}

extension Layoutd_V1_Glow {
    func setting(field: String) throws(LayoutError) -> Setting<TextGlow> {
        if none { return .cleared }
        let glow = TextGlow(radius: Double(radius), color: hasColor ? try color.checked(field: field + ".color") : nil,
                            strength: strength == 0 ? 1 : Int(clamping: strength))
        try StyleRules.checkGlow(glow, field: field)
        return .set(glow)
    }

    public init(_ glow: TextGlow, textColor: Color?) {
        self.init()
        radius = Float(glow.radius)
        if let color = glow.color ?? textColor { self.color = Layoutd_V1_Color(color) }
        strength = UInt32(glow.strength)
    }
}

extension Layoutd_V1_Gradient {
    /// The stops as the engine's, each colour checked as the wire names it (`transparency`); at
    /// most one past the limit is converted, for `StyleRules.checkGradientStops` to refuse.
    func engineStops(field: String) throws(LayoutError) -> [GradientStop] {
        var list: [GradientStop] = []
        for (index, stop) in stops.prefix(TextFill.maxStops + 1).enumerated() {
            list.append(GradientStop(offset: Double(stop.offset), color: try stop.color.checked(field: "\(field).stops[\(index)].color")))
        }
        return list
    }
}

extension Layoutd_V1_TextFill {
    func setting(field: String) throws(LayoutError) -> Setting<TextFill> {
        if none { return .cleared }
        func point(_ point: Layoutd_V1_Point) -> Point { Point(x: Double(point.x), y: Double(point.y)) }
        let kind: TextFill.Kind
        switch self.kind {
        case .linearGradient(let gradient):
            kind = .linearGradient(start: point(gradient.start), end: point(gradient.end), stops: try gradient.engineStops(field: field + ".linear_gradient"))
        case .radialGradient(let gradient):
            kind = .radialGradient(center: point(gradient.start), edge: point(gradient.end), stops: try gradient.engineStops(field: field + ".radial_gradient"))
        case .image(let image):
            kind = .image(index: Int(image.image), mode: try ContentMode(image.contentMode, field: field + ".image.content_mode"))
        case nil:
            throw LayoutError(.invalidArgument, "a fill needs a linear_gradient, a radial_gradient or an image, or none", field: field)
        }
        let box: TextFill.Box
        switch self.box {
        case .span: box = .span
        case .line: box = .line
        case .layout: box = .layout
        case .UNRECOGNIZED(let value):
            throw LayoutError(.invalidArgument, "unknown box \(value); BOX_SPAN, BOX_LINE or BOX_LAYOUT", field: field + ".box")
        }
        let fill = TextFill(kind, box: box)
        try StyleRules.checkFill(fill, field: field)
        return .set(fill)
    }

    public init(_ fill: TextFill) {
        self.init()
        func gradient(_ start: Point, _ end: Point, _ stops: [GradientStop]) -> Layoutd_V1_Gradient {
            var gradient = Layoutd_V1_Gradient()
            gradient.start = Layoutd_V1_Point(start)
            gradient.end = Layoutd_V1_Point(end)
            gradient.stops = stops.map { stop in
                var made = Layoutd_V1_GradientStop()
                made.offset = Float(stop.offset)
                made.color = Layoutd_V1_Color(stop.color)
                return made
            }
            return gradient
        }
        switch fill.kind {
        case let .linearGradient(start, end, stops): linearGradient = gradient(start, end, stops)
        case let .radialGradient(center, edge, stops): radialGradient = gradient(center, edge, stops)
        case let .image(index, mode):
            var image = Layoutd_V1_ImageFill()
            image.image = UInt32(index)
            image.contentMode = Layoutd_V1_ContentMode(mode)
            self.image = image
        }
        switch fill.box {
        case .span: box = .span
        case .line: box = .line
        case .layout: box = .layout
        }
    }
}

extension Layoutd_V1_FillRegion {
    public init(_ region: FillRegion) {
        self.init()
        paint = UInt32(region.paint)
        range = Layoutd_V1_Range(region.range)
        if let line = region.lineIndex {
            lineIndex = UInt32(line)
            perLine = true
        }
        box = Layoutd_V1_Rect(region.box)
        start = Layoutd_V1_Point(region.start)
        end = Layoutd_V1_Point(region.end)
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
        let side: DecorationLine.UnderlinePosition
        switch position {
        case .auto: side = .auto
        case .left: side = .left
        case .right: side = .right
        case .UNRECOGNIZED(let value):
            throw LayoutError(.invalidArgument, "unknown underline position \(value); AUTO, LEFT or RIGHT", field: field + ".position")
        }
        guard allowsSkipInk || side == .auto else {
            throw LayoutError(.invalidArgument, "position applies to underlines only", field: field + ".position")
        }
        return .set(DecorationLine(style: style, color: hasColor ? try color.checked(field: field + ".color") : nil,
                                   skipsInk: skipInk, position: side))
    }

    public init(_ line: DecorationLine) {
        self.init()
        style = Layoutd_V1_LineStyle(line.style)
        if let color = line.color { self.color = Layoutd_V1_Color(color) }
        skipInk = line.skipsInk
        switch line.position {
        case .auto: position = .auto
        case .left: position = .left
        case .right: position = .right
        }
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
        shadows = paint.shadows.map(Layoutd_V1_Shadow.init)
        if let glow = paint.glow { self.glow = Layoutd_V1_Glow(glow, textColor: paint.color) }
        if let fill = paint.fill { self.fill = Layoutd_V1_TextFill(fill) }
        switch paint.effect {
        case nil: effect = .none
        case .letterpress: effect = .letterpress
        case .outline: effect = .outline
        }
        effectLayers = paint.effectLayers.map(Layoutd_V1_EffectLayer.init)
    }

    /// The reply's paints: none when every run is drawn in the client's colour, plain.
    static func list(_ paints: [TextPaint]) -> [Layoutd_V1_Paint] {
        TextPaint.anyPaintsGlyphs(paints) ? paints.map(Layoutd_V1_Paint.init) : []
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
