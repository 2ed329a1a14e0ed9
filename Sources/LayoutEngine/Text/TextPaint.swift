/// How a run of text is painted, apart from how it is shaped: colour, a fill behind it,
/// underline, strikethrough, shadows, a glow, a fill and a text effect. Paint never changes a glyph or an advance, so text is
/// itemized and shaped by its `TextStyle` alone, and two spans that differ only in paint are
/// shaped as one run (an Arabic word with one letter coloured keeps its joining, a ligature
/// across the colour change stays one glyph). Positioning then splits the glyph runs where the
/// paint changes, glyph by glyph, as browsers colour a word's letters; the decorate stage turns
/// the lines and fills into geometry (`TextDecorator`).
public struct TextPaint: Hashable, Sendable {
    /// nil: whatever colour the drawing gives text (the render request's text colour).
    public var color: Color?
    /// A fill behind the glyphs, the line's height (TextKit's background colour attribute).
    public var background: Color?
    public var underline: DecorationLine?
    public var strikethrough: DecorationLine?
    /// Under the glyphs, the first on top (CSS `text-shadow`'s order); drawn last to first.
    public var shadows: [TextShadow]
    /// A halo under the glyphs, over the shadows.
    public var glow: TextGlow? {
        get { rare?.values.glow }
        set { RareBox.change(&rare) { $0.glow = newValue } }
    }
    /// A gradient or picture in the glyphs instead of `color` (an effect, which draws its own
    /// layers, takes precedence).
    public var fill: TextFill? {
        get { rare?.values.fill }
        set { RareBox.change(&rare) { $0.fill = newValue } }
    }
    public var effect: TextEffect?
    /// Marks beside each grapheme cluster (CSS `text-emphasis`). Unlike the rest of paint, they
    /// grow the line to hold them, as ruby does.
    public var emphasis: EmphasisMarks? {
        get { rare?.values.emphasis }
        set { RareBox.change(&rare) { $0.emphasis = newValue } }
    }
    /// The glow and the fill, boxed: nearly every paint has neither, and paints are copied and
    /// hashed as spans resolve.
    private var rare: RareBox<RarePaint>?

    public init(color: Color? = nil, background: Color? = nil, underline: DecorationLine? = nil,
                strikethrough: DecorationLine? = nil, shadows: [TextShadow] = [], glow: TextGlow? = nil, fill: TextFill? = nil,
                effect: TextEffect? = nil, emphasis: EmphasisMarks? = nil) {
        self.color = color
        self.background = background
        self.underline = underline
        self.strikethrough = strikethrough
        self.shadows = shadows
        // Made directly, not through the setters: nearly every paint has none of the three.
        rare = RareBox.make(RarePaint(glow: glow, fill: fill, emphasis: emphasis))
        self.effect = effect
    }

    /// The top shadow (NSShadow's one), nil without any.
    public var shadow: TextShadow? { shadows.first }

    /// The layers to draw for this paint's effect, none without one.
    public var effectLayers: [EffectLayer] { effect?.layers(textColor: color ?? TextEffect.defaultTextColor) ?? [] }

    /// Nothing set: the client's colour, plain. Cheaper than comparing with `TextPaint()`, which
    /// every request asks.
    var isPlain: Bool {
        color == nil && background == nil && underline == nil && strikethrough == nil && shadows.isEmpty && rare == nil
            && effect == nil
    }

    /// Whether the glyphs are drawn other than in the client's colour, plain: a colour, shadows, a
    /// glow, a fill or an effect (a reply lists its paints only then). The box is opened only
    /// when there is one: through the getters, every plain paint copied its empty glow and fill.
    public var paintsGlyphs: Bool {
        if color != nil || !shadows.isEmpty || effect != nil { return true }
        guard let rare else { return false }
        return rare.values.glow != nil || rare.values.fill != nil
    }

    /// Whether any of `paints` paints its glyphs: asked here, where the paints are read in
    /// place (through a closure from another module, each was copied for the call).
    public static func anyPaintsGlyphs(_ paints: [TextPaint]) -> Bool {
        for index in paints.indices where paints[index].paintsGlyphs { return true }
        return false
    }

    /// Whether the decorate stage has anything to do for this paint.
    var isDecorated: Bool { background != nil || underline != nil || strikethrough != nil }
}

/// A paint's glow and fill, in its `RareBox`.
private struct RarePaint: RareValues, Hashable {
    var glow: TextGlow?
    var fill: TextFill?
    var emphasis: EmphasisMarks?

    var isEmpty: Bool { glow == nil && fill == nil && emphasis == nil }
}

/// An underline or a strikethrough.
public struct DecorationLine: Hashable, Sendable {
    public enum Style: Int, Hashable, Sendable, CaseIterable {
        /// One line of the font's thickness.
        case single
        /// Two lines of the font's thickness, one thickness apart (the second below, or above
        /// for a strikethrough, so that it stays centred on the stroke it replaces).
        case double
        /// One line twice the font's thickness.
        case thick
        /// Square dots one thickness wide, one thickness apart.
        case dotted
        /// Dashes three thicknesses long, two thicknesses apart.
        case dashed
    }

    public var style: Style
    /// nil: the text's colour.
    public var color: Color?
    /// Underlines only: the line is cut where glyph ink crosses it (descenders), one thickness
    /// clear of the ink on each side, as CSS `text-decoration-skip-ink: auto` does.
    public var skipsInk: Bool {
        get { underlineBits & 1 != 0 }
        set { underlineBits = (underlineBits & ~1) | (newValue ? 1 : 0) }
    }
    /// Underlines of vertical text only: the side of the column the line stands on.
    public var position: UnderlinePosition {
        get { underlineBits & 6 == 2 ? .left : underlineBits & 6 == 4 ? .right : .auto }
        set { underlineBits = (underlineBits & 1) | (newValue == .left ? 2 : newValue == .right ? 4 : 0) }
    }
    /// `skipsInk` and `position` in one byte: a text's paints hold two lines each and are copied
    /// whole, and a byte more in each line made every paint's copy go through Swift's generic
    /// value code (docs/design.md, "An underline's side").
    private var underlineBits: UInt8 = 0

    /// Which side of a vertical line an underline stands on, as CSS `text-underline-position`
    /// says it: `auto` by the language (the page's right, the left in Chinese), or the page's
    /// `left` or `right` whatever the language. Horizontal text's underlines ignore it.
    public enum UnderlinePosition: Hashable, Sendable, CaseIterable {
        case auto, left, right
    }

    public init(style: Style = .single, color: Color? = nil, skipsInk: Bool = false, position: UnderlinePosition = .auto) {
        self.style = style
        self.color = color
        self.skipsInk = skipsInk
        self.position = position
    }
}

/// A shadow under the glyphs (NSShadow, CSS `text-shadow`).
public struct TextShadow: Hashable, Sendable {
    /// Points, y down.
    public var offset: Point
    /// Points: how far the shadow's edge fades out; 0 is a sharp copy of the glyphs.
    public var blurRadius: Double
    public var color: Color

    /// NSShadow's default colour: black at a third opacity.
    public static let defaultColor = Color(red: 0, green: 0, blue: 0, alpha: 1.0 / 3)
    /// The largest blur radius a request may ask for.
    public static let maxBlurRadius = 100.0

    public init(offset: Point, blurRadius: Double = 0, color: Color = TextShadow.defaultColor) {
        self.offset = offset
        self.blurRadius = blurRadius
        self.color = color
    }
}
