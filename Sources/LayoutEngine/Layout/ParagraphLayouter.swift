/// Lays paragraphs out with a set of loaded fonts. Thread-safe: one instance serves a daemon.
public final class ParagraphLayouter: Sendable {
    public let fonts: FontRegistry
    /// Bidi levels, dictionary words and hyphenation patterns: the Unicode adapter's
    /// (`SystemUnicode`), for a program that lays text out.
    public let unicode: any UnicodeServices
    /// nil disables caching (the benchmark's cold pass).
    public let cache: ShapingCache?
    /// The longest text accepted, in UTF-16 units.
    public let maxTextLength: Int
    /// Contexts of this layouter's requests, each with the arrays its layouts fill and drop,
    /// kept for the next (see `LayoutScratch`).
    let contexts = ContextPool()

    /// Items that shape alike go to HarfBuzz together (see `Shaper.shapeJoined`); off only in
    /// the tests that hold the joined shaping to the item-by-item one.
    let joinsRuns: Bool

    public convenience init(fonts: FontRegistry, unicode: any UnicodeServices, cache: ShapingCache? = ShapingCache(),
                            maxTextLength: Int = 1 << 20) {
        self.init(fonts: fonts, unicode: unicode, cache: cache, maxTextLength: maxTextLength, joinsRuns: true)
    }

    package init(fonts: FontRegistry, unicode: any UnicodeServices, cache: ShapingCache?, maxTextLength: Int, joinsRuns: Bool) {
        self.fonts = fonts
        self.unicode = unicode
        self.cache = cache
        self.maxTextLength = maxTextLength
        self.joinsRuns = joinsRuns
        // Their tables are built at start-up, not in the first request.
        LineBreakClass.prepare()
        _ = Itemizer.ScriptTable.shared
        _ = FirstPassUnitKind.table
    }

    /// Runs the pipeline: analyze, itemize, shape (the width-independent stage), then break,
    /// position and decorate.
    public func layout(_ request: ParagraphRequest, budget: WorkBudget = .unlimited) throws -> ParagraphLayout {
        try withContext(budget: budget) { try layout(request, context: $0) }
    }

    /// `body` with a context from this layouter's pool, given back when it returns.
    func withContext<T>(budget: WorkBudget, _ body: (LayoutContext) throws -> T) rethrows -> T {
        let context = contexts.take(layouter: self, budget: budget)
        defer { contexts.give(context) }
        return try body(context)
    }

    /// The same, with the caller's context: a caller laying out several paragraphs for one
    /// request (a tag's labels) shares one.
    public func layout(_ request: ParagraphRequest, context: LayoutContext) throws -> ParagraphLayout {
        try request.validate(fonts: fonts, maxTextLength: maxTextLength, scratch: context.scratch)
        if request.typography?.reportsGlyphFlags == true { return try layoutWithGlyphFlags(request, context: context) }
        if request.text.hasRuby { return try layoutWithRuby(request, context: context) }
        return try layoutValidated(request, context: context)
    }

    /// A request with ruby: its readings laid out first (`measuredRuby`), then the pipeline.
    private func layoutWithRuby(_ request: ParagraphRequest, context: LayoutContext) throws -> ParagraphLayout {
        var measured = request
        measured.text = try measuredRuby(request.text, writingMode: request.writingMode, budget: context.budget)
        return try layoutValidated(measured, context: context)
    }

    /// A request that asks for glyph flags: shaped with HarfBuzz marking the glyphs unsafe to
    /// concatenate too, past the shaping cache (`ShapingScratch.producesConcatFlags`).
    private func layoutWithGlyphFlags(_ request: ParagraphRequest, context: LayoutContext) throws -> ParagraphLayout {
        let buffer = context.scratch.shapingBuffer
        buffer.producesConcatFlags = true
        defer { buffer.producesConcatFlags = false }
        var layout = request.text.hasRuby ? try layoutWithRuby(request, context: context) : try layoutValidated(request, context: context)
        layout.reportsGlyphFlags = true
        return layout
    }

