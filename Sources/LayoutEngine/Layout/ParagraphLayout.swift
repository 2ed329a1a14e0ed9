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
    /// The container the line is in (text that flows; 0 otherwise).
    public var container: Int = 0
    /// The free interval of its band the line was broken into: a fragment's own rect, beside
    /// the others of its band (text that flows; nil otherwise).
    public var fragmentRect: Rect?
}

/// One container of text that flows: where it is, and which lines and text it holds.
public struct ContainerLayout: Equatable, Sendable {
    public var index: Int
    /// The UTF-16 range of the text shown in it (empty where the text ended before it).
    public var range: Range<Int>
    /// Indices into the layout's lines.
    public var lines: Range<Int>
    /// In layout coordinates; an unlimited height is the height its lines use.
    public var rect: Rect
}

/// HarfBuzz's glyph flags, with its values (`hb_glyph_flags_t`), for a client that shapes
/// again: where a cut of the text, or a join of it to other text, may change its glyphs.
public struct GlyphFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Cutting the text before this glyph's cluster may change the glyphs on either side.
    public static let unsafeToBreak = GlyphFlags(rawValue: 1)
    /// Shaping the text on either side of the cluster's start apart and joining the glyphs may
    /// give other glyphs than shaping it whole.
    public static let unsafeToConcat = GlyphFlags(rawValue: 2)
}

/// One glyph placed on its line.
public struct PositionedGlyph: Equatable, Sendable {
    public var id: UInt32
    /// HarfBuzz's flags for the glyph, when the request asked for them (`reportsGlyphFlags`);
    /// empty otherwise. Beside `id`, in the padding before `position`: a glyph grows by nothing.
    public var flags: GlyphFlags = []
    /// The glyph's origin on the baseline.
    public var position: Point
    public var advance: Double
    /// UTF-16 offset of the glyph's cluster.
    public var cluster: Int

    public init(id: UInt32, position: Point, advance: Double, cluster: Int, flags: GlyphFlags = []) {
        self.id = id
        self.flags = flags
        self.position = position
        self.advance = advance
        self.cluster = cluster
    }
}

/// Positioned glyphs of one font, size and bidi level on one line, in visual order.
///
/// The glyphs are records, not four parallel arrays, and every run of a layout slices one
/// shared array: a layout makes a run per font change and line, and allocating arrays for
/// each showed in profiles. Index a run's glyphs from `glyphs.startIndex`, as with any slice.
public struct GlyphRunLayout: Equatable, Sendable {
    /// The loaded face, as the registry lists it (and a reply names it).
    public var fontID: UInt32
    /// The instance of a variable face the glyphs were shaped at; nil for a loaded face as it
    /// is (nearly every run: a nil reference costs nothing to copy).
    public var instance: Font?
    /// The instance's axis values (every axis, in the face's order); empty for a loaded face.
    public var variations: [FontVariation] { instance?.variations ?? [] }
    /// The font the glyphs were shaped with: `fontID`, or the instance's own id; the
    /// registry's `font(id:)` finds either.
    public var instanceID: UInt32 { instance?.id ?? fontID }
    /// A synthesised bold's growth, in points (`FontSynthesis`); 0 for a face drawn as it is.
    public var syntheticBold: Double { instance?.syntheticBold(at: size) ?? 0 }
    /// A synthesised oblique's shear; 0 for an upright face.
    public var syntheticSlant: Double { instance?.syntheticSlant ?? 0 }
    public var size: Double
    public var bidiLevel: UInt8
    public var glyphs: ArraySlice<PositionedGlyph>
    public var range: Range<Int>
    public var isTruncationToken: Bool
    /// The hyphen a line broken inside a word ends with: glyphs that map to no text, as a
    /// truncation token's do.
    public var isHyphen: Bool = false
    /// A list item's marker, hanging before the item's first line: glyphs that map to no text.
    public var isListMarker: Bool = false
    public var lineIndex: Int
    /// Index into the layout's `paints`: runs of one font, size and level that differ in paint
    /// are apart here, though shaped as one.
    public var paint: Int = 0
    /// How the glyphs stand: vertical text's runs are upright, sideways or combined.
    public var orientation: GlyphOrientation = .horizontal

    /// Glyphs inserted by layout (the truncation token, a hyphen) rather than shaped from the text.
    var isInserted: Bool { isTruncationToken || isHyphen || isListMarker }

    /// Column views, for readers that want one property of every glyph.
    public var glyphIDs: [UInt32] { glyphs.map(\.id) }
    public var positions: [Point] { glyphs.map(\.position) }
    public var advances: [Double] { glyphs.map(\.advance) }
    public var clusters: [Int] { glyphs.map(\.cluster) }
}

/// An attachment placed on its line.
public struct AttachmentLayout: Equatable, Sendable {
    /// Index into the request's attachments (the Nth U+FFFC of the text).
    public var index: Int
    /// The UTF-16 range of its U+FFFC.
    public var range: Range<Int>
    public var lineIndex: Int
    /// In layout coordinates: top-left origin, y down.
    public var rect: Rect
    /// Above and below the line's baseline.
    public var ascent: Double
    public var descent: Double
    public var bidiLevel: UInt8
}

