import LayoutEngine
/// What the render stage draws: a canvas, backgrounds, glyph runs and their colours.
public struct RenderScene: Sendable {
    public var size: Size
    /// Fills the canvas first; nil leaves it transparent.
    public var canvas: Color?
    /// Where the layout's origin sits on the canvas.
    public var origin: Point
    public var backgrounds: [Background]
    public var runs: [GlyphRunLayout]
    /// Drawn over the backgrounds, before the text.
    public var attachments: [SceneAttachment]
    /// Text whose paint gives no colour is drawn in this one.
    public var textColor: Color
    /// The layout's paints, which the runs name by index.
    public var paints: [TextPaint]
    /// Span fills (behind the glyphs) and lines (over them).
    public var decorations: [TextDecoration]
    /// Where the paints' gradient and picture fills stand (`ParagraphLayout.fillRegions`).
    public var fillRegions: [FillRegion] = []
    /// The pictures image fills name by index: PNG bytes.
    public var fillImages: [[UInt8]] = []
    /// Text on a path: each run's glyphs' turns in radians (`ParagraphLayout.glyphAngles`);
    /// empty for text on lines.
    public var glyphAngles: [[Double]] = []

    /// Run `index`'s glyphs' turns; nil for text on lines.
    func angles(of index: Int) -> [Double]? { glyphAngles.indices.contains(index) ? glyphAngles[index] : nil }
    public var glowColor: Color?
    public var glowRadius: Double
    /// A whole story frame around the block: the picture is the frame's canvas, `size` the
    /// block's (its canvas colour is not drawn), placed as the frame says.
    public var frame: StoryFrame?

    public init(size: Size, canvas: Color?, origin: Point, backgrounds: [Background], runs: [GlyphRunLayout],
                attachments: [SceneAttachment] = [], textColor: Color, paints: [TextPaint] = [TextPaint()],
                decorations: [TextDecoration] = [], glowColor: Color? = nil, glowRadius: Double = 0) {
        self.size = size
        self.canvas = canvas
        self.origin = origin
        self.backgrounds = backgrounds
        self.runs = runs
        self.attachments = attachments
        self.textColor = textColor
        self.paints = paints
        self.decorations = decorations
        self.glowColor = glowColor
        self.glowRadius = glowRadius
    }

    /// The surface the first letterpressed run is pressed into: a picture that names no canvas
    /// is that surface, so the text reads as pressed into it rather than printed on white.
    public static func pressedSurface(_ paints: [TextPaint]) -> Color? {
        for paint in paints {
            if case .letterpress(let surface, _) = paint.effect { return surface }
        }
        return nil
    }
}

public enum RenderFormat: String, Sendable, CaseIterable {
    case png, svg, pdf

    public var mimeType: String {
        switch self {
        case .png: "image/png"
        case .svg: "image/svg+xml"
        case .pdf: "application/pdf"
        }
    }
}
