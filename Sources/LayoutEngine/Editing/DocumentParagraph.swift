/// What every paragraph of a document is laid out with: the box and line settings of one
/// paragraph request (its text and attachments unused), the base style and paint, and the
/// formatting rules, which match within each paragraph (as TextKit re-applies its rules over
/// the edited paragraphs).
public struct DocumentSettings: Sendable {
    public var request: ParagraphRequest
    public var style: TextStyle { didSet { styles = [style] } }
    /// `[style]`, kept: every paragraph without spans takes this array, the same storage each
    /// time, which the caches of the last styles validated and resolved find equal at once (an
    /// array made per paragraph was compared with theirs field by field, twice, every keystroke).
    private(set) var styles: [TextStyle]
    public var paint: TextPaint
    public var rules: [CompiledRule]
    /// Type Mode: each paragraph fitted as `justify` fits text (every line at the size that
    /// fills the width), with this request's settings (its text, spans and attachments unused);
    /// nil: laid out as `request` says.
    public var typeMode: TypeModeRequest? {
        get { typeModeBox?.request }
        set { typeModeBox = newValue.map(TypeModeBox.init) }
    }
    /// Held by reference: settings are copied with every paragraph laid out, and a plain
    /// document's copies should not carry a Type Mode request's fields.
    private(set) var typeModeBox: TypeModeBox?
    /// True for a Type Mode document.
    public var isTypeMode: Bool { typeModeBox != nil }

    public init(request: ParagraphRequest, style: TextStyle, paint: TextPaint = TextPaint(), rules: [CompiledRule] = []) {
        self.request = request
        self.style = style
        self.styles = [style]
        self.paint = paint
        self.rules = rules
    }

    /// A Type Mode document: `typeMode`'s width, alignment and line height are the lines'; its
    /// style and paint the text's.
    public init(typeMode: TypeModeRequest, rules: [CompiledRule] = []) {
        var style = typeMode.style
        style.size = typeMode.minSize
        self.init(request: ParagraphRequest(text: AttributedText("", style: style, paint: typeMode.paint), width: typeMode.width,
                                            alignment: typeMode.alignment, lineHeightMultiple: typeMode.lineHeightMultiple),
                  style: style, paint: typeMode.paint, rules: rules)
        self.typeMode = typeMode
    }

    /// True when a paragraph's layout depends on its index: its list marker is a number.
    var numbersParagraphs: Bool { request.isNumberedList }

    /// True when the text flows through containers or around exclusions: each paragraph is laid
    /// out from where the one before ended (`FlowStart`), in the document's coordinates.
    var flows: Bool { request.flow != nil }

    /// The space between two paragraphs (a layout's `spacing_after` of the one above and
    /// `spacing_before` of the one below): never above the first or below the last.
    var paragraphGap: Double { request.paragraphSpacing }

    /// What a document cannot be laid out as yet, by field: each of these would make a
    /// paragraph's lines depend on the paragraphs after it (or, for vertical text, on how wide
    /// the whole text is), so an edit could not keep the lines before it.
    func checkIncremental() throws(LayoutError) {
        if let typeMode {
            // Per line, a line's size depends on its own text alone; one size or one scale for
            // the whole block ties every line to all the text.
            if typeMode.sizing == .uniform {
                throw LayoutError(.invalidArgument, "a Type Mode document fits each line on its own; uniform sizing (one size for the "
                                  + "whole text) is not supported in documents", field: "sizing")
            }
            if typeMode.maxHeight != nil {
                throw LayoutError(.invalidArgument, "a Type Mode document grows with its text; max_height (scaling the whole text down) "
                                  + "is not supported in documents", field: "max_height")
            }
        }
        if let flow = request.flow {
            // Each paragraph starts a band of its own, so it depends only on where the one before
            // ended; what would tie it to the paragraphs after it is refused.
            if flow.verticalAlignment != .top {
                throw LayoutError(.invalidArgument, "a document's lines start at its containers' tops; vertical alignment is not "
                                  + "supported in documents", field: "vertical_alignment")
            }
            if let last = flow.containers.indices.last, flow.containers[last].height != nil {
                throw LayoutError(.invalidArgument, "a document grows with its text: its last container has no height, so nothing "
                                  + "overflows", field: flow.isOneBox ? "height" : "containers[\(last)].height")
            }
            if let endless = flow.containers.dropLast().firstIndex(where: { $0.height == nil }) {
                throw LayoutError(.invalidArgument, "only a document's last container grows; the ones before it need a height",
                                  field: "containers[\(endless)].height")
            }
        }
        if request.writingMode.isVertical {
            throw LayoutError(.invalidArgument, "documents are horizontal text", field: "writing_mode")
        }
        if request.textPath != nil {
            throw LayoutError(.invalidArgument, "documents are text on lines; text on a path is not supported in documents",
                              field: "text_path")
        }
        if request.maxLines != nil {
            throw LayoutError(.invalidArgument, "a document shows every line; max_lines is not supported in documents", field: "max_lines")
        }
        if request.height != nil {
            throw LayoutError(.invalidArgument, "a document grows with its text; height is not supported in documents", field: "height")
        }
    }
}

