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

    /// Sorted by their tops when there are many: a band then looks only at the edges that can reach it.
    let edges: [Edge]
    private let isSorted: Bool
    static let sortedFrom = 96
    /// The tallest edge's height: no edge whose top is more than this above a band reaches it.
    private let tallest: Double
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
        edges.reserveCapacity(polygons.reduce(0) { $0 + $1.count })
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for polygon in polygons where polygon.count >= 2 {
            for k in polygon.indices {
                let a = polygon[k], b = polygon[k + 1 == polygon.count ? 0 : k + 1]
                minX = min(minX, a.x); maxX = max(maxX, a.x); minY = min(minY, a.y); maxY = max(maxY, a.y)
                if a == b { continue }
                // Stored top to bottom, the direction kept apart.
                edges.append(a.y <= b.y ? Edge(x0: a.x, y0: a.y, x1: b.x, y1: b.y, direction: 1)
                                        : Edge(x0: b.x, y0: b.y, x1: a.x, y1: a.y, direction: -1))
            }
        }
        // A few dozen edges are scanned whole faster than they are sorted.
        isSorted = edges.count > Self.sortedFrom
        if isSorted { edges.sort { $0.y0 < $1.y0 } }
        self.edges = edges
        tallest = edges.reduce(0) { max($0, $1.y1 - $1.y0) }
        self.fillRule = fillRule
        (self.minX, self.maxX, self.minY, self.maxY) = edges.isEmpty ? (0, 0, 0, 0) : (minX, maxX, minY, maxY)
    }

    var isEmpty: Bool { edges.isEmpty }

    /// The edges that may reach from `top` to `bottom`: from the first whose top is within the
    /// tallest edge's height above `top`, up to the first that starts below `bottom`.
    private func candidates(top: Double, bottom: Double) -> Range<Int> {
        guard isSorted else { return 0..<edges.count }
        let from = top - tallest
        let low = ShapedParagraph.firstIndex(edges.count) { edges[$0].y0 >= from }
        var end = low
        while end < edges.count && edges[end].y0 <= bottom { end += 1 }
        return low..<end
    }

    /// The x inside the shape on the horizontal line at `y`, by the fill rule, appended to `out`.
    private func appendInterior(at y: Double, to out: inout [Interval]) {
        let range = candidates(top: y, bottom: y)
        // The crossings in stack memory: a band asks twice, and a heap array each time cost more
        // than the scan. SAFETY: at most one crossing per candidate edge, so `count` stays within
        // the capacity; `Crossing` is trivial, so its uninitialized elements may be assigned, and
        // only the `count` written are read; the buffer does not leave the closure.
        withUnsafeTemporaryAllocation(of: Crossing.self, capacity: max(range.count, 1)) { crossings in
            var count = 0
            for index in range {
                let edge = edges[index]
                if edge.y0 <= y && y < edge.y1 {
                    crossings[count] = Crossing(x: edge.x(at: y), direction: edge.direction)
                    count += 1
                }
            }
            appendInside(UnsafeMutableBufferPointer(rebasing: crossings[0..<count]), to: &out)
        }
    }

    struct Crossing {
        var x: Double
        var direction: Int
    }

    /// The intervals inside, by the fill rule, between a scanline's crossings (sorted here).
    /// SAFETY: `crossings` is a written part of a scan's stack buffer, used only during the call.
    private func appendInside(_ crossings: UnsafeMutableBufferPointer<Crossing>, to out: inout [Interval]) {
        guard crossings.count >= 2 else { return }
        var sorted = crossings
        sorted.sort { $0.x < $1.x }
        var winding = 0
        var start = 0.0
        for crossing in sorted {
            let wasInside = isInside(winding)
            winding += fillRule == .evenOdd ? 1 : crossing.direction
            let inside = isInside(winding)
            if !wasInside && inside { start = crossing.x }
            if wasInside && !inside && crossing.x > start { out.append(Interval(lower: start, upper: crossing.x)) }
        }
    }

    func interior(at y: Double) -> [Interval] {
        var out: [Interval] = []
        appendInterior(at: y, to: &out)
        return Intervals.merged(out)
    }

    private func isInside(_ winding: Int) -> Bool {
        fillRule == .evenOdd ? winding & 1 == 1 : winding != 0
    }

    /// The x each edge reaches inside the open band (top, bottom), appended to `out`. A
    /// horizontal edge counts when it lies inside the band, as any other edge does.
    private func appendEdgeShadows(top: Double, bottom: Double, to out: inout [Interval]) {
        for index in candidates(top: top, bottom: bottom) {
            let edge = edges[index]
            guard edge.y1 > top && edge.y0 < bottom else { continue }
            addShadow(of: edge, top: top, bottom: bottom, to: &out)
        }
    }

    /// The x-extent of `edge` within the band, joined to the last shadow when they meet.
    @inline(__always)
    private func addShadow(of edge: Edge, top: Double, bottom: Double, to out: inout [Interval]) {
        let a = edge.y0 == edge.y1 ? edge.x0 : edge.x(at: max(edge.y0, top))
        let b = edge.y0 == edge.y1 ? edge.x1 : edge.x(at: min(edge.y1, bottom))
        let shadow = Interval(lower: min(a, b), upper: max(a, b))
        // Neighbouring edges of an outline share an end, so their shadows touch: grown in
        // place, a side of a curve gives one interval, not one per edge.
        if let last = out.last, shadow.lower <= last.upper && shadow.upper >= last.lower {
            out[out.count - 1] = Interval(lower: min(last.lower, shadow.lower), upper: max(last.upper, shadow.upper))
        } else {
            out.append(shadow)
        }
    }

    /// The x the shape covers anywhere in the band from `top` to `bottom`.
    func covered(top: Double, bottom: Double) -> [Interval] {
        guard !isEmpty, bottom > minY, top < maxY, bottom > top else { return [] }
        let t = top + Self.touch, b = bottom - Self.touch
        guard b > t else { return interior(at: (top + bottom) / 2) }
        // One pass over the edges for both scanlines and the shadows: the band's three questions
        // each scanned the outline once.
        let range = candidates(top: t, bottom: b)
        var shadows: [Interval] = []
        shadows.reserveCapacity(8)
        var out: [Interval] = []
        out.reserveCapacity(8)
        // SAFETY: at most one crossing per candidate edge on each edge of the band, the top's
        // from 0 and the bottom's from `range.count`, so neither half overflows into the other;
        // trivial elements, only the written ones read, the buffer kept inside the closure.
        withUnsafeTemporaryAllocation(of: Crossing.self, capacity: 2 * max(range.count, 1)) { crossings in
            var atTop = 0, atBottom = 0
            let bottomBase = range.count
            for index in range {
                let edge = edges[index]
                guard edge.y1 > t && edge.y0 <= b else { continue }
                if edge.y0 <= t && t < edge.y1 {
                    crossings[atTop] = Crossing(x: edge.x(at: t), direction: edge.direction)
                    atTop += 1
                }
                if edge.y0 <= b && b < edge.y1 {
                    crossings[bottomBase + atBottom] = Crossing(x: edge.x(at: b), direction: edge.direction)
                    atBottom += 1
                }
                if edge.y0 < b { addShadow(of: edge, top: t, bottom: b, to: &shadows) }
            }
            // SAFETY: each half's written part, as counted above.
            appendInside(UnsafeMutableBufferPointer(rebasing: crossings[0..<atTop]), to: &out)
            appendInside(UnsafeMutableBufferPointer(rebasing: crossings[bottomBase..<bottomBase + atBottom]), to: &out)
        }
        return Intervals.merged(out + shadows)
    }

    /// The x inside the shape at every height of the band from `top` to `bottom`.
    func inside(top: Double, bottom: Double) -> [Interval] {
        guard !isEmpty, top >= minY - Self.touch, bottom <= maxY + Self.touch, bottom > top else { return [] }
        let t = top + Self.touch, b = bottom - Self.touch
        guard b > t else { return interior(at: (top + bottom) / 2) }
        let both = Intervals.intersecting(interior(at: t), interior(at: b))
        var shadows: [Interval] = []
        shadows.reserveCapacity(16)
        appendEdgeShadows(top: t, bottom: b, to: &shadows)
        return Intervals.subtracting(Intervals.merged(shadows), from: both)
    }
}
