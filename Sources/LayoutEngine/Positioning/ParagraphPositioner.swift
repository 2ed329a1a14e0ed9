/// The stages after shaping, for one request: break the shaped paragraph into lines, then
/// position them — metrics, line limits, truncation, bidi reordering, alignment.
///
/// Holds a copy of its `ShapedParagraph`: every line item points into the paragraph's storage
/// (see its lifetime rule). The arrays positioning fills are borrowed from the request's
/// context, whose budget it checks.
struct ParagraphPositioner {
    let shaped: ShapedParagraph
    let request: ParagraphRequest
    let context: LayoutContext

    var text: AttributedText { _read { yield shaped.text } }
    var analysis: TextAnalysis { _read { yield shaped.analysis } }
    var scratch: LayoutScratch { context.scratch }
    var budget: WorkBudget { context.budget }

    /// A line decided by breaking, with its items and metrics, waiting for its place.
    struct PlannedLine {
        var broken: BrokenLine
        var baseLevel: UInt8
        var pieces: [LineItem]
        var metrics: LineMetrics
        var truncated = false
        /// Overrides the request's alignment (Type Mode aligns the lines it could not fill).
        var alignment: TextAlignment?
    }

    /// Breaks and positions the whole text, every line the request's width.
    func run() throws -> ParagraphLayout {
        try run(widths: FixedWidth(width: request.width))
    }

    /// Breaks, plans and places the text line by line: each line's slot comes from `widths` at
    /// the line's real top, known once the lines above it are planned (an exclusion or a shaped
    /// container narrows the lines its band crosses). Lines are planned until the text ends or
    /// one line past what `max_lines` and `height` show: that line says the last one shown is
    /// truncated, and nothing after it is broken.
    func run(widths: some LineWidths) throws -> ParagraphLayout {
        let count = text.units.count
        guard count > 0 else {
            return ParagraphLayout(lines: [], runs: [], attachments: [], visibleRange: 0..<0, size: Size(width: 0, height: 0),
                                   direction: shaped.firstDirection)
        }
        let breaker = LineBreaker(flags: analysis.flags, prefix: shaped.prefix)
        var planned = scratch.planned.takeEmptied()
        var boxes = scratch.boxes.takeEmptied()
        defer {
            recycle(&planned)
            scratch.boxes = boxes
        }
        let maxLines = request.maxLines ?? Int.max
        let maxBottom = request.height.map { $0 + LineBreaker.tolerance } ?? .infinity
        var top = 0.0
        var start = 0
        while start < count {
            if planned.count % 256 == 255 { try budget.check() }
            let line = plan(breaker.line(from: start, limit: count, slot: widths.slot(line: planned.count, top: top)))
            let box = line.metrics.box(multiple: request.lineHeightMultiple, fixed: request.lineHeight)
            planned.append(line)
            boxes.append(box)
            top += box.height
            start = line.broken.range.upperBound
            if planned.count > maxLines || top > maxBottom { break }
        }
        try budget.check()
        return position(&planned, boxes: &boxes, maxLines: maxLines, maxBottom: maxBottom)
    }

    /// The planned lines that fit, the last one truncated when lines were left out, stacked.
    private func position(_ planned: inout [PlannedLine], boxes: inout [(height: Double, baseline: Double)], maxLines: Int,
                          maxBottom: Double) -> ParagraphLayout {
        let lineCount = planned.count
        var visible = 0
        var bottom = 0.0
        while visible < min(lineCount, maxLines) && bottom + boxes[visible].height <= maxBottom {
            bottom += boxes[visible].height
            visible += 1
        }
        if visible > 0 && visible < lineCount {
            planned[visible - 1] = truncate(planned[visible - 1])
            boxes[visible - 1] = planned[visible - 1].metrics.box(multiple: request.lineHeightMultiple, fixed: request.lineHeight)
        }
        // The hidden lines go; the lines that stay are not copied.
        planned.removeSubrange(visible...)
        boxes.removeSubrange(visible...)
        let visibleEnd = visible == 0 ? 0 : (planned[visible - 1].truncated
            ? planned[visible - 1].broken.contentEnd : planned[visible - 1].broken.range.upperBound)
        return stack(planned, boxes: boxes, lineCount: lineCount, visibleRange: 0..<visibleEnd)
    }

