/// The stages after shaping, for one request: break each bidi paragraph of the shaped text
/// into lines, then position them — metrics, line limits, truncation, bidi reordering,
/// alignment — and stack them top to bottom. Lines never cross paragraphs; each is planned
/// and placed by its paragraph's `ParagraphPositioner`.
///
/// A class, so the paragraph positioners it makes reach the request and the context through
/// one unowned reference instead of copying them.
final class TextPositioner {
    /// Given back to the context's scratch by `recycle()`, when the request is done with it.
    private(set) var shaped: ShapedText
    let settings: LineSettings
    let context: LayoutContext
    /// Vertical text whose glyphs nothing reads in the lines' frame (no decorations, no flow):
    /// `stack` writes them onto the page in this mode, and `VerticalFrame.turned` leaves them.
    /// (Turned afterwards, they were copied into an array of their own.)
    var placesGlyphsOnPage: WritingMode?
    /// Vertical text's setting, for what positioning shapes (truncation tokens, hyphens).
    var vertical: VerticalSetting?
    /// Text that flows, broken balanced or by total fit: each paragraph's lines chosen over the
    /// slots a greedy pass met, nil for a paragraph that breaks greedily (`chooseLines`).
    var flowChoices: [[BrokenLine]?]?
    /// Text that flows: each paragraph's breaker, made once however often a band, a container
    /// or a vertical alignment asks for its lines again (balanced and total fit find hyphen
    /// points over a paragraph's whole text). Empty until text flows.
    var flowBreakers: [LineBreaker?] = []

    convenience init(shaped: consuming ShapedText, request: borrowing ParagraphRequest, context: LayoutContext) {
        self.init(shaped: shaped, settings: LineSettings(request), context: context)
    }

    init(shaped: consuming ShapedText, settings: LineSettings, context: LayoutContext) {
        self.shaped = shaped
        self.settings = settings
        self.context = context
    }

    /// Gives the shaped text's arrays back to the context (see `LayoutContext.recycle`).
    func recycle() { shaped.recycle(into: context) }

    /// The positioner of paragraph `index`.
    @inline(__always)
    func paragraph(_ index: Int) -> ParagraphPositioner {
        ParagraphPositioner(shaped: shaped.paragraph(index), owner: self, context: context, index: index,
                            start: shaped.start(of: index))
    }

    /// The line stream of paragraph `index`. (The settings read here, where the positioner
    /// holds them: read through the paragraph positioner's reference they were copied whole.)
    @inline(__always)
    func lines(of index: Int) -> ParagraphLines {
        ParagraphLines(paragraph(index), strategy: settings.breakStrategy, indents: settings.hasIndents)
    }

    var paragraphCount: Int { shaped.paragraphCount }

    typealias PlannedLine = ParagraphPositioner.PlannedLine
    var scratch: LayoutScratch { context.scratch }
    var budget: WorkBudget { context.budget }

    /// Breaks and positions the whole text, every line the request's width.
    func run() throws -> ParagraphLayout {
        if let flow = settings.flow { return try run(flow: flow, from: settings.flowStart) }
        return try run(widths: FixedWidth(width: settings.width))
    }

    /// Breaks, plans and places the text line by line: each paragraph's lines come from its
    /// `ParagraphLines`, each in the slot `widths` gives at the line's real top, known once the
    /// lines above it are planned. Lines are planned until the text ends or one line past what
    /// `max_lines` and `height` show: that line says the last one shown is truncated, and
    /// nothing after it is broken.
    func run(widths: some LineWidths) throws -> ParagraphLayout {
        guard shaped.text.units.count > 0 else {
            return ParagraphLayout(lines: [], runs: [], attachments: [], visibleRange: 0..<0, size: Size(width: 0, height: 0),
                                   direction: shaped.firstDirection, paints: shaped.text.paints)
        }
        var planned = scratch.planned.movedOut().emptied()
        var boxes = scratch.boxes.movedOut().emptied()
        defer {
            recycle(&planned)
            scratch.boxes = boxes
        }
        let maxLines = settings.maxLines ?? Int.max
        let maxBottom = settings.height.map { $0 + LineBreaker.tolerance } ?? .infinity
        var top = 0.0
        // Spacing between paragraphs moves lines down past their boxes: their tops are kept.
        let gap = settings.paragraphGap
        var tops: [Double]? = gap > 0 ? [] : nil
        let budget = self.budget  // read once: each read of the context's is a retain
        paragraphs: for index in 0..<paragraphCount {
            var lines = self.lines(of: index)
            if index > 0 { top += gap }
            while !lines.isAtEnd {
                if planned.count % 256 == 255 { try budget.check() }
                let line = lines.take(try lines.line(in: widths.slot(line: planned.count, top: top), budget: budget))
                let box = settings.box(line.metrics)
                planned.append(line)  // its last use: moved in, not copied
                boxes.append(box)
                tops?.append(top)
                top += box.height
                if planned.count > maxLines || top > maxBottom { break paragraphs }
            }
        }
        try budget.check()
        return position(&planned, boxes: &boxes, tops: tops, maxLines: maxLines, maxBottom: maxBottom)
    }

