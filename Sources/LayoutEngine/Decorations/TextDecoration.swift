/// One decoration of one line, as geometry in layout coordinates: a span's background fill, an
/// underline or a strikethrough. Where it crosses runs of different fonts or sizes it is one
/// piece at one position, not a staircase (see `TextDecorator`).
public struct TextDecoration: Equatable, Sendable {
    public enum Kind: Int, Sendable, CaseIterable {
        case background, underline, strikethrough
    }

    public var kind: Kind
    /// How the line is drawn; `.single` for a background.
    public var style: DecorationLine.Style
    /// nil: the text's colour (a line whose span set no colour, in text that set none).
    public var color: Color?
    /// The text it decorates.
    public var range: Range<Int>
    public var lineIndex: Int
    /// What to fill, in layout coordinates: one rect, two for a double line, one per dot or dash,
    /// and the pieces left between glyph ink when an underline skips it.
    public var rects: [Rect]
    /// The stroke the rects were cut from (a thick line's is twice the font's); 0 for a background.
    public var thickness: Double
    /// An underline cut around glyph ink, as one path of its pieces (each a closed subpath, the
    /// same shapes as `rects`), for clients that draw paths; empty otherwise.
    public var path: Path = Path()

    public init(kind: Kind, style: DecorationLine.Style = .single, color: Color?, range: Range<Int>, lineIndex: Int,
                rects: [Rect], thickness: Double) {
        self.kind = kind
        self.style = style
        self.color = color
        self.range = range
        self.lineIndex = lineIndex
        self.rects = rects
        self.thickness = thickness
    }
}
