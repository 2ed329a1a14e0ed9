import LayoutEngine
import LayoutRender

/// Text that flows, from the wire to the engine: shapes, exclusions, containers. Numbers are
/// checked by the engine (`TextFlow.validate`); what only the wire can get wrong (an unknown
/// enum value, a shape with no geometry, fields that contradict each other) is refused here.
extension Layoutd_V1_LayoutRequest {
    /// The request's flow, or nil for a plain box: one box with its own shape or exclusions,
    /// or a list of containers.
    public func textFlow() throws(LayoutError) -> TextFlow? {
        let alignment = try verticalAlignment.engine(field: "vertical_alignment")
        try checkSilhouettePixels()
        try Bounds.check(minFragmentWidth, upTo: Bounds.maxLength, field: "min_fragment_width", zero: "means one em")
        let minimum = minFragmentWidth > 0 ? Double(minFragmentWidth) : nil
        if !containers.isEmpty {
            for (field, given) in [("width", width != 0), ("height", height != 0), ("exclusions", !exclusions.isEmpty),
                                   ("shape", hasShape), ("shape_inset", shapeInset != 0)] where given {
                throw LayoutError(.invalidArgument, "containers give each container its own \(field); leave the request's unset",
                                  field: field)
            }
            try Bounds.check(count: containers.count, limit: TextFlow.maxContainers, field: "containers")
            var list: [TextContainer] = []
            for (index, container) in containers.enumerated() {
                list.append(try container.engine(field: "containers[\(index)]"))
            }
            return TextFlow(containers: list, verticalAlignment: alignment, minimumFragmentWidth: minimum)
        }
        guard !exclusions.isEmpty || hasShape || alignment != .top else {
            if shapeInset != 0 { throw LayoutError(.invalidArgument, "shape_inset needs a shape", field: "shape_inset") }
            return nil
        }
        try Bounds.check(count: exclusions.count, limit: TextFlow.maxExclusions, field: "exclusions")
        let box = TextContainer(width: Double(width), height: height > 0 ? Double(height) : nil,
                                shape: hasShape ? try shape.engine(field: "shape") : nil, inset: Double(shapeInset),
                                exclusions: try exclusions.enumerated().map { index, exclusion throws(LayoutError) in
                                    try exclusion.engine(field: "exclusions[\(index)]")
                                })
        return TextFlow(containers: [box], verticalAlignment: alignment, minimumFragmentWidth: minimum, isOneBox: true)
    }
}

extension Layoutd_V1_LayoutRequest {
    /// The most pixels the pictures of a request's image shapes may declare together: one
    /// picture of the largest size. Each is decoded and read pixel by pixel, before any budget
    /// looks; a small PNG can declare 4,096 × 4,096 pixels.
    public static let maxSilhouettePixels = 4_096 * 4_096

    /// Refuses image shapes whose pictures declare more pixels than `maxSilhouettePixels`
    /// together, naming the first past it, before any is decoded.
    func checkSilhouettePixels() throws(LayoutError) {
        var shapes: [(Layoutd_V1_Shape, String)] = []
        if hasShape { shapes.append((shape, "shape")) }
        for (index, exclusion) in exclusions.enumerated() { shapes.append((exclusion.shape, "exclusions[\(index)].shape")) }
        for (index, container) in containers.enumerated() {
            if container.hasShape { shapes.append((container.shape, "containers[\(index)].shape")) }
            for (k, exclusion) in container.exclusions.enumerated() {
                shapes.append((exclusion.shape, "containers[\(index)].exclusions[\(k)].shape"))
            }
        }
        var total = 0
        for (shape, field) in shapes {
            guard case .image(let image)? = shape.geometry, let size = Renderer.pngSize([UInt8](image.png.prefix(32))) else { continue }
            total += Int(size.width) * Int(size.height)
            guard total <= Self.maxSilhouettePixels else {
                throw LayoutError(.resourceExhausted, "image shapes of \(total) pixels so far; at most \(Self.maxSilhouettePixels) in a request",
                                  field: field + ".image.png")
            }
        }
    }
}

extension Layoutd_V1_Container {
    func engine(field: String) throws(LayoutError) -> TextContainer {
        try Bounds.check(count: exclusions.count, limit: TextFlow.maxExclusions, field: field + ".exclusions")
        return TextContainer(origin: Point(x: Double(origin.x), y: Double(origin.y)), width: Double(width),
                             height: height > 0 ? Double(height) : nil,
                             shape: hasShape ? try shape.engine(field: field + ".shape") : nil, inset: Double(inset),
                             exclusions: try exclusions.enumerated().map { index, exclusion throws(LayoutError) in
                                 try exclusion.engine(field: field + ".exclusions[\(index)]")
                             })
    }
}

extension Layoutd_V1_Exclusion {
    func engine(field: String) throws(LayoutError) -> Exclusion {
        guard hasShape else { throw LayoutError(.invalidArgument, "an exclusion needs a shape", field: field + ".shape") }
        let side: ExclusionWrap
        switch wrap {
        case .both: side = .both
        case .start: side = .start
        case .end: side = .end
        case .widest: side = .widest
        case .clear: side = .clear
        case .none: side = .none
        case .UNRECOGNIZED(let value): throw LayoutError(.invalidArgument, "unknown wrap side \(value)", field: field + ".wrap")
        }
        return Exclusion(try shape.engine(field: field + ".shape"), margin: Double(margin), wrap: side)
    }
}

