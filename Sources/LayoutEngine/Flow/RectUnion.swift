/// A path whose subpaths are all axis-aligned rectangles wound the same way, under the nonzero
/// rule: the region is then the union of the rectangles, and a band's questions are answered
/// rect by rect instead of by flattening the path and scanning its edges for every layout. An
/// image's silhouette is such a path (`ImageSilhouette`), and so is a client's path of boxes.
///
/// The answers are the scanner's own, interval for interval (`RectUnionTests` holds them equal
/// over random unions): what a band covers is every rectangle it meets; what lies inside at
/// every height is what is inside at the band's top and bottom less each rectangle side that
/// crosses the band, as the scanner subtracts every edge's shadow.
struct RectUnion {
    /// Sorted by their tops, so a band looks only at the rectangles that can reach it.
    private let rects: [Rect]
    /// The tallest rectangle's height: none whose top is further above a band reaches it.
    private let tallest: Double
    let minY, maxY: Double

    /// The rectangles of `path`, or nil unless each subpath is a move and three lines round a
    /// rectangle of some width and height (a fourth line back to the start allowed), closed,
    /// all turning the same way.
    init?(_ path: Path) {
        var rects: [Rect] = []
        rects.reserveCapacity(path.commands.count / 5)
        var turn = 0.0
        // The subpath's corners so far, held in place: an array per subpath was most of the cost.
        var c = (Point(x: 0, y: 0), Point(x: 0, y: 0), Point(x: 0, y: 0), Point(x: 0, y: 0), Point(x: 0, y: 0))
        var count = 0
        for command in path.commands {
            switch command {
            case .move(let p):
                guard count == 0 else { return nil }
                c.0 = p
                count = 1
            case .line(let p):
                switch count {
                case 1: c.1 = p
                case 2: c.2 = p
                case 3: c.3 = p
                case 4: c.4 = p
                default: return nil
                }
                count += 1
            case .close:
                guard count == 4 || count == 5 && c.4 == c.0, let (rect, sign) = Self.rectangle(c.0, c.1, c.2, c.3),
                      turn == 0 || sign == turn else { return nil }
                turn = sign
                rects.append(rect)
                count = 0
            case .quad, .cubic:
                return nil
            }
        }
        guard count == 0, !rects.isEmpty else { return nil }
        // Silhouettes come in order already; a client's boxes may not.
        var sorted = true
        for k in rects.indices.dropFirst() where rects[k - 1].y > rects[k].y { sorted = false; break }
        if !sorted { rects.sort { $0.y < $1.y } }
        var tallest = 0.0, maxY = -Double.infinity
        for r in rects { (tallest, maxY) = (max(tallest, r.height), max(maxY, r.maxY)) }
        self.rects = rects
        self.tallest = tallest
        minY = rects[0].y
        self.maxY = maxY
    }

    /// The rectangle four corners go round, and which way they turn (±1); nil unless each side
    /// is horizontal or vertical, in turn, and none is of no length.
    private static func rectangle(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> (Rect, Double)? {
        let flatFirst = a.y == b.y && b.x == c.x && c.y == d.y && d.x == a.x
        let steepFirst = a.x == b.x && b.y == c.y && c.x == d.x && d.y == a.y
        guard flatFirst || steepFirst else { return nil }
        let minX = min(a.x, c.x), maxX = max(a.x, c.x), minY = min(a.y, c.y), maxY = max(a.y, c.y)
        guard maxX > minX, maxY > minY, minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return nil }
        let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
        return (Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY), cross > 0 ? 1 : -1)
    }

    /// The rectangles whose tops are at or above `bottom` and that may reach down to `top`.
    private func candidates(top: Double, bottom: Double) -> ArraySlice<Rect> {
        let from = top - tallest
        let low = ShapedParagraph.firstIndex(rects.count) { rects[$0].y >= from }
        var end = low
        while end < rects.count && rects[end].y <= bottom { end += 1 }
        return rects[low..<end]
    }

    /// The x inside on the horizontal line at `y` (a rectangle holds its top, not its bottom).
    private func interior(at y: Double) -> [Interval] {
        var out: [Interval] = []
        for r in candidates(top: y, bottom: y) where r.y <= y && y < r.maxY { out.append(Interval(lower: r.x, upper: r.maxX)) }
        return Intervals.merged(out)
    }

    /// The x the union covers anywhere in the band, open at both ends (`ShapeScanner.covered`).
    func covered(top: Double, bottom: Double) -> [Interval] {
        guard bottom > minY, top < maxY, bottom > top else { return [] }
        let t = top + ShapeScanner.touch, b = bottom - ShapeScanner.touch
        guard b > t else { return interior(at: (top + bottom) / 2) }
        var out: [Interval] = []
        for r in candidates(top: t, bottom: b) where r.maxY > t { out.append(Interval(lower: r.x, upper: r.maxX)) }
        return Intervals.merged(out)
    }

    /// The x inside at every height of the band (`ShapeScanner.inside`).
    func inside(top: Double, bottom: Double) -> [Interval] {
        guard top >= minY - ShapeScanner.touch, bottom <= maxY + ShapeScanner.touch, bottom > top else { return [] }
        let t = top + ShapeScanner.touch, b = bottom - ShapeScanner.touch
        guard b > t else { return interior(at: (top + bottom) / 2) }
        let both = Intervals.intersecting(interior(at: t), interior(at: b))
        // A rectangle's top or bottom side inside the band cuts its width out (its upright sides
        // are of no width, which cuts nothing).
        var sides: [Interval] = []
        for r in candidates(top: t, bottom: b) where r.maxY > t && r.y < b && (r.y > t || r.maxY < b) {
            sides.append(Interval(lower: r.x, upper: r.maxX))
        }
        return Intervals.subtracting(Intervals.merged(sides), from: both)
    }
}
