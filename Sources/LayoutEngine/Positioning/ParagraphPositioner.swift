/// The stages after shaping for one bidi paragraph of a request: plan its lines (pieces and
/// metrics), truncate one, and place them — bidi reordering, alignment, justification — in
/// the paragraph's own offsets, written out at `start` in the text. `TextPositioner` runs one
/// per paragraph and stacks their lines.
///
/// Holds a copy of its `ShapedParagraph`: every line item points into the paragraph's storage
/// (see its lifetime rule). The request, and the context whose arrays positioning borrows and
/// whose budget it checks, are its text positioner's.
///
/// Made on the fly where a paragraph's lines start (`TextPositioner.paragraph(_:)`): one
/// reference count, where holding the request and the context cost a dozen each time.
struct ParagraphPositioner {
    let shaped: ShapedParagraph
    /// Unowned: the text positioner makes its paragraph positioners and outlives them, and
    /// holds the context for as long. SAFETY: a paragraph positioner is made by its text
    /// positioner's `paragraph(_:)` and used only during that positioner's calls.
    unowned(unsafe) let owner: TextPositioner
    unowned(unsafe) let context: LayoutContext
    /// Which paragraph of the text, and where it starts in the text.
    let index: Int
    let start: Int

    var settings: LineSettings { _read { yield owner.settings } }

    var text: AttributedText { _read { yield shaped.text } }
    var analysis: TextAnalysis { _read { yield shaped.analysis } }
    var scratch: LayoutScratch { context.scratch }

    /// A line decided by breaking, with its items and metrics, waiting for its place.
    struct PlannedLine {
        var broken: BrokenLine
        var baseLevel: UInt8
        var pieces: [LineItem]
        var metrics: LineMetrics
        var truncated = false
        /// Overrides the request's alignment (Type Mode aligns the lines it could not fill).
        var alignment: TextAlignment?
        /// The paragraph of the text the line is in; its offsets count from that paragraph's start.
        var paragraph = 0
    }

    func plan(_ line: BrokenLine) -> PlannedLine {
        let base = shaped.baseLevel
        // The context lent without a count: passed as it is held (unowned), it was retained and
        // released for every line. SAFETY: the owner holds the context while this runs.
        var pieces = Unmanaged.passUnretained(context)._withUnsafeGuaranteedRef {
            shaped.pieces(in: line.range, contentEnd: line.contentEnd, baseLevel: base, context: $0)
        }
        if line.hyphenated { pieces += hyphenPieces(at: line.contentEnd) }
        if settings.hasList && line.range.lowerBound == 0, let list = settings.list { pieces = markerPieces(list) + pieces }
        var metrics = shaped.metrics(of: &pieces, at: line.range.lowerBound)
        if settings.writingMode == .verticalLeftToRight { metrics.mirror() }
        return PlannedLine(broken: line, baseLevel: base, pieces: pieces, metrics: metrics, paragraph: index)
    }

