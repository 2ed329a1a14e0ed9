import CCairo
@testable import LayoutRender

/// Pictures the render tests draw for themselves: photos, attachments' pictures.
enum TestPictures {
    /// A PNG of `width` × `height` pixels that `draw` paints on a new Cairo context.
    static func png(_ format: cairo_format_t = CAIRO_FORMAT_ARGB32, width: Int32, height: Int32,
                    _ draw: (OpaquePointer) -> Void) -> [UInt8] {
        let surface = cairo_image_surface_create(format, width, height)!
        let cr = cairo_create(surface)!
        draw(cr)
        cairo_destroy(cr)
        let sink = ByteSink()
        cairo_surface_write_to_png_stream(surface, ByteSink.write, Unmanaged.passUnretained(sink).toOpaque())
        cairo_surface_destroy(surface)
        return sink.bytes
    }
}
