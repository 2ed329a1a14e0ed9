extension ParagraphLayouter {
    /// Type Mode: text fitted to the width by font size (see `TypeModeRequest`).
    ///
    /// Lines are broken once, at the minimum size (as Instagram's Android team does). Because
    /// shaping happens at units-per-em, a line's width is linear in its size:
    /// width(s) = a·s + L, with a the advance per point and L the letter spacing. The size that
    /// fills the width is then (W − L) / a — no search over layouts.
    ///
    /// Vertical Type Mode is the same in the lines' own frame: columns shaped top to bottom,
    /// each sized to fill `width` down the page, then the whole turned onto it.
    public func justify(_ request: TypeModeRequest, budget: WorkBudget = .unlimited) throws -> TypeModeLayout {
        try request.validate()
        if request.writingMode.isVertical { return try justifyInColumns(request, budget: budget) }
        let paragraph = paragraphRequest(request)
        try paragraph.validate(fonts: fonts, maxTextLength: maxTextLength)
        var layout = try withContext(budget: budget) { context in
            let positioner = TextPositioner(
                shaped: try shape(paragraph.text, direction: paragraph.direction, attachments: request.attachments, context: context),
                request: paragraph, context: context)
            defer { positioner.recycle() }
            return switch request.sizing {
            case .perLine: try positioner.fitPerLine(request)
            case .uniform: try positioner.fitUniform(request)
            }
        }
        // Decorate the fitted lines: each line's decorations and marks at its own size.
        try decorate(&layout.paragraph, text: paragraph.text, budget: budget)
        return layout
    }

    /// The paragraph a Type Mode request lays out: its text at the size lines are broken at.
    @inline(__always)
    private func paragraphRequest(_ request: TypeModeRequest) -> ParagraphRequest {
        var style = request.style
        style.size = request.sizing == .uniform ? request.maxSize : request.minSize
        let units = request.units ?? AttributedText.utf16(request.text)
        return ParagraphRequest(text: AttributedText(request.text, units: units, style: style, paint: request.paint, spans: request.spans),
                                width: request.width, alignment: request.alignment, lineHeightMultiple: request.lineHeightMultiple,
                                truncationToken: nil)
    }

    /// Vertical Type Mode: the same fit in the columns' own frame (shaped top to bottom, each
    /// column sized to fill `width` down the page), decorated there, then turned onto the page.
    private func justifyInColumns(_ request: TypeModeRequest, budget: WorkBudget) throws -> TypeModeLayout {
        var paragraph = paragraphRequest(request)
        // The columns' length is the width lines fill; the page's width is found by the fit.
        (paragraph.writingMode, paragraph.height) = (request.writingMode, request.width)
        (paragraph.textOrientation, paragraph.combineUpright, paragraph.combinesLetters) =
            (request.textOrientation, request.combineUpright, request.combinesLetters)
        try paragraph.validate(fonts: fonts, maxTextLength: maxTextLength)
        var layout = try withContext(budget: budget) { context in
            let positioner = try verticalPositioner(paragraph, attachments: request.attachments, context: context)
            defer { positioner.recycle() }
            return switch request.sizing {
            case .perLine: try positioner.fitPerLine(request)
            case .uniform: try positioner.fitUniform(request)
            }
        }
        try decorate(&layout.paragraph, text: paragraph.text, writingMode: request.writingMode, budget: budget)
        layout.paragraph = VerticalFrame(mode: request.writingMode, extent: layout.paragraph.size.height).turned(layout.paragraph)
        return layout
    }

    /// Vertical Type Mode's positioner: `paragraph` shaped for columns. Its lines are `width`
    /// long, as in horizontal Type Mode; its `height`, the same length (validation asks vertical
    /// text for one), bounds nothing here: Type Mode stacks every line it fits.
    private func verticalPositioner(_ paragraph: ParagraphRequest, attachments: [InlineAttachment],
                                    context: LayoutContext) throws -> TextPositioner {
        let setting = VerticalSetting(combineUpTo: paragraph.combineUpright, combinesLetters: paragraph.combinesLetters,
                                      orientation: paragraph.textOrientation)
        let positioner = TextPositioner(
            shaped: try ShapedText(text: paragraph.text, direction: paragraph.direction, attachments: attachments,
                                   vertical: setting, fonts: fonts, context: context),
            request: paragraph, context: context)
        positioner.vertical = setting
        return positioner
    }
}