    /// Places one line: visual order, alignment, justification, glyph and box positions. Its
    /// glyph runs and boxes go to `output`. The planned line comes as its fields, read in place
    /// (`place(_:at:top:box:last:into:)`).
    func place(_ broken: BrokenLine, pieces: [LineItem], metrics: LineMetrics, baseLevel: UInt8, truncated: Bool,
               alignment lineAlignment: TextAlignment?, index: Int, top: Double, box: (height: Double, baseline: Double),
               last: Bool, into output: inout RunOutput) -> LineLayout {
        let rtlBase = baseLevel & 1 == 1
        let contentRange = broken.range.lowerBound..<broken.contentEnd
        var spacing = Spacing(shaped, content: contentRange, extraPerSlot: 0, perCharacter: false)
        if broken.hasTabs { spacing.tabExtras = tabExtras(broken) }
        // A list item's marker hangs in the list's indent: the text is aligned without it.
        let marker = settings.hasList && broken.range.lowerBound == 0 ? markerWidth(pieces) : 0
        let widths = spacing.widths(pieces)
        let natural = widths.content - marker
        let trailing = widths.trailing
        let slot = broken.slot
        var alignment = lineAlignment ?? settings.alignment
        if alignment == .justified {
            // A line with tabs keeps its stops: it is set as the paragraph's natural alignment.
            if broken.hardBreak || last || truncated || spacing.tabs != nil {
                alignment = .natural
            } else {
                spacing.stretch(to: slot.width, natural: natural)
            }
        }
        var used = alignment == .justified ? max(natural, spacing.contentWidth(pieces)) : natural
        // Hanging punctuation sits outside the slot: the text's edges line up with it instead.
        let hang = settings.hangsPunctuation ? hangingWidths(broken, truncated: truncated) : (start: 0, end: 0)
        if hang.start + hang.end > 0 {
            if alignment == .justified {
                spacing.stretch(to: slot.width + hang.start + hang.end, natural: natural)
                used = max(natural, spacing.contentWidth(pieces))
            }
            used -= hang.start + hang.end
        }
        let offset: Double
        switch alignment {
        case .left: offset = 0
        case .right: offset = slot.width - used
        case .center: offset = (slot.width - used) / 2
        case .natural: offset = rtlBase ? slot.width - used : 0
        case .justified: offset = 0
        }
        // The visual left edge: the start's hanger in left-to-right text, the end's in right-to-left.
        let x0 = slot.start + offset - (rtlBase ? hang.end : hang.start)
        let baselineY = top + box.baseline
        var pen = x0 - (rtlBase ? trailing : 0)
        for item in Self.visualOrder(pieces, leftToRightOnly: analysis.isLeftToRightOnly) {
            switch item {
            case .glyphs(let piece) where piece.orientation == .combined:
                pen = placeCombined(piece, pen: pen, baselineY: baselineY, line: index, into: &output)
            case .glyphs(let piece):
                // The marker starts at the list's indent from the line's leading edge (ends there,
                // right to left); the text's pen then carries on where it was.
                let resume = piece.isListMarker ? pen : nil
                if piece.isListMarker, let list = settings.list {
                    pen = rtlBase ? slot.start + slot.width + list.indent - marker : slot.start - list.indent
                }
                defer { if let resume { pen = resume } }
                let pointSize = piece.size
                let scale = piece.font.scale(for: pointSize)
                let extras = spacing.hasExtras ? spacing.extras(for: piece) : nil
                let base = piece.clusterBase + start  // clusters go out in the text's offsets
                let first = output.count
                let shaped = piece.glyphs
                let y = baselineY - piece.shift
                // SAFETY: the piece's glyphs go at `count` on, within the room (see `RunOutput`).
                let out = output.glyphs.advanced(by: first)
                if let extras {
                    for k in 0..<shaped.count {
                        let glyph = shaped[k]
                        let advance = Double(glyph.advance) * scale + extras[k]
                        out.advanced(by: k).initialize(to: PositionedGlyph(
                            id: glyph.id,
                            position: Point(x: pen + Double(glyph.xOffset) * scale, y: y - Double(glyph.yOffset) * scale),
                            advance: advance, cluster: Int(glyph.cluster) &+ base))
                        pen += advance
                    }
                } else {
                    // SAFETY: as above.
                    // Nearly every line: the glyphs' own advances, no extra to look up per glyph.
                    // Two loops, not one body called twice: that version added 0.0 per glyph
                    // (IEEE addition of zero is not folded away).
                    for k in 0..<shaped.count {
                        let glyph = shaped[k]
                        let advance = Double(glyph.advance) * scale
                        out.advanced(by: k).initialize(to: PositionedGlyph(
                            id: glyph.id,
                            position: Point(x: pen + Double(glyph.xOffset) * scale, y: y - Double(glyph.yOffset) * scale),
                            advance: advance, cluster: Int(glyph.cluster) &+ base))
                        pen += advance
                    }
                }
                // HarfBuzz's flags, only when asked: a pass of its own, so that the loops above stay
                // as they are for every other layout.
                if settings.reportsGlyphFlags { for k in 0..<shaped.count { out[k].flags = shaped[k].flags } }
                output.count += shaped.count
                if text.paints.count == 1 {
                    output.add(font: FontHandle(piece.font), size: pointSize, level: piece.level, range: shifted(piece.range),
                               isToken: piece.isToken, isHyphen: piece.isHyphen, isListMarker: piece.isListMarker, line: index,
                               glyphs: first..<output.count,
                               orientation: piece.orientation)
                } else {
                    addByPaint(piece, pointSize: pointSize, line: index, glyphs: first..<output.count, into: &output)
                }
            case .box(let inline):
                output.attachments.append(AttachmentLayout(
                    index: inline.attachment, range: shifted(inline.range), lineIndex: index,
                    rect: Rect(x: pen, y: baselineY - inline.ascent, width: inline.width, height: inline.ascent + inline.descent),
                    ascent: inline.ascent, descent: inline.descent, bidiLevel: inline.level))
                pen += inline.width + spacing.extra(after: inline)
            }
        }
        return LineLayout(range: shifted(broken.range), baselineOrigin: Point(x: x0, y: baselineY),
                          ascent: metrics.ascent, descent: metrics.descent, leading: metrics.leading,
                          width: used, trailingWhitespaceWidth: trailing,
                          usedRect: Rect(x: x0, y: top, width: used, height: box.height),
                          hardBreak: broken.hardBreak, truncated: truncated)
    }

