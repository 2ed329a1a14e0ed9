/// How lines sit in the container's width.
public enum TextAlignment: Sendable {
    /// Left for a left-to-right paragraph, right for a right-to-left one.
    case natural
    case left, right, center
    /// Lines fill the width by stretching word separators; a paragraph's last line and a line
    /// that ends in a hard break keep natural alignment (CSS `text-align: justify`).
    case justified
}

/// Which part of the last visible line is cut when lines are hidden, as CoreText's
/// kCTLineTruncationEnd/Start/Middle and Pango's ellipsize modes.
public enum TruncationMode: Sendable {
    case tail, head, middle
}

/// Everything a paragraph layout needs besides the fonts.
public struct ParagraphRequest: Sendable {
    public var text: AttributedText
    /// Container width in points; finite and > 0.
    public var width: Double
    /// Container height; nil means unlimited.
    public var height: Double?
    public var alignment: TextAlignment
    public var direction: BaseDirection
    /// Multiplies the fonts' natural line height.
    public var lineHeightMultiple: Double
    /// Fixed line height in points; overrides the multiple.
    public var lineHeight: Double?
    /// nil means unlimited.
    public var maxLines: Int?
    /// Shown where the text is cut; nil means none.
    public var truncationToken: String?
    /// Which part of the last visible line goes when text is hidden.
    public var truncationMode: TruncationMode = .tail
    /// Boxes at the text's U+FFFC, in order (see `InlineAttachment`).
    public var attachments: [InlineAttachment]
    /// Containers the text flows through, around their exclusions; nil lays the text in one
    /// box `width` wide and `height` tall.
    public var flow: TextFlow?
    /// Where text that flows starts (a document lays each paragraph from where the one before
    /// ended); nil: at the first container's top.
    var flowStart: FlowStart?
    /// Vertical text runs its lines down `height` (which it needs) and stacks its columns across
    /// `width`, right to left or left to right.
    public var writingMode: WritingMode = .horizontal
    /// Vertical text: runs of at most this many ASCII digits set upright across the line in
    /// one em (tate-chu-yoko, CSS `text-combine-upright: digits N`); 0 combines none.
    public var combineUpright: Int = 0
    /// Vertical text: letters combine as digits do.
    public var combinesLetters = false
    /// Vertical text: how characters stand (CSS `text-orientation`); mixed by UAX #50 unless set.
    public var textOrientation: TextOrientation = .mixed
    /// Measure the ink of runs, lines and the layout (`ParagraphLayout.ink`).
    public var measuresInk: Bool {
        get { typography?.measuresInk ?? false }
        set { if newValue != measuresInk { setTypography { $0.measuresInk = newValue } } }
    }
    /// Measure the text's intrinsic widths and the runs' typographic bounds
    /// (`ParagraphLayout.intrinsicMetrics`).
    public var measuresIntrinsics: Bool {
        get { typography?.measuresIntrinsics ?? false }
        set { if newValue != measuresIntrinsics { setTypography { $0.measuresIntrinsics = newValue } } }
    }
    /// Give each glyph HarfBuzz's flags (`PositionedGlyph.flags`), for a client that shapes again.
    public var reportsGlyphFlags: Bool {
        get { typography?.reportsGlyphFlags ?? false }
        set { if newValue != reportsGlyphFlags { setTypography { $0.reportsGlyphFlags = newValue } } }
    }
    /// How lines are chosen; balanced and optimal need one box (no containers or exclusions).
    public var breakStrategy: BreakStrategy {
        get { typography?.breakStrategy ?? .greedy }
        set { if newValue != breakStrategy { setTypography { $0.breakStrategy = newValue } } }
    }
    /// Scale the text down until it fits `height` or `maxLines` (see `AutoSize`).
    public var autoSize: AutoSize? {
        get { typography?.autoSize }
        set { setTypography { $0.autoSize = newValue } }
    }
    /// Indents, spacing between paragraphs and line height bounds.
    public var paragraphStyle: ParagraphStyle {
        get { typography?.paragraphStyle ?? .plain }
        set { setTypography { $0.paragraphStyle = newValue } }
    }
    /// Break words with a hyphen at line ends, by each span's language; nil breaks only at soft
    /// hyphens (U+00AD), which always show a hyphen when a line ends there.
    public var hyphenation: Hyphenation? {
        get { typography?.hyphenation }
        set { setTypography { $0.hyphenation = newValue } }
    }

