/// Where a paragraph of text that flows starts: a container and the top of its first band, in
/// the container's coordinates. Every paragraph starts a band of its own (see `flow`), with its
/// first band's height guessed afresh, so its lines depend on this alone: a document lays each
/// paragraph from where the one before ended.
struct FlowStart: Equatable, Sendable {
    var container: Int
    /// nil: the container's first top (below its shape's top and inset).
    var top: Double?

    func moved(down distance: Double) -> FlowStart {
        FlowStart(container: container, top: top.map { $0 + distance })
    }
}

/// Text that flows: around exclusions, inside shaped containers, from one container to the
/// next. The same breaker as every layout, asked line by line for what fits each free
/// interval of a band; each line is a fragment with its own slot.
extension TextPositioner {
    /// Where the text has got to: a paragraph and an offset in it.
    struct FlowCursor: Equatable {
        var paragraph: Int
        var offset: Int
    }

    /// One container's share of the text: its lines (planned, with their boxes and tops in
    /// layout coordinates), its bands, and where the text goes on after it.
    struct FlowedContainer {
        var lines: [PlannedLine] = []
        var boxes: [(height: Double, baseline: Double)] = []
        var tops: [Double] = []
        /// Each band's top (container coordinates) and height, with its first line's index.
        var bands: [(top: Double, height: Double, firstLine: Int)] = []
        var end: FlowCursor
        /// Where the band after the last one would start (container coordinates).
        var nextTop = 0.0
        /// True when lines stopped here because `max_lines` was reached, not for want of room.
        var stoppedByLineLimit = false
        /// The bottom of the last band, in container coordinates.
        var bottom: Double { bands.last.map { $0.top + $0.height } ?? 0 }
    }

    func isAtEnd(_ cursor: FlowCursor) -> Bool { cursor.paragraph >= paragraphCount }

