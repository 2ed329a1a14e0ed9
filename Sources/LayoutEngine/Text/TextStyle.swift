/// An OpenType feature setting, e.g. `liga=0` or `smcp=1`.
public struct FontFeature: Hashable, Sendable {
    public var tag: String
    public var value: UInt32
    public init(tag: String, value: UInt32) {
        self.tag = tag
        self.value = value
    }
}

/// A fully resolved style: what one run of text is shaped and drawn with.
public struct TextStyle: Hashable, Sendable {
    public var family: String
    public var weight: Int
    public var italic: Bool
    /// What may be synthesised where the family lacks the weight or slant asked for (CSS
    /// `font-synthesis`; both by default). Beside `italic`, in its padding: a style copied per
    /// span grows by nothing.
    public var synthesis: FontSynthesis = .all
    /// The reader's Bold Text setting (iOS Accessibility, Android's font weight adjustment):
    /// faces are matched at `effectiveWeight`, the weight asked made heavier. In the padding too.
    public var boldText = false
    /// Points.
    public var size: Double
    /// Extra space after every grapheme cluster, in points.
    public var letterSpacing: Double
    public var features: [FontFeature]
    /// BCP 47 tag; empty means none.
    public var language: String
    /// Points the glyphs sit above the baseline (below when negative), as NSAttributedString's
    /// baselineOffset: superscripts, subscripts, a raised emoji. The line grows to hold them.
    public var baselineOffset: Double
    /// How much heavier Bold Text makes every weight: Android's documented adjustment
    /// (`Configuration.fontWeightAdjustment` is 300 with bold text on); Apple publishes no number.
    public static let boldTextAdjustment = 300

    /// The weight faces are matched, varied and synthesised at: the weight, 300 heavier (at most
    /// 1000) when the reader asked for bold text.
    public var effectiveWeight: Int { boldText ? min(1000, weight + Self.boldTextAdjustment) : weight }

    /// False: the text is drawn with the style's own font only, a character it lacks showing its
    /// .notdef glyph (as hb-shape draws it); true (the default) lets fallback fonts draw it.
    public var fontFallback = true
    /// The script the style's text is shaped as, over the one its characters have (hb-shape's
    /// `--script`: Zawgyi's `Qaag`, or Latin to turn a script's shaper off); nil for the
    /// characters' own. Font choice still follows the characters' script.
    public var script: Script? {
        get { rare?.values.script }
        set { RareBox.change(&rare) { $0.script = newValue } }
    }
    /// Families tried in order for a cluster `family` cannot draw, before the daemon's fallback:
    /// CSS `font-family`'s list after its first name, SkParagraph's `fontFamilies`.
    public var fallbackFamilies: [String] {
        get { rare?.values.fallbackFamilies ?? [] }
        set { RareBox.change(&rare) { $0.fallbackFamilies = newValue } }
    }
    /// How strictly lines break around punctuation and small kana (CSS `line-break`), and where
    /// they may break inside words (CSS `word-break`). The opportunity before a character follows
    /// that character's style.
    public var lineBreak: LineBreakStrictness {
        get { rare?.values.lineBreak ?? .auto }
        set { RareBox.change(&rare) { $0.lineBreak = newValue } }
    }
    public var wordBreak: WordBreakStyle {
        get { rare?.values.wordBreak ?? .normal }
        set { RareBox.change(&rare) { $0.wordBreak = newValue } }
    }
    /// True when the style breaks lines otherwise than UAX #14's default rules: one test of the
    /// rare box for nearly every style.
    var tailorsLineBreaks: Bool {
        guard let rare else { return false }
        return (rare.values.lineBreak != .auto && rare.values.lineBreak != .strict) || rare.values.wordBreak != .normal
    }
    /// The height a line holding this style's text takes, in points at `size` (Dynamic Type's
    /// leading for a text style at its category); nil for the font's own ascent, descent and gap.
    /// A line is as tall as the tallest its runs ask for, and never shorter than the content of
    /// runs without one (CSS `line-height` per inline box, TextKit's line fragment).
    public var lineHeight: Double? {
        get { storedLineHeight > 0 ? storedLineHeight : nil }
        set { storedLineHeight = newValue ?? 0 }
    }
    /// 0 for none: a plain Double keeps the style as small as it was (styles are copied per span).
    private var storedLineHeight = 0.0
    /// A variable font's axes; static fonts ignore it.
    public var variations: FontVariationSettings {
        get { rare?.values.variations ?? .automatic }
        set { RareBox.change(&rare) { $0.variations = newValue.isAutomatic ? nil : newValue } }
    }
    /// What few styles set (variations, a script, fallback families, line-break styles), in one
    /// box: nil for nearly every style. A style is copied, compared and hashed for every span;
    /// the newer fields as fields of their own cost plain layout 1.3%, and a second box beside the
    /// variations 0.6% more than one (Benchmarks/results/typography.md).
    private var rare: RareBox<RareStyleSettings>?

    public init(family: String = "", weight: Int = 400, italic: Bool = false, size: Double = 17,
                letterSpacing: Double = 0, features: [FontFeature] = [], language: String = "", baselineOffset: Double = 0,
                variations: FontVariationSettings = FontVariationSettings()) {
        self.family = family
        self.weight = weight
        self.italic = italic
        self.size = size
        self.letterSpacing = letterSpacing
        self.features = features
        self.language = language
        self.baselineOffset = baselineOffset
        // Nearly every style: the box stays nil without a trip through the setter. Not
        // `RareBox.make(RareStyleSettings(…))` as the paint does: building the settings (an array,
        // optionals) only to find them empty costs more here, where every request makes styles.
        if !variations.isAutomatic { self.variations = variations }
    }
}