/// One paragraph of a document (a bidi paragraph, ending after its separator): its text, the
/// client's spans and attachments over it, and its layout, all in the paragraph's own offsets;
/// in a plain box with its top at 0, in text that flows where it stands in the document less
/// the displacement the document gives it (`TextDocument.top(of:)`). A class, so an edit moves
/// pointers when it inserts or removes paragraphs in a long document.
public final class DocumentParagraph {
    public let units: ContiguousArray<UInt16>
    /// The client's spans (not the rules'), cut to the paragraph.
    public let spans: [AttributedText.Span]
    /// One per U+FFFC of the paragraph, in order.
    public let attachments: [InlineAttachment]
    public let layout: ParagraphLayout
    /// Its layout's glyph count, read in place: asked of `layout` from another module, the
    /// layout was copied to be asked (every array of it counted and let go).
    public var glyphCount: Int { layout.glyphCount }
    /// In a Type Mode document: each line's fitted size and whether it was clamped.
    public let fitted: FittedLines?
    /// What the rules matched in the paragraph.
    public let matches: [RuleMatch]
    /// In text that flows: where the paragraph started, and where the next one starts. Like the
    /// layout, these are less the displacement the document gives the paragraph (`top(of:)`).
    let flowStart: FlowStart?
    var flowEnd: FlowStart? { layout.flowEnd }
    /// In text that flows: the paragraph analyzed, itemized and shaped, and its request, so that
    /// a paragraph that must start elsewhere is broken and positioned again without the rest.
    private let kept: (shaped: ShapedText, request: ParagraphRequest)?
    /// Which shaping the kept shaped text is (tests: a paragraph that only moved keeps its own).
    var keptShaping: [ObjectIdentifier]? { kept?.shaped.paragraphs.map(\.identity) }

    /// Lays the paragraph out (or, in a Type Mode document, fits it): rule spans first, then the
    /// client's, as a layout request does.
    /// `index` is its place in the document: in a list, its item's number. In text that flows it
    /// starts at `flowStart` (the first paragraph: the first container's top), in the document's
    /// coordinates, and is kept moved up by `displacement`: the document places it that far down.
    init(units: ContiguousArray<UInt16>, spans: [AttributedText.Span], attachments: [InlineAttachment], index: Int,
         flowStart: FlowStart?, displacement: Double = 0, settings: borrowing DocumentSettings, layouter: ParagraphLayouter,
         budget: WorkBudget) throws {
        self.units = units
        self.spans = spans
        self.attachments = attachments
        let formatted = try FormattingRules.apply(settings.rules, to: units, budget: budget)
        matches = formatted.matches
        if var typeMode = settings.typeModeBox?.request {
            // Type Mode's fit, on this paragraph alone: each line's size depends on its own text.
            typeMode.text = ""
            (typeMode.units, typeMode.spans, typeMode.attachments) = (units, formatted.spans + spans, attachments)
            let fit = try layouter.justify(typeMode, budget: budget)
            (layout, fitted, kept, self.flowStart) = (fit.paragraph, FittedLines(sizes: fit.lineSizes, clamped: fit.clamped), nil, nil)
            return
        }
        fitted = nil
        // Without rules' spans (nearly every document) the client's are the spans as they are.
        let allSpans = formatted.spans.isEmpty ? spans : formatted.spans + spans
        let text = allSpans.isEmpty ? AttributedText("", units: units, styles: settings.styles, paint: settings.paint)
            : AttributedText("", units: units, style: settings.style, paint: settings.paint, spans: allSpans)
        var request = ParagraphRequest(settings.request, text: text, attachments: attachments)
        if settings.flows {
            let start = flowStart ?? FlowStart(container: 0, top: nil)
            request.flowStart = start
            // One em of the document's style, not of the style the paragraph starts with.
            if var flow = request.flow, flow.minimumFragmentWidth == nil {
                flow.minimumFragmentWidth = settings.style.size
                request.flow = flow
            }
            self.flowStart = start.moved(down: -displacement)
        } else {
            self.flowStart = nil
        }
        request.numberItems(from: index)
        let laid: ParagraphLayout
        if settings.flows {
            let (layout, shaped) = try layouter.layoutKeepingShape(request, budget: budget)
            (laid, kept) = (layout, (shaped, request))
        } else {
            (laid, kept) = (try layouter.layout(request, budget: budget), nil)
        }
        // A plain box's paragraphs are laid out at 0 anyway: only text that flows is moved up.
        layout = displacement == 0 || !settings.flows ? laid : laid.moved(top: -displacement)
    }

