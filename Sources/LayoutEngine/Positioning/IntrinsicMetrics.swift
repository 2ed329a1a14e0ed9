/// What a client sizing a box to its text asks before laying it out in one: the text's
/// intrinsic widths along its lines, as CSS has them (`min-content`, `max-content`; SkParagraph's
/// `getMinIntrinsicWidth` and `getMaxIntrinsicWidth`), and each run's typographic bounds.
public struct IntrinsicMetrics: Equatable, Sendable {
    /// The widest piece of text between two break opportunities: no width narrower can hold it
    /// without cutting a word. Whitespace that hangs at its end is left out.
    public var minContent: Double
    /// The widest paragraph (or hard line) laid on one line: no width wider changes the lines.
    public var maxContent: Double
    /// One per run of the layout, in its order.
    public var runs: [TypographicBounds] = []

    public init(minContent: Double, maxContent: Double, runs: [TypographicBounds] = []) {
        self.minContent = minContent
        self.maxContent = maxContent
        self.runs = runs
    }
}

/// A run's font's ascent, descent (positive) and line gap at the run's size, in points: CoreText's
/// `CTRunGetTypographicBounds`.
public struct TypographicBounds: Equatable, Sendable {
    public var ascent: Double
    public var descent: Double
    public var leading: Double
}

extension ParagraphLayouter {
    /// Sets `layout.intrinsicMetrics` from the text `positioner` laid out and the layout's runs.
    func measureIntrinsics(_ layout: inout ParagraphLayout, _ positioner: TextPositioner) throws(LayoutError) {
        var metrics = try positioner.intrinsicWidths()
        metrics.runs = layout.runs.map { run in
            fonts.font(id: run.instanceID)?.typographicBounds(at: run.size) ?? TypographicBounds(ascent: 0, descent: 0, leading: 0)
        }
        layout.intrinsicMetrics = metrics
    }
}

extension TextPositioner {
    /// The shaped text's intrinsic widths, from its break opportunities and its advances' prefix
    /// sums: one pass over the text, looking at the budget as it goes. Indents, hyphenation and
    /// the box's shape are not counted: the widths are the text's own.
    func intrinsicWidths() throws(LayoutError) -> IntrinsicMetrics {
        var widths = IntrinsicMetrics(minContent: 0, maxContent: 0)
        for index in 0..<paragraphCount {
            let paragraph = self.paragraph(index)
            let flags = paragraph.analysis.flags
            let prefix = paragraph.shaped.prefix
            let count = paragraph.text.units.count
            guard count > 0 else { continue }
            var pieceStart = 0, lineStart = 0
            for end in 1...count {
                if end % 4096 == 0 { try budget.check() }
                let mandatory = end < count && flags[end].contains(.mustBreakBefore)
                guard end == count || mandatory || flags[end].contains(.breakBefore) else { continue }
                widths.minContent = max(widths.minContent, prefix[flags.contentEnd(end, from: pieceStart)] - prefix[pieceStart])
                if end == count || mandatory {
                    widths.maxContent = max(widths.maxContent, prefix[flags.contentEnd(end, from: lineStart)] - prefix[lineStart])
                    lineStart = end
                }
                pieceStart = end
            }
        }
        return widths
    }
}