extension TextPositioner {
    /// Per-line sizing: break at the minimum size, then size each line to fill the width.
    func fitPerLine(_ request: TypeModeRequest) throws -> TypeModeLayout {
        var sizes: [Double] = []
        var clamped: [Bool] = []
        var planned: [PlannedLine] = []
        for index in 0..<paragraphCount {
            let paragraph = self.paragraph(index)
            let count = paragraph.text.units.count
            let broken = LineBreaker(flags: paragraph.analysis.flags, prefix: paragraph.shaped.prefix, bisects: paragraph.bisects)
                .breakLines(in: 0..<count, width: request.width)
            for (index, line) in broken.enumerated() {
                if planned.count % 256 == 0 { try budget.check() }
                var plan = paragraph.plan(line)
                let endsParagraph = line.hardBreak || index == broken.count - 1
                let fit = paragraph.fittedSize(plan, request: request)
                var size = min(max(fit, request.minSize), request.maxSize)
                if request.lastLineUnscaled && endsParagraph { size = request.minSize }
                clamped.append(size != fit)
                if request.wholePointSizes {
                    // As Android's binary search over whole sizes gives: the largest whole size that
                    // fits, never below the smallest whole size in range.
                    size = max(size.rounded(.down), min(request.minSize.rounded(.up), request.maxSize.rounded(.down)))
                }
                sizes.append(size)
                plan = paragraph.resized(plan, factor: size / request.minSize)
                plan.alignment = request.alignment
                planned.append(plan)
            }
        }
        return stack(planned, sizes: sizes, clamped: clamped, baseSize: request.minSize, maxHeight: request.maxHeight)
    }

    /// Uniform sizing: the largest size at which the text wraps without breaking inside a
    /// word and fits `maxHeight`, to 0.01 pt, found by bisection over breaking alone (the
    /// shaping is reused at every size).
    func fitUniform(_ request: TypeModeRequest) throws -> TypeModeLayout {
        let base = request.maxSize
        /// Each paragraph's lines at `size`.
        func lines(at size: Double) -> [[BrokenLine]] {
            (0..<paragraphCount).map { index in
                let paragraph = self.paragraph(index)
                let count = paragraph.text.units.count
                let factor = size / base
                return count == 0 ? [] : LineBreaker(flags: paragraph.analysis.flags, prefix: paragraph.scaledPrefix(factor),
                                                     bisects: paragraph.bisects(scaledBy: factor))
                    .breakLines(in: 0..<count, width: request.width)
            }
        }
        func fits(_ size: Double) throws -> Bool {
            try budget.check()
            var height = 0.0
            for (index, broken) in lines(at: size).enumerated() {
                let paragraph = self.paragraph(index)
                let flags = paragraph.analysis.flags
                for line in broken.dropLast() where !line.hardBreak && !flags[line.range.upperBound].contains(.breakBefore) {
                    return false  // a word had to be broken
                }
                guard request.maxHeight != nil else { continue }
                for line in broken {
                    height += paragraph.resized(paragraph.plan(line), factor: size / base).metrics
                        .box(multiple: request.lineHeightMultiple, fixed: nil).height
                }
            }
            guard let maxHeight = request.maxHeight else { return true }
            return height <= maxHeight + LineBreaker.tolerance
        }
        var size = request.maxSize
        if try !fits(size) {
            var low = request.minSize
            var high = request.maxSize
            if try fits(low) {
                while high - low > 0.001 {
                    let mid = (low + high) / 2
                    if try fits(mid) { low = mid } else { high = mid }
                }
            }
            size = low
        }
        var planned: [PlannedLine] = []
        for (index, broken) in lines(at: size).enumerated() {
            let paragraph = self.paragraph(index)
            for line in broken {
                var plan = paragraph.resized(paragraph.plan(line), factor: size / base)
                plan.alignment = request.alignment
                planned.append(plan)
            }
        }
        return stack(planned, sizes: planned.map { _ in size }, clamped: planned.map { _ in false }, baseSize: base, maxHeight: nil)
    }

