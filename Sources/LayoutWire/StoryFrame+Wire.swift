import LayoutEngine
import LayoutRender

extension Layoutd_V1_StoryFrame {
    /// The engine's frame, or the first thing wrong with it; `defaultFill` fills an unset fill.
    /// Field paths are relative to the render request ("frame.width").
    public func storyFrame(defaultFill: Color, maxPhotoBytes: Int) throws(LayoutError) -> StoryFrame {
        for (value, name) in [(width, "width"), (height, "height")]
        where !(value.isFinite && value > 0 && Double(value) <= StoryFrame.maxSide) {
            throw LayoutError(.invalidArgument, "\(name) must be in (0, 10000] points, got \(value)", field: "frame.\(name)")
        }
        guard rotation.isFinite, abs(rotation) <= 360 else {
            throw LayoutError(.invalidArgument, "rotation must be in [-360, 360] degrees, got \(rotation)", field: "frame.rotation")
        }
        guard scale.isFinite, scale >= 0, scale <= 20 else {
            throw LayoutError(.invalidArgument, "scale must be 0 (means 1) or in (0, 20], got \(scale)", field: "frame.scale")
        }
        func unit(_ point: Layoutd_V1_Point, _ name: String) throws(LayoutError) -> Point {
            for (value, axis) in [(point.x, "x"), (point.y, "y")] where !(value.isFinite && value >= -10 && value <= 10) {
                throw LayoutError(.invalidArgument, "\(axis) must be in [-10, 10] (fractions of the canvas or block), got \(value)",
                                  field: "frame.\(name).\(axis)")
            }
            return Point(x: Double(point.x), y: Double(point.y))
        }
        let fill: StoryFrame.Fill
        switch self.fill.kind {
        case nil: fill = .color(defaultFill)
        case .color(let color): fill = .color(try color.checked(field: "frame.fill.color"))
        case .linearGradient(let gradient):
            let (start, end, stops) = try gradient.parts(field: "frame.fill.linear_gradient", unit: unit)
            fill = .linearGradient(start: start, end: end, stops: stops)
        case .radialGradient(let gradient):
            let (start, end, stops) = try gradient.parts(field: "frame.fill.radial_gradient", unit: unit)
            fill = .radialGradient(center: start, edge: end, stops: stops)
        case .photo(let photo):
            guard photo.png.count <= maxPhotoBytes else {
                throw LayoutError(.resourceExhausted, "a photo of \(photo.png.count) bytes; at most \(maxPhotoBytes)", field: "frame.fill.photo.png")
            }
            let png = [UInt8](photo.png)
            _ = try Renderer.checkAttachmentPicture(png, field: "frame.fill.photo.png")
            fill = .photo(png: png, fits: photo.fit,
                          background: photo.hasBackground ? try photo.background.checked(field: "frame.fill.photo.background")
                              : Color(red: 0, green: 0, blue: 0))
        }
        return StoryFrame(size: Size(width: Double(width), height: Double(height)), fill: fill,
                          position: hasPosition ? try unit(position, "position") : Point(x: 0.5, y: 0.5),
                          anchor: hasAnchor ? try unit(anchor, "anchor") : Point(x: 0.5, y: 0.5),
                          rotation: Double(rotation), scale: scale == 0 ? 1 : Double(scale))
    }
}

extension Layoutd_V1_Gradient {
    /// The gradient's points and stops, checked as a text fill's stops are.
    func parts(field: String, unit: (Layoutd_V1_Point, String) throws(LayoutError) -> Point) throws(LayoutError)
        -> (Point, Point, [GradientStop]) {
        let checked = try engineStops(field: field)
        try StyleRules.checkGradientStops(checked, field: field)
        let suffix = field.split(separator: ".").dropFirst().joined(separator: ".")
        return (try unit(start, suffix + ".start"), try unit(end, suffix + ".end"), checked)
    }
}
