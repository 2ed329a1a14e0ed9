/// The state of one paragraph layout as it moves through the stages.
///
/// Built by analyze, itemize, shape and measure; then break and position run over it.
/// A class: every stage reads the same arrays, and copying them per call would cost more
/// than the stages themselves.
final class ParagraphWork {
    let request: ParagraphRequest
    let text: AttributedText
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

    init(request: ParagraphRequest, fonts: FontRegistry, shaper: Shaper) throws {
        self.request = request
        self.text = request.text
        self.shaper = shaper
        let analysis = TextAnalysis.analyze(text, direction: request.direction)
        self.analysis = analysis
        self.fallback = try FontFallback(registry: fonts, styles: text.styles)
        self.shapingStyles = text.styles.map(ShapingStyle.init)
        self.shapingUnits = analysis.hasControls ? Self.replacingControls(text.units) : text.units
        let items = Itemizer(text: text, analysis: analysis, fallback: fallback).itemize()
        self.items = items
        let styles = shapingStyles
        let count = text.units.count
        let units = shapingUnits
        self.runs = items.map { item in
            shaper.shape(units, range: item.range, context: 0..<count, font: item.font, rtl: item.isRTL,
                         script: item.script, style: styles[item.style])
        }
        self.prefix = Self.measure(items: items, runs: runs, text: text, flags: analysis.flags)
    }

    /// Per-unit advances summed into prefix widths. A cluster's advance is charged to its
    /// first unit; letter spacing to every grapheme start.
    static func measure(items: [Item], runs: [ShapedRun], text: AttributedText,
                        flags: ContiguousArray<UnitFlags>) -> [Double] {
        let count = text.units.count
        var prefix = [Double](repeating: 0, count: count + 1)
        for (item, run) in zip(items, runs) {
            let style = text.styles[item.style]
            let scale = item.font.scale(for: style.size)
            let base = run.range.lowerBound + 1
            for glyph in run.glyphs { prefix[Int(glyph.cluster) + base] += Double(glyph.advance) * scale }
            if style.letterSpacing != 0 {
                for unit in item.range where flags[unit].contains(.graphemeStart) {
                    prefix[unit + 1] += style.letterSpacing
                }
            }
        }
        for i in 0..<count { prefix[i + 1] += prefix[i] }
        return prefix
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
        var low = 0
        var high = runs.count - 1
        while low < high {
            let mid = (low + high) / 2
            if runs[mid].range.upperBound <= offset { low = mid + 1 } else { high = mid }
        }
        return runs[low].style
    }

    func paragraph(at offset: Int) -> BidiParagraph {
        analysis.paragraphs.first { $0.range.contains(offset) } ?? analysis.paragraphs.last!
    }

    /// Runs break and position over the shaped text.
    func run() -> ParagraphLayout {
        let count = text.units.count
        guard count > 0 else {
            return ParagraphLayout(lines: [], runs: [], visibleRange: 0..<0, size: Size(width: 0, height: 0), direction: firstDirection)
        }
        let breaker = LineBreaker(flags: analysis.flags, prefix: prefix, width: request.width)
        let broken = breaker.breakLines(in: 0..<count)
        return position(broken)
    }
}
