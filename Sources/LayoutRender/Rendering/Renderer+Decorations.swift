import LayoutEngine
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

    /// Each shadowed run's glyphs, moved by the shadow's offset, in its colour: every paint's
    /// deepest shadows first, its top ones last. A sharp shadow is the glyphs once more; a
    /// blurred one is, in a PNG, a real blur of them at lower resolution (`drawBlurredShadow`),
    /// and in SVG and PDF, which Cairo cannot blur, the outlines stroked wide to narrow at low
    /// opacity around a half-strength fill, as the neon glow is.
    func drawShadows(_ scene: RenderScene, _ cr: OpaquePointer, raster: Double?, budget: WorkBudget) throws(LayoutError) {
        let depth = scene.paints.reduce(0) { max($0, $1.shadows.count) }
        for level in (0..<depth).reversed() {
            // The paints' shadows at this depth, each drawn once for all the runs that cast it.
            func shadow(of run: GlyphRunLayout) -> TextShadow? {
                guard scene.paints.indices.contains(run.paint) else { return nil }
                let shadows = scene.paints[run.paint].shadows
                return level < shadows.count ? shadows[level] : nil
            }
            var blurred: [TextShadow] = []
            for paint in scene.paints where level < paint.shadows.count && paint.shadows[level].blurRadius > 0
                && !blurred.contains(paint.shadows[level]) {
                blurred.append(paint.shadows[level])
            }
            for cast in blurred {
                try drawBlurred(cast, scene, cr, raster: raster, budget: budget) { shadow(of: $0) == cast }
            }
            // Sharp shadows: the glyphs once, moved.
            for (index, run) in scene.runs.enumerated() {
                if index % 256 == 0 { try budget.check() }
                guard let cast = shadow(of: run), cast.blurRadius == 0 else { continue }
                cairo_save(cr)
                cairo_translate(cr, cast.offset.x, cast.offset.y)
                setColor(cr, cast.color)
                glyphPath(cr, run, angles: scene.angles(of: index))
                cairo_fill(cr)
                cairo_restore(cr)
            }
        }
    }

    /// Each paint's glow: its runs blurred where they stand, laid `strength` times, in the
    /// glow's colour (the run's text colour when it names none). Over the shadows.
    func drawGlows(_ scene: RenderScene, _ cr: OpaquePointer, raster: Double?, budget: WorkBudget) throws(LayoutError) {
        // Each paint's glow in its colour, resolved once; the distinct ones, in order.
        let glows = scene.paints.map { paint in paint.glow.map { (glow: $0, color: $0.color ?? paint.color ?? scene.textColor) } }
        var drawn: [(glow: TextGlow, color: Color)] = []
        for case let glow? in glows where !drawn.contains(where: { $0.glow == glow.glow && $0.color == glow.color }) { drawn.append(glow) }
        for (glow, color) in drawn {
            let halo = TextShadow(offset: Point(x: 0, y: 0), blurRadius: glow.radius, color: color)
            try drawBlurred(halo, scene, cr, raster: raster, layers: glow.strength, budget: budget) { run in
                guard glows.indices.contains(run.paint), let own = glows[run.paint] else { return false }
                return own.glow == glow && own.color == color
            }
        }
    }

    /// `shadow` cast by the runs `casts` picks, `layers` times over: blurred once in a PNG and
    /// laid that often, stroked wide to narrow that often in SVG and PDF.
    private func drawBlurred(_ shadow: TextShadow, _ scene: RenderScene, _ cr: OpaquePointer, raster: Double?, layers: Int = 1,
                             budget: WorkBudget, casts: (GlyphRunLayout) -> Bool) throws(LayoutError) {
        let casting = scene.runs.enumerated().filter { casts($1) }
        // The runs that cast it, added to a path (the budget looked at every 256 runs).
        let addRuns = { (context: OpaquePointer) throws(LayoutError) in
            for (index, run) in casting {
                if index % 256 == 0 { try budget.check() }
                self.glyphPath(context, run, angles: scene.angles(of: index))
            }
        }
        if let raster {
            try drawBlurredShadow(shadow, size: scene.size, origin: scene.origin, cr, raster: raster, layers: layers, budget: budget,
                                  shape: addRuns)
        } else {
            for _ in 0..<layers { try strokeShadow(shadow, cr, budget: budget, shape: addRuns) }
        }
    }

    /// The shape `shape` adds (the runs that cast `shadow`, or a background's outline), stroked
    /// wide to narrow and filled, on `cr` as it stands: a blur for pictures Cairo cannot blur.
    func strokeShadow(_ shadow: TextShadow, _ cr: OpaquePointer, budget: WorkBudget,
                      shape: (OpaquePointer) throws(LayoutError) -> Void) throws(LayoutError) {
        let passes = 8
        let color = shadow.color
        cairo_save(cr)
        cairo_translate(cr, shadow.offset.x, shadow.offset.y)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        setColor(cr, Color(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha / Double(passes)))
        for pass in 0..<passes {
            try budget.check()
            cairo_set_line_width(cr, shadow.blurRadius * 2 * Double(passes - pass) / Double(passes))
            try shape(cr)
            cairo_stroke(cr)
        }
        // The shape's own area, under the halo, at half strength: the blur takes ink out of it.
        setColor(cr, Color(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha / 2))
        try shape(cr)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// A PNG's blurred shadow: the shape (the shadowed glyphs, a background, a tag) filled in the
    /// shadow's colour on a surface of lower resolution (the blur about 8 pixels there), blurred
    /// there by three box passes each way (close to a Gaussian of σ = blur / 2, as CSS reads a
    /// shadow's blur radius), and scaled up smoothly. Stroking wide outlines instead cost seconds
    /// on a long text at any resolution: the stroker's work is per outline segment, not per pixel.
    /// `size` is the picture's in points, `origin` where `cr`'s user space has its (0, 0) on it.
    /// `layers`: how many times the blurred mask is laid (a glow's strength), blurred once.
    ///
    /// The mask covers the shape's box and the blur's reach only, cut from the grid a mask of
    /// the whole picture would have: a small label's shadow on a large photo blurs the label's
    /// pixels, not the photo's. `BlurredShadowTests` holds the pictures to what a mask reaching
    /// across the picture gives, within 2 in 255 per channel (Cairo's rounding differs a little
    /// with the mask's size).
    func drawBlurredShadow(_ shadow: TextShadow, size: Size, origin: Point, _ cr: OpaquePointer, raster: Double, layers: Int = 1,
                           budget: WorkBudget, shape: (OpaquePointer) throws(LayoutError) -> Void) throws(LayoutError) {
        let maskScale = min(raster, 8 / shadow.blurRadius)
        // Room around the block for the blur to spread into.
        let spread = shadow.blurRadius * 1.5
        let gridWidth = Int32(saturating: ((size.width + 2 * spread) * maskScale).rounded(.up))
        let gridHeight = Int32(saturating: ((size.height + 2 * spread) * maskScale).rounded(.up))
        guard gridWidth > 0, gridHeight > 0 else { return }
        let sigma = shadow.blurRadius / 2 * maskScale
        let radius = max(1, Int(saturating: (((4 * sigma * sigma + 1).squareRoot() - 1) / 2).rounded()))
        // The shape, placed on the whole picture's grid and filled in the shadow's colour (a
        // shape may stroke as well as add areas the fill takes).
        func fill(_ context: OpaquePointer) throws(LayoutError) {
            cairo_scale(context, maskScale, maskScale)
            cairo_translate(context, origin.x + spread + shadow.offset.x, origin.y + spread + shadow.offset.y)
            setColor(context, shadow.color)
            let added = Result { () throws(LayoutError) in try shape(context) }
            cairo_fill(context)
            try added.get()
        }
        // First recorded, for its ink: which part of the grid the mask needs. Then drawn again
        // on that part, moved by whole pixels: a recording replayed there is not rasterised
        // exactly as the shape drawn there.
        guard let ink = try Self.ink(of: fill) else { return }
        // Three box passes reach 3 × radius pixels past the ink; one more for rounding.
        let reach = Double(3 * radius + 1)
        let left = Int32(saturating: max(0, (ink.x - reach).rounded(.down)))
        let top = Int32(saturating: max(0, (ink.y - reach).rounded(.down)))
        let right = min(gridWidth, Int32(saturating: (ink.x + ink.width + reach).rounded(.up)))
        let bottom = min(gridHeight, Int32(saturating: (ink.y + ink.height + reach).rounded(.up)))
        guard right > left, bottom > top else { return }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, right - left, bottom - top)!
        defer { cairo_surface_destroy(surface) }
        let mask = cairo_create(surface)!
        cairo_translate(mask, -Double(left), -Double(top))
        let drawn = Result { () throws(LayoutError) in try fill(mask) }
        cairo_destroy(mask)
        try drawn.get()
        cairo_surface_flush(surface)
        try Self.boxBlur(surface, radius: radius, passes: 3, budget: budget)
        cairo_surface_mark_dirty(surface)
        cairo_save(cr)
        cairo_translate(cr, -origin.x - spread, -origin.y - spread)
        cairo_scale(cr, 1 / maskScale, 1 / maskScale)
        cairo_set_source_surface(cr, surface, Double(left), Double(top))
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
        for _ in 0..<layers { cairo_paint(cr) }
        cairo_restore(cr)
    }

    /// Box blurs of `radius` pixels over an ARGB32 surface (premultiplied, so each channel blurs
    /// alike), `passes` times along rows, then as often along columns.
    static func boxBlur(_ surface: OpaquePointer, radius: Int, passes: Int, budget: WorkBudget) throws(LayoutError) {
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface)) / 4
        guard let data = cairo_image_surface_get_data(surface), width > 0, height > 0 else { return }
        let pixels = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self)
        var line = [UInt32](repeating: 0, count: max(width, height))
        let window = UInt32(2 * radius + 1)
        // One line of `count` pixels, `step` apart from `first`, blurred in place: a running sum
        // per channel over the window; outside the line counts as clear.
        func blur(first: Int, step: Int, count: Int) {
            for i in 0..<count { line[i] = pixels[first + i * step] }
            var b: UInt32 = 0, g: UInt32 = 0, r: UInt32 = 0, a: UInt32 = 0
            func channels(_ p: UInt32) -> (UInt32, UInt32, UInt32, UInt32) { (p & 0xFF, (p >> 8) & 0xFF, (p >> 16) & 0xFF, p >> 24) }
            for i in 0..<min(radius, count) {
                let (cb, cg, cr, ca) = channels(line[i])
                b += cb; g += cg; r += cr; a += ca
            }
            for i in 0..<count {
                if i + radius < count {
                    let (cb, cg, cr, ca) = channels(line[i + radius])
                    b += cb; g += cg; r += cr; a += ca
                }
                if i - radius - 1 >= 0 {
                    let (cb, cg, cr, ca) = channels(line[i - radius - 1])
                    b -= cb; g -= cg; r -= cr; a -= ca
                }
                pixels[first + i * step] = min(b / window, 255) | min(g / window, 255) << 8 | min(r / window, 255) << 16
                    | min(a / window, 255) << 24
            }
        }
        for _ in 0..<passes {
            try budget.check()
            for y in 0..<height { blur(first: y * stride, step: 1, count: width) }
        }
        for _ in 0..<passes {
            try budget.check()
            for x in 0..<width { blur(first: x, step: stride, count: height) }
        }
    }

    /// A run drawn as its effect's layers, in the colour the scene gives its text.
    func drawEffect(_ effect: TextEffect, _ run: GlyphRunLayout, textColor: Color, angles: [Double]? = nil, _ cr: OpaquePointer) {
        for layer in effect.layers(textColor: textColor) {
            setColor(cr, layer.color)
            switch layer.mode {
            case .fill:
                cairo_save(cr)
                cairo_translate(cr, layer.offset.x, layer.offset.y)
                glyphPath(cr, run, angles: angles)
                cairo_fill(cr)
                cairo_restore(cr)
            case .stroke:
                cairo_set_line_width(cr, layer.strokeWidth)
                cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
                glyphPath(cr, run, angles: angles)
                cairo_stroke(cr)
            case .innerEdge:
                // Clipped to the glyphs, fill everything but the glyphs moved by the offset.
                cairo_save(cr)
                glyphPath(cr, run, angles: angles)
                cairo_clip(cr)
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
                var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
                cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
                cairo_rectangle(cr, x1 - 1, y1 - 1, x2 - x1 + 2, y2 - y1 + 2)
                cairo_translate(cr, layer.offset.x, layer.offset.y)
                glyphPath(cr, run, angles: angles)
                cairo_fill(cr)
                cairo_restore(cr)
            }
        }
    }
}