    /// The pipeline for a request found valid.
    @inline(__always)
    private func layoutValidated(_ request: ParagraphRequest, context: LayoutContext) throws -> ParagraphLayout {
        if let fit = request.autoSize { return try autoSized(request, fit, context: context) }
        if let textPath = request.textPath { return try layoutOnPath(request, textPath, context: context) }
        // Ink, when asked for: the glyphs' outline bounds where the renderer draws them.
        guard !request.measuresInk else {
            var layout = request.writingMode.isVertical ? try layoutVertically(request, context: context)
                : try layoutHorizontally(request, context: context)
            layout.ink = InkBounds.measure(layout, fonts: fonts)
            return layout
        }
        return request.writingMode.isVertical ? try layoutVertically(request, context: context)
            : try layoutHorizontally(request, context: context)
    }

    @inline(__always)
    private func layoutHorizontally(_ request: ParagraphRequest, context: LayoutContext) throws -> ParagraphLayout {
        let positioner = TextPositioner(
            shaped: try shape(request.text, direction: request.direction, attachments: request.attachments, context: context),
            request: request, context: context)
        var layout = try positioner.run()
        if request.measuresIntrinsics { try measureIntrinsics(&layout, positioner) }
        positioner.recycle()
        try decorate(&layout, text: request.text, budget: context.budget)
        return layout
    }

    /// A request laid out in its lines' frame: as it is for horizontal text, not turned onto the
    /// page for vertical text (ruby's readings, set in their base's line frame).
    func layoutInLineFrame(_ request: ParagraphRequest, context: LayoutContext) throws -> ParagraphLayout {
        try request.validate(fonts: fonts, maxTextLength: maxTextLength, scratch: context.scratch)
        return request.writingMode.isVertical ? try layoutVertically(request, context: context, turnsOntoPage: false)
            : try layoutHorizontally(request, context: context)
    }

    /// Text on a path: laid out as one line (a box as wide as any line may be), then bent
    /// onto the path glyph by glyph (`TextPathPlacer`).
    private func layoutOnPath(_ request: ParagraphRequest, _ textPath: TextPath, context: LayoutContext) throws -> ParagraphLayout {
        var line = request
        (line.width, line.alignment) = (Bounds.maxLength, .left)
        return try TextPathPlacer.place(try layoutHorizontally(line, context: context), along: textPath, budget: context.budget)
    }

