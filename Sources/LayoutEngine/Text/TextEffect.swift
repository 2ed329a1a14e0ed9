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
    /// Letterpress (docs/text-effects.md), text pressed into a surface lit from above: first the
    /// cavity's lower lip, the glyphs moved `depth` down in the surface lifted 65% of the way to
    /// white, 90% opaque, which the face then covers but for a light line under each lower
    /// edge; then the face in the text's colour; then the cavity's upper wall in shadow, the
    /// text's colour at 45% of its value inside the glyphs along their upper edges, in three
    /// steps a third of `depth` apart, each 37% opaque, so the shadow is darkest at the edge
    /// and fades over `depth` as a blurred inner shadow does.
    public func layers(textColor: Color) -> [EffectLayer] {
        switch self {
        case let .letterpress(surface, depth):
            let lip = Color(red: surface.red + (1 - surface.red) * 0.65, green: surface.green + (1 - surface.green) * 0.65,
                            blue: surface.blue + (1 - surface.blue) * 0.65, alpha: 0.9)
            let shade = Color(red: textColor.red * 0.45, green: textColor.green * 0.45, blue: textColor.blue * 0.45, alpha: 0.37)
            return [EffectLayer(mode: .fill, color: lip, offset: Point(x: 0, y: depth)),
                    EffectLayer(mode: .fill, color: textColor)]
                + [1.0, 2, 3].map { EffectLayer(mode: .innerEdge, color: shade, offset: Point(x: 0, y: depth * $0 / 3)) }
        case let .outline(width, color, keepsFill):
            let stroke = EffectLayer(mode: .stroke, color: color ?? textColor, strokeWidth: width)
            return keepsFill ? [EffectLayer(mode: .fill, color: textColor), stroke] : [stroke]
        }
    }
}
