/// What fills a span's glyphs instead of its colour: a gradient or a picture, stretched over a
/// box the decorate stage finds (CSS `background-clip: text`, CoreText's pattern colours).
/// The geometry is the same for every picture format: `FillRegion` gives each box with the
/// gradient's points in layout coordinates, and the render stage clips the fill to the glyphs.
public struct TextFill: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// From `start` to `end`, points in 0...1 of the box (beyond it, the end colours go on).
        case linearGradient(start: Point, end: Point, stops: [GradientStop])
        /// Circles centred on `center`, the last stop where they reach `edge` (0...1 of the box).
        case radialGradient(center: Point, edge: Point, stops: [GradientStop])
        /// The render request's fill picture `image` (an index into its `fill_images`), placed
        /// in the box as `mode` says.
        case image(index: Int, mode: ContentMode)
    }

    /// Which text one box covers.
    public enum Box: Hashable, Sendable, CaseIterable {
        /// The span's text on all its lines: one box, so a gradient runs on from line to line.
        case span
        /// Each line's part of the span its own box: every line shows the whole gradient.
        case line
        /// The whole layout (its size): spans filled alike look cut from one sheet.
        case layout
    }

    public var kind: Kind
    public var box: Box

    public init(_ kind: Kind, box: Box = .span) {
        self.kind = kind
        self.box = box
    }

    /// The most stops a gradient may have (as a story frame's).
    public static let maxStops = 64
    /// How far outside the box a gradient's points may lie, in boxes.
    public static let maxReach = 10.0
}

/// One colour of a gradient, at `offset` in 0...1 along it.
public struct GradientStop: Hashable, Sendable {
    public var offset: Double
    public var color: Color

    public init(offset: Double, color: Color) {
        self.offset = offset
        self.color = color
    }
}

/// A halo around the glyphs: a blur with no offset (CSS `text-shadow: 0 0 r`, a neon sign's
/// light), `strength` times as dense as a shadow of that blur, for a glow that stays bright
/// at its edge.
public struct TextGlow: Hashable, Sendable {
    /// Points: how far the halo reaches, (0, 100].
    public var radius: Double
    /// nil: the text's colour.
    public var color: Color?
    /// 1...8: how many times the blurred glyphs are laid over each other.
    public var strength: Int

    public init(radius: Double, color: Color? = nil, strength: Int = 1) {
        self.radius = radius
        self.color = color
        self.strength = strength
    }

    public static let maxStrength = 8
}

/// One box a fill covers, found by the decorate stage: the fill of `paint` over the glyphs of
/// `range` (on `lineIndex` alone for a line's box), stretched over `box`, with the gradient's
/// points in layout coordinates.
public struct FillRegion: Equatable, Sendable {
    /// Index into the layout's paints.
    public var paint: Int
    /// The text whose glyphs it fills.
    public var range: Range<Int>
    /// A line's box: that line; nil where the box covers the span's or the layout's lines.
    public var lineIndex: Int?
    /// In layout coordinates.
    public var box: Rect
    /// A linear gradient's start and end, a radial one's centre and edge; the box's top left
    /// and bottom right for a picture.
    public var start: Point
    public var end: Point

    public init(paint: Int, range: Range<Int>, lineIndex: Int?, box: Rect, start: Point, end: Point) {
        self.paint = paint
        self.range = range
        self.lineIndex = lineIndex
        self.box = box
        self.start = start
        self.end = end
    }
}
