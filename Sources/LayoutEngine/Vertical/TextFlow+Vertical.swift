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
            // The page as the lines see it, and each container's own corner as its shapes see it.
            let page = VerticalFrame(mode: mode, extent: extent), own = VerticalFrame(mode: mode, extent: w)
            func turn(_ shape: FlowShape) -> FlowShape {
                var turned = shape
                switch shape.geometry {
                case .rect(let r): turned.geometry = .rect(own.toLine(r))
                case let .roundedRect(r, radius): turned.geometry = .roundedRect(own.toLine(r), radius: radius)
                case .ellipse(let r): turned.geometry = .ellipse(own.toLine(r))
                case .polygon(let points): turned.geometry = .polygon(points.map(own.toLine))
                case .path(let path): turned.geometry = .path(own.toLine(path))
                }
                return turned
            }
            let box = page.toLine(Rect(x: container.origin.x, y: container.origin.y, width: w, height: h))
            return TextContainer(origin: Point(x: box.x, y: box.y), width: box.width, height: box.height,
                                 shape: container.shape.map(turn), inset: container.inset,
                                 exclusions: container.exclusions.map { Exclusion(turn($0.shape), margin: $0.margin, wrap: $0.wrap) })
        }
        return out
    }
}
