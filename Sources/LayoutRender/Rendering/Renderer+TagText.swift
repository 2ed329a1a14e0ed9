import LayoutEngine
import CCairo

extension Renderer {
    /// Pixels a point of a faded tag's text in an SVG picture (`drawTagText`): the text stays
    /// sharp on a screen of twice the photo's points, zoomed in twice more.
    static let fadedTextPixelsPerPoint = 4.0

    /// A tag's text (its labels' backings, then their glyphs) at the moment's opacity.
    ///
    /// Fully shown, it is drawn as it is. Faded, it is one group painted at that opacity:
    /// colour emoji ignore the source's alpha, and faded text drawn over its faded backing
    /// would show the backing through it. Cairo 1.16's SVG surface loses a copy of each group
    /// painted into it, every picture (found by `scripts/fuzz.sh --address`; a C program shows
    /// the same), so into SVG the group is drawn as a picture instead (`paintAsPicture`), which
    /// Cairo embeds without loss. PNG and PDF keep the group.
    func drawTagText(_ tag: TagGeometry, _ scene: TagScene, _ cr: OpaquePointer) {
        let opacity = scene.state.textOpacity
        guard opacity > 0 else { return }
        let draw = { (context: OpaquePointer) in
            if let backing = tag.legibility.backing {
                self.setColor(context, backing)
                for label in tag.labels {
                    if let rect = label.backingRect { self.addPath(context, Path.roundedRect(rect, radius: tag.legibility.backingRadius)) }
                }
                cairo_fill(context)
            }
            self.setColor(context, scene.foreground)
            for label in tag.labels { for run in label.runs { self.showGlyphs(context, run) } }
        }
        if opacity >= 1 {
            draw(cr)
        } else if cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_SVG {
            paintAsPicture(cr, alpha: opacity, draw)
        } else {
            cairo_push_group(cr)
            draw(cr)
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, opacity)
        }
    }

    /// What `draw` draws, drawn into a picture of `fadedTextPixelsPerPoint` pixels a point (at
    /// most `maxPixels`, and Cairo's largest side) over its ink, then painted on `cr` at `alpha`.
    /// The ink is found from a recording that is never painted on `cr` (`ink(of:)`); the
    /// picture is drawn from `draw` itself, as the group would be.
    func paintAsPicture(_ cr: OpaquePointer, alpha: Double, _ draw: (OpaquePointer) -> Void) {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(cr, &matrix)
        // The ink in `cr`'s device space, whole device units around it.
        guard let ink = Self.ink(of: { recorder in
            cairo_set_matrix(recorder, &matrix)
            draw(recorder)
        }) else { return }
        let (left, top) = (ink.x.rounded(.down), ink.y.rounded(.down))
        let (width, height) = ((ink.x + ink.width).rounded(.up) - left, (ink.y + ink.height).rounded(.up) - top)
        let pixels = min(Self.fadedTextPixelsPerPoint, (Double(maxPixels) / (width * height)).squareRoot(),
                         Double(Self.maxSide) / max(width, height))
        let picture = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(saturating: (width * pixels).rounded(.up)),
                                                 Int32(saturating: (height * pixels).rounded(.up)))!
        defer { cairo_surface_destroy(picture) }
        let painter = cairo_create(picture)!
        cairo_scale(painter, pixels, pixels)
        cairo_translate(painter, -left, -top)
        cairo_transform(painter, &matrix)
        draw(painter)
        cairo_destroy(painter)
        cairo_surface_flush(picture)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_translate(cr, left, top)
        cairo_scale(cr, 1 / pixels, 1 / pixels)
        cairo_set_source_surface(cr, picture, 0, 0)
        cairo_paint_with_alpha(cr, alpha)
        cairo_restore(cr)
    }
}
