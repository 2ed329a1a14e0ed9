import Foundation

/// Which points a path's subpaths enclose, as SVG, Cairo and CoreGraphics define the rules.
public enum FillRule: Sendable {
    case nonZero, evenOdd
}

/// A region text flows inside (a shaped container) or around (an exclusion), in its
/// container's coordinates: points, origin top-left, y down.
public struct FlowShape: Equatable, Sendable {
    public enum Geometry: Equatable, Sendable {
        case rect(Rect)
        case roundedRect(Rect, radius: Double)
        case ellipse(Rect)
        case polygon([Point])
        /// Subpaths of move, line, quad, cubic and close: the path format backgrounds return.
        case path(Path)
    }

    public var geometry: Geometry
    public var fillRule: FillRule

    public init(_ geometry: Geometry, fillRule: FillRule = .nonZero) {
        self.geometry = geometry
        self.fillRule = fillRule
    }

    /// Curves become straight pieces no further than this from the curve, in points.
    static let flatness = 0.05

    /// The outline as closed polygons: curves and ellipses flattened to within `flatness`.
    func polygons() -> [[Point]] {
        switch geometry {
        case .rect(let r):
            return [[Point(x: r.x, y: r.y), Point(x: r.maxX, y: r.y), Point(x: r.maxX, y: r.maxY), Point(x: r.x, y: r.maxY)]]
        case let .roundedRect(r, radius):
            return Self.flatten(Path.roundedRect(r, radius: radius))
        case .ellipse(let r):
            let rx = r.width / 2, ry = r.height / 2, cx = r.x + rx, cy = r.y + ry
            // Enough sides that the chord's sag, R(1 − cos(π/n)), stays within the flatness.
            let radius = max(rx, ry)
            let n = radius <= Self.flatness ? 8 : min(4_096, max(16, Int(saturating: (Double.pi / acos(1 - Self.flatness / radius)).rounded(.up))))
            // Vertices by turning a unit vector a fixed step each time: two products a vertex, where
            // a sine and a cosine each are a call of their own (the drift over 4,096 steps is ~1e-12).
            let step = 2 * Double.pi / Double(n)
            let (c, s) = (cos(step), sin(step))
            var (u, v) = (1.0, 0.0)
            var points: [Point] = []
            points.reserveCapacity(n)
            for _ in 0..<n {
                points.append(Point(x: cx + rx * u, y: cy + ry * v))
                (u, v) = (u * c - v * s, u * s + v * c)
            }
            return [points]
        case .polygon(let points):
            return [points]
        case .path(let path):
            return Self.flatten(path)
        }
    }

    /// A path's subpaths as polygons; each curve in as many pieces as its control polygon's
    /// length asks for (a piece's sag shrinks with the square of its length).
    static func flatten(_ path: Path) -> [[Point]] {
        var polygons: [[Point]] = []
        var current: [Point] = []
        func pieces(_ points: [Point]) -> Int {
            var length = 0.0
            for k in 1..<points.count { length += hypot(points[k].x - points[k - 1].x, points[k].y - points[k - 1].y) }
            return min(64, max(2, Int(saturating: (length / 8 / flatness).squareRoot().rounded(.up))))
        }
        for command in path.commands {
            switch command {
            case .move(let p):
                if current.count > 1 { polygons.append(current) }
                current = [p]
            case .line(let p):
                current.append(p)
            case let .quad(c, p):
                let s = current.last ?? p
                let n = pieces([s, c, p])
                for k in 1...n {
                    let t = Double(k) / Double(n), u = 1 - t
                    current.append(Point(x: u * u * s.x + 2 * u * t * c.x + t * t * p.x, y: u * u * s.y + 2 * u * t * c.y + t * t * p.y))
                }
            case let .cubic(c1, c2, p):
                let s = current.last ?? p
                let n = pieces([s, c1, c2, p])
                for k in 1...n {
                    let t = Double(k) / Double(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    current.append(Point(x: a * s.x + b * c1.x + c * c2.x + d * p.x, y: a * s.y + b * c1.y + c * c2.y + d * p.y))
                }
            case .close:
                if current.count > 1 { polygons.append(current) }
                current = []
            }
        }
        if current.count > 1 { polygons.append(current) }
        return polygons
    }
}
