import LayoutEngine
import CCairo

/// A whole story frame around a text block (server-side Stories): a canvas of its own size, a
/// fill behind everything, and where the block sits — a point of the canvas, the block's
/// anchor placed on it, rotated and scaled as a user's pinch leaves it.
public struct StoryFrame: Sendable {
    public enum Fill: Sendable {
        case color(Color)
        /// From `start` to `end`, in 0...1 of the canvas; stops at offsets in 0...1, in order.
        case linearGradient(start: Point, end: Point, stops: [GradientStop])
        /// Centred on `center`, reaching `edge` (both in 0...1 of the canvas).
        case radialGradient(center: Point, edge: Point, stops: [GradientStop])
        /// PNG bytes scaled to cover the canvas (cropped, centred) or to fit inside it (bars in `background`).
        case photo(png: [UInt8], fits: Bool, background: Color)
    }

    /// Points.
    public var size: Size
    public var fill: Fill
    /// Where the block's anchor sits, in 0...1 of the canvas.
    public var position: Point
    /// The block's point placed at `position`, in 0...1 of the block.
    public var anchor: Point
    /// Degrees, clockwise on screen, about the anchor.
    public var rotation: Double
    public var scale: Double

    /// The largest canvas side a request may ask for, in points (a gradient's stops are limited
    /// as a text fill's, `TextFill.maxStops`).
    public static let maxSide = 10_000.0

    public init(size: Size, fill: Fill, position: Point = Point(x: 0.5, y: 0.5), anchor: Point = Point(x: 0.5, y: 0.5),
                rotation: Double = 0, scale: Double = 1) {
        self.size = size
        self.fill = fill
        self.position = position
        self.anchor = anchor
        self.rotation = rotation
        self.scale = scale
    }
}

extension Renderer {
    /// The frame's fill over the whole canvas (the context in canvas points).
    func drawFill(_ frame: StoryFrame, _ cr: OpaquePointer) {
        let size = frame.size
        switch frame.fill {
        case .color(let color):
            setColor(cr, color)
            cairo_paint(cr)
        case let .linearGradient(start, end, stops):
            let pattern = cairo_pattern_create_linear(start.x * size.width, start.y * size.height, end.x * size.width, end.y * size.height)!
            paint(pattern, stops: stops, cr)
        case let .radialGradient(center, edge, stops):
            let cx = center.x * size.width, cy = center.y * size.height
            let dx = edge.x * size.width - cx, dy = edge.y * size.height - cy
            let r = (dx * dx + dy * dy).squareRoot()
            let pattern = cairo_pattern_create_radial(cx, cy, 0, cx, cy, r)!
            paint(pattern, stops: stops, cr)
        case let .photo(png, fits, background):
            setColor(cr, background)
            cairo_paint(cr)
            guard let picture = Self.decodePNG(png) else { return }
            defer { cairo_surface_destroy(picture) }
            drawPicture(picture, in: Rect(x: 0, y: 0, width: size.width, height: size.height),
                        mode: fits ? .aspectFit : .aspectFill, cr)
        }
    }

    private func paint(_ pattern: OpaquePointer, stops: [GradientStop], _ cr: OpaquePointer) {
        addStops(stops, to: pattern)
        cairo_set_source(cr, pattern)
        cairo_paint(cr)
        cairo_pattern_destroy(pattern)
    }

    /// A gradient's stops on a Cairo pattern (a story frame's, a text fill's).
    func addStops(_ stops: [GradientStop], to pattern: OpaquePointer) {
        for stop in stops {
            cairo_pattern_add_color_stop_rgba(pattern, stop.offset, stop.color.red, stop.color.green, stop.color.blue, stop.color.alpha)
        }
    }

    /// Moves the context from canvas points to the block's: the block of `blockSize` with its
    /// anchor at the frame's position, rotated and scaled about it.
    func placeBlock(_ frame: StoryFrame, blockSize: Size, _ cr: OpaquePointer) {
        cairo_translate(cr, frame.position.x * frame.size.width, frame.position.y * frame.size.height)
        cairo_rotate(cr, frame.rotation * .pi / 180)
        cairo_scale(cr, frame.scale, frame.scale)
        cairo_translate(cr, -frame.anchor.x * blockSize.width, -frame.anchor.y * blockSize.height)
    }
}