    /// The planned lines that fit, the last one truncated when lines were left out, stacked.
    /// `tops` gives each line's top where paragraph spacing parts them.
    private func position(_ planned: inout [PlannedLine], boxes: inout [(height: Double, baseline: Double)], tops: [Double]?,
                          maxLines: Int, maxBottom: Double) -> ParagraphLayout {
        let lineCount = planned.count
        var visible = 0
        var bottom = 0.0
        while visible < min(lineCount, maxLines) {
            let lineTop = tops?[visible] ?? bottom
            guard lineTop + boxes[visible].height <= maxBottom else { break }
            bottom = lineTop + boxes[visible].height
            visible += 1
        }
        if visible > 0 && visible < lineCount {
            truncate(&planned, boxes: &boxes, at: visible - 1)
            if let tops { bottom = tops[visible - 1] + boxes[visible - 1].height }
        }
        // The hidden lines go; the lines that stay are not copied. (Nearly every layout shows
        // all its lines: an empty removal still costs two calls.)
        if visible < lineCount {
            planned.removeSubrange(visible...)
            boxes.removeSubrange(visible...)
        }
        return stack(planned, boxes: boxes, lineCount: lineCount, visibleRange: 0..<visibleEnd(planned), tops: tops.map { Array($0.prefix(visible)) },
                     bottom: tops == nil ? nil : bottom)
    }

    /// The last line shown stands for the text left out: truncated (with the token, if any),
    /// and its box measured again. Plain text and text that flows truncate here alike.
    func truncate(_ planned: inout [PlannedLine], boxes: inout [(height: Double, baseline: Double)], at index: Int) {
        let last = planned[index]
        planned[index] = paragraph(last.paragraph).truncate(last)
        boxes[index] = settings.box(planned[index].metrics)
    }

    /// Where the text shown by `planned` ends: after the last line, or at its cut if truncated.
    func visibleEnd(_ planned: [PlannedLine]) -> Int {
        guard let last = planned.last else { return 0 }
        return shaped.start(of: last.paragraph) + (last.truncated ? last.broken.contentEnd : last.broken.range.upperBound)
    }

    /// Places lines top to bottom, each in its box: the last step of every layout.
    /// `lineCount` counts the lines broken, visible or not, so the last one is known.
    ///
    /// Every run's glyphs are slices of one array: a layout makes several runs, and an array
    /// apiece was the largest share of its allocations.
    /// `tops` gives each line's top when lines do not simply stack (text that flows).
    func stack(_ planned: [PlannedLine], boxes: [(height: Double, baseline: Double)], lineCount: Int,
               visibleRange: Range<Int>, tops: [Double]? = nil, bottom: Double? = nil) -> ParagraphLayout {
        var lines: [LineLayout] = []
        lines.reserveCapacity(planned.count)
        var glyphCount = 0
        var pieceCount = 0
        for line in planned {
            pieceCount += line.pieces.count
            for case .glyphs(let piece) in line.pieces { glyphCount += piece.glyphs.count }
        }
        var top = 0.0
        var widest = 0.0
        // Room for one at least, so the storage has an address even for lines without glyphs.
        let stacked = RunOutput.write(capacity: max(glyphCount, 1), pieces: pieceCount, spans: scratch.spans.movedOut().emptied()) { output in
            if shaped.hasBoxes { output.attachments.reserveCapacity(shaped.boxCount) }
            var current = paragraph(0)  // made again only where the paragraph changes
            for index in planned.indices {
                let paragraphIndex = ParagraphPositioner.paragraph(of: planned, at: index)
                if paragraphIndex != current.index { current = paragraph(paragraphIndex) }
                let placed = current.place(planned, at: index, top: tops?[index] ?? top, box: boxes[index],
                                           last: index == lineCount - 1, into: &output)
                lines.append(placed)
                widest = max(widest, placed.width)
                top += boxes[index].height
            }
            if settings.writingMode == .verticalLeftToRight { output.mirrorAcross(lines) }
            if let mode = placesGlyphsOnPage {
                // The columns' extent is the lines' frame's height, known once every line is placed.
                let frame = VerticalFrame(mode: mode, extent: bottom ?? top)
                output.turnToPage(frame)
            }
        }
        let glyphs = stacked.glyphs, spans = stacked.spans, attachments = stacked.attachments
        var runs = stacked.runs
        // Each run takes its slice of the one glyph array.
        for index in runs.indices { runs[index].glyphs = glyphs[spans[index]] }
        scratch.spans = spans
        var layout = ParagraphLayout(lines: lines, runs: runs, attachments: attachments, visibleRange: visibleRange,
                                     size: Size(width: widest, height: bottom ?? top), direction: shaped.firstDirection,
                                     paints: shaped.text.paints)
        let count = shaped.text.units.count
        if visibleRange.upperBound < count { layout.overflowRange = visibleRange.upperBound..<count }
        return layout
    }

    /// Gives the lines' item lists, and the list of lines, back to the scratch.
    func recycle(_ planned: inout [PlannedLine]) {
        // Enough lists for a long caption; a text of thousands of lines does not leave thousands.
        let scratch = self.scratch
        let keep = max(0, min(planned.count, LayoutScratch.maxPieceLists - scratch.pieceLists.count))
        for index in 0..<keep { scratch.pieceLists.append(planned[index].pieces.takeEmptied()) }
        planned.removeAll(keepingCapacity: true)
        scratch.planned = planned
    }
}
