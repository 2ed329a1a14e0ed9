/// The state of one paragraph layout as it moves through the stages.
///
/// Built by analyze, itemize, shape and measure; then break and position run over it.
/// A class: every stage reads the same arrays, and copying them per call would cost more
/// than the stages themselves.
final class ParagraphWork {
    let request: ParagraphRequest
    /// The request's text, read in place: a stored copy cost a retain per array.
    var text: AttributedText { request.text }
    let analysis: TextAnalysis
    let fallback: FontFallback
    let shaper: Shaper
    let shapingStyles: [ShapingStyle]
    /// The text HarfBuzz sees: tabs become spaces and other controls zero-width spaces.
    let shapingUnits: ContiguousArray<UInt16>
    let items: [Item]
    let runs: [ShapedRun]
    /// prefix[i] is the advance of units 0..<i in points, letter spacing included.
    let prefix: [Double]
    /// Where the arrays came from, and go back to when the work ends.
    let scratch: LayoutScratch
    /// Some style spaces its letters: positioning must look at every glyph's extra advance.
    let hasLetterSpacing: Bool
    /// Asked between pieces of work; stops a request past its time or cancelled.
    let budget: WorkBudget

    init(request: ParagraphRequest, fonts: FontRegistry, shaper: Shaper, budget: WorkBudget = .unlimited) throws {
        self.request = request
        self.budget = budget
        self.shaper = shaper
        self.fallback = try FontFallback(registry: fonts, styles: request.text.styles)
        self.hasLetterSpacing = request.text.styles.contains { $0.letterSpacing != 0 }
        // A throw before every property is set drops the scratch with the work; once all are
        // set, deinit gives it back.
        let scratch = ScratchPool.shared.take()
        self.scratch = scratch
        let analysis = TextAnalysis.analyze(request.text, direction: request.direction, scratch: scratch)
        if let offset = analysis.overlongCluster {
            // Before anything is shaped; the scratch is dropped with this work, not pooled.
            throw LayoutError(.invalidArgument, "the grapheme cluster at UTF-16 offset \(offset) holds more than "
                              + "\(TextAnalysis.maxClusterScalars) code points (Unicode's Stream-Safe Text Format allows 30 marks in a row)",
                              field: "text")
        }
        self.analysis = analysis
        self.shapingStyles = request.text.styles.map(ShapingStyle.init)
        self.shapingUnits = analysis.hasControls ? Self.replacingControls(request.text.units) : request.text.units
        var items = scratch.items.takeEmptied()
        Itemizer.itemize(request.text, analysis: analysis, fallback: fallback, into: &items, scalars: &scratch.scalars)
        self.items = items
        let count = request.text.units.count
        var runs = scratch.runs.takeEmptied()
        runs.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            // Before anything is stored: a throw here drops the scratch with the work.
            if index % 64 == 0 { try budget.check() }
            runs.append(shaper.shape(shapingUnits, range: item.range, context: 0..<count, font: item.font, rtl: item.isRTL,
                                     script: item.script, style: shapingStyles[item.style]))
        }
        self.runs = runs
        var prefix = scratch.prefix.takeEmptied()
        Self.measure(items: items, runs: runs, text: request.text, flags: analysis.flags, into: &prefix)
        self.prefix = prefix
    }

    deinit {
        scratch.flags = analysis.flags
        scratch.levels = analysis.levels
        scratch.paragraphs = analysis.paragraphs
        scratch.items = items
        scratch.runs = runs
        scratch.prefix = prefix
        scratch.reshaped.removeAll(keepingCapacity: true)  // no piece points into them any more
        ScratchPool.shared.give(scratch, units: text.units.count)
    }

    /// Per-unit advances summed into prefix widths, appended to the empty `prefix`. A cluster's
    /// advance is charged to its first unit; letter spacing to every grapheme start.
    static func measure(items: [Item], runs: [ShapedRun], text: AttributedText,
                        flags: ContiguousArray<UnitFlags>, into prefix: inout [Double]) {
        let count = text.units.count
        prefix.append(contentsOf: repeatElement(0, count: count + 1))
        for (item, run) in zip(items, runs) {
            let scale = item.font.scale(for: text.styles[item.style].size)
            let letterSpacing = text.styles[item.style].letterSpacing
            let base = run.range.lowerBound + 1
            for glyph in run.glyphs.pointer { prefix[Int(glyph.cluster) + base] += Double(glyph.advance) * scale }
            if letterSpacing != 0 {
                for unit in item.range where flags[unit].contains(.graphemeStart) {
                    prefix[unit + 1] += letterSpacing
                }
            }
        }
        for i in 0..<count { prefix[i + 1] += prefix[i] }
    }

    static func replacingControls(_ units: ContiguousArray<UInt16>) -> ContiguousArray<UInt16> {
        var copy = units
        for i in copy.indices {
            let u = copy[i]
            if u == 0x09 { copy[i] = 0x20 } else if u < 0x20 || (u >= 0x7F && u < 0xA0) { copy[i] = 0x200B }
        }
        return copy
    }

    /// Style index of the unit at `offset`.
    func styleIndex(at offset: Int) -> Int {
        let runs = text.runs
        return runs[Self.bisect(runs.count, holding: offset) { runs[$0].range.upperBound }].style
    }

    /// The bidi paragraph holding `offset`, by bisection: a text of only line breaks has as
    /// many paragraphs as lines, and a scan per line made it quadratic.
    func paragraph(at offset: Int) -> BidiParagraph {
        let paragraphs = analysis.paragraphs
        return paragraphs[Self.bisect(paragraphs.count, holding: offset) { paragraphs[$0].range.upperBound }]
    }

    /// Of `count` sorted, gap-free ranges, the index of the one holding `offset` (the last one
    /// for an offset past them all), given each range's upper bound.
    @inline(__always)
    static func bisect(_ count: Int, holding offset: Int, upperBound: (Int) -> Int) -> Int {
        var low = 0
        var high = count - 1
        while low < high {
            let mid = (low + high) / 2
            if upperBound(mid) <= offset { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Runs break and position over the shaped text.
    func run() throws -> ParagraphLayout {
        let count = text.units.count
        guard count > 0 else {
            return ParagraphLayout(lines: [], runs: [], visibleRange: 0..<0, size: Size(width: 0, height: 0), direction: firstDirection)
        }
        let breaker = LineBreaker(flags: analysis.flags, prefix: prefix, width: request.width)
        var broken = scratch.broken.takeEmptied()
        breaker.breakLines(in: 0..<count, into: &broken)
        try budget.check()
        let layout = position(broken)
        scratch.broken = broken
        return layout
    }
}
