import LayoutEngine
import CCairo

extension Renderer {
    /// A background as YYText draws a bordered one: the shadow it casts, its fill, and its border
    /// along the outline over the fill. A blurred shadow is blurred in a PNG and drawn as
    /// strokes fading outward in SVG and PDF, as a text shadow is (`drawShadows`).
    func drawBackground(_ background: Background, _ scene: RenderScene, _ cr: OpaquePointer, raster: Double?,
                        budget: WorkBudget) throws(LayoutError) {
        let rule = background.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING
        let outline = { (context: OpaquePointer) throws(LayoutError) in
            cairo_set_fill_rule(context, rule)
            self.addPath(context, background.path)
        }
        if let shadow = background.shadow {
            if shadow.blurRadius == 0 {
                cairo_save(cr)
                cairo_translate(cr, shadow.offset.x, shadow.offset.y)
                setColor(cr, shadow.color)
                try outline(cr)
                cairo_fill(cr)
                cairo_restore(cr)
            } else if let raster {
                try drawBlurredShadow(shadow, size: scene.size, origin: scene.origin, cr, raster: raster, budget: budget, shape: outline)
            } else {
                try strokeShadow(shadow, cr, budget: budget, shape: outline)
            }
        }
        try outline(cr)
        setColor(cr, background.fill)
        cairo_fill(cr)
        if let border = background.border {
            try outline(cr)
            setColor(cr, border.color)
            cairo_set_line_width(cr, border.width)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_set_dash(cr, border.dashes, Int32(border.dashes.count), 0)
            cairo_stroke(cr)
            cairo_set_dash(cr, nil, 0, 0)
        }
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
    }
}