    /// Lays the text through `flow`'s containers in order; from `start` (a document's
    /// paragraph) through what follows it, without truncating, and saying where it ended.
    func run(flow: TextFlow, from start: FlowStart? = nil) throws -> ParagraphLayout {
        guard shaped.text.units.count > 0 else {
            var empty = ParagraphLayout(lines: [], runs: [], attachments: [], visibleRange: 0..<0, size: Size(width: 0, height: 0),
                                        direction: shaped.firstDirection, paints: shaped.text.paints)
            empty.flowEnd = start
            return empty
        }
        if settings.breakStrategy != .greedy && !flow.isPlainBox { try chooseLines(flow, from: start) }
        var flowed = try flowContainers(flow, from: start)
        // Text left over: the last line shown stands for it, truncated (with the token, if any).
        // A paragraph laid from a start is not the text's end: nothing is truncated.
        let overflowed = !isAtEnd(flowed.cursor) || flowed.lineLimitReached
        // The band keeps its top; the line's baseline follows its own box.
        if overflowed && start == nil, let lastIndex = flowed.planned.indices.last {
            truncate(&flowed.planned, boxes: &flowed.boxes, at: lastIndex)
        }
        let visibleEnd = visibleEnd(flowed.planned)
        let slots = flowed.planned.map(\.broken.slot)
        var layout = stack(flowed.planned, boxes: flowed.boxes, lineCount: overflowed ? flowed.planned.count + 1 : flowed.planned.count,
                           visibleRange: 0..<visibleEnd, tops: flowed.tops)
        for index in layout.lines.indices {
            layout.lines[index].container = flowed.containerOfLine[index]
            layout.lines[index].fragmentRect = Rect(x: slots[index].start, y: flowed.tops[index], width: slots[index].width,
                                                    height: flowed.boxes[index].height)
        }
        layout.containers = containerLayouts(flow, lines: layout.lines)
        // The last container shows the text up to the cut, not the whole of its last line's text.
        if let last = layout.containers.lastIndex(where: { !$0.lines.isEmpty }) {
            let range = layout.containers[last].range
            layout.containers[last].range = range.lowerBound..<min(range.upperBound, visibleEnd)
        }
        let frame = layout.containers.reduce(Rect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1.rect) }
        layout.size = Size(width: frame.maxX, height: frame.maxY)
        if start != nil {
            // A part of a text: the containers' shares are the whole text's to give.
            layout.containers = []
            layout.flowEnd = flowed.end
        }
        return layout
    }

    /// The lines of every container, before truncation: where each sits, and where the text got.
    struct FlowedText {
        var planned: [PlannedLine] = []
        var boxes: [(height: Double, baseline: Double)] = []
        var tops: [Double] = []
        var containerOfLine: [Int] = []
        var cursor = FlowCursor(paragraph: 0, offset: 0)
        /// Past every container: where text that did not fit ends.
        var end: FlowStart
        var lineLimitReached = false
    }

    /// Flows the text through `flow`'s containers in order, from `start` (see `run(flow:from:)`).
    private func flowContainers(_ flow: TextFlow, from start: FlowStart?) throws -> FlowedText {
        let maxLines = settings.maxLines ?? Int.max
        let minimumWidth = flow.minimumFragmentWidth ?? shaped.text.styles[0].size
        var out = FlowedText(end: FlowStart(container: flow.containers.count, top: 0))
        for (index, container) in flow.containers.enumerated() where index >= start?.container ?? 0 {
            let region = FlowRegion(container, minimumWidth: minimumWidth)
            var startTop: Double?
            if let start, start.container == index { startTop = start.top }
            var flowed = try self.flow(region, from: out.cursor, offset: 0, gap: 0, maxLines: maxLines - out.planned.count, startTop: startTop)
            if flow.verticalAlignment != .top, !flowed.lines.isEmpty, container.height != nil {
                flowed = try align(flowed, in: region, from: out.cursor, as: flow.verticalAlignment, maxLines: maxLines - out.planned.count)
            }
            out.planned += flowed.lines
            out.boxes += flowed.boxes
            out.tops += flowed.tops
            out.containerOfLine += Array(repeating: index, count: flowed.lines.count)
            out.cursor = flowed.end
            if flowed.stoppedByLineLimit { out.lineLimitReached = true; break }
            if isAtEnd(out.cursor) {
                out.end = FlowStart(container: index, top: flowed.nextTop)
                break
            }
        }
        return out
    }

    /// Balanced and total fit in text that flows, where a line's slot waits on the lines above
    /// it: a greedy pass finds the slot each line gets, and each paragraph that pass finishes
    /// has its lines chosen over those slots (as many lines as greedy's, so each has a slot),
    /// to be handed out by the pass that places them. A paragraph the pass does not finish
    /// (text past the last container, `max_lines`) breaks greedily.
    private func chooseLines(_ flow: TextFlow, from start: FlowStart?) throws {
        flowChoices = Array(repeating: nil, count: paragraphCount)
        let greedy = try flowContainers(flow, from: start)
        var widths = Array(repeating: [Double](), count: paragraphCount)
        var finished = Array(repeating: false, count: paragraphCount)
        for line in greedy.planned {
            widths[line.paragraph].append(line.broken.slot.width)
            finished[line.paragraph] = line.broken.range.upperBound == shaped.paragraph(line.paragraph).text.units.count
        }
        var choices = flowChoices!
        for index in 0..<paragraphCount where finished[index] && widths[index].count > 1 {
            let lines = flowLines(of: index)
            choices[index] = try lines.breaker.breakLines(in: 0..<lines.count, widths: SlotWidths(widths[index]),
                                                          strategy: settings.breakStrategy, budget: budget)
        }
        flowChoices = choices
    }

    /// Breaks as much text from `cursor` as fits `region`: band by band from its top (moved
    /// down by `offset`, with `gap` more between bands), each band's free intervals filled
    /// in order.
    /// `startTop`, when given, is the first band's top instead (a document's paragraph).
    func flow(_ region: FlowRegion, from cursor: FlowCursor, offset: Double, gap: Double, maxLines: Int,
              startTop: Double? = nil) throws -> FlowedContainer {
        var out = FlowedContainer(end: cursor)
        var cursor = cursor
        var top = startTop ?? region.firstTop + offset
        var guess = settings.lineHeight ?? 0
        let originY = region.container.origin.y
        guard !isAtEnd(cursor) else {
            out.nextTop = top
            return out
        }
        // The cursor's paragraph's lines, from the cursor on: a band takes lines from one paragraph.
        var paragraphLines = lines(from: cursor)
        // The widest interval the word at `cutAt` did not fit: no interval as narrow is tried
        // again for it, so passing over bands beside a shape costs their slots, not breaking.
        var cutAt: FlowCursor?, cutWidth = 0.0
        let budget = self.budget  // read once: each read of the context's is a retain
        bands: while !isAtEnd(cursor) {
            try budget.check()
            if out.lines.count >= maxLines { out.stoppedByLineLimit = true; break }
            if guess == 0 { guess = estimatedHeight(at: cursor) }
            guard top + guess <= region.bottom + LineBreaker.tolerance else { break }
            let rightToLeft = paragraphLines.rightToLeft
            // Where the band starts: a band tried again at another height starts there again.
            let mark = paragraphLines.position
            var attempts = 0
            while true {
                paragraphLines.position = mark
                let slots = region.slots(top: top, height: guess, rightToLeft: rightToLeft)
                if slots.isEmpty {
                    guard let next = region.nextTop(after: top, height: guess) else { break bands }
                    top = next
                    continue bands
                }
                var band = FlowedContainer(end: cursor)
                var height = 0.0
                var skipped = false
                // A band holds one paragraph's lines: the next paragraph starts on a band of its
                // own, below (as CSS stacks a block's line boxes below the one before; and so a
                // paragraph's lines depend only on where it starts, which editing relies on).
                for slot in slots where !paragraphLines.isAtEnd && out.lines.count + band.lines.count < maxLines {
                    let narrows = region.narrowsBands(at: top)
                    if narrows && cutAt == band.end && paragraphLines.indented(slot).width <= cutWidth {
                        skipped = true
                        continue
                    }
                    let broken = try paragraphLines.line(in: slot, budget: budget)
                    // An interval beside an exclusion too narrow for the next word takes no text,
                    // rather than a piece of the word (CSS moves a line box that cannot hold its
                    // content down past the float); below the last exclusion a word wider than
                    // the box is cut, as anywhere.
                    if narrows && paragraphLines.breaker.cutsWord(broken) {
                        if cutAt != band.end { (cutAt, cutWidth) = (band.end, 0) }
                        cutWidth = max(cutWidth, broken.slot.width)
                        skipped = true
                        continue
                    }
                    let line = paragraphLines.take(broken)
                    let box = settings.box(line.metrics)
                    band.lines.append(line)
                    band.boxes.append(box)
                    height = max(height, box.height)
                    band.end = paragraphLines.isAtEnd ? FlowCursor(paragraph: cursor.paragraph + 1, offset: 0)
                        : FlowCursor(paragraph: cursor.paragraph, offset: paragraphLines.offset)
                }
                // No interval could hold a whole word: the band is passed over, as one with no room.
                if band.lines.isEmpty && skipped {
                    guard let next = region.nextTop(after: top, height: guess) else { break bands }
                    top = next
                    continue bands
                }
                // A taller line than guessed may meet an exclusion the guess missed: try the
                // band again at its real height (a few times; heights only grow).
                if height > guess + LineBreaker.tolerance && attempts < 3 {
                    guess = height
                    attempts += 1
                    continue
                }
                guard top + height <= region.bottom + LineBreaker.tolerance else { break bands }
                out.bands.append((top, height, out.lines.count))
                out.lines += band.lines
                out.boxes += band.boxes
                out.tops += Array(repeating: originY + top, count: band.lines.count)
                // A new paragraph's first band is guessed afresh, not from this one's height.
                let paragraphEnded = band.end.paragraph != cursor.paragraph
                cursor = band.end
                out.end = cursor
                top += height + gap
                guess = settings.lineHeight ?? (paragraphEnded ? 0 : height)
                if paragraphEnded && !isAtEnd(cursor) { paragraphLines = lines(from: cursor) }
                break
            }
        }
        out.nextTop = top
        return out
    }

    /// The lines of the cursor's paragraph from the cursor on. (A container starts where the
    /// one before stopped, and in a paragraph its count of hyphenated lines in a row starts again.)
    private func lines(from cursor: FlowCursor) -> ParagraphLines {
        var lines = flowLines(of: cursor.paragraph)
        lines.position.offset = cursor.offset
        if let flowChoices { lines.handOut(flowChoices[cursor.paragraph]) }
        return lines
    }

    /// The line stream of paragraph `index` in text that flows, on the paragraph's one breaker
    /// (`flowBreakers`).
    private func flowLines(of index: Int) -> ParagraphLines {
        if flowBreakers.isEmpty { flowBreakers = Array(repeating: nil, count: paragraphCount) }
        let paragraph = paragraph(index)
        let breaker = flowBreakers[index] ?? paragraph.breaker()
        if flowBreakers[index] == nil { flowBreakers[index] = breaker }
        return ParagraphLines(paragraph, breaker: breaker, strategy: settings.breakStrategy, indents: settings.hasIndents)
    }

    /// The container's lines moved down (center, bottom) or spread (justify-lines) within its
    /// height. A plain box moves them by the closed form; a shaped container or one with
    /// exclusions is flowed again from a lower top (or with a gap between bands), the largest
    /// that still fits the same text found by bisection to a hundredth of a point, since lines
    /// moved down meet other parts of the shapes.
    func align(_ flowed: FlowedContainer, in region: FlowRegion, from cursor: FlowCursor, as alignment: VerticalAlignment,
               maxLines: Int) throws -> FlowedContainer {
        let slack = region.bottom - flowed.bottom
        guard slack > LineBreaker.tolerance, region.bottom.isFinite else { return flowed }
        let bands = flowed.bands.count
        if region.isRectangular {
            var moved = flowed
            for (index, band) in flowed.bands.enumerated() {
                let shift: Double
                switch alignment {
                case .top: shift = 0
                case .center: shift = slack / 2
                case .bottom: shift = slack
                case .justifyLines: shift = bands > 1 ? slack * Double(index) / Double(bands - 1) : 0
                }
                moved.bands[index].top += shift
                let end = index + 1 < bands ? flowed.bands[index + 1].firstLine : flowed.lines.count
                for line in band.firstLine..<end { moved.tops[line] += shift }
            }
            return moved
        }
        if alignment == .justifyLines && bands < 2 { return flowed }
        // The flow at `amount` (an offset, or a gap for justify-lines), if it holds the same text.
        func attempt(_ amount: Double) throws -> FlowedContainer? {
            let again = alignment == .justifyLines
                ? try flow(region, from: cursor, offset: 0, gap: amount, maxLines: maxLines)
                : try flow(region, from: cursor, offset: amount, gap: 0, maxLines: maxLines)
            // Lower in a shape the lines may widen and take fewer: the same text is what counts.
            return again.end == flowed.end ? again : nil
        }
        var low = 0.0, high = alignment == .justifyLines ? slack / Double(bands - 1) : slack
        var best = flowed
        while high - low > 0.01 {
            try budget.check()
            let middle = (low + high) / 2
            guard let candidate = try attempt(middle) else { high = middle; continue }
            // Centred: the space above the first band (pushed down past any band without room,
            // so not always the offset) may not pass the space below the last.
            if alignment == .center && region.bottom - candidate.bottom < candidate.bands[0].top - region.firstTop {
                high = middle
                continue
            }
            low = middle
            best = candidate
        }
        return best
    }

    /// The first guess at a band's height: a line of the style at `cursor` in its own font. A
    /// line that turns out taller (a fallback font, a larger span) has its band tried again.
    private func estimatedHeight(at cursor: FlowCursor) -> Double {
        let paragraph = self.paragraph(cursor.paragraph)
        let style = paragraph.shaped.styleIndex(at: min(cursor.offset, max(paragraph.text.units.count - 1, 0)))
        var metrics = LineMetrics()
        metrics.include(paragraph.shaped.fallback.primary[style], size: paragraph.text.styles[style].size)
        return settings.box(metrics).height
    }

    /// Each container's lines and text, in the order of `flow`.
    private func containerLayouts(_ flow: TextFlow, lines: [LineLayout]) -> [ContainerLayout] {
        var out: [ContainerLayout] = []
        var lineIndex = 0
        var textEnd = 0
        for (index, container) in flow.containers.enumerated() {
            let first = lineIndex
            while lineIndex < lines.count && lines[lineIndex].container == index { lineIndex += 1 }
            let range = first < lineIndex ? lines[first].range.lowerBound..<lines[lineIndex - 1].range.upperBound : textEnd..<textEnd
            textEnd = range.upperBound
            let usedBottom = first < lineIndex ? lines[first..<lineIndex].map { $0.usedRect.maxY }.max()! - container.origin.y : 0
            out.append(ContainerLayout(index: index, range: range, lines: first..<lineIndex,
                                       rect: Rect(x: container.origin.x, y: container.origin.y, width: container.width,
                                                  height: container.height ?? usedBottom)))
        }
        return out
    }
}
