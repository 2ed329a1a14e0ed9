import LayoutEngine
import CCairo

/// What the render stage draws for a photo's tags: the photo (or a plain background), then
/// each tag's ring, dot, lines and text, as the timeline's state has them at one moment.
public struct TagScene: Sendable {
    public var layout: TagsLayout
    public var state: TagPartState
    /// PNG bytes scaled to the photo's size; nil or empty paints `background`.
    public var photo: [UInt8]?
    public var background: Color
    /// The dot, lines and text.
    public var foreground: Color
    /// The ring around the dot, and the text's soft shadow.
    public var shadow: Color

    public init(layout: TagsLayout, state: TagPartState, photo: [UInt8]? = nil,
                background: Color = Color(red: 0.36, green: 0.40, blue: 0.44),
                foreground: Color = Color(red: 1, green: 1, blue: 1), shadow: Color = Color(red: 0, green: 0, blue: 0)) {
        self.layout = layout
        self.state = state
        self.photo = photo
        self.background = background
        self.foreground = foreground
        self.shadow = shadow
    }

    /// A leader line and its underline as one stroke from the dot, cut at `fraction` of its length.
    public static func stroke(_ label: TagLabelGeometry, upTo fraction: Double) -> [Point] {
        let points = [label.leader.from, label.leader.to, label.underline.to]
        let total = label.leader.length + label.underline.length
        var remaining = max(0, min(1, fraction)) * total
        var kept = [points[0]]
        for (from, to) in zip(points, points.dropFirst()) {
            let length = LineSegment(from: from, to: to).length
            if remaining >= length {
                kept.append(to)
                remaining -= length
            } else {
                if remaining > 0, length > 0 {
                    let t = remaining / length
                    kept.append(Point(x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t))
                }
                break
            }
        }
        return kept
    }
}

extension Renderer {
    /// The photo's tags at the scene's moment, as PNG, SVG or PDF; the canvas is the photo.
    public func render(_ scene: TagScene, format: RenderFormat, scale: Double, budget: WorkBudget = .unlimited) throws -> [UInt8] {
        try draw(size: scene.layout.photo, format: format, scale: scale, budget: budget) { cr, raster throws(LayoutError) in
            drawPhoto(scene, cr)
            for (index, tag) in scene.layout.tags.enumerated() {
                if index % 16 == 0 { try budget.check() }
                try drawLegibilityShadow(tag, scene, cr, raster: raster, budget: budget)
                drawTag(tag, scene, cr)
            }
        }
    }

    private func drawPhoto(_ scene: TagScene, _ cr: OpaquePointer) {
        let size = scene.layout.photo
        if let png = scene.photo, !png.isEmpty, let picture = Self.decodePNG(png) {
            defer { cairo_surface_destroy(picture) }
            drawPicture(picture, in: Rect(x: 0, y: 0, width: size.width, height: size.height), mode: .scaleToFill, cr)
        } else {
            setColor(cr, scene.background)
            cairo_paint(cr)
        }
    }

    private func drawTag(_ tag: TagGeometry, _ scene: TagScene, _ cr: OpaquePointer) {
        let state = scene.state
        if state.shadowOpacity > 0 {
            cairo_arc(cr, tag.dot.center.x, tag.dot.center.y, tag.dot.shadowRadius, 0, 2 * .pi)
            setColor(cr, scene.shadow, alpha: state.shadowOpacity)
            cairo_fill(cr)
        }
        if state.strokeEnd > 0 {
            cairo_save(cr)
            cairo_set_line_width(cr, tag.lineWidth)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            setColor(cr, scene.foreground)
            for label in tag.labels {
                let points = TagScene.stroke(label, upTo: state.strokeEnd)
                guard points.count > 1 else { continue }
                cairo_move_to(cr, points[0].x, points[0].y)
                for point in points.dropFirst() { cairo_line_to(cr, point.x, point.y) }
                cairo_stroke(cr)
            }
            cairo_restore(cr)
        }
        if state.dotOpacity > 0 {
            cairo_arc(cr, tag.dot.center.x, tag.dot.center.y, tag.dot.radius, 0, 2 * .pi)
            setColor(cr, scene.foreground, alpha: state.dotOpacity)
            cairo_fill(cr)
        }
        drawTagText(tag, scene, cr)
    }

    func setColor(_ cr: OpaquePointer, _ color: Color, alpha: Double) {
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha * alpha)
    }
}