    /// Places lines top to bottom, each in its box: the last step of every layout.
    /// `lineCount` counts the lines broken, visible or not, so the last one is known.
    ///
    /// Every run's glyphs are slices of one array: a layout makes several runs, and an array
    /// apiece was the largest share of its allocations.
    func stack(_ planned: [PlannedLine], boxes: [(height: Double, baseline: Double)], lineCount: Int,
               visibleRange: Range<Int>) -> ParagraphLayout {
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
        var runs: [GlyphRunLayout] = []
        var spans: [Range<Int>] = []
        var attachments: [AttachmentLayout] = []
        // Room for one at least, so the storage has an address even for lines without glyphs.
        let glyphs = [PositionedGlyph](unsafeUninitializedCapacity: max(glyphCount, 1)) { buffer, initialized in
            var output = RunOutput(glyphs: buffer.baseAddress!, pieces: pieceCount)
            if !shaped.boxes.isEmpty { output.attachments.reserveCapacity(shaped.boxes.count) }
            for (index, line) in planned.enumerated() {
                let placed = place(line, index: index, top: top, box: boxes[index], last: index == lineCount - 1, into: &output)
                lines.append(placed)
                widest = max(widest, placed.width)
                top += boxes[index].height
            }
            initialized = output.count
            runs = output.runs
            spans = output.spans
            attachments = output.attachments
        }
        // Each run takes its slice of the one glyph array.
        for index in runs.indices { runs[index].glyphs = glyphs[spans[index]] }
        return ParagraphLayout(lines: lines, runs: runs, attachments: attachments, visibleRange: visibleRange,
                               size: Size(width: widest, height: top), direction: shaped.firstDirection, paints: text.paints)
    }

    /// Gives the lines' item lists, and the list of lines, back to the scratch.
    func recycle(_ planned: inout [PlannedLine]) {
        // Enough lists for a long caption; a text of thousands of lines does not leave thousands.
        let keep = max(0, min(planned.count, LayoutScratch.maxPieceLists - scratch.pieceLists.count))
        for index in 0..<keep { scratch.pieceLists.append(planned[index].pieces.takeEmptied()) }
        planned.removeAll(keepingCapacity: true)
        scratch.planned = planned
    }

    func plan(_ line: BrokenLine) -> PlannedLine {
        let base = shaped.paragraph(at: line.range.lowerBound).baseLevel
        var pieces = shaped.pieces(in: line.range, contentEnd: line.contentEnd, baseLevel: base, context: context)
        let metrics = shaped.metrics(of: &pieces, at: line.range.lowerBound)
        return PlannedLine(broken: line, baseLevel: base, pieces: pieces, metrics: metrics)
    }

    /// Places one line: visual order, alignment, justification, glyph and box positions. Its
    /// glyph runs and boxes go to `output`.
    func place(_ line: PlannedLine, index: Int, top: Double, box: (height: Double, baseline: Double), last: Bool,
               into output: inout RunOutput) -> LineLayout {
        let rtlBase = line.baseLevel & 1 == 1
        let contentRange = line.broken.range.lowerBound..<line.broken.contentEnd
        var spacing = Spacing(shaped, content: contentRange, extraPerSlot: 0, perCharacter: false)
        let natural = spacing.contentWidth(line.pieces)
        var trailing = 0.0
        for piece in line.pieces where piece.isTrailing { trailing += spacing.width(of: piece) }
        let slot = line.broken.slot
        var alignment = line.alignment ?? request.alignment
        if alignment == .justified {
            if line.broken.hardBreak || last || line.truncated {
                alignment = .natural
            } else {
                spacing.stretch(to: slot.width, natural: natural)
            }
        }
        let used = alignment == .justified ? max(natural, spacing.contentWidth(line.pieces)) : natural
        let offset: Double
        switch alignment {
        case .left: offset = 0
        case .right: offset = slot.width - used
        case .center: offset = (slot.width - used) / 2
        case .natural: offset = rtlBase ? slot.width - used : 0
        case .justified: offset = 0
        }
        let x0 = slot.start + offset
        let baselineY = top + box.baseline
        var pen = x0 - (rtlBase ? trailing : 0)
        for item in Self.visualOrder(line.pieces) {
            switch item {
            case .glyphs(let piece):
                let pointSize = piece.size
                let scale = piece.font.scale(for: pointSize)
                let extras = spacing.extras(for: piece)
                let base = piece.clusterBase
                let first = output.count
                let shaped = piece.glyphs
                let y = baselineY - piece.shift
                for k in 0..<shaped.count {
                    let glyph = shaped[k]
                    let advance = Double(glyph.advance) * scale + (extras?[k] ?? 0)
                    output.glyphs.advanced(by: first + k).initialize(to: PositionedGlyph(
                        id: glyph.id,
                        position: Point(x: pen + Double(glyph.xOffset) * scale, y: y - Double(glyph.yOffset) * scale),
                        advance: advance, cluster: Int(glyph.cluster) + base))
                    pen += advance
                }
                output.count += shaped.count
                if text.paints.count == 1 {
                    output.add(fontID: piece.font.id, size: pointSize, level: piece.level, range: piece.range,
                               isToken: piece.isToken, line: index, glyphs: first..<output.count)
                } else {
                    addByPaint(piece, pointSize: pointSize, line: index, glyphs: first..<output.count, into: &output)
                }
            case .box(let inline):
                output.attachments.append(AttachmentLayout(
                    index: inline.attachment, range: inline.range, lineIndex: index,
                    rect: Rect(x: pen, y: baselineY - inline.ascent, width: inline.width, height: inline.ascent + inline.descent),
                    ascent: inline.ascent, descent: inline.descent, bidiLevel: inline.level))
                pen += inline.width + spacing.extra(after: inline)
            }
        }
        return LineLayout(range: line.broken.range, baselineOrigin: Point(x: x0, y: baselineY),
                          ascent: line.metrics.ascent, descent: line.metrics.descent, leading: line.metrics.leading,
                          width: used, trailingWhitespaceWidth: trailing,
                          usedRect: Rect(x: x0, y: top, width: used, height: box.height),
                          hardBreak: line.broken.hardBreak, truncated: line.truncated)
    }

