/// Lays paragraphs out with a set of loaded fonts. Thread-safe: one instance serves a daemon.
public final class ParagraphLayouter: Sendable {
    public let fonts: FontRegistry
    /// nil disables caching (the benchmark's cold pass).
    public let cache: ShapingCache?
    /// The longest text accepted, in UTF-16 units.
    public let maxTextLength: Int
    /// Arrays the layouts of this layouter fill and drop, kept for the next (see `LayoutScratch`).
    let scratches = ScratchPool()

    public init(fonts: FontRegistry, cache: ShapingCache? = ShapingCache(), maxTextLength: Int = 1 << 20) {
        self.fonts = fonts
        self.cache = cache
        self.maxTextLength = maxTextLength
        _ = BreakOpportunities.shared  // its tables are built at start-up, not in the first request
    }

    /// HarfBuzz shaping calls made so far by every layouter in this process.
    public static var harfBuzzCalls: UInt64 { Shaper.harfBuzzCalls.load(ordering: .relaxed) }

    /// Runs the pipeline: analyze, itemize, shape (the width-independent stage), then break,
    /// position and decorate.
    public func layout(_ request: ParagraphRequest, budget: WorkBudget = .unlimited) throws -> ParagraphLayout {
        try layout(request, context: LayoutContext(layouter: self, budget: budget))
    }

    /// The same, with the caller's context: a caller laying out several paragraphs for one
    /// request (a tag's labels) shares one.
    public func layout(_ request: ParagraphRequest, context: LayoutContext) throws -> ParagraphLayout {
        try request.validate(fonts: fonts, maxTextLength: maxTextLength)
        let positioner = TextPositioner(
            shaped: try shape(request.text, direction: request.direction, attachments: request.attachments, context: context),
            request: request, context: context)
        var layout = try positioner.run()
        positioner.recycle()
        // Decorate: span fills and lines become geometry once the glyphs have their places.
        if !request.text.isPlain {
            layout.decorations = try TextDecorator.decorate(layout, units: request.text.units, fonts: fonts, budget: context.budget)
        }
        return layout
    }

    /// The width-independent stage for `text`, from which layouts at any width start.
    func shape(_ text: AttributedText, direction: BaseDirection, attachments: [InlineAttachment] = [],
               context: LayoutContext) throws -> ShapedText {
        try ShapedText(text: text, direction: direction, attachments: attachments, fonts: fonts, context: context)
    }
}