    /// Adds a piece's glyphs as runs of one paint each: the glyphs are as shaped, each painted
    /// as the unit its cluster starts at (a ligature across a paint change takes its first
    /// letter's). A run's units reach to the next run's first cluster along the text.
    func addByPaint(_ piece: LinePiece, pointSize: Double, line: Int, glyphs span: Range<Int>, into output: inout RunOutput) {
        // The glyphs' order along the text is the order they were shaped in, not the piece's
        // level: trailing whitespace takes the paragraph's level (UAX #9 L1) and keeps the order
        // of the run it was shaped with (spaces after Latin in an Arabic paragraph are level 1,
        // their clusters rising; taking them as right to left made a run's range run backwards).
        let rtl = span.count > 1 ? output.glyphs[span.lowerBound].cluster > output.glyphs[span.upperBound - 1].cluster
            : piece.level & 1 == 1
        // The paint run found last: neighbouring glyphs are nearly always in it, so most glyphs
        // cost a range test, not a search.
        var known = (range: 0..<0, paint: 0)
        func paint(_ k: Int) -> Int {
            // The token stands for the text it replaces: it takes the paint of the unit before it.
            let offset = piece.isToken ? max(piece.range.lowerBound - 1, 0) : output.glyphs[k].cluster - start
            if known.range.contains(offset) { return known.paint }
            known = text.paintRun(at: offset)
            return known.paint
        }
        let range = shifted(piece.range)
        var segmentStart = span.lowerBound
        while segmentStart < span.upperBound {
            let segmentPaint = paint(segmentStart)
            var segmentEnd = segmentStart + 1
            while segmentEnd < span.upperBound && paint(segmentEnd) == segmentPaint { segmentEnd += 1 }
            // Along the text a left-to-right segment starts at its first glyph's cluster and a
            // right-to-left one at its last glyph's; the piece's own ends bound the outer ones.
            let atTextStart = rtl ? segmentEnd == span.upperBound : segmentStart == span.lowerBound
            let atTextEnd = rtl ? segmentStart == span.lowerBound : segmentEnd == span.upperBound
            let lower = atTextStart || piece.isToken ? range.lowerBound
                : output.glyphs[rtl ? segmentEnd - 1 : segmentStart].cluster
            let upper = atTextEnd || piece.isToken ? range.upperBound
                : output.glyphs[rtl ? segmentStart - 1 : segmentEnd].cluster
            output.add(font: FontHandle(piece.font), size: pointSize, level: piece.level, range: lower..<upper, isToken: piece.isToken, isHyphen: piece.isHyphen,
                       isListMarker: piece.isListMarker, line: line, glyphs: segmentStart..<segmentEnd, paint: segmentPaint, orientation: piece.orientation)
            segmentStart = segmentEnd
        }
    }

