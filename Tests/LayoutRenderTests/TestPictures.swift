import CCairo
@testable import LayoutRender

/// Pictures the render tests draw for themselves: photos, attachments' pictures.
enum TestPictures {
    /// A PNG of `width` × `height` pixels that `draw` paints on a new Cairo context.
    static func png(_ format: cairo_format_t = CAIRO_FORMAT_ARGB32, width: Int32, height: Int32,
                    _ draw: (OpaquePointer) -> Void) -> [UInt8] {
        surface(format, width: width, height: height, draw) { surface in
            let sink = ByteSink()
            writePNG(surface, into: sink)
            return sink.bytes
        }
    }

    /// A surface of `width` × `height` pixels that `draw` paints, handed to `body`, then destroyed.
    static func surface<T>(_ format: cairo_format_t = CAIRO_FORMAT_ARGB32, width: Int32, height: Int32,
                           _ draw: (OpaquePointer) -> Void, _ body: (OpaquePointer) -> T) -> T {
        let surface = cairo_image_surface_create(format, width, height)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        draw(cr)
        cairo_destroy(cr)
        return body(surface)
    }

    /// `surface` encoded as a PNG into `sink`, as the renderer encodes: Cairo's status.
    @discardableResult
    static func writePNG(_ surface: OpaquePointer, into sink: ByteSink) -> cairo_status_t {
        cairo_surface_write_to_png_stream(surface, ByteSink.write, Unmanaged.passUnretained(sink).toOpaque())
    }

    /// Paints all of `cr` with a linear gradient from `start`'s colour at the top left to `end`'s
    /// at (`width`, `height`).
    static func paintDiagonalGradient(_ cr: OpaquePointer, width: Double, height: Double,
                                      from start: (Double, Double, Double), to end: (Double, Double, Double)) {
        let gradient = cairo_pattern_create_linear(0, 0, width, height)!
        cairo_pattern_add_color_stop_rgb(gradient, 0, start.0, start.1, start.2)
        cairo_pattern_add_color_stop_rgb(gradient, 1, end.0, end.1, end.2)
        cairo_set_source(cr, gradient)
        cairo_paint(cr)
        cairo_pattern_destroy(gradient)
    }
}
