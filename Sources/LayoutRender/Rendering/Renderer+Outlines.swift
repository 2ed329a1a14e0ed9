import LayoutEngine
import LayoutFonts
import CCairo

/// Variable fonts are drawn from HarfBuzz's outlines at the run's instance, not through Cairo's
/// FreeType backend: Debian's Cairo 1.16 leaks the `FT_MM_Var` it reads from every variable
/// FreeType face it is given (fixed upstream after 1.16), about 300 bytes each time, and a
/// client's variable font makes a new face for every picture. The outlines are the same ones
/// FreeType would scale (HarfBuzz reads `glyf`/`CFF2` with `gvar` applied), filled unhinted.
extension Renderer {
    /// True when the run's glyphs are drawn from outlines rather than through Cairo's fonts: a
    /// variable face's, a synthesised one's (the engine's emboldened and slanted outlines, the
    /// ones its ink boxes measure, rather than Cairo's own synthesis of the face), and one that
    /// FreeType cannot open but HarfBuzz shapes (a face without `hhea`, `loca` or `name`).
    func drawsFromOutlines(_ run: GlyphRunLayout) -> Font? {
        guard let font = fonts.font(id: run.instanceID), !font.isColorEmoji,
              font.isVariable || !font.synthesis.isEmpty || cairoFace(run.instanceID) == nil else {
            return nil
        }
        return font
    }

    /// Adds the run's glyph outlines to the current path: each glyph at its origin, em scaled to
    /// the run's size, y up in the font flipped, a sideways glyph turned as `setFont` turns it
    /// and a glyph on a path by its angle.
    /// The outlines are the font's own (`Font.drawOutline`): HarfBuzz's, grown and slanted for a
    /// synthesised face.
    func appendOutlines(_ cr: OpaquePointer, _ run: GlyphRunLayout, font: Font, angles: [Double]? = nil) {
        let path = CairoOutline(cr)
        let scale = run.size / Double(font.unitsPerEm)
        for (index, glyph) in run.glyphs.enumerated() {
            cairo_save(cr)
            cairo_translate(cr, glyph.position.x, glyph.position.y)
            if run.orientation == .sideways { cairo_rotate(cr, .pi / 2) }
            if let angles { cairo_rotate(cr, angles[index]) }
            cairo_scale(cr, scale, -scale)
            font.drawOutline(of: glyph.id, into: path)
            cairo_restore(cr)
        }
    }
}

/// An outline added to a Cairo context's path, in the context's user space.
final class CairoOutline: OutlineSink {
    private let cr: OpaquePointer
    init(_ cr: OpaquePointer) { self.cr = cr }

    func move(to x: Float, _ y: Float) { cairo_move_to(cr, Double(x), Double(y)) }
    func line(to x: Float, _ y: Float) { cairo_line_to(cr, Double(x), Double(y)) }
    func quad(_ cx: Float, _ cy: Float, to x: Float, _ y: Float) {
        // A quadratic as the cubic with the same curve (2/3 of the way to the control point).
        var x0 = 0.0, y0 = 0.0
        cairo_get_current_point(cr, &x0, &y0)
        let (cx, cy, x, y) = (Double(cx), Double(cy), Double(x), Double(y))
        cairo_curve_to(cr, x0 + 2 / 3 * (cx - x0), y0 + 2 / 3 * (cy - y0), x + 2 / 3 * (cx - x), y + 2 / 3 * (cy - y), x, y)
    }
    func cubic(_ c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float, to x: Float, _ y: Float) {
        cairo_curve_to(cr, Double(c1x), Double(c1y), Double(c2x), Double(c2y), Double(x), Double(y))
    }
    func close() { cairo_close_path(cr) }
}
