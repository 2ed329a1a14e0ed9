/// One laid-out line.
public struct LineLayout: Equatable, Sendable {
    /// UTF-16 range, trailing whitespace and the hard break included.
    public var range: Range<Int>
    /// Left end of the line's text on its baseline.
    public var baselineOrigin: Point
    public var ascent: Double
    public var descent: Double
    public var leading: Double
    /// Width without trailing whitespace.
    public var width: Double
    public var trailingWhitespaceWidth: Double
    /// x and width from the text, y and height from the line box.
    public var usedRect: Rect
    public var hardBreak: Bool
    public var truncated: Bool
}

/// Positioned glyphs of one font, size and bidi level on one line, in visual order.
public struct GlyphRunLayout: Equatable, Sendable {
    public var fontID: UInt32
    public var size: Double
    public var bidiLevel: UInt8
    public var glyphIDs: [UInt32]
    /// Glyph origins on the baseline.
    public var positions: [Point]
    public var advances: [Double]
    /// UTF-16 offset of each glyph's cluster.
    public var clusters: [Int]
    public var range: Range<Int>
    public var isTruncationToken: Bool
    public var lineIndex: Int
}

/// The result of laying out a paragraph: the positioned stage of the pipeline.
public struct ParagraphLayout: Sendable {
    public var lines: [LineLayout]
    public var runs: [GlyphRunLayout]
    /// The part of the text that is shown; shorter than the text when lines were cut.
    public var visibleRange: Range<Int>
    public var size: Size
    /// The first paragraph's resolved direction.
    public var direction: BaseDirection
}