/// The result of laying out a paragraph: the positioned stage of the pipeline.
public struct ParagraphLayout: Sendable {
    public var lines: [LineLayout]
    public var runs: [GlyphRunLayout]
    /// Every attachment on a visible line, in visual order line by line.
    public var attachments: [AttachmentLayout]
    /// The part of the text that is shown; shorter than the text when lines were cut.
    public var visibleRange: Range<Int>
    public var size: Size
    /// The first paragraph's resolved direction.
    public var direction: BaseDirection
    /// The text's resolved paints, which the runs name by index.
    public var paints: [TextPaint] = AttributedText.defaultPaints
    /// Span fills, underlines and strikethroughs, line by line (the decorate stage).
    public var decorations: [TextDecoration] = []
    /// The containers of text that flows, in order; empty for one plain box.
    public var containers: [ContainerLayout] = []
    /// The text not shown (past the line limit, the height or the last container); empty
    /// when everything fits.
    public var overflowRange: Range<Int> = 0..<0
    /// Vertical text's lines are columns: a line's baseline origin is the top of its centre
    /// line, its used rect a column (see `VerticalFrame`).
    public var writingMode: WritingMode = .horizontal
    /// How many glyphs its runs hold (what a reply's size and a path's glyph list are reckoned by).
    /// Inlinable: read where a layout is borrowed, not copied to call it.
    @inlinable public var glyphCount: Int { runs.reduce(0) { $0 + $1.glyphs.count } }
    /// Where the glyphs and attachments put ink, when the request asked (`measuresInk`).
    public var ink: InkBounds? {
        get { extras?.values.ink }
        set { RareBox.change(&extras) { $0.ink = newValue } }
    }
    /// The scale auto-size laid the text out at (1: it fitted as given); nil without auto-size.
    public var appliedScale: Double? {
        get { extras?.values.appliedScale }
        set { RareBox.change(&extras) { $0.appliedScale = newValue } }
    }
    /// Where the next paragraph would start, for text that flows laid out from a `FlowStart`
    /// (a document's paragraph); nil otherwise.
    var flowEnd: FlowStart? {
        get { extras?.values.flowEnd }
        set { RareBox.change(&extras) { $0.flowEnd = newValue } }
    }
    /// The text's intrinsic widths and the runs' typographic bounds, when the request asked
    /// (`measuresIntrinsics`).
    public var intrinsicMetrics: IntrinsicMetrics? {
        get { extras?.values.intrinsicMetrics }
        set { RareBox.change(&extras) { $0.intrinsicMetrics = newValue } }
    }
    /// The boxes the paints' fills cover (the decorate stage); empty without fills.
    public var fillRegions: [FillRegion] {
        get { extras?.values.fillRegions ?? [] }
        set { RareBox.change(&extras) { $0.fillRegions = newValue } }
    }
    /// Text on a path: each run's glyphs' turns, radians clockwise (y down) about their
    /// origins, by run; empty for text on lines.
    public var glyphAngles: [[Double]] {
        get { extras?.values.glyphAngles ?? [] }
        set { RareBox.change(&extras) { $0.glyphAngles = newValue } }
    }
    /// Emphasis marks (`TextPaint.emphasis`): glyph runs of their own, one per marked run, beside
    /// `runs` rather than in them (hit-testing, decorations and fill regions read `runs` as
    /// the text). A mark's cluster is the offset of the grapheme cluster it marks.
    public var emphasisMarks: [GlyphRunLayout] {
        get { extras?.values.emphasisMarks ?? [] }
        set { RareBox.change(&extras) { $0.emphasisMarks = newValue } }
    }
    /// Ruby (`AttributedText.ruby`): the readings' glyph runs, over or beside their bases, beside
    /// `runs` as emphasis marks are. A run's range is the part of the base it stands over; its
    /// glyphs' clusters count UTF-16 units of the annotation's readings joined.
    public var rubyRuns: [GlyphRunLayout] {
        get { extras?.values.rubyRuns ?? [] }
        set { RareBox.change(&extras) { $0.rubyRuns = newValue } }
    }
    /// The glyphs carry HarfBuzz's flags (`ParagraphRequest.reportsGlyphFlags`): a reply writes them.
    public var reportsGlyphFlags: Bool {
        get { extras?.values.reportsGlyphFlags ?? false }
        set { if newValue != reportsGlyphFlags { RareBox.change(&extras) { $0.reportsGlyphFlags = newValue } } }
    }
    /// The nine above, boxed and nil without them: a layout is returned and copied through the
    /// pipeline, and carrying them inline copied a hundred bytes more each time.
    var extras: RareBox<LayoutExtras>? = nil
}

/// What a few layouts carry besides their lines: ink, the auto-size scale, where flowing text
/// ended, the intrinsic metrics, the fills' boxes, the turns of glyphs on a path, emphasis marks, ruby.
struct LayoutExtras: RareValues {
    var ink: InkBounds?
    var appliedScale: Double?
    var flowEnd: FlowStart?
    var intrinsicMetrics: IntrinsicMetrics?
    var fillRegions: [FillRegion] = []
    var glyphAngles: [[Double]] = []
    var emphasisMarks: [GlyphRunLayout] = []
    var rubyRuns: [GlyphRunLayout] = []
    var reportsGlyphFlags = false

    var isEmpty: Bool {
        ink == nil && appliedScale == nil && flowEnd == nil && intrinsicMetrics == nil && fillRegions.isEmpty && glyphAngles.isEmpty
            && emphasisMarks.isEmpty && rubyRuns.isEmpty && !reportsGlyphFlags
    }
}
