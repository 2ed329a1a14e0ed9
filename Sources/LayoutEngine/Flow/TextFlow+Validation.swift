/// The limits of text that flows, and the checks that refuse what passes them, naming the
/// field as the wire spells it.
extension TextFlow {
    public static let maxContainers = 64
    /// Exclusions in one container.
    public static let maxExclusions = 64
    /// Vertices of a polygon, or commands of a path.
    public static let maxShapePoints = 4_096
    /// Straight edges of every shape of a request once curves are flattened, at most: each
    /// band of lines looks at the edges of the shapes it meets.
    public static let maxEdges = 65_536

    /// Field names are built only for the error: a valid flow costs no string.
    func validate() throws(LayoutError) {
        guard !containers.isEmpty else {
            throw LayoutError(.invalidArgument, "text that flows needs at least one container", field: "containers")
        }
        try Bounds.check(count: containers.count, limit: Self.maxContainers, field: "containers")
        if let minimumFragmentWidth {
            try Bounds.check(minimumFragmentWidth, upTo: Bounds.maxLength, field: "min_fragment_width", zero: "means one em")
        }
        var edges = 0
        for (index, container) in containers.enumerated() {
            // The one box of a request names its fields at the top level.
            let prefix = { self.isOneBox ? "" : "containers[\(index)]." }
            if !Bounds.contains(container.width, upTo: Bounds.maxLength) {
                try Bounds.check(container.width, upTo: Bounds.maxLength, field: prefix() + "width")
            }
            if let height = container.height, !Bounds.contains(height, upTo: Bounds.maxLength) {
                try Bounds.check(height, upTo: Bounds.maxLength, field: prefix() + "height")
            }
            try Self.checkCoordinate(container.origin, field: prefix() + "origin")
            try Self.checkLength(container.inset, field: self.isOneBox ? "shape_inset" : prefix() + "inset")
            if let shape = container.shape { edges += try Self.check(shape, field: prefix() + "shape") }
            if container.exclusions.count > Self.maxExclusions {
                try Bounds.check(count: container.exclusions.count, limit: Self.maxExclusions, field: prefix() + "exclusions")
            }
            for (k, exclusion) in container.exclusions.enumerated() {
                edges += try Self.check(exclusion.shape, field: prefix() + "exclusions[\(k)].shape")
                try Self.checkLength(exclusion.margin, field: prefix() + "exclusions[\(k)].margin")
            }
        }
        guard edges <= Self.maxEdges else {
            throw LayoutError(.resourceExhausted, "the shapes come to about \(edges) straight edges once curves are flattened; "
                              + "a request may have at most \(Self.maxEdges)", field: isOneBox ? "exclusions" : "containers")
        }
    }

    /// Checks a shape's numbers, and returns how many edges it flattens to at most.
    static func check(_ shape: FlowShape, field: @autoclosure () -> String) throws(LayoutError) -> Int {
        switch shape.geometry {
        case .rect(let rect):
            try checkRect(rect, field: field() + ".rect")
            return 4
        case let .roundedRect(rect, radius):
            try checkRect(rect, field: field() + ".rounded_rect.rect")
            try checkLength(radius, field: field() + ".rounded_rect.radius")
            return 4 + 4 * 64
        case .ellipse(let rect):
            try checkRect(rect, field: field() + ".ellipse")
            return 4_096
        case .polygon(let points):
            guard points.count >= 3 else {
                throw LayoutError(.invalidArgument, "a polygon needs at least 3 points, got \(points.count)", field: field() + ".polygon.points")
            }
            try Bounds.check(count: points.count, limit: maxShapePoints, field: field() + ".polygon.points")
            for (k, point) in points.enumerated() { try checkCoordinate(point, field: field() + ".polygon.points[\(k)]") }
            return points.count
        case .path(let path):
            guard !path.commands.isEmpty else {
                throw LayoutError(.invalidArgument, "a path needs commands", field: field() + ".path.commands")
            }
            try Bounds.check(count: path.commands.count, limit: maxShapePoints, field: field() + ".path.commands")
            var edges = 0
            for (k, command) in path.commands.enumerated() {
                let points: [Point]
                switch command {
                case .move(let p): points = [p]
                case .line(let p): points = [p]; edges += 1
                case let .quad(c, p): points = [c, p]; edges += 64
                case let .cubic(c1, c2, p): points = [c1, c2, p]; edges += 64
                case .close: points = []; edges += 1
                }
                for point in points { try checkCoordinate(point, field: field() + ".path.commands[\(k)]") }
            }
            return edges
        }
    }

    public static func checkRect(_ rect: Rect, field: @autoclosure () -> String) throws(LayoutError) {
        try checkCoordinate(Point(x: rect.x, y: rect.y), field: field())
        guard rect.width.isFinite, rect.height.isFinite, rect.width >= 0, rect.height >= 0,
              rect.width <= 2 * Bounds.maxLength, rect.height <= 2 * Bounds.maxLength else {
            throw LayoutError(.invalidArgument, "width and height must be in [0, \(Bounds.text(2 * Bounds.maxLength))] points, "
                              + "got \(rect.width) × \(rect.height)", field: field())
        }
    }

    /// Coordinates reach one container length either side of the container.
    public static func checkCoordinate(_ point: Point, field: @autoclosure () -> String) throws(LayoutError) {
        guard point.x.isFinite, point.y.isFinite, abs(point.x) <= Bounds.maxLength, abs(point.y) <= Bounds.maxLength else {
            throw LayoutError(.invalidArgument, "coordinates must be finite and within ±\(Bounds.text(Bounds.maxLength)) points, "
                              + "got (\(point.x), \(point.y))", field: field())
        }
    }

    static func checkLength(_ value: Double, field: @autoclosure () -> String) throws(LayoutError) {
        guard value.isFinite, value >= 0, value <= Bounds.maxDecorationLength else {
            throw LayoutError(.invalidArgument, "must be in [0, \(Bounds.text(Bounds.maxDecorationLength))] points, got \(value)",
                              field: field())
        }
    }
}