/// A style's rarely set fields, in its `RareBox`.
struct RareStyleSettings: RareValues, Hashable {
    var variations: FontVariationSettings?
    var script: Script?
    var fallbackFamilies: [String] = []
    var lineBreak = LineBreakStrictness.auto
    var wordBreak = WordBreakStyle.normal

    /// Nothing set: the style needs no box.
    var isEmpty: Bool {
        variations == nil && script == nil && fallbackFamilies.isEmpty && lineBreak == .auto && wordBreak == .normal
    }
}

/// Overrides for part of a style; nil fields inherit.
public struct StylePatch: Sendable {
    public var family: String?
    public var weight: Int?
    public var italic: Bool?
    public var size: Double?
    public var letterSpacing: Double?
    public var features: [FontFeature]?
    public var language: String?
    public var baselineOffset: Double?
    /// The style's line height (Dynamic Type's leading), set with `size` only: a patch that sets
    /// a size without one clears the base's, as a line height belongs to the size it was given for.
    public var lineHeight: Double?
    /// Replaces the variation settings whole.
    public var variations: FontVariationSettings?
    /// Paint (see `TextPaint`): resolved apart, never shaped apart.
    public var color: Color?
    /// A fully transparent fill clears one an outer span set.
    public var background: Color?
    /// `cleared` lines and shadows take away what an outer span set.
    public var underline: Setting<DecorationLine>?
    public var strikethrough: Setting<DecorationLine>?
    /// Replaces the outer span's shadows whole; `cleared` takes them away.
    public var shadows: Setting<[TextShadow]>?
    public var glow: Setting<TextGlow>?
    public var fill: Setting<TextFill>?
    public var effect: Setting<TextEffect>?
    public var emphasis: Setting<EmphasisMarks>?
    /// Kept in the text with no width and no ink (a formatting rule's hidden markers).
    public var hidden: Bool?
    /// See `TextStyle.fontFallback`.
    public var fontFallback: Bool?
    /// See `TextStyle.script`.
    public var script: Script?
    /// See `TextStyle.fallbackFamilies`; replaces the outer style's list whole.
    public var fallbackFamilies: [String]?
    /// See `TextStyle.synthesis`.
    public var synthesis: FontSynthesis?
    /// See `TextStyle.boldText`.
    public var boldText: Bool?
    /// See `TextStyle.lineBreak` and `TextStyle.wordBreak`.
    public var lineBreak: LineBreakStrictness?
    public var wordBreak: WordBreakStyle?

    public init(family: String? = nil, weight: Int? = nil, italic: Bool? = nil, size: Double? = nil,
                letterSpacing: Double? = nil, features: [FontFeature]? = nil, language: String? = nil,
                baselineOffset: Double? = nil, color: Color? = nil, background: Color? = nil,
                underline: Setting<DecorationLine>? = nil, strikethrough: Setting<DecorationLine>? = nil,
                shadows: Setting<[TextShadow]>? = nil, glow: Setting<TextGlow>? = nil, fill: Setting<TextFill>? = nil,
                effect: Setting<TextEffect>? = nil, hidden: Bool? = nil, lineHeight: Double? = nil) {
        self.lineHeight = lineHeight
        self.family = family
        self.weight = weight
        self.italic = italic
        self.size = size
        self.letterSpacing = letterSpacing
        self.features = features
        self.language = language
        self.baselineOffset = baselineOffset
        self.color = color
        self.background = background
        self.underline = underline
        self.strikethrough = strikethrough
        self.shadows = shadows
        self.glow = glow
        self.fill = fill
        self.effect = effect
        self.hidden = hidden
    }

    public func applied(to base: TextStyle) -> TextStyle {
        var style = base
        if let family { style.family = family }
        if let weight { style.weight = weight }
        if let italic { style.italic = italic }
        if let size { style.size = size; style.lineHeight = lineHeight }
        if let letterSpacing { style.letterSpacing = letterSpacing }
        if let features { style.features = features }
        if let language { style.language = language }
        if let baselineOffset { style.baselineOffset = baselineOffset }
        if let variations { style.variations = variations }
        if let fontFallback { style.fontFallback = fontFallback }
        if let script { style.script = script }
        if let fallbackFamilies { style.fallbackFamilies = fallbackFamilies }
        if let synthesis { style.synthesis = synthesis }
        if let boldText { style.boldText = boldText }
        if let lineBreak { style.lineBreak = lineBreak }
        if let wordBreak { style.wordBreak = wordBreak }
        return style
    }

    /// The paint fields applied to `base`: the default style's paint, under the spans'.
    public func appliedPaint(to base: TextPaint) -> TextPaint {
        var paint = base
        for field in StyleField.allCases where field.isPaint && field.isSet(in: self) {
            var style = TextStyle(family: "", size: 1)
            field.copy(from: self, into: &style, paint: &paint)
        }
        return paint
    }
}

/// A patch's value for a field that can be taken away: set to a value, or cleared (an outer
/// span's underline that an inner one removes).
public enum Setting<Value: Hashable & Sendable>: Hashable, Sendable {
    case set(Value)
    case cleared

    var value: Value? {
        if case .set(let value) = self { return value }
        return nil
    }
}
