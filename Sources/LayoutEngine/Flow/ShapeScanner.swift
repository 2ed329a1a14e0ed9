/// A shape's outline as straight edges, asked what a band of lines meets: the x it covers
/// anywhere in the band (text flowing around it), or the x inside it all the way down the
/// band (text flowing inside it).
///
/// Both are exact for the polygon: a region's shadow on the x axis is the shadow of its
/// boundary, and the boundary of the shape cut to a band is the shape's edges inside the band
/// plus the band's top and bottom lines where they are inside the shape.
struct ShapeScanner {
    struct Edge {
        var x0, y0, x1, y1: Double
        /// +1 for an edge going down, −1 going up: the winding it adds when a scanline crosses it.
        var direction: Int
        /// The edge's x where it meets height `y` (within its own y-range).
        func x(at y: Double) -> Double { y1 == y0 ? x0 : x0 + (y - y0) * (x1 - x0) / (y1 - y0) }
    }

    let edges: [Edge]
    let fillRule: FillRule
    let minX, maxX, minY, maxY: Double

    /// Bands are open at their top and bottom by this much, so a line whose bottom touches
    /// a shape's top (or top its bottom) does not count as meeting it.
    static let touch = 1e-7

    init(_ shape: FlowShape) {
        self.init(polygons: shape.polygons(), fillRule: shape.fillRule)
    }

    init(polygons: [[Point]], fillRule: FillRule) {
        var edges: [Edge] = []
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for polygon in polygons where polygon.count >= 2 {
            for k in polygon.indices {
                let a = polygon[k], b = polygon[(k + 1) % polygon.count]
                minX = min(minX, a.x); maxX = max(maxX, a.x); minY = min(minY, a.y); maxY = max(maxY, a.y)
                if a == b { continue }
                // Stored top to bottom, the direction kept apart.
                edges.append(a.y <= b.y ? Edge(x0: a.x, y0: a.y, x1: b.x, y1: b.y, direction: 1)
                                        : Edge(x0: b.x, y0: b.y, x1: a.x, y1: a.y, direction: -1))
            }
        }
        self.edges = edges
        self.fillRule = fillRule
        (self.minX, self.maxX, self.minY, self.maxY) = edges.isEmpty ? (0, 0, 0, 0) : (minX, maxX, minY, maxY)
    }

    var isEmpty: Bool { edges.isEmpty }

    /// The x inside the shape on the horizontal line at `y`, by the fill rule.
    func interior(at y: Double) -> [Interval] {
        var crossings: [(x: Double, direction: Int)] = []
        for edge in edges where edge.y0 <= y && y < edge.y1 { crossings.append((edge.x(at: y), edge.direction)) }
        guard crossings.count >= 2 else { return [] }
        crossings.sort { $0.x < $1.x }
        var out: [Interval] = []
        var winding = 0
        for crossing in crossings {
            let wasInside = isInside(winding)
            winding += fillRule == .evenOdd ? 1 : crossing.direction
            let inside = isInside(winding)
            if !wasInside && inside { out.append(Interval(lower: crossing.x, upper: crossing.x)) }
            if wasInside && !inside, !out.isEmpty { out[out.count - 1].upper = crossing.x }
        }
        return Intervals.merged(out.filter { $0.width > 0 })
    }

    private func isInside(_ winding: Int) -> Bool {
        fillRule == .evenOdd ? winding & 1 == 1 : winding != 0
    }

    /// The x each edge reaches inside the open band (top, bottom), as intervals.
    private func edgeShadows(top: Double, bottom: Double) -> [Interval] {
        var out: [Interval] = []
        // A horizontal edge counts when it lies inside the band, as any other edge does.
        for edge in edges where edge.y1 > top && edge.y0 < bottom {
            let a = edge.y0 == edge.y1 ? edge.x0 : edge.x(at: max(edge.y0, top))
            let b = edge.y0 == edge.y1 ? edge.x1 : edge.x(at: min(edge.y1, bottom))
            out.append(Interval(lower: min(a, b), upper: max(a, b)))
        }
        return out
    }

    /// The x the shape covers anywhere in the band from `top` to `bottom`.
    func covered(top: Double, bottom: Double) -> [Interval] {
        guard !isEmpty, bottom > minY, top < maxY, bottom > top else { return [] }
        let t = top + Self.touch, b = bottom - Self.touch
        guard b > t else { return interior(at: (top + bottom) / 2) }
        return Intervals.merged(interior(at: t) + interior(at: b) + edgeShadows(top: t, bottom: b))
    }

    /// The x inside the shape at every height of the band from `top` to `bottom`.
    func inside(top: Double, bottom: Double) -> [Interval] {
        guard !isEmpty, top >= minY - Self.touch, bottom <= maxY + Self.touch, bottom > top else { return [] }
        let t = top + Self.touch, b = bottom - Self.touch
        guard b > t else { return interior(at: (top + bottom) / 2) }
        let both = Intervals.intersecting(interior(at: t), interior(at: b))
        return Intervals.subtracting(Intervals.merged(edgeShadows(top: t, bottom: b)), from: both)
    }
}