    /// Adds a piece's glyphs as runs of one paint each: the glyphs are as shaped, each painted
    /// as the unit its cluster starts at (a ligature across a paint change takes its first
    /// letter's). A run's units reach to the next run's first cluster along the text.
    func addByPaint(_ piece: LinePiece, pointSize: Double, line: Int, glyphs span: Range<Int>, into output: inout RunOutput) {
        let rtl = piece.level & 1 == 1
        func paint(_ k: Int) -> Int {
            // The token stands for the text it replaces: it takes the paint of the unit before it.
            piece.isToken ? text.paintIndex(at: max(piece.range.lowerBound - 1, 0)) : text.paintIndex(at: output.glyphs[k].cluster)
        }
        var segmentStart = span.lowerBound
        while segmentStart < span.upperBound {
            let segmentPaint = paint(segmentStart)
            var segmentEnd = segmentStart + 1
            while segmentEnd < span.upperBound && paint(segmentEnd) == segmentPaint { segmentEnd += 1 }
            // Along the text a left-to-right segment starts at its first glyph's cluster and a
            // right-to-left one at its last glyph's; the piece's own ends bound the outer ones.
            let atTextStart = rtl ? segmentEnd == span.upperBound : segmentStart == span.lowerBound
            let atTextEnd = rtl ? segmentStart == span.lowerBound : segmentEnd == span.upperBound
            let lower = atTextStart || piece.isToken ? piece.range.lowerBound
                : output.glyphs[rtl ? segmentEnd - 1 : segmentStart].cluster
            let upper = atTextEnd || piece.isToken ? piece.range.upperBound
                : output.glyphs[rtl ? segmentStart - 1 : segmentEnd].cluster
            output.add(fontID: piece.font.id, size: pointSize, level: piece.level, range: lower..<upper, isToken: piece.isToken,
                       line: line, glyphs: segmentStart..<segmentEnd, paint: segmentPaint)
            segmentStart = segmentEnd
        }
    }

    /// UAX #9 L2: from the highest level down to the lowest odd one, reverse every maximal
    /// sequence of items at that level or higher. Glyphs inside a piece are already visual.
    static func visualOrder(_ pieces: [LineItem]) -> [LineItem] {
        var highest: UInt8 = 0
        var lowestOdd = UInt8.max
        for piece in pieces {
            highest = max(highest, piece.level)
            if piece.level & 1 == 1 { lowestOdd = min(lowestOdd, piece.level) }
        }
        guard highest > 0 else { return pieces }
        var order = pieces
        var level = highest
        while level >= lowestOdd && level > 0 {
            var i = 0
            while i < order.count {
                guard order[i].level >= level else { i += 1; continue }
                var j = i
                while j < order.count && order[j].level >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            level -= 1
        }
        return order
    }
}

/// The glyph runs and boxes of a layout as positioning emits them: glyphs written in place into
/// one array's storage, each run a span of it until `stack` hands out slices.
struct RunOutput {
    /// Storage with room for every glyph of the layout; `count` are written.
    let glyphs: UnsafeMutablePointer<PositionedGlyph>
    var count = 0
    var runs: [GlyphRunLayout] = []
    var spans: [Range<Int>] = []
    var attachments: [AttachmentLayout] = []

    init(glyphs: UnsafeMutablePointer<PositionedGlyph>, pieces: Int) {
        self.glyphs = glyphs
        runs.reserveCapacity(pieces)
        spans.reserveCapacity(pieces)
    }

    /// Adds a piece's glyphs as a run, or extends the previous run when the piece continues it
    /// on the same line: same font, size and level, next in the text along the run's
    /// direction (trailing spaces, and items split only by script, join their neighbours).
    mutating func add(fontID: UInt32, size: Double, level: UInt8, range: Range<Int>, isToken: Bool, line: Int,
                      glyphs span: Range<Int>, paint: Int = 0) {
        if let last = runs.indices.last, !isToken, !runs[last].isTruncationToken, runs[last].lineIndex == line,
           runs[last].paint == paint,
           runs[last].fontID == fontID, runs[last].size == size, runs[last].bidiLevel == level,
           level & 1 == 0 ? runs[last].range.upperBound == range.lowerBound : range.upperBound == runs[last].range.lowerBound {
            let previous = runs[last].range
            runs[last].range = min(previous.lowerBound, range.lowerBound)..<max(previous.upperBound, range.upperBound)
            spans[last] = spans[last].lowerBound..<span.upperBound
            return
        }
        runs.append(GlyphRunLayout(fontID: fontID, size: size, bidiLevel: level, glyphs: [], range: range,
                                   isTruncationToken: isToken, lineIndex: line, paint: paint))
        spans.append(span)
    }
}
