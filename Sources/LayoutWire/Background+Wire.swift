import LayoutEngine

extension Layoutd_V1_Color {
    /// The colour, if every component is finite and in 0...1.
    public func checked(field: String) throws(LayoutError) -> Color {
        for (value, name) in [(red, "red"), (green, "green"), (blue, "blue"), (transparency, "transparency")]
        where !(value.isFinite && value >= 0 && value <= 1) {
            throw LayoutError(.invalidArgument, "\(name) must be in 0...1, got \(value)", field: "\(field).\(name)")
        }
        return Color(red: Double(red), green: Double(green), blue: Double(blue), alpha: 1 - Double(transparency))
    }

    public init(_ color: Color) {
        self.init()
        red = Float(color.red)
        green = Float(color.green)
        blue = Float(color.blue)
        transparency = Float(1 - color.alpha)
    }
}

extension Layoutd_V1_BackgroundSpec {
    /// The engine's background style, or the first thing wrong with this spec.
    public func style(field: String, text: String) throws(LayoutError) -> BackgroundStyle {
        let kind: BackgroundStyle.Kind
        switch self.kind {
        case .perLine: kind = .perLine
        case .connected: kind = .connected
        case .block: kind = .block
        case .highlight:
            guard hasRange else { throw LayoutError(.invalidArgument, "a highlight needs a range", field: field + ".range") }
            kind = .highlight(try range.checked(in: text, units: text.utf16.count, field: field + ".range"))
        case .unspecified, .UNRECOGNIZED:
            throw LayoutError(.invalidArgument, "kind must be PER_LINE, CONNECTED, BLOCK or HIGHLIGHT", field: field + ".kind")
        }
        var style = BackgroundStyle(kind: kind,
                                    horizontalPadding: hasGeometry ? Double(geometry.horizontalPadding) : 8,
                                    verticalPadding: hasGeometry ? Double(geometry.verticalPadding) : 4,
                                    cornerRadius: hasGeometry ? Double(geometry.cornerRadius) : 8,
                                    fill: hasFill ? try fill.checked(field: field + ".fill") : Color(red: 1, green: 1, blue: 1),
                                    touching: touching)
        if hasBorder {
            style.border = BackgroundBorder(width: Double(border.width),
                                            color: border.hasColor ? try border.color.checked(field: field + ".border.color")
                                                : Color(red: 0, green: 0, blue: 0),
                                            dashes: border.dashes.map(Double.init))
        }
        if hasShadow {
            style.shadow = TextShadow(offset: Point(x: Double(shadow.offsetX), y: Double(shadow.offsetY)),
                                      blurRadius: Double(shadow.blurRadius),
                                      color: shadow.hasColor ? try shadow.color.checked(field: field + ".shadow.color") : TextShadow.defaultColor)
        }
        // The engine names its own fields; the wire's are under this background's (the border's
        // and the shadow's by their own names, the rest under its geometry).
        do { try style.validate(textLength: text.utf16.count) } catch {
            let own = error.field == "range" || error.field.hasPrefix("border") || error.field.hasPrefix("shadow")
            throw LayoutError(error.code, error.message, field: "\(field).\(own ? error.field : "geometry.\(error.field)")")
        }
        return style
    }
}

extension Layoutd_V1_BackgroundShape {
    public init(_ background: Background) {
        self.init()
        rects = background.rects.map(Layoutd_V1_Rect.init)
        path = background.path.commands.map(Layoutd_V1_PathCommand.init)
        svgPath = background.path.svg
        fill = Layoutd_V1_Color(background.fill)
        if let border = background.border {
            self.border = .with {
                $0.width = Float(border.width)
                $0.color = Layoutd_V1_Color(border.color)
                $0.dashes = border.dashes.map(Float.init)
            }
        }
        if let cast = background.shadow {
            shadow = .with {
                $0.offsetX = Float(cast.offset.x)
                $0.offsetY = Float(cast.offset.y)
                $0.blurRadius = Float(cast.blurRadius)
                $0.color = Layoutd_V1_Color(cast.color)
            }
        }
    }
}

extension Layoutd_V1_PathCommand {
    public init(_ command: PathCommand) {
        self.init()
        func add(_ p: Point) { points += [Float(p.x), Float(p.y)] }
        switch command {
        case .move(let p): verb = .move; add(p)
        case .line(let p): verb = .line; add(p)
        case let .quad(c, p): verb = .quad; add(c); add(p)
        case let .cubic(c1, c2, p): verb = .cubic; add(c1); add(c2); add(p)
        case .close: verb = .close
        }
    }
}
