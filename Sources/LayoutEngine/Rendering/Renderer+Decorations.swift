import CCairo

extension Renderer {
    /// Span fills (`behindText`) or underlines and strikethroughs: each rect filled in the
    /// decoration's colour, or the text colour when it has none.
    func drawDecorations(_ scene: RenderScene, _ cr: OpaquePointer, behindText: Bool) {
        for decoration in scene.decorations where (decoration.kind == .background) == behindText {
            setColor(cr, decoration.color ?? scene.textColor)
            for rect in decoration.rects { cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height) }
            cairo_fill(cr)
        }
    }

    /// Each shadowed run's glyphs, moved by the shadow's offset, in its colour. Cairo has no
    /// blur: a blurred shadow is the outlines stroked wide to narrow, each pass faint, around a
    /// fill, as the neon glow is, so its edge fades over the blur radius in PNG, SVG and PDF alike.
    func drawShadows(_ scene: RenderScene, _ cr: OpaquePointer, budget: WorkBudget) throws(LayoutError) {
        guard scene.paints.contains(where: { $0.shadow != nil }) else { return }
        let passes = 8
        for (index, run) in scene.runs.enumerated() {
            if index % 64 == 0 { try budget.check() }
            guard scene.paints.indices.contains(run.paint), let shadow = scene.paints[run.paint].shadow else { continue }
            cairo_save(cr)
            cairo_translate(cr, shadow.offset.x, shadow.offset.y)
            let color = shadow.color
            if shadow.blurRadius > 0 {
                cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
                setColor(cr, Color(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha / Double(passes)))
                for pass in 0..<passes {
                    cairo_set_line_width(cr, shadow.blurRadius * 2 * Double(passes - pass) / Double(passes))
                    glyphPath(cr, run)
                    cairo_stroke(cr)
                }
                // The glyphs' own area, under the halo, at half strength: the blur takes ink out of them.
                setColor(cr, Color(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha / 2))
            } else {
                setColor(cr, color)
            }
            glyphPath(cr, run)
            cairo_fill(cr)
            cairo_restore(cr)
        }
    }

    /// A run drawn as its effect's layers, in the colour the scene gives its text.
    func drawEffect(_ effect: TextEffect, _ run: GlyphRunLayout, textColor: Color, _ cr: OpaquePointer) {
        for layer in effect.layers(textColor: textColor) {
            setColor(cr, layer.color)
            switch layer.mode {
            case .fill:
                cairo_save(cr)
                cairo_translate(cr, layer.offset.x, layer.offset.y)
                glyphPath(cr, run)
                cairo_fill(cr)
                cairo_restore(cr)
            case .stroke:
                cairo_set_line_width(cr, layer.strokeWidth)
                cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
                glyphPath(cr, run)
                cairo_stroke(cr)
            case .innerEdge:
                // Clipped to the glyphs, fill everything but the glyphs moved by the offset.
                cairo_save(cr)
                glyphPath(cr, run)
                cairo_clip(cr)
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
                var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
                cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
                cairo_rectangle(cr, x1 - 1, y1 - 1, x2 - x1 + 2, y2 - y1 + 2)
                cairo_translate(cr, layer.offset.x, layer.offset.y)
                glyphPath(cr, run)
                cairo_fill(cr)
                cairo_restore(cr)
            }
        }
    }
}
