import LayoutEngine
import CCairo

/// An attachment as the render stage draws it: its box, and the picture to put in it.
public struct SceneAttachment: Sendable {
    public var rect: Rect
    /// PNG bytes; nil or empty draws a placeholder box.
    public var png: [UInt8]?
    public var contentMode: ContentMode

    public init(rect: Rect, png: [UInt8]?, contentMode: ContentMode = .scaleToFill) {
        self.rect = rect
        self.png = png
        self.contentMode = contentMode
    }
}

extension Renderer {
    /// The largest side of an attachment's picture, in pixels: a small PNG can declare a huge
    /// image, and Cairo allocates all of it before it reads a row.
    public static let maxAttachmentSide: UInt32 = 4_096

    /// A PNG's declared width and height, from its IHDR chunk; nil when the bytes are no PNG.
    public static func pngSize(_ bytes: [UInt8]) -> (width: UInt32, height: UInt32)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func word(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        return (word(16), word(20))
    }

    /// True for a declared size an attachment's picture may have.
    static func isDecodable(width: UInt32, height: UInt32) -> Bool {
        width > 0 && height > 0 && width <= maxAttachmentSide && height <= maxAttachmentSide
    }

    /// Refuses an attachment picture that is not a PNG Cairo can read, or too large to decode;
    /// returns the size it declares.
    @discardableResult
    public static func checkAttachmentPicture(_ bytes: [UInt8], field: String) throws(LayoutError) -> (width: UInt32, height: UInt32) {
        guard let (width, height) = pngSize(bytes) else {
            throw LayoutError(.invalidArgument, "not a PNG image", field: field)
        }
        guard isDecodable(width: width, height: height) else {
            throw LayoutError(.invalidArgument, "a \(width) x \(height) picture; an attachment's picture may have at most "
                              + "\(maxAttachmentSide) pixels a side", field: field)
        }
        return (width, height)
    }

    /// Draws each attachment: its picture placed in its box as its content mode says, clipped to
    /// the box, or a placeholder (a light box with its diagonals) when it has none or Cairo cannot
    /// read it.
    func drawAttachments(_ attachments: [SceneAttachment], _ cr: OpaquePointer, budget: WorkBudget) throws(LayoutError) {
        for attachment in attachments where attachment.rect.width > 0 && attachment.rect.height > 0 {
            if attachment.png?.isEmpty == false { try budget.check() }  // each picture is decoded: a budget look each
            if let png = attachment.png, !png.isEmpty, let picture = Self.decodePNG(png) {
                defer { cairo_surface_destroy(picture) }
                drawPicture(picture, in: attachment.rect, mode: attachment.contentMode, cr)
            } else {
                drawPlaceholder(attachment.rect, cr)
            }
        }
    }

    /// Draws `picture` in `box` as `mode` places it, clipped to the box.
    func drawPicture(_ picture: OpaquePointer, in box: Rect, mode: ContentMode, _ cr: OpaquePointer) {
        let width = Double(cairo_image_surface_get_width(picture)), height = Double(cairo_image_surface_get_height(picture))
        let placement = mode.placement(width: width, height: height, in: box)
        let placed = Rect(x: placement.origin.x, y: placement.origin.y, width: width * placement.scaleX, height: height * placement.scaleY)
        let shown = box.intersection(placed)
        guard shown.width > 0, shown.height > 0 else { return }
        cairo_save(cr)
        cairo_rectangle(cr, shown.x, shown.y, shown.width, shown.height)
        cairo_clip(cr)
        cairo_translate(cr, placement.origin.x, placement.origin.y)
        cairo_scale(cr, placement.scaleX, placement.scaleY)
        cairo_set_source_surface(cr, picture, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        // The filter samples past the picture's edge; with no extend that is transparency, which
        // faded the outer pixels of every scaled picture. Padding repeats the edge, and the clip
        // to the placed rect keeps it from reaching past the picture.
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    private func drawPlaceholder(_ rect: Rect, _ cr: OpaquePointer) {
        cairo_save(cr)
        cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        cairo_set_source_rgba(cr, 0.5, 0.55, 0.6, 0.18)
        cairo_fill_preserve(cr)
        cairo_move_to(cr, rect.x, rect.y)
        cairo_line_to(cr, rect.maxX, rect.maxY)
        cairo_move_to(cr, rect.maxX, rect.y)
        cairo_line_to(cr, rect.x, rect.maxY)
        cairo_set_source_rgba(cr, 0.5, 0.55, 0.6, 0.8)
        cairo_set_line_width(cr, max(0.5, min(rect.width, rect.height) / 40))
        cairo_stroke(cr)
        cairo_restore(cr)
    }

    /// The PNG as a Cairo image surface, read from memory; nil when it is not a picture Cairo
    /// reads, or declares more than `maxAttachmentSide` pixels a side.
    static func decodePNG(_ bytes: [UInt8]) -> OpaquePointer? {
        guard let (width, height) = pngSize(bytes), isDecodable(width: width, height: height) else { return nil }
        let source = ByteSource(bytes)
        let surface = cairo_image_surface_create_from_png_stream(ByteSource.read, Unmanaged.passUnretained(source).toOpaque())
        guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            if let surface { cairo_surface_destroy(surface) }
            return nil
        }
        return surface
    }
}

/// Hands Cairo bytes from memory, as much as it asks for each time.
final class ByteSource {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static let read: cairo_read_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
        let source = Unmanaged<ByteSource>.fromOpaque(closure).takeUnretainedValue()
        let count = Int(length)
        guard source.bytes.count - source.offset >= count else { return CAIRO_STATUS_READ_ERROR }
        source.bytes.withUnsafeBufferPointer { buffer in
            data.update(from: buffer.baseAddress! + source.offset, count: count)
        }
        source.offset += count
        return CAIRO_STATUS_SUCCESS
    }
}