    /// `paragraph` of text that flows, broken and positioned again from `flowStart` (document
    /// coordinates) as item `index`, kept moved up by `displacement`; nil when its shaped text
    /// was not kept. Its analysis, items, glyphs and rule matches are the old ones.
    init?(moving paragraph: DocumentParagraph, to flowStart: FlowStart?, index: Int, displacement: Double,
          layouter: ParagraphLayouter, budget: WorkBudget) throws {
        guard let (shaped, old) = paragraph.kept, let flowStart else { return nil }
        var request = old
        request.flowStart = flowStart
        request.numberItems(from: index)
        (units, spans, attachments, matches, fitted) = (paragraph.units, paragraph.spans, paragraph.attachments, paragraph.matches, paragraph.fitted)
        let laid = try layouter.withContext(budget: budget) { try layouter.position(shaped, request: request, context: $0) }
        layout = displacement == 0 ? laid : laid.moved(top: -displacement)
        self.flowStart = flowStart.moved(down: -displacement)
        kept = (shaped, request)
    }

    /// What the paragraph adds to the document's sums, with the gap below it: every paragraph
    /// with lines has one, and the document's height leaves out the last one's. A paragraph
    /// without lines (the empty one an edit leaves at the text's end, which a layout of the
    /// whole text does not have) takes no room.
    /// In text that flows a paragraph is laid out in place: it adds nothing to the tops.
    func size(gap: Double) -> ParagraphOffsets.Entry {
        let height = flowStart != nil ? 0 : layout.size.height + (layout.lines.isEmpty ? 0 : gap)
        return ParagraphOffsets.Entry(offset: units.count, top: height, line: layout.lines.count, attachment: attachments.count)
    }

    /// Where each paragraph of `units` ends: after each separator (UAX #9 P1, CR LF as one), and
    /// at the end. A text that ends with a separator has no empty paragraph after it; an empty
    /// text is one empty paragraph. The same cut as `TextAnalysis` makes.
    static func paragraphEnds(of units: ContiguousArray<UInt16>) -> [Int] {
        var ends: [Int] = []
        let span = units.span
        for i in span.indices {
            // Every separator is below U+001F, or U+0085 or U+2029: most units fail this first.
            let u = span[i]
            guard u <= 0x1E || u == 0x85 || u == 0x2029, BidiResolver.isParagraphSeparator(u) else { continue }
            if u == 0x0D && i + 1 < span.count && span[i + 1] == 0x0A { continue }
            ends.append(i + 1)
        }
        if ends.last != units.count || ends.isEmpty { ends.append(units.count) }
        return ends
    }
}

/// A Type Mode document's fit settings, shared by the copies of its `DocumentSettings`.
final class TypeModeBox: Sendable {
    let request: TypeModeRequest
    init(_ request: TypeModeRequest) { self.request = request }
}

/// A Type Mode paragraph's lines: the size each was fitted at, and whether it was held at the
/// minimum or maximum size instead of filling the width (`TypeModeLayout`'s).
public struct FittedLines: Sendable, Equatable {
    public var sizes: [Double]
    public var clamped: [Bool]
}

extension ParagraphRequest {
    /// In a numbered list, the text's first paragraph becomes item `index` (0 for the first):
    /// a document lays each paragraph out alone, and its item keeps its number in the list.
    mutating func numberItems(from index: Int) {
        guard isNumberedList, var list = paragraphStyle.list else { return }
        list.itemsBefore = index
        paragraphStyle.list = list
    }

    /// Whether the request's paragraphs are items of a numbered list, read in place: the
    /// paragraph style's getter copies the whole style (its tab stops and list retained), and a
    /// document asks this with every keystroke.
    var isNumberedList: Bool { typography?.values.paragraphStyle.list?.isNumbered ?? false }

    /// The space between two of the request's paragraphs (`spacing_after` and `spacing_before`),
    /// read in place as `isNumberedList` is.
    var paragraphSpacing: Double {
        guard let values = typography?.values else { return 0 }
        return values.paragraphStyle.spacingBefore + values.paragraphStyle.spacingAfter
    }
}
