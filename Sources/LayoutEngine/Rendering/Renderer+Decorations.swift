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
    /// half-strength fill, as the neon glow is, so its edge fades over the blur radius in PNG, SVG
    /// and PDF alike. In a PNG each blurred shadow is drawn on a surface of lower resolution, the
    /// blur radius about 8 pixels there, and scaled up smoothly: a soft edge loses nothing, and
    /// strokes 200 points wide around every glyph of a long text took 12 s at full resolution.
    func drawShadows(_ scene: RenderScene, _ cr: OpaquePointer, raster: Double?, budget: WorkBudget) throws(LayoutError) {
        guard scene.paints.contains(where: { $0.shadow != nil }) else { return }
        var blurred: [TextShadow] = []
        for shadow in scene.paints.compactMap(\.shadow) where shadow.blurRadius > 0 && !blurred.contains(shadow) { blurred.append(shadow) }
        for shadow in blurred {
            if let raster {
                try drawBlurredShadow(shadow, scene, cr, raster: raster, budget: budget)
            } else {
                try strokeShadow(shadow, scene, cr, budget: budget)
            }
        }
        // Sharp shadows: the glyphs once, moved.
        for (index, run) in scene.runs.enumerated() {
            if index % 256 == 0 { try budget.check() }
            guard scene.paints.indices.contains(run.paint), let shadow = scene.paints[run.paint].shadow, shadow.blurRadius == 0 else {
                continue
            }
            cairo_save(cr)
            cairo_translate(cr, shadow.offset.x, shadow.offset.y)
            setColor(cr, shadow.color)
            glyphPath(cr, run)
            cairo_fill(cr)
            cairo_restore(cr)
        }
    }

    /// The runs that cast `shadow`, stroked wide to narrow and filled, on `cr` as it stands.
    private func strokeShadow(_ shadow: TextShadow, _ scene: RenderScene, _ cr: OpaquePointer, budget: WorkBudget) throws(LayoutError) {
        let passes = 8
        let color = shadow.color
        cairo_save(cr)
        cairo_translate(cr, shadow.offset.x, shadow.offset.y)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        let runs = scene.runs.filter { scene.paints.indices.contains($0.paint) && scene.paints[$0.paint].shadow == shadow }
        setColor(cr, Color(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha / Double(passes)))
        for pass in 0..<passes {
            try budget.check()
            cairo_set_line_width(cr, shadow.blurRadius * 2 * Double(passes - pass) / Double(passes))
            for run in runs { glyphPath(cr, run) }
            cairo_stroke(cr)
        }
        // The glyphs' own area, under the halo, at half strength: the blur takes ink out of them.
        setColor(cr, Color(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha / 2))
        for run in runs { glyphPath(cr, run) }
        cairo_fill(cr)
        cairo_restore(cr)
    }

    private func drawBlurredShadow(_ shadow: TextShadow, _ scene: RenderScene, _ cr: OpaquePointer, raster: Double,
                                   budget: WorkBudget) throws(LayoutError) {
        let maskScale = min(raster, 8 / shadow.blurRadius)
        let width = Int32(saturating: (scene.size.width * maskScale).rounded(.up))
        let height = Int32(saturating: (scene.size.height * maskScale).rounded(.up))
        guard width > 0, height > 0 else { return }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height)!
        defer { cairo_surface_destroy(surface) }
        let mask = cairo_create(surface)!
        cairo_scale(mask, maskScale, maskScale)
        cairo_translate(mask, scene.origin.x, scene.origin.y)
        let drawn = Result { () throws(LayoutError) in try strokeShadow(shadow, scene, mask, budget: budget) }
        cairo_destroy(mask)
        try drawn.get()
        cairo_surface_flush(surface)
        cairo_save(cr)
        cairo_translate(cr, -scene.origin.x, -scene.origin.y)
        cairo_scale(cr, 1 / maskScale, 1 / maskScale)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
        cairo_paint(cr)
        cairo_restore(cr)
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
