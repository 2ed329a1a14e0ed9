/// How Type Mode sizes text.
public enum TypeModeSizing: Sendable {
    /// Every line gets the size at which it fills the width (Instagram's Type Mode).
    case perLine
    /// One size for the whole block: the largest at which it wraps without breaking a word
    /// and fits the height (Android's autosize, UILabel's adjustsFontSizeToFitWidth).
    case uniform
}

/// A Type Mode request: text fitted to a width by font size.
public struct TypeModeRequest: Sendable {
    /// Setting it drops `units`, which were the old text's.
    public var text: String { didSet { units = nil } }
    /// The text's UTF-16 units when the caller has made them already (the wire's formatting
    /// rules match on them); nil: made from `text`.
    public var units: ContiguousArray<UInt16>?
    /// Family, weight, italic, letter spacing and language; the size comes from the fit.
    public var style: TextStyle
    /// Colour, decorations, shadow and effect for the whole text (the preset's colours apply
    /// where this sets none).
    public var paint = TextPaint()
    /// Styles over ranges, none with a size (the fit sizes each line).
    public var spans: [AttributedText.Span] = []
    public var width: Double
    public var minSize: Double
    public var maxSize: Double
    /// Where lines sit that stay narrower than the width after clamping: left, center, right, or
    /// natural (by the paragraph's direction).
    public var alignment: TextAlignment
    public var lineHeightMultiple: Double
    /// The block is scaled down uniformly when taller than this.
    public var maxHeight: Double?
    public var sizing: TypeModeSizing
    /// Leaves each paragraph's last line at the size lines were broken at (CSS text-fit's
    /// per-line behaviour), so a short last word does not come out huge.
    public var lastLineUnscaled: Bool
    /// Boxes at the text's U+FFFC, in order; those given in ems scale with their line.
    public var attachments: [InlineAttachment] = []
    /// Per-line sizes rounded down to whole points, as Android's binary search over whole sizes
    /// yields, for clients that must match it (a line then falls short of the width by up to a
    /// point's worth and takes the alignment).
    public var wholePointSizes = false
    /// Vertical Type Mode: the lines are columns, each sized to fill `width` down the page, and
    /// `maxHeight` bounds the block across them (the page's width). Widths and heights are the
    /// lines' own, as CSS's logical inline and block sizes are; the reply is on the page.
    public var writingMode: WritingMode = .horizontal
    /// Vertical text's orientation of characters (`ParagraphRequest.textOrientation`).
    public var textOrientation: TextOrientation = .mixed
    /// Tate-chu-yoko: runs of at most this many ASCII digits set upright in one em (0: none).
    public var combineUpright = 0
    /// Letters combine as digits do.
    public var combinesLetters = false

    public init(text: String, style: TextStyle = TextStyle(), width: Double, minSize: Double = 14, maxSize: Double = 96,
                alignment: TextAlignment = .left, lineHeightMultiple: Double = 1, maxHeight: Double? = nil,
                sizing: TypeModeSizing = .perLine, lastLineUnscaled: Bool = false) {
        self.text = text
        self.style = style
        self.width = width
        self.minSize = minSize
        self.maxSize = maxSize
        self.alignment = alignment
        self.lineHeightMultiple = lineHeightMultiple
        self.maxHeight = maxHeight
        self.sizing = sizing
        self.lastLineUnscaled = lastLineUnscaled
    }

    func validate() throws {
        try Bounds.check(width, upTo: Bounds.maxLength, field: "width")
        if let maxHeight { try Bounds.check(maxHeight, upTo: Bounds.maxLength, field: "max_height") }
        guard Bounds.containsFontSize(minSize) else {
            throw LayoutError(.invalidArgument, "min_size must be in [\(Bounds.minFontSize), \(Bounds.text(Bounds.maxFontSize))] points, got \(minSize)", field: "min_size")
        }
        guard maxSize.isFinite, maxSize >= minSize, maxSize <= Bounds.maxFontSize else {
            throw LayoutError(.invalidArgument, "max_size must be finite and >= min_size (\(minSize)), got \(maxSize)",
                              field: "max_size")
        }
        guard (0...4).contains(combineUpright) else {
            throw LayoutError(.invalidArgument, "must be in [0, 4] characters, got \(combineUpright)", field: "text_combine_upright")
        }
        guard [.left, .center, .right, .natural].contains(alignment) else {
            throw LayoutError(.invalidArgument, "alignment must be left, center, right or natural", field: "alignment")
        }
    }
}

/// A Type Mode result: the paragraph layout with each line at its own size.
public struct TypeModeLayout: Sendable {
    public var paragraph: ParagraphLayout
    /// The size of each line, in points.
    public var lineSizes: [Double]
    /// True for lines whose fitted size was clamped to the minimum or maximum.
    public var clamped: [Bool]
}
