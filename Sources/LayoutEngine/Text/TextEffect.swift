/// A text effect: TextKit's letterpress or an outline. Resolved into layers (`EffectLayer`) that
/// the reply carries and the renderer draws, so that any client draws the same thing.
public enum TextEffect: Hashable, Sendable {
    /// Text pressed into `surface`, `depth` points deep (NSTextEffectLetterpressStyle).
    case letterpress(surface: Color, depth: Double)
    /// The outlines stroked `width` wide in `color` (nil: the text's), over the fill when `keepsFill`.
    case outline(width: Double, color: Color?, keepsFill: Bool)

    /// The deepest letterpress and the widest stroke a request may ask for, in points.
    public static let maxDepth = 20.0
    public static let maxStrokeWidth = 100.0
}

/// One pass over a run's glyphs.
public struct EffectLayer: Equatable, Sendable {
    public enum Mode: Int, Sendable {
        /// The glyphs filled, moved by `offset`.
        case fill
        /// The outlines stroked `strokeWidth` wide, centred on them.
        case stroke
        /// Inside the glyphs, what the glyphs moved by `offset` do not cover: a band along the
        /// edges facing away from the offset.
        case innerEdge
    }

    public var mode: Mode
    public var color: Color
    public var offset: Point
    public var strokeWidth: Double

    public init(mode: Mode, color: Color, offset: Point = Point(x: 0, y: 0), strokeWidth: Double = 0) {
        self.mode = mode
        self.color = color
        self.offset = offset
        self.strokeWidth = strokeWidth
    }
}

extension TextEffect {
    /// Text without a colour of its own is derived as black, the renderer's default text colour.
    public static let defaultTextColor = Color(red: 0, green: 0, blue: 0)

    /// What to draw, in order, in place of the plain glyphs of text in `textColor`.
    ///
    /// Letterpress (docs/text-effects.md): the face in the text's colour; an inner shadow along
    /// the upper left edges, the text's colour at 45% of its value, 75% opaque, seen where the
    /// glyphs moved `depth` down and right leave the face bare; an inner highlight along the lower
    /// right edges, the surface lifted 65% of the way to white, 80% opaque, where the glyphs
    /// moved `depth` up and left leave it bare. Light comes from the upper left, as on iOS: the
    /// cavity's upper wall is in shadow and its lower wall catches the light.
    public func layers(textColor: Color) -> [EffectLayer] {
        switch self {
        case let .letterpress(surface, depth):
            let shadow = Color(red: textColor.red * 0.45, green: textColor.green * 0.45, blue: textColor.blue * 0.45, alpha: 0.75)
            let highlight = Color(red: surface.red + (1 - surface.red) * 0.65, green: surface.green + (1 - surface.green) * 0.65,
                                  blue: surface.blue + (1 - surface.blue) * 0.65, alpha: 0.8)
            return [EffectLayer(mode: .fill, color: textColor),
                    EffectLayer(mode: .innerEdge, color: shadow, offset: Point(x: depth, y: depth)),
                    EffectLayer(mode: .innerEdge, color: highlight, offset: Point(x: -depth, y: -depth))]
        case let .outline(width, color, keepsFill):
            let stroke = EffectLayer(mode: .stroke, color: color ?? textColor, strokeWidth: width)
            return keepsFill ? [EffectLayer(mode: .fill, color: textColor), stroke] : [stroke]
        }
    }
}
