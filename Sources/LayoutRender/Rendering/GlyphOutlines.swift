import LayoutEngine
import LayoutFonts

/// Glyph outlines as SVG path data, as the font draws them (`Font.drawOutline`: HarfBuzz's own
/// OpenType functions, glyf and CFF): for pictures written without Cairo, such as the tags'
/// animated SVG. Colour bitmap glyphs (Noto Color Emoji) have no outline; `svgPath` leaves them
/// out and says which they were.
enum GlyphOutlines {
    /// Collects one glyph's commands, already placed: font units scaled, y flipped, moved to the origin.
    final class Collector: OutlineSink {
        var data = ""
        var scale = 1.0
        var origin = Point(x: 0, y: 0)
        var drewSomething = false

        func point(_ x: Float, _ y: Float) -> String {
            "\(format(origin.x + Double(x) * scale)) \(format(origin.y - Double(y) * scale))"
        }

        func move(to x: Float, _ y: Float) { data += "M\(point(x, y))"; drewSomething = true }
        func line(to x: Float, _ y: Float) { data += "L\(point(x, y))" }
        func quad(_ cx: Float, _ cy: Float, to x: Float, _ y: Float) { data += "Q\(point(cx, cy)) \(point(x, y))" }
        func cubic(_ c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float, to x: Float, _ y: Float) {
            data += "C\(point(c1x, c1y)) \(point(c2x, c2y)) \(point(x, y))"
        }
        func close() { data += "Z" }

        func format(_ value: Double) -> String {
            let rounded = (value * 100).rounded() / 100
            return rounded == rounded.rounded() ? String(Int(saturating: rounded)) : String(rounded)
        }
    }

    /// The run's outlines as one path's data, and the glyphs that had none (bitmap glyphs).
    static func svgPath(_ run: GlyphRunLayout, fonts: FontRegistry) -> (data: String, withoutOutline: [PositionedGlyph]) {
        guard let font = fonts.font(id: run.instanceID) else { return ("", Array(run.glyphs)) }
        let collector = Collector()
        collector.scale = run.size / Double(font.unitsPerEm)
        var missing: [PositionedGlyph] = []
        for glyph in run.glyphs {
            collector.origin = glyph.position
            collector.drewSomething = false
            if !font.isColorEmoji { font.drawOutline(of: glyph.id, into: collector) }
            if !collector.drewSomething, font.isColorEmoji { missing.append(glyph) }
        }
        return (collector.data, missing)
    }
}