    /// Text set along a path (SVG's `textPath`): one line, each glyph on the path and turned to it.
    public var textPath: TextPath? {
        get { typography?.textPath }
        set { setTypography { $0.textPath = newValue } }
    }

    /// The token a request shows where text is cut unless it names another: "…".
    public static let defaultTruncationToken = "\u{2026}"

    /// The options above, boxed and nil while none is set: a request is copied along the
    /// pipeline, and carrying them inline made every layout copy ninety bytes more.
    private(set) var typography: TypographyOptions? = nil

    private mutating func setTypography(_ change: (inout TypographyOptions.Values) -> Void) {
        var values = typography?.values ?? TypographyOptions.Values()
        change(&values)
        typography = values == TypographyOptions.Values() ? nil : TypographyOptions(values)
    }

    /// Private, so the compiler's memberwise initializer is too: the public one below is the
    /// only way in from another file (see there).
    private var memberwiseInitializerIsPrivate: Void = ()
}

extension ParagraphRequest {
    /// Through the compiler's memberwise initializer, which stores the fields straight into the
    /// result. Written out as assignments to `self`, the request (too large to pass in registers)
    /// was built twice, and one copy copied and the other destroyed: its text, token and arrays
    /// counted once more on every layout.
    public init(text: AttributedText, width: Double, height: Double? = nil, alignment: TextAlignment = .natural,
                direction: BaseDirection = .auto, lineHeightMultiple: Double = 1, lineHeight: Double? = nil,
                maxLines: Int? = nil, truncationToken: String? = ParagraphRequest.defaultTruncationToken,
                attachments: [InlineAttachment] = []) {
        self.init(text: text, width: width, height: height, alignment: alignment, direction: direction,
                  lineHeightMultiple: lineHeightMultiple, lineHeight: lineHeight, maxLines: maxLines,
                  truncationToken: truncationToken, truncationMode: .tail, attachments: attachments)
    }

    /// `template` with another text and attachments (a document's paragraph, from the document's
    /// request): every other field the template's. Built field by field, not copied and changed:
    /// a copy counted the template's text and attachments only to let them go, on every
    /// keystroke. `ParagraphRequestTests` fails when a field is added that this does not pass.
    init(_ template: borrowing ParagraphRequest, text: AttributedText, attachments: [InlineAttachment]) {
        self.init(text: text, width: template.width, height: template.height, alignment: template.alignment,
                  direction: template.direction, lineHeightMultiple: template.lineHeightMultiple, lineHeight: template.lineHeight,
                  maxLines: template.maxLines, truncationToken: template.truncationToken, truncationMode: template.truncationMode,
                  attachments: attachments, flow: template.flow, flowStart: template.flowStart, writingMode: template.writingMode,
                  combineUpright: template.combineUpright, combinesLetters: template.combinesLetters,
                  textOrientation: template.textOrientation, typography: template.typography)
    }
}

/// What positioning needs of a request besides its text: the box, line limits and heights,
/// alignment and truncation. Apart from the request so positioning copies no text.
struct LineSettings {
    let width: Double
    let height: Double?
    let alignment: TextAlignment
    let lineHeightMultiple: Double
    let lineHeight: Double?
    let maxLines: Int?
    let truncationMode: TruncationMode
    let writingMode: WritingMode
    /// Read per line: kept apart from the paragraph style (which copies its tab stops).
    let hangsPunctuation: Bool
    /// Read per piece (`ParagraphPositioner.place`): stored, not read through the options box,
    /// whose getter copied the whole settings for it.
    let reportsGlyphFlags: Bool
    let hasList: Bool
    /// `hyphenation` is set: read for every paragraph (`ParagraphPositioner.breaker`), stored as
    /// `reportsGlyphFlags` is.
    let hyphenates: Bool
    /// Some indent is set: lines take their slots through the paragraph style.
    let hasIndents: Bool
    /// Space between two paragraphs (the style's spacing after and before).
    let paragraphGap: Double
    /// What few requests set, behind one reference that is nil for the rest: inline, the
    /// token, flow and options made every copy of the settings (two a layout) and its
    /// destruction go through Swift's outlined copies.
    private let rare: Rare?

    private final class Rare {
        let truncationToken: String?
        let flow: TextFlow?
        let flowStart: FlowStart?
        let typography: TypographyOptions?