    /// Stacks sized lines top to bottom; with a maximum height, scales the whole block down.
    /// `baseSize` is the style size the lines' size factors multiply.
    func stack(_ planned: [PlannedLine], sizes: [Double], clamped: [Bool], baseSize: Double,
               maxHeight: Double?) -> TypeModeLayout {
        var planned = planned
        var sizes = sizes
        let multiple = settings.lineHeightMultiple
        var boxes = planned.map { $0.metrics.box(multiple: multiple, fixed: nil) }
        let height = boxes.reduce(0) { $0 + $1.height }
        if let maxHeight, height > maxHeight {
            let shrink = maxHeight / height
            for index in planned.indices {
                sizes[index] *= shrink
                planned[index] = paragraph(planned[index].paragraph).resized(planned[index], factor: sizes[index] / baseSize)
            }
            boxes = planned.map { $0.metrics.box(multiple: multiple, fixed: nil) }
        }
        if settings.writingMode == .verticalLeftToRight {
            // Measured afresh at their sizes (`resized`): left-to-right columns' metrics mirrored
            // as `plan` mirrors them, once the sizes are final (a line's height is the same either way).
            for index in planned.indices { planned[index].metrics.mirror() }
            boxes = planned.map { $0.metrics.box(multiple: multiple, fixed: nil) }
        }
        let layout = stack(planned, boxes: boxes, lineCount: planned.count, visibleRange: 0..<shaped.text.units.count)
        return TypeModeLayout(paragraph: layout, lineSizes: sizes, clamped: clamped)
    }
}

extension ParagraphPositioner {
    /// The size at which the line's content fills the width: (W − L) / a.
    func fittedSize(_ line: PlannedLine, request: TypeModeRequest) -> Double {
        var advancePerPoint = 0.0
        var fixed = 0.0
        for item in line.pieces where !item.isTrailing {
            switch item {
            case .glyphs(let piece):
                advancePerPoint += Double(piece.advanceUnits) / Double(piece.font.unitsPerEm) * (piece.styleSize / request.minSize)
            case .box(let box):
                // A box given in ems grows with the line; one given in points stays.
                if box.scalesWithLine { advancePerPoint += box.baseWidth / request.minSize } else { fixed += box.baseWidth }
            }
        }
        let content = line.broken.range.lowerBound..<line.broken.contentEnd
        let spacing = Double(content.reduce(0) { $0 + (analysis.flags[$1].contains(.graphemeStart) ? 1 : 0) })
            * request.style.letterSpacing
        guard advancePerPoint > 0 else { return request.minSize }  // an empty line keeps the smallest size
        var size = (request.width - spacing - fixed) / advancePerPoint
        // Verify: rounding must never make the line wider than the width. A few ulps settle it;
        // past that, steps of a billionth keep the loop short whatever the numbers.
        var steps = 0
        while size > 0 && advancePerPoint * size + spacing + fixed > request.width {
            size = steps < 8 ? size.nextDown : size * (1 - 1e-9)
            steps += 1
        }
        return size
    }

    /// The line with every piece drawn `factor` times the style's size; a left-to-right column's metrics
    /// as a right-to-left one's, until Type Mode's `stack` mirrors them.
    func resized(_ line: PlannedLine, factor: Double) -> PlannedLine {
        var line = line
        for index in line.pieces.indices { line.pieces[index].sizeFactor = factor }
        line.metrics = shaped.metrics(of: &line.pieces, at: line.broken.range.lowerBound, emptyLineSizeFactor: factor)
        return line
    }

    /// Prefix widths as if every style were `factor` times its size; letter spacing, and boxes
    /// given in points, do not scale.
    /// Whether lines of `scaledPrefix(factor)` may be found by bisection: the scaled prefix
    /// never falls where the unscaled one does not, the letter spacing (which does not scale)
    /// is not negative, and the factor does not grow the advances past it (a unit's scaled
    /// step is its step times the factor plus the spacing times one minus it).
    func bisects(scaledBy factor: Double) -> Bool {
        let spacing = text.styles.first?.letterSpacing ?? 0
        return bisects && factor > 0 && (spacing == 0 || (spacing > 0 && factor <= 1))
    }

    func scaledPrefix(_ factor: Double) -> [Double] {
        let spacing = text.styles.first?.letterSpacing ?? 0
        let prefix = shaped.prefix
        let fixedBoxes = shaped.boxes.contains { !$0.scalesWithLine }
        guard spacing != 0 || fixedBoxes else { return prefix.map { $0 * factor } }
        var scaled = prefix
        var fixed = 0.0  // what does not scale, up to the unit
        var nextBox = 0
        for i in 0..<text.units.count {
            if analysis.flags[i].contains(.graphemeStart) && !analysis.flags[i].contains(.hardBreak) { fixed += spacing }
            while nextBox < shaped.boxes.count && shaped.boxes[nextBox].range.lowerBound < i { nextBox += 1 }
            if nextBox < shaped.boxes.count, shaped.boxes[nextBox].range.lowerBound == i, !shaped.boxes[nextBox].scalesWithLine {
                fixed += shaped.boxes[nextBox].baseWidth
            }
            scaled[i + 1] = (prefix[i + 1] - fixed) * factor + fixed
        }
        return scaled
    }
}