    /// Vertical text: laid out as horizontal text in the line's own frame (the line's axis as
    /// x, the columns' as y) with upright glyphs shaped top to bottom, then turned onto the page.
    private func layoutVertically(_ request: ParagraphRequest, context: LayoutContext, turnsOntoPage: Bool = true) throws -> ParagraphLayout {
        // The lines' frame: lines run down the columns (their width is the columns' length).
        let inLine: LineSettings
        if let flow = request.flow {
            // Containers carry their own heights (checked by validation): each is its columns' length.
            let flow = flow.inLineFrame(request.writingMode, extent: flow.pageExtent)
            inLine = LineSettings(request, width: flow.containers[0].width, height: request.height, flow: flow)
        } else {
            guard let columnLength = request.height else {
                throw LayoutError(.invalidArgument, "vertical text needs a height: the length of its columns", field: "height")
            }
            inLine = LineSettings(request, width: columnLength, height: request.width, flow: nil)
        }
        let setting = VerticalSetting(combineUpTo: request.combineUpright, combinesLetters: request.combinesLetters,
                                      orientation: request.textOrientation)
        let positioner = TextPositioner(
            shaped: try ShapedText(text: request.text, direction: request.direction, attachments: request.attachments,
                                   vertical: setting, fonts: fonts, context: context),
            settings: inLine, context: context)
        // Decorations read the glyphs in the lines' frame; without them (and without flow, whose
        // page is the containers') the glyphs are written onto the page as they are placed.
        let placesGlyphsOnPage = turnsOntoPage && request.flow == nil && request.text.isPlain && !request.text.hasRuby
        if placesGlyphsOnPage { positioner.placesGlyphsOnPage = request.writingMode }
        positioner.vertical = setting
        var layout = try positioner.run()
        if request.measuresIntrinsics { try measureIntrinsics(&layout, positioner) }
        positioner.recycle()
        try decorate(&layout, text: request.text, writingMode: request.writingMode, budget: context.budget)
        if !turnsOntoPage { return layout }
        // Consumed: a copy left here made turning copy the lines and runs it changes.
        guard let flow = request.flow else {
            // The columns' extent read here: passed whole, the layout was copied (its arrays counted).
            let frame = VerticalFrame(mode: request.writingMode, extent: layout.size.height)
            return frame.turned(consume layout, glyphsOnPage: placesGlyphsOnPage)
        }
        var turned = VerticalFrame(mode: request.writingMode, extent: flow.pageExtent).turned(consume layout)
        // The frame of the containers on the page, as horizontal text that flows reports it.
        let frame = turned.containers.reduce(Rect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1.rect) }
        turned.size = Size(width: frame.maxX, height: frame.maxY)
        return turned
    }

    /// Lays horizontal `request` out and keeps what shaping made: a document's paragraph of text
    /// that flows, laid out again from another start by `position` without shaping again.
    func layoutKeepingShape(_ request: ParagraphRequest, budget: WorkBudget) throws -> (ParagraphLayout, ShapedText) {
        try request.validate(fonts: fonts, maxTextLength: maxTextLength)
        return try withContext(budget: budget) { context in
            let shaped = try shape(request.text, direction: request.direction, attachments: request.attachments, context: context)
            return (try position(shaped, request: request, context: context), shaped)
        }
    }

    /// The stages after shaping for text shaped before (and kept: its arrays are not given back
    /// to the scratch): break, position, decorate, and ink when asked.
    func position(_ shaped: ShapedText, request: ParagraphRequest, context: LayoutContext) throws -> ParagraphLayout {
        let positioner = TextPositioner(shaped: shaped, request: request, context: context)
        var layout = try positioner.run()
        if request.measuresIntrinsics { try measureIntrinsics(&layout, positioner) }
        try decorate(&layout, text: request.text, budget: context.budget)
        if request.measuresInk { layout.ink = InkBounds.measure(layout, fonts: fonts) }
        return layout
    }

    /// Decorate: ruby, span fills and lines, emphasis marks, and the boxes of gradient and picture
    /// fills become geometry once the glyphs have their places (plain text has none).
    @inline(__always)
    func decorate(_ layout: inout ParagraphLayout, text: AttributedText, writingMode: WritingMode = .horizontal, budget: WorkBudget) throws {
        if text.hasRuby {
            layout.rubyRuns = try RubyPlacer.place(layout, text: text, fonts: fonts, writingMode: writingMode, budget: budget)
        }
        guard !text.isPlain else { return }
        layout.decorations = try TextDecorator.decorate(layout, text: text, fonts: fonts, writingMode: writingMode, budget: budget)
        if text.hasEmphasis {
            layout.emphasisMarks = try EmphasisMarker.marks(layout, units: text.units, fonts: fonts, writingMode: writingMode, budget: budget)
        }
        let regions = try FillRegions.find(layout, budget: budget)
        if !regions.isEmpty { layout.fillRegions = regions }
    }

    /// The width-independent stage for `text`, from which layouts at any width start.
    func shape(_ text: AttributedText, direction: BaseDirection, attachments: [InlineAttachment] = [],
               context: LayoutContext) throws -> ShapedText {
        try ShapedText(text: text, direction: direction, attachments: attachments, fonts: fonts, context: context)
    }
}
