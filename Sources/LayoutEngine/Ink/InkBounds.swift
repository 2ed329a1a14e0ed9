/// Where a layout puts ink, beside where its lines and advances are: the union of its glyphs'
/// ink boxes (each glyph's outline bounds from the font, HarfBuzz's `hb_font_get_glyph_extents`,
/// placed and turned as the renderer draws it) and its attachments' boxes, per glyph run, per
/// line and for the whole layout, and the first glyph's ink box (YYText's `firstGlyphPos`). A
/// client crops tight, tests collisions and centres text optically with them. Shadows, effects
/// and decorations draw beyond the glyphs; their own geometry is in the layout.
public struct InkBounds: Equatable, Sendable {
    /// One per glyph run, in the layout's order; nil for a run whose glyphs have no ink (spaces).
    public var runs: [Rect?]
    /// One per line; nil for a line with no ink.
    public var lines: [Rect?]
    /// The whole layout's; nil when nothing has ink.
    public var layout: Rect?
    /// The ink box of the text's first glyph with ink (the first in the text's order on the
    /// first line that has ink).
    public var firstGlyph: Rect?

    /// Measures `layout`'s ink with the fonts it was laid out with.
    public static func measure(_ layout: ParagraphLayout, fonts: FontRegistry) -> InkBounds {
        var bounds = InkBounds(runs: [], lines: Array(repeating: nil, count: layout.lines.count), layout: nil, firstGlyph: nil)
        bounds.runs.reserveCapacity(layout.runs.count)
        var first: (cluster: Int, line: Int, rect: Rect)?
        for run in layout.runs {
            var ink: Rect?
            if let font = fonts.font(id: run.instanceID) {
                let scale = font.scale(for: run.size)
                for glyph in run.glyphs {
                    guard let box = glyphInk(font.inkExtents(glyph.id), at: glyph.position, scale: scale, sideways: run.orientation == .sideways)
                    else { continue }
                    ink = ink.map { $0.union(box) } ?? box
                    if !run.isInserted, first == nil || run.lineIndex < first!.line
                        || (run.lineIndex == first!.line && glyph.cluster < first!.cluster) {
                        first = (glyph.cluster, run.lineIndex, box)
                    }
                }
            }
            bounds.runs.append(ink)
            if let ink, bounds.lines.indices.contains(run.lineIndex) {
                bounds.lines[run.lineIndex] = bounds.lines[run.lineIndex].map { $0.union(ink) } ?? ink
            }
        }
        for box in layout.attachments where bounds.lines.indices.contains(box.lineIndex) && box.rect.width > 0 && box.rect.height > 0 {
            bounds.lines[box.lineIndex] = bounds.lines[box.lineIndex].map { $0.union(box.rect) } ?? box.rect
        }
        bounds.layout = bounds.lines.compactMap { $0 }.reduce(nil) { whole, line in whole.map { $0.union(line) } ?? line }
        bounds.firstGlyph = first?.rect
        return bounds
    }

    /// A glyph's ink box on the page: its extents (font units, y up) scaled, flipped to y down,
    /// and for a sideways glyph of vertical text turned 90° clockwise as the renderer turns it.
    static func glyphInk(_ extents: (x: Int32, y: Int32, width: Int32, height: Int32), at origin: Point, scale: Double,
                         sideways: Bool) -> Rect? {
        guard extents.width != 0 && extents.height != 0 else { return nil }
        let left = Double(extents.x) * scale, right = Double(extents.x + extents.width) * scale
        let top = Double(extents.y) * scale, bottom = Double(extents.y + extents.height) * scale  // y up: top > bottom
        if sideways {
            // Turned clockwise: the glyph's y (up) runs to the page's right, its x down the page.
            return Rect(x: origin.x + min(top, bottom), y: origin.y + min(left, right), width: abs(top - bottom),
                        height: abs(right - left))
        }
        return Rect(x: origin.x + min(left, right), y: origin.y - max(top, bottom), width: abs(right - left), height: abs(top - bottom))
    }
}