        init(truncationToken: String?, flow: TextFlow?, flowStart: FlowStart?, typography: TypographyOptions?) {
            self.truncationToken = truncationToken
            self.flow = flow
            self.flowStart = flowStart
            self.typography = typography
        }
    }

    var truncationToken: String? {
        guard let rare else { return ParagraphRequest.defaultTruncationToken }
        return rare.truncationToken
    }
    var flow: TextFlow? { rare?.flow }
    var flowStart: FlowStart? { rare?.flowStart }
    /// The request's typography options (nil: none set).
    var typography: TypographyOptions? { rare?.typography }
    var breakStrategy: BreakStrategy { typography?.breakStrategy ?? .greedy }
    var paragraphStyle: ParagraphStyle { typography?.paragraphStyle ?? .plain }
    var hyphenation: Hyphenation? { typography?.hyphenation }
    var list: ListStyle? { hasList ? typography?.paragraphStyle.list : nil }

    /// Borrows the request: an initializer's argument is otherwise passed owned, and the
    /// caller copied the whole request (every array of its text retained and released) to pass it.
    init(_ request: borrowing ParagraphRequest) {
        self.init(request, width: request.width, height: request.height, flow: request.flow)
    }

    /// The request's settings with its lines' frame given apart: vertical text's lines run
    /// down its height and stack across its width (a request changed to say so was a copy of
    /// the whole request, its text's arrays counted).
    init(_ request: borrowing ParagraphRequest, width: Double, height: Double?, flow: TextFlow?) {
        self.width = width
        self.height = height
        alignment = request.alignment
        lineHeightMultiple = request.lineHeightMultiple
        lineHeight = request.lineHeight
        maxLines = request.maxLines
        truncationMode = request.truncationMode
        writingMode = request.writingMode
        let typography = request.typography
        reportsGlyphFlags = typography?.reportsGlyphFlags ?? false
        hyphenates = typography?.hyphenation != nil
        if let style = typography?.paragraphStyle {
            hangsPunctuation = style.hangingPunctuation
            hasList = style.list != nil
            hasIndents = style.firstLineHeadIndent != 0 || style.headIndent != 0 || style.tailIndent != 0 || style.list != nil
            paragraphGap = style.spacingAfter + style.spacingBefore
        } else {
            hangsPunctuation = false
            hasList = false
            hasIndents = false
            paragraphGap = 0
        }
        // The default token is a small string: no object, so a plain request needs no box.
        let token = request.truncationToken
        if token == ParagraphRequest.defaultTruncationToken && flow == nil && request.flowStart == nil && typography == nil {
            rare = nil
        } else {
            rare = Rare(truncationToken: token, flow: flow, flowStart: request.flowStart, typography: typography)
        }
    }

    /// A line's box: its metrics times the multiple (or the fixed height), within the paragraph
    /// style's bounds.
    func box(_ metrics: LineMetrics) -> (height: Double, baseline: Double) {
        let box = metrics.box(multiple: lineHeightMultiple, fixed: lineHeight)
        guard let typography = rare?.typography else { return box }
        return typography.paragraphStyle.bounded(box)
    }
}

/// Options a few requests set (ink, breaking strategy, auto-size, paragraph style), in a box
/// shared by copies; replaced whole when one changes, so requests keep value semantics.
final class TypographyOptions: Sendable {
    struct Values: Equatable, Sendable {
        var measuresInk = false
        var measuresIntrinsics = false
        var reportsGlyphFlags = false
        var breakStrategy = BreakStrategy.greedy
        var autoSize: AutoSize?
        var paragraphStyle = ParagraphStyle.plain
        var hyphenation: Hyphenation?
        var textPath: TextPath?
    }

    let values: Values
    init(_ values: Values) { self.values = values }

    var measuresInk: Bool { values.measuresInk }
    var measuresIntrinsics: Bool { values.measuresIntrinsics }
    var reportsGlyphFlags: Bool { values.reportsGlyphFlags }
    var breakStrategy: BreakStrategy { values.breakStrategy }
    var autoSize: AutoSize? { values.autoSize }
    var paragraphStyle: ParagraphStyle { values.paragraphStyle }
    var hyphenation: Hyphenation? { values.hyphenation }
    var textPath: TextPath? { values.textPath }
}
