/// Where glyph ink crosses a band along the line: what an underline that skips ink is cut around.
///
/// Each glyph's outline (its face's drawing: HarfBuzz's own glyf/CFF) is walked segment by segment, curves
/// flattened; the parts inside the band give the glyph's leftmost and rightmost ink there. One
/// interval per glyph, widened by the clearance on both sides: a descender's loop is one gap.
enum InkIntercepts {
    /// Tracks one glyph's ink inside the band as its face draws it.
    final class Walker: OutlineSink {
        var scale = 1.0
        var origin = Point(x: 0, y: 0)
        var top = 0.0, bottom = 0.0
        var current = Point(x: 0, y: 0)
        var start = Point(x: 0, y: 0)
        var minX = Double.infinity, maxX = -Double.infinity
        /// Upright glyphs of vertical text stand unturned on the page, so in the lines' frame
        /// their outline is turned: its y runs back along the line and its x across it.
        var standsUnturned = false
        /// The sign the outline's across coordinate (y, or an upright glyph's x) takes in the
        /// frame: up is −y, except in left-to-right columns, whose frame is mirrored across the line.
        var across = -1.0

        func place(_ x: Float, _ y: Float) -> Point {
            let (along, up) = standsUnturned ? (-Double(y), Double(x)) : (Double(x), Double(y))
            return Point(x: origin.x + along * scale, y: origin.y + across * up * scale)
        }

        func segment(to end: Point) {
            defer { current = end }
            let a = current, b = end
            if (a.y < top && b.y < top) || (a.y > bottom && b.y > bottom) { return }
            if a.y == b.y {
                include(a.x)
                include(b.x)
                return
            }
            let t0 = (top - a.y) / (b.y - a.y), t1 = (bottom - a.y) / (b.y - a.y)
            let low = max(0, min(t0, t1)), high = min(1, max(t0, t1))
            guard low <= high else { return }
            include(a.x + (b.x - a.x) * low)
            include(a.x + (b.x - a.x) * high)
        }

        func include(_ x: Double) {
            minX = min(minX, x)
            maxX = max(maxX, x)
        }

        /// Curves as 8 straight pieces: an underline's band is a point or two high.
        static let pieces = 8

        func quad(_ c: Point, _ end: Point) {
            let s = current
            for k in 1...Self.pieces {
                let t = Double(k) / Double(Self.pieces), u = 1 - t
                segment(to: Point(x: u * u * s.x + 2 * u * t * c.x + t * t * end.x, y: u * u * s.y + 2 * u * t * c.y + t * t * end.y))
            }
        }

        func move(to x: Float, _ y: Float) {
            current = place(x, y)
            start = current
        }

        func line(to x: Float, _ y: Float) { segment(to: place(x, y)) }
        func quad(_ cx: Float, _ cy: Float, to x: Float, _ y: Float) { quad(place(cx, cy), place(x, y)) }
        func cubic(_ c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float, to x: Float, _ y: Float) {
            cubic(place(c1x, c1y), place(c2x, c2y), place(x, y))
        }
        func close() { segment(to: start) }

        func cubic(_ c1: Point, _ c2: Point, _ end: Point) {
            let s = current
            for k in 1...Self.pieces {
                let t = Double(k) / Double(Self.pieces), u = 1 - t
                let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                segment(to: Point(x: a * s.x + b * c1.x + c * c2.x + d * end.x, y: a * s.y + b * c1.y + c * c2.y + d * end.y))
            }
        }
    }

    /// Each glyph's ink inside `top...bottom` (layout coordinates, y down), widened by
    /// `clearance`, sorted by their left ends. Bitmap glyphs (colour emoji) have no outline and
    /// cut nothing. A vertical layout's runs are read in its lines' frame, `writingMode` the one
    /// it will be turned to.
    static func intervals(of runs: [(GlyphRunLayout, Font)], top: Double, bottom: Double, clearance: Double,
                          writingMode: WritingMode = .horizontal) -> [(Double, Double)] {
        let walker = Walker()
        walker.top = top
        walker.bottom = bottom
        walker.across = writingMode == .verticalLeftToRight ? 1 : -1
        var intervals: [(Double, Double)] = []
        for (run, font) in runs where !font.isColorEmoji {
            walker.scale = font.scale(for: run.size)
            walker.standsUnturned = writingMode.isVertical && (run.orientation == .upright || run.orientation == .combined)
            for glyph in run.glyphs {
                walker.origin = glyph.position
                walker.minX = .infinity
                walker.maxX = -.infinity
                font.shaping.drawOutline(of: glyph.id, into: walker)
                if walker.minX <= walker.maxX { intervals.append((walker.minX - clearance, walker.maxX + clearance)) }
            }
        }
        return intervals.sorted { $0.0 < $1.0 }
    }

    /// `spans` with the `gaps` taken out; pieces shorter than `shortest` are dropped (a sliver
    /// between two descenders reads as a speck, not a line).
    static func cut(_ spans: [(Double, Double)], by gaps: [(Double, Double)], shortest: Double) -> [(Double, Double)] {
        var result: [(Double, Double)] = []
        for (from, to) in spans {
            var x = from
            for (gapStart, gapEnd) in gaps where gapEnd > x && gapStart < to {
                if gapStart > x, gapStart - x >= shortest { result.append((x, gapStart)) }
                x = max(x, gapEnd)
            }
            if to > x, to - x >= shortest { result.append((x, to)) }
        }
        return result
    }
}
