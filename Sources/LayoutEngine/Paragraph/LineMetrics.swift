/// The vertical metrics of a line box, in points.
struct LineMetrics {
    var ascent: Double = 0
    var descent: Double = 0
    var leading: Double = 0

    /// The tallest of the fonts on the line sets each metric, as CoreText does.
    mutating func include(_ font: Font, size: Double) {
        let scale = font.scale(for: size)
        ascent = max(ascent, Double(font.ascender) * scale)
        descent = max(descent, Double(font.descender) * scale)
        leading = max(leading, Double(font.lineGap) * scale)
    }

    /// The line box height and the baseline's distance from its top.
    ///
    /// Extra height from the multiple or a fixed height is split evenly above and below the
    /// text (CSS half-leading), so the text stays centred in its box.
    func box(multiple: Double, fixed: Double?) -> (height: Double, baseline: Double) {
        let natural = ascent + descent + leading
        let height = fixed ?? natural * multiple
        let halfLeading = (height - ascent - descent) / 2
        return (height, halfLeading + ascent)
    }
}
