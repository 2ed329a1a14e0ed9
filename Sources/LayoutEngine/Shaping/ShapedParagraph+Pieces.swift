extension ShapedParagraph {
    /// The items inside `range`, in logical order: glyph pieces cut from the shaped items, and
    /// the boxes of attachments (an item shaped through a box is cut around it, and the box's
    /// own glyph left out). Trailing whitespace from `contentEnd` on is split off at the
    /// paragraph's base level (UAX #9 L1).
    func pieces(in range: Range<Int>, contentEnd: Int, baseLevel: UInt8, context: LayoutContext) -> [LineItem] {
        var result = context.scratch.pieceLists.popLast() ?? []  // emptied when given back
        let first = firstItem(endingAfter: range.lowerBound)
        var end = first
        while end < items.count && items[end].range.lowerBound < range.upperBound { end += 1 }
        result.reserveCapacity(end - first + 1)  // one piece per item, and trailing space split off
        var nextBox = boxes.isEmpty ? 0 : firstBox(from: range.lowerBound)
        for index in first..<end {
            let item = items[index]
            while nextBox < boxes.count && boxes[nextBox].range.lowerBound < min(item.range.lowerBound, range.upperBound) {
                result.append(.box(boxes[nextBox]))
                nextBox += 1
            }
            let overlap = max(item.range.lowerBound, range.lowerBound)..<min(item.range.upperBound, range.upperBound)
            var segment = overlap.lowerBound
            while true {
                let boxInside = nextBox < boxes.count && boxes[nextBox].range.lowerBound < overlap.upperBound
                let segmentEnd = boxInside ? boxes[nextBox].range.lowerBound : overlap.upperBound
                appendGlyphPieces(of: index, segment..<segmentEnd, line: range, contentEnd: contentEnd, baseLevel: baseLevel,
                                  context: context, to: &result)
                guard boxInside else { break }
                result.append(.box(boxes[nextBox]))
                segment = boxes[nextBox].range.upperBound
                nextBox += 1
            }
        }
        while nextBox < boxes.count && boxes[nextBox].range.lowerBound < range.upperBound {
            result.append(.box(boxes[nextBox]))
            nextBox += 1
        }
        return result
    }

    /// The pieces of item `index` over `units`: its content, then its trailing whitespace.
    private func appendGlyphPieces(of index: Int, _ units: Range<Int>, line: Range<Int>, contentEnd: Int, baseLevel: UInt8,
                                   context: LayoutContext, to result: inout [LineItem]) {
        guard !units.isEmpty else { return }
        let item = items[index]
        let split = min(max(units.lowerBound, contentEnd), units.upperBound)
        for trailing in [false, true] {
            let part = trailing ? split..<units.upperBound : units.lowerBound..<split
            guard !part.isEmpty else { continue }
            let (glyphs, base) = self.glyphs(of: index, in: part, line: line, context: context)
            var advance = glyphs.totalAdvance
            var baselineOffset = text.styles[item.style].baselineOffset
            switch item.orientation {
            case .combined:
                advance = item.font.unitsPerEm  // one em along the line
            case .sideways:
                // On its side in a vertical line, the run is centred across it: its baseline sits
                // (ascender − descender) / 2 from the line's centre.
                baselineOffset -= Double(item.font.ascender - item.font.descender) / 2 * item.font.scale(for: text.styles[item.style].size)
            case .horizontal, .upright:
                break
            }
            result.append(.glyphs(LinePiece(of: item, range: part, level: trailing ? baseLevel : item.level, glyphs: glyphs,
                                            clusterBase: base, isTrailing: trailing, styleSize: text.styles[item.style].size,
                                            advanceUnits: advance, baselineOffset: baselineOffset)))
        }
    }

    /// Index of the first item whose range ends after `offset` (items are sorted).
    func firstItem(endingAfter offset: Int) -> Int {
        Self.firstIndex(items.count) { items[$0].range.upperBound > offset }
    }

    /// True when a box starts at `offset`.
    func isBoxStart(_ offset: Int) -> Bool {
        let index = firstBox(from: offset)
        return index < boxes.count && boxes[index].range.lowerBound == offset
    }

    /// True when a box ends at `offset`.
    func isBoxEnd(_ offset: Int) -> Bool {
        let index = Self.firstIndex(boxes.count) { boxes[$0].range.upperBound >= offset }
        return index < boxes.count && boxes[index].range.upperBound == offset
    }

    /// Index of the first attachment box at or after `offset`.
    func firstBox(from offset: Int) -> Int {
        Self.firstIndex(boxes.count) { boxes[$0].range.lowerBound >= offset }
    }

    /// The glyphs of item `index` for the units `part`; shaped again, within the line, when
    /// HarfBuzz marked a cut edge unsafe to break (a ligature or joining form spans it).
    /// Also returns the offset the glyphs' clusters count from.
    func glyphs(of index: Int, in part: Range<Int>, line: Range<Int>, context: LayoutContext) -> (GlyphSlice, Int) {
        let item = items[index]
        let run = runs[index]
        let base = run.range.lowerBound
        let glyphs = run.slice
        if part == item.range { return (glyphs, base) }
        let rtl = item.isRTL
        // Each cut edge is found once: where the slice ends, and whether shaping may be cut there.
        // An edge against a box the item was shaped through is safe whatever HarfBuzz says: the
        // neighbours keep the U+FFFC beside them, as they were shaped.
        let low = part.lowerBound > item.range.lowerBound ? Self.edge(glyphs, part.lowerBound - base, rtl: rtl) : nil
        let high = part.upperBound < item.range.upperBound ? Self.edge(glyphs, part.upperBound - base, rtl: rtl) : nil
        let lowUnsafe = low?.safe == false && (boxes.isEmpty || !isBoxEnd(part.lowerBound))
        let highUnsafe = high?.safe == false && (boxes.isEmpty || !isBoxStart(part.upperBound))
        if lowUnsafe || highUnsafe {
            let reshaped = context.shaper.shape(shapingUnits, range: part, context: line, font: item.font, rtl: rtl,
                                                upright: item.isUpright, script: item.script, style: shapingStyles[item.style])
            context.scratch.reshaped.append(reshaped.glyphs)  // alive as long as the piece that points into it
            return (reshaped.slice, reshaped.range.lowerBound)
        }
        // Visual order: a left-to-right run goes from the part's start to its end, a
        // right-to-left one from its end to its start.
        let start = (rtl ? high?.index : low?.index) ?? 0
        let end = (rtl ? low?.index : high?.index) ?? glyphs.count
        return (glyphs.extracting(start..<end), base)
    }

    /// A cut before the unit `offset` (counted from the run's start): the index of the first
    /// glyph past it in visual order (clusters rise along a left-to-right run and fall along a
    /// right-to-left one), and whether the shaping may be cut there — a cluster starts exactly
    /// at `offset` and HarfBuzz flagged none of its glyphs unsafe to break.
    static func edge(_ g: GlyphSlice, _ offset: Int, rtl: Bool) -> (index: Int, safe: Bool) {
        // Glyphs mostly follow units one to one: start where that would put the edge and
        // widen by doubling until the edge is bracketed, then bisect.
        let n = g.count
        guard n > 0 else { return (0, false) }
        let past = { (k: Int) -> Bool in rtl ? Int(g[k].cluster) < offset : Int(g[k].cluster) >= offset }
        let guess = min(max(rtl ? n - offset : offset, 0), n - 1)
        var low = 0
        var high = n
        if past(guess) {
            high = guess
            var step = 1
            while high - step > 0 && past(high - step) { high -= step; step *= 2 }
            low = max(high - step, 0)
        } else {
            low = guess
            var step = 1
            while low + step < n && !past(low + step) { low += step; step *= 2 }
            high = min(low + step, n)
            low += 1  // `low` is known not to be past
        }
        while low < high {
            let mid = (low + high) >> 1
            if past(mid) { high = mid } else { low = mid + 1 }
        }
        // The glyphs of the cluster at `offset`: just after the edge along a left-to-right
        // run, just before it along a right-to-left one.
        var found = false
        var k = rtl ? low - 1 : low
        while k >= 0 && k < g.count && Int(g[k].cluster) == offset {
            if g[k].unsafeToBreak { return (low, false) }
            found = true
            k += rtl ? -1 : 1
        }
        return (low, found)
    }
}
