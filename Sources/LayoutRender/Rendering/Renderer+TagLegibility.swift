import LayoutEngine
import CCairo

extension Renderer {
    /// The soft shadow a tag casts around what is drawn of it at the scene's moment (its lines
    /// as far as they reach, its dot, its text), so white parts read on a light photo
    /// (`TagLegibility`). It fades with the tag: gone when the tag is hidden. In a PNG a real blur
    /// (`drawBlurredShadow`); in SVG and PDF, which Cairo cannot blur, the same parts stroked wide
    /// to narrow at low opacity.
    func drawLegibilityShadow(_ tag: TagGeometry, _ scene: TagScene, _ cr: OpaquePointer, raster: Double?,
                              budget: WorkBudget) throws(LayoutError) {
        let state = scene.state, legibility = tag.legibility
        let presence = max(state.textOpacity, state.dotOpacity, state.strokeEnd)
        guard legibility.shadowBlur > 0, legibility.shadowOpacity > 0, presence > 0 else { return }
        let color = scene.shadow
        let shadow = TextShadow(offset: Point(x: 0, y: 0), blurRadius: legibility.shadowBlur,
                                color: Color(red: color.red, green: color.green, blue: color.blue,
                                             alpha: color.alpha * legibility.shadowOpacity * presence))
        /// The lines as far as they are drawn.
        func addLines(_ context: OpaquePointer) {
            for label in tag.labels {
                let points = TagScene.stroke(label, upTo: state.strokeEnd)
                guard points.count > 1 else { continue }
                cairo_move_to(context, points[0].x, points[0].y)
                for point in points.dropFirst() { cairo_line_to(context, point.x, point.y) }
            }
        }
        /// The dot and the text, as drawn.
        func addAreas(_ context: OpaquePointer) {
            if state.dotOpacity > 0 {
                cairo_new_sub_path(context)
                cairo_arc(context, tag.dot.center.x, tag.dot.center.y, tag.dot.radius, 0, 2 * .pi)
            }
            if state.textOpacity > 0 { for label in tag.labels { for run in label.runs { glyphPath(context, run) } } }
        }
        if let raster {
            try drawBlurredShadow(shadow, size: scene.layout.photo, origin: Point(x: 0, y: 0), cr, raster: raster, budget: budget) { mask in
                cairo_set_line_width(mask, tag.lineWidth)
                cairo_set_line_join(mask, CAIRO_LINE_JOIN_ROUND)
                cairo_set_line_cap(mask, CAIRO_LINE_CAP_ROUND)
                addLines(mask)
                cairo_stroke(mask)
                addAreas(mask)  // filled by the blur's own fill
            }
            return
        }
        let passes = 4
        cairo_save(cr)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        setColor(cr, shadow.color, alpha: 1 / Double(passes))
        for pass in 0..<passes {
            cairo_set_line_width(cr, tag.lineWidth + shadow.blurRadius * 2 * Double(passes - pass) / Double(passes))
            addLines(cr)
            addAreas(cr)
            cairo_stroke(cr)
        }
        cairo_restore(cr)
    }
}