extension Layoutd_V1_Shape {
    func engine(field: String) throws(LayoutError) -> FlowShape {
        let rule: FillRule
        switch fillRule {
        case .nonzero: rule = .nonZero
        case .evenOdd: rule = .evenOdd
        case .UNRECOGNIZED(let value): throw LayoutError(.invalidArgument, "unknown fill rule \(value)", field: field + ".fill_rule")
        }
        switch geometry {
        case .rect(let rect)?: return FlowShape(.rect(Rect(rect)), fillRule: rule)
        case .roundedRect(let rounded)?:
            return FlowShape(.roundedRect(Rect(rounded.rect), radius: Double(rounded.radius)), fillRule: rule)
        case .ellipse(let rect)?: return FlowShape(.ellipse(Rect(rect)), fillRule: rule)
        case .polygon(let polygon)?:
            try Bounds.check(count: polygon.points.count, limit: TextFlow.maxShapePoints, field: field + ".polygon.points")
            return FlowShape(.polygon(polygon.points.map { Point(x: Double($0.x), y: Double($0.y)) }), fillRule: rule)
        case .path(let data)?:
            return FlowShape(.path(try data.engine(field: field + ".path", limit: TextFlow.maxShapePoints)), fillRule: rule)
        case .image(let image)?:
            return try image.engine(field: field + ".image", fillRule: rule)
        case nil:
            throw LayoutError(.invalidArgument, "a shape needs a rect, rounded_rect, ellipse, polygon, path or image", field: field)
        }
    }
}

extension Layoutd_V1_PathData {
    /// The engine's path: at most `limit` commands, each checked against its verb (the
    /// commands named under `field`, as a flow shape's or a text path's path).
    func engine(field: String, limit: Int) throws(LayoutError) -> Path {
        try Bounds.check(count: commands.count, limit: limit, field: field + ".commands")
        var converted: [PathCommand] = []
        converted.reserveCapacity(commands.count)
        for (index, command) in commands.enumerated() {
            converted.append(try command.engine(field: field + ".commands[\(index)]"))
        }
        return Path(converted)
    }
}

extension Layoutd_V1_PathCommand {
    /// One command, its point count checked against its verb.
    func engine(field: String) throws(LayoutError) -> PathCommand {
        let expected: Int
        switch verb {
        case .move, .line: expected = 2
        case .quad: expected = 4
        case .cubic: expected = 6
        case .close: expected = 0
        case .UNRECOGNIZED(let value): throw LayoutError(.invalidArgument, "unknown path verb \(value)", field: field + ".verb")
        }
        guard points.count == expected else {
            throw LayoutError(.invalidArgument, "\(verb) takes \(expected) numbers (x, y pairs), got \(points.count)", field: field + ".points")
        }
        let p = stride(from: 0, to: points.count, by: 2).map { Point(x: Double(points[$0]), y: Double(points[$0 + 1])) }
        switch verb {
        case .move: return .move(p[0])
        case .line: return .line(p[0])
        case .quad: return .quad(p[0], p[1])
        case .cubic: return .cubic(p[0], p[1], p[2])
        default: return .close
        }
    }
}

extension Layoutd_V1_VerticalAlignment {
    func engine(field: String) throws(LayoutError) -> VerticalAlignment {
        switch self {
        case .top: return .top
        case .center: return .center
        case .bottom: return .bottom
        case .justifyLines: return .justifyLines
        case .UNRECOGNIZED(let value): throw LayoutError(.invalidArgument, "unknown vertical alignment \(value)", field: field)
        }
    }
}

extension Rect {
    init(_ rect: Layoutd_V1_Rect) {
        self.init(x: Double(rect.x), y: Double(rect.y), width: Double(rect.width), height: Double(rect.height))
    }
}

extension Layoutd_V1_ContainerLayout {
    public init(_ container: ContainerLayout) {
        self.init()
        index = UInt32(container.index)
        range = Layoutd_V1_Range(container.range)
        firstLine = UInt32(container.lines.lowerBound)
        lineCount = UInt32(container.lines.count)
        rect = Layoutd_V1_Rect(container.rect)
    }
}

extension Layoutd_V1_ImageShape {
    /// The picture's silhouette as rectangles (`ImageSilhouette`); one with nothing above the
    /// threshold becomes an empty rect, which excludes nothing.
    func engine(field: String, fillRule: FillRule) throws(LayoutError) -> FlowShape {
        guard threshold.isFinite, threshold >= 0, threshold < 1 else {
            throw LayoutError(.invalidArgument, "threshold must be in [0, 1), got \(threshold)", field: field + ".threshold")
        }
        let placed = Rect(rect)
        // Both corners within the flow's coordinates: the rectangles made stand between them.
        try TextFlow.checkRect(placed, field: field + ".rect")
        try TextFlow.checkCoordinate(Point(x: placed.maxX, y: placed.maxY), field: field + ".rect")
        guard placed.width > 0, placed.height > 0 else {
            throw LayoutError(.invalidArgument, "an image shape's rect needs a width and height above 0", field: field + ".rect")
        }
        let silhouette = try Renderer.silhouette(png: [UInt8](png), field: field + ".png")
        return silhouette.shape(in: placed, threshold: Double(threshold))
            ?? FlowShape(.rect(Rect(x: placed.x, y: placed.y, width: 0, height: 0)), fillRule: fillRule)
    }
}
