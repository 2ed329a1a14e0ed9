/// What a line holds once it is broken: a run of glyphs or an inline box (an attachment).
/// Everything after breaking — metrics, alignment, justification, bidi reordering,
/// truncation, backgrounds, rendering — handles both.
enum LineItem {
    case glyphs(LinePiece)
    case box(InlineBox)

    var range: Range<Int> {
        switch self {
        case .glyphs(let piece): piece.range
        case .box(let box): box.range
        }
    }

    var level: UInt8 {
        switch self {
        case .glyphs(let piece): piece.level
        case .box(let box): box.level
        }
    }

    /// Trailing whitespace: hangs past the line's end. A box never does.
    var isTrailing: Bool {
        if case .glyphs(let piece) = self { return piece.isTrailing }
        return false
    }

    var sizeFactor: Double {
        get {
            switch self {
            case .glyphs(let piece): piece.sizeFactor
            case .box(let box): box.sizeFactor
            }
        }
        set {
            switch self {
            case .glyphs(var piece): piece.sizeFactor = newValue; self = .glyphs(piece)
            case .box(var box): box.sizeFactor = newValue; self = .box(box)
            }
        }
    }

    /// The item's advance before letter spacing and justification, in points.
    var naturalWidth: Double {
        switch self {
        case .glyphs(let piece): Double(piece.advanceUnits) * piece.font.scale(for: piece.size)
        case .box(let box): box.width
        }
    }
}

/// Part of an item that lies on one line, with its glyphs: what positioning places.
///
/// Its glyphs are read in place from storage the `ShapedParagraph` keeps (`GlyphSlice`, see its
/// lifetime rule): a piece never outlives the paragraph it was cut from.
struct LinePiece {
    var range: Range<Int>
    /// Unowned, as `Item.font`: valid while the registry that shaped the paragraph lives.
    @UnownedFont var font: Font
    var style: Int
    var level: UInt8
    /// Reads shaped glyphs the shaped paragraph keeps alive (see `ShapedGlyphs`).
    var glyphs: GlyphSlice
    /// The text offset glyph clusters count from.
    var clusterBase: Int
    /// Trailing whitespace: at the paragraph's level (UAX #9 L1) and not counted in the width.
    var isTrailing: Bool
    var isToken: Bool = false
    /// A token that is the hyphen a hyphenated line ends with (`isToken` too: it maps to no text).
    var isHyphen: Bool = false
    /// A token that is a list item's marker, set in the list's indent.
    var isListMarker: Bool = false
    /// The style's size, kept here so positioning reads no style.
    var styleSize: Double
    /// Multiplies the style's size: Type Mode gives each line a size of its own.
    var sizeFactor: Double = 1
    /// The glyphs' advances summed, in font units: the piece's width before spacing.
    var advanceUnits: Int32
    /// The style's baseline offset at its own size, in points (positive raises the glyphs).
    var baselineOffset: Double = 0
    /// How the glyphs stand: upright, sideways or combined in vertical text.
    var orientation: GlyphOrientation = .horizontal

    /// The point size the piece is drawn at.
    var size: Double { styleSize * sizeFactor }
    /// How far above the baseline the piece sits, grown with its size.
    var shift: Double { baselineOffset * sizeFactor }
}

extension LinePiece {
    /// A piece of `item`, its font copied from the item's unowned reference to this one: passed
    /// as a `Font` argument, the font was retained and released for every piece of every line.
    init(of item: Item, range: Range<Int>, level: UInt8, glyphs: GlyphSlice, clusterBase: Int,
         isTrailing: Bool, styleSize: Double, advanceUnits: Int32, baselineOffset: Double) {
        self.range = range
        self.font = item.font
        self.style = item.style
        self.level = level
        self.glyphs = glyphs
        self.clusterBase = clusterBase
        self.isTrailing = isTrailing
        self.styleSize = styleSize
        self.advanceUnits = advanceUnits
        self.baselineOffset = baselineOffset
        self.orientation = item.orientation
    }
}

/// An attachment on a line: a box of its own size that breaks, reorders, justifies and
/// truncates as one unit (an OBJECT REPLACEMENT CHARACTER in the text).
struct InlineBox {
    /// The one unit of its U+FFFC.
    var range: Range<Int>
    /// Index into the request's attachments.
    var attachment: Int
    var style: Int
    var level: UInt8
    /// Size at a size factor of 1; Type Mode scales boxes given in ems with their line.
    var baseWidth: Double
    var baseAscent: Double
    var baseDescent: Double
    var scalesWithLine: Bool
    /// The style's baseline offset, in points (positive raises the box).
    var baselineOffset: Double = 0
    /// How the box sits on its line; the line-relative alignments are resolved against the
    /// line's text metrics once they are known (`LineMetrics.settle`).
    var placement: AttachmentPlacement
    var sizeFactor: Double = 1
    /// Set by `LineMetrics.settle`: the box's ascent and descent on its line.
    var ascent: Double = 0
    var descent: Double = 0

    private var scale: Double { scalesWithLine ? sizeFactor : 1 }
    var width: Double { baseWidth * scale }
    var height: Double { (baseAscent + baseDescent) * scale }
    var scaledAscent: Double { baseAscent * scale + baselineOffset * sizeFactor }
    var scaledDescent: Double { baseDescent * scale - baselineOffset * sizeFactor }
}

/// Where a box sits on its line: at fixed distances above and below the baseline (every
/// alignment relative to a font or the baseline resolves to this before layout), or against
/// the line's own metrics, known only once the line is broken.
enum AttachmentPlacement: Equatable {
    case baseline
    case lineTop, lineBottom, lineMiddle

    var isLineRelative: Bool { self != .baseline }
}
