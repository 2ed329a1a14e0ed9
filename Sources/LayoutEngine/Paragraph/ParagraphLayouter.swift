/// Lays paragraphs out with a set of loaded fonts. Thread-safe: one instance serves a daemon.
public final class ParagraphLayouter: Sendable {
    public let fonts: FontRegistry
    /// nil disables caching (the benchmark's cold pass).
    public let cache: ShapingCache?
    /// The longest text accepted, in UTF-16 units.
    public let maxTextLength: Int

    public init(fonts: FontRegistry, cache: ShapingCache? = ShapingCache(), maxTextLength: Int = 1 << 20) {
        self.fonts = fonts
        self.cache = cache
        self.maxTextLength = maxTextLength
        _ = BreakOpportunities.shared  // its tables are built at start-up, not in the first request
    }

    /// HarfBuzz shaping calls made so far by every layouter in this process.
    public static var harfBuzzCalls: UInt64 { Shaper.harfBuzzCalls.load(ordering: .relaxed) }

    /// Runs the pipeline: analyze, itemize, shape (the width-independent stage), then break
    /// and position.
    public func layout(_ request: ParagraphRequest, budget: WorkBudget = .unlimited) throws -> ParagraphLayout {
        try request.validate(fonts: fonts, maxTextLength: maxTextLength)
        let shaped = try shape(request.text, direction: request.direction, attachments: request.attachments, budget: budget)
        return try ParagraphPositioner(shaped: shaped, request: request).run()
    }

    /// The width-independent stage for `text`, from which layouts at any width start.
    func shape(_ text: AttributedText, direction: BaseDirection, attachments: [InlineAttachment] = [],
               budget: WorkBudget) throws -> ShapedParagraph {
        try ShapedParagraph(text: text, direction: direction, attachments: attachments, fonts: fonts, shaper: Shaper(cache: cache),
                            budget: budget)
    }
}