    /// A range of this paragraph in the text's offsets.
    @inline(__always)
    func shifted(_ range: Range<Int>) -> Range<Int> { (range.lowerBound + start)..<(range.upperBound + start) }

    /// UAX #9 L2: from the highest level down to the lowest odd one, reverse every maximal
    /// sequence of items at that level or higher. Glyphs inside a piece are already visual.
    static func visualOrder(_ pieces: [LineItem], leftToRightOnly: Bool = false) -> [LineItem] {
        // Text with nothing right-to-left (most) is in visual order already: no levels to scan.
        // (Tested here, not by the caller: reading the line's pieces there copied the line.)
        if leftToRightOnly { return pieces }
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
///
/// SAFETY: `glyphs` is the storage of the array being made (`TextPositioner.stack`), with room
/// for every glyph of the planned lines, counted before it was allocated; each piece's glyphs
/// are written once at `count`, which never passes that room, and only inside the array's
/// initializing closure, which the output does not outlive.
struct RunOutput {
    /// Storage with room for every glyph of the layout; `count` are written.
    let glyphs: UnsafeMutablePointer<PositionedGlyph>
    var count = 0
    var runs: [GlyphRunLayout] = []
    var spans: [Range<Int>] = []
    var attachments: [AttachmentLayout] = []

    /// Left-to-right columns mirror the frame across the line (`VerticalFrame` turns them by a
    /// reflection): a glyph's up (a sideways glyph's top; for an upright or combined one
    /// HarfBuzz's x), which is rightward on the page, runs down the frame's y there. So lines
    /// are placed, and their metrics made, as right-to-left columns turn the frame, and then
    /// every glyph and box is mirrored about its line's centre line (the metrics by
    /// `LineMetrics.mirror`): each column looks as it does in right-to-left text.
    @inline(never)
    mutating func mirrorAcross(_ lines: [LineLayout]) {
        for (run, span) in zip(runs, spans) {
            let twice = 2 * lines[run.lineIndex].baselineOrigin.y
            // SAFETY: a run's span of glyphs written already, below `count`.
            for k in span { glyphs[k].position.y = twice - glyphs[k].position.y }
        }
        for k in attachments.indices {
            let box = attachments[k]
            attachments[k].rect.y = 2 * lines[box.lineIndex].baselineOrigin.y - box.rect.maxY
            (attachments[k].ascent, attachments[k].descent) = (box.descent, box.ascent)
        }
    }

    /// `spans` is an emptied array to fill (the scratch's: it lives only while a layout is stacked).
    init(glyphs: UnsafeMutablePointer<PositionedGlyph>, pieces: Int, spans: [Range<Int>] = []) {
        self.glyphs = glyphs
        runs.reserveCapacity(pieces)
        self.spans = spans
        self.spans.reserveCapacity(pieces)
    }

    /// The glyphs `body` writes through an output with room for `capacity` of them, as one
    /// array, and the runs, their spans of it and the boxes the output gathered. `spans` is an
    /// emptied array to fill.
    /// SAFETY: the output writes only inside the array's initializing closure, and `body` gets it
    /// `inout`, so it cannot keep it; `capacity` counts every glyph of the lines `body` places
    /// (`TextPositioner.stack`), each written once, so `count` never passes it.
    @inline(__always)
    static func write(capacity: Int, pieces: Int, spans: consuming [Range<Int>], _ body: (inout RunOutput) -> Void)
        -> (glyphs: [PositionedGlyph], runs: [GlyphRunLayout], spans: [Range<Int>], attachments: [AttachmentLayout]) {
        var runs: [GlyphRunLayout] = [], filled = consume spans, attachments: [AttachmentLayout] = []
        let glyphs = [PositionedGlyph](specializedCapacity: capacity) { buffer, initialized in
            // Moved in, not copied: the output grows the array it was given, which must be unique.
            var output = RunOutput(glyphs: buffer.baseAddress!, pieces: pieces, spans: filled.movedOut())
            body(&output)
            precondition(output.count <= capacity, "positioning wrote more glyphs than it counted")
            initialized = output.count
            runs = output.runs
            filled = output.spans
            attachments = output.attachments
        }
        return (glyphs, runs, filled, attachments)
    }

    /// Writes `glyph` at `index` of the storage: `count` or past it, within the room (see the
    /// type's SAFETY), each index once; the writer adds what it wrote to `count`.
    @inline(__always)
    func initialize(at index: Int, to glyph: PositionedGlyph) {
        glyphs.advanced(by: index).initialize(to: glyph)
    }

    /// The glyphs written so far turned onto the page of vertical text, in place.
    func turnToPage(_ frame: VerticalFrame) {
        for i in 0..<count { glyphs[i].position = frame.toPage(glyphs[i].position) }
    }

    /// Adds a piece's glyphs as a run, or extends the previous run when the piece continues it
    /// on the same line: same font, size and level, next in the text along the run's
    /// direction (trailing spaces, and items split only by script, join their neighbours).
    mutating func add(font handle: FontHandle, size: Double, level: UInt8, range: Range<Int>, isToken: Bool, isHyphen: Bool = false,
                      isListMarker: Bool = false, line: Int,
                      glyphs span: Range<Int>, paint: Int = 0, orientation: GlyphOrientation = .horizontal) {
        if let last = runs.indices.last, !isToken, !runs[last].isInserted, runs[last].lineIndex == line,
           runs[last].paint == paint, runs[last].orientation == orientation, orientation != .combined,
           runs[last].instanceID == handle.font.id, runs[last].size == size, runs[last].bidiLevel == level,
           level & 1 == 0 ? runs[last].range.upperBound == range.lowerBound : range.upperBound == runs[last].range.lowerBound {
            let previous = runs[last].range
            runs[last].range = min(previous.lowerBound, range.lowerBound)..<max(previous.upperBound, range.upperBound)
            spans[last] = spans[last].lowerBound..<span.upperBound
            return
        }
        runs.append(GlyphRunLayout(fontID: handle.font.wireID, instance: handle.font.isInstance ? handle.font : nil, size: size,
                                   bidiLevel: level, glyphs: [], range: range, isTruncationToken: isToken && !isHyphen && !isListMarker,
                                   isHyphen: isHyphen, isListMarker: isListMarker,
                                   lineIndex: line, paint: paint, orientation: orientation))
        spans.append(span)
    }
}

extension ParagraphPositioner {
    /// Places line `index` of `planned`, its fields read in place: passed as one value, borrowed
    /// or not, each line was copied for the call (its pieces retained and released, all of it
    /// copied and destroyed).
    @inline(__always)
    func place(_ planned: [PlannedLine], at index: Int, top: Double, box: (height: Double, baseline: Double), last: Bool,
               into output: inout RunOutput) -> LineLayout {
        precondition(planned.indices.contains(index), "a planned line past the last")
        // SAFETY: `index` is one of the lines' (checked above); the buffer lives for the call.
        return planned.withUnsafeBufferPointer { lines in
            let line = lines.baseAddress! + index
            return place(line.pointee.broken, pieces: line.pointee.pieces, metrics: line.pointee.metrics,
                         baseLevel: line.pointee.baseLevel, truncated: line.pointee.truncated, alignment: line.pointee.alignment,
                         index: index, top: top, box: box, last: last, into: &output)
        }
    }

    /// The paragraph line `index` of `planned` is in, read in place (the array's subscript copied
    /// the whole line to read it).
    @inline(__always)
    static func paragraph(of planned: [PlannedLine], at index: Int) -> Int {
        precondition(planned.indices.contains(index), "a planned line past the last")
        // SAFETY: as in `place(_:at:top:box:last:into:)`.
        return planned.withUnsafeBufferPointer { ($0.baseAddress! + index).pointee.paragraph }
    }
}
