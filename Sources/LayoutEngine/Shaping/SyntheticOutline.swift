/// A glyph's outline collected contour by contour, then drawn grown and slanted as FreeType's
/// synthesis does (ftsynth.c, ftoutln.c's `FT_Outline_EmboldenXY`), so that the engine's ink,
/// the renderer's pictures and a client's FreeType agree:
/// - every point, control points too, moves out along the bisector of its two edges so that
///   each edge moves out by half the strength; at a sharp convex corner no further than the
///   shorter edge allows, and not at all where the contour turns back on itself;
/// - then the whole glyph moves right and up by half the strength, so an upright left edge and a
///   flat bottom stay where they were;
/// - then x += shear × y.
/// Which side is "out" follows the outline's winding (TrueType contours run clockwise, CFF's
/// counter-clockwise), found from its signed area as FreeType finds it.
final class SyntheticOutline: OutlineSink {
    private enum Kind { case on, quad, cubic }
    private struct Point { var x: Float, y: Float, kind: Kind }
    private var contours: [[Point]] = []

    func move(to x: Float, _ y: Float) { contours.append([Point(x: x, y: y, kind: .on)]) }
    func line(to x: Float, _ y: Float) { append(x, y, .on) }
    func quad(_ cx: Float, _ cy: Float, to x: Float, _ y: Float) { append(cx, cy, .quad); append(x, y, .on) }
    func cubic(_ c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float, to x: Float, _ y: Float) {
        append(c1x, c1y, .cubic); append(c2x, c2y, .cubic); append(x, y, .on)
    }
    func close() {
        // A contour drawn back to its start closes on it: the start is one point, not two.
        guard let last = contours.indices.last, contours[last].count > 1, let first = contours[last].first,
              let end = contours[last].last, end.kind == .on, end.x == first.x, end.y == first.y else { return }
        contours[last].removeLast()
    }

    private func append(_ x: Float, _ y: Float, _ kind: Kind) {
        if contours.isEmpty { contours.append([]) }
        contours[contours.count - 1].append(Point(x: x, y: y, kind: kind))
    }

    /// Draws the outline into `sink`, emboldened by `strength` font units and sheared by `shear`.
    func replay(emboldenedBy strength: Float, shear: Float, into sink: any OutlineSink) {
        var moved = contours
        if strength > 0 { embolden(&moved, by: strength) }
        func x(_ p: Point) -> Float { p.x + shear * p.y }
        for contour in moved where !contour.isEmpty {
            sink.move(to: x(contour[0]), contour[0].y)
            var index = 1
            // HarfBuzz draws each contour back to its start before closing it; so does this.
            var atStart = contour.count == 1
            while index < contour.count {
                let point = contour[index]
                switch point.kind {
                case .on:
                    sink.line(to: x(point), point.y)
                    index += 1
                    atStart = false
                case .quad:
                    let end = index + 1 < contour.count ? contour[index + 1] : contour[0]
                    sink.quad(x(point), point.y, to: x(end), end.y)
                    atStart = index + 1 >= contour.count
                    index += 2
                case .cubic:
                    let second = index + 1 < contour.count ? contour[index + 1] : contour[0]
                    let end = index + 2 < contour.count ? contour[index + 2] : contour[0]
                    sink.cubic(x(point), point.y, x(second), second.y, to: x(end), end.y)
                    atStart = index + 2 >= contour.count
                    index += 3
                }
            }
            if !atStart { sink.line(to: x(contour[0]), contour[0].y) }
            sink.close()
        }
    }

    private func embolden(_ contours: inout [[Point]], by strength: Float) {
        let half = strength / 2
        // Twice the signed area: negative for clockwise (TrueType's outer contours).
        var area: Float = 0
        for contour in contours {
            for (index, point) in contour.enumerated() {
                let next = contour[(index + 1) % contour.count]
                area += point.x * next.y - next.x * point.y
            }
        }
        let clockwise = area < 0
        for c in contours.indices {
            let contour = contours[c]
            let count = contour.count
            guard count > 1 else { continue }
            var grown = contour
            for index in 0..<count {
                let point = contour[index]
                // The nearest distinct points before and after: a repeated point has no edge.
                var before = (index + count - 1) % count
                while before != index && contour[before].x == point.x && contour[before].y == point.y { before = (before + count - 1) % count }
                var after = (index + 1) % count
                while after != index && contour[after].x == point.x && contour[after].y == point.y { after = (after + 1) % count }
                var shiftX: Float = 0, shiftY: Float = 0
                if before != index && after != index {
                    let inX = point.x - contour[before].x, inY = point.y - contour[before].y
                    let outX = contour[after].x - point.x, outY = contour[after].y - point.y
                    let inLength = (inX * inX + inY * inY).squareRoot(), outLength = (outX * outX + outY * outY).squareRoot()
                    let (ix, iy) = (inX / inLength, inY / inLength), (ox, oy) = (outX / outLength, outY / outLength)
                    let cosine = ix * ox + iy * oy
                    // Where the contour turns back on itself (within about 20°) the bisector is no
                    // guide: the point stays.
                    if cosine > -0.9375 {
                        let d = cosine + 1
                        // The outward normals' sum: out is left of the direction in a clockwise contour.
                        var nx = -(iy + oy), ny = ix + ox
                        var turn = ox * iy - oy * ix
                        if !clockwise { nx = -nx; ny = -ny } else { turn = -turn }
                        // At a sharp convex corner, move no further than the shorter edge is long.
                        let limit = min(inLength, outLength)
                        let scale = half * turn <= limit * d ? half / d : limit / turn
                        shiftX = nx * scale
                        shiftY = ny * scale
                    }
                }
                grown[index].x = point.x + shiftX + half
                grown[index].y = point.y + shiftY + half
            }
            contours[c] = grown
        }
    }
}
