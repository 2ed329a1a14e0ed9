import LayoutEngine
import CCairo

extension Renderer {
    /// True when `run` is drawn by its paint's fill (`drawFills`) rather than in a colour: a
    /// text effect draws its own layers instead.
    func isFilled(_ run: GlyphRunLayout, _ scene: RenderScene) -> Bool {
        scene.paints.indices.contains(run.paint) && scene.paints[run.paint].isFilledByRegion
    }

    /// Each fill region: the glyphs of its runs as a clip, and its gradient (its ends padded
    /// past the points) or its picture (placed in the box as its content mode says) painted
    /// through it. A picture the render request lacks, or that Cairo cannot read, leaves the
    /// glyphs in their colour.
    func drawFills(_ scene: RenderScene, _ cr: OpaquePointer, budget: WorkBudget) throws(LayoutError) {
        guard !scene.fillRegions.isEmpty else { return }
        var pictures: [Int: OpaquePointer?] = [:]
        defer { for case let picture? in pictures.values { cairo_surface_destroy(picture) } }
        let held = FillRegions.runs(scene.runs, by: scene.fillRegions)
        for (index, region) in scene.fillRegions.enumerated() {
            try budget.check()
            // A region is drawn as its runs are filled (`isFilled`: a fill, and no effect drawing its own layers).
            guard scene.paints.indices.contains(region.paint), scene.paints[region.paint].isFilledByRegion,
                  let fill = scene.paints[region.paint].fill else { continue }
            let runs = held[index]
            guard !runs.isEmpty else { continue }
            cairo_save(cr)
            for run in runs { glyphPath(cr, scene.runs[run], angles: scene.angles(of: run)) }
            switch fill.kind {
            case let .linearGradient(_, _, stops):
                let pattern = cairo_pattern_create_linear(region.start.x, region.start.y, region.end.x, region.end.y)!
                fillPath(with: pattern, stops: stops, cr)
            case let .radialGradient(_, _, stops):
                let dx = region.end.x - region.start.x, dy = region.end.y - region.start.y
                let pattern = cairo_pattern_create_radial(region.start.x, region.start.y, 0, region.start.x, region.start.y,
                                                          (dx * dx + dy * dy).squareRoot())!
                fillPath(with: pattern, stops: stops, cr)
            case let .image(index, mode):
                if pictures.index(forKey: index) == nil {
                    // Decoded once a picture, however many regions it fills; nil where it cannot be.
                    pictures[index] = .some(index < scene.fillImages.count ? Self.decodePNG(scene.fillImages[index]) : nil)
                }
                if let picture = pictures[index] ?? nil {
                    cairo_clip(cr)
                    drawPicture(picture, in: region.box, mode: mode, cr)
                } else {
                    setColor(cr, scene.paints[region.paint].color ?? scene.textColor)
                    cairo_fill(cr)
                }
            }
            cairo_new_path(cr)
            cairo_restore(cr)
        }
    }

    /// Fills the current path with `pattern`'s stops, the end colours going on past its ends.
    private func fillPath(with pattern: OpaquePointer, stops: [GradientStop], _ cr: OpaquePointer) {
        addStops(stops, to: pattern)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_set_source(cr, pattern)
        cairo_fill(cr)
        cairo_pattern_destroy(pattern)
    }
}

extension TextPaint {
    /// The glyphs take their fill region's gradient or picture: a fill, and no effect, which
    /// draws its own layers.
    var isFilledByRegion: Bool { fill != nil && effect == nil }
}
