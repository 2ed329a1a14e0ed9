/// Text that flows, set vertically: the containers and their shapes taken into the lines' own
/// frame (a column's length as x, the columns' progression as y), flowed there as horizontal
/// text is, and the layout turned back onto the page with everything else (`VerticalFrame`).
extension TextFlow {
    /// The right edge of the containers on the page: right-to-left columns count from it.
    var pageExtent: Double { containers.map { $0.origin.x + $0.width }.max() ?? 0 }

    /// The flow in the lines' frame for `mode`, the page's right edge at `extent`. Every
    /// container needs its height (its columns' length).
    func inLineFrame(_ mode: WritingMode, extent: Double) -> TextFlow {
        var out = self
        out.containers = containers.map { container in
            let w = container.width, h = container.height ?? 0
            let fromRight = mode == .verticalRightToLeft
            // A point of the container, from its own top-left corner, in its frame's terms.
            let local: (Point) -> Point = { p in Point(x: p.y, y: fromRight ? w - p.x : p.x) }
            let rect: (Rect) -> Rect = { r in
                Rect(x: r.y, y: fromRight ? w - r.x - r.width : r.x, width: r.height, height: r.width)
            }
            func turn(_ shape: FlowShape) -> FlowShape {
                var turned = shape
                switch shape.geometry {
                case .rect(let r): turned.geometry = .rect(rect(r))
                case let .roundedRect(r, radius): turned.geometry = .roundedRect(rect(r), radius: radius)
                case .ellipse(let r): turned.geometry = .ellipse(rect(r))
                case .polygon(let points): turned.geometry = .polygon(points.map(local))
                case .path(let path): turned.geometry = .path(VerticalFrame.map(path, local))
                }
                return turned
            }
            return TextContainer(origin: Point(x: container.origin.y, y: fromRight ? extent - container.origin.x - w : container.origin.x),
                                 width: h, height: w, shape: container.shape.map(turn), inset: container.inset,
                                 exclusions: container.exclusions.map { Exclusion(turn($0.shape), margin: $0.margin, wrap: $0.wrap) })
        }
        return out
    }
}
