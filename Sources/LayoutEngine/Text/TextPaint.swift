/// How a run of text is painted, apart from how it is shaped: colour now, and the decorations
/// and effects to come (underline, strikethrough, shadow). Paint never changes a glyph or an
/// advance, so text is itemized and shaped by its `TextStyle` alone, and two spans that differ
/// only in paint are shaped as one run (an Arabic word with one letter coloured keeps its
/// joining, a ligature across the colour change stays one glyph). Positioning then splits the
/// glyph runs where the paint changes, glyph by glyph, as browsers colour a word's letters.
public struct TextPaint: Hashable, Sendable {
    /// nil: whatever colour the drawing gives text (the render request's text colour).
    public var color: Color?

    public init(color: Color? = nil) {
        self.color = color
    }
}
