import CCairo
import LayoutEngine

extension Renderer {
    /// A PNG's alpha channel, for a silhouette text flows around (`ImageSilhouette`); refused
    /// by name when the bytes are no PNG Cairo can read or the picture is larger than an
    /// attachment's may be. A picture without alpha is opaque everywhere.
    public static func silhouette(png bytes: [UInt8], field: String) throws(LayoutError) -> ImageSilhouette {
        _ = try checkAttachmentPicture(bytes, field: field)
        guard let surface = decodePNG(bytes) else {
            throw LayoutError(.invalidArgument, "Cairo cannot read this PNG image", field: field)
        }
        defer { cairo_surface_destroy(surface) }
        // Cairo decodes to ARGB32 (alpha in the top byte) or, with no alpha, RGB24.
        let format = cairo_image_surface_get_format(surface)
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        guard format == CAIRO_FORMAT_ARGB32, let data = cairo_image_surface_get_data(surface) else {
            return ImageSilhouette(width: width, height: height, alpha: [UInt8](repeating: 255, count: width * height))
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        var alpha = [UInt8](repeating: 0, count: width * height)
        // SAFETY: Cairo's image data holds `height` rows of `stride` bytes, each pixel 4 bytes.
        let pixels = UnsafeRawPointer(data)
        for row in 0..<height {
            for column in 0..<width {
                alpha[row * width + column] = UInt8(pixels.load(fromByteOffset: row * stride + column * 4, as: UInt32.self) >> 24)
            }
        }
        return ImageSilhouette(width: width, height: height, alpha: alpha)
    }
}
