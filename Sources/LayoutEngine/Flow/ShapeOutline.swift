import Foundation

/// What a band of lines meets of a shape, answered in closed form for rects and ellipses (the
/// shapes most requests carry: a photo, a round picture, a bubble), rect by rect for a union
/// of boxes (an image's silhouette), and by scanning the flattened outline for everything else.
enum ShapeOutline {
    case rect(Rect)
    case ellipse(centre: Point, rx: Double, ry: Double)
    case rects(RectUnion)
    case scanned(ShapeScanner)

    init(_ shape: FlowShape) {
        switch shape.geometry {
        case .rect(let r): self = .rect(r)
        case .ellipse(let r) where r.width > 0 && r.height > 0:
            self = .ellipse(centre: Point(x: r.x + r.width / 2, y: r.y + r.height / 2), rx: r.width / 2, ry: r.height / 2)
        case .path(let path) where shape.fillRule == .nonZero:
            if let union = RectUnion(path) { self = .rects(union) } else { self = .scanned(ShapeScanner(shape)) }
        default: self = .scanned(ShapeScanner(shape))
        }
    }

    var isRect: Bool {
        if case .rect = self { true } else { false }
    }

    var minY: Double {
        switch self {
        case .rect(let r): r.y
        case let .ellipse(c, _, ry): c.y - ry
        case .rects(let u): u.minY
        case .scanned(let s): s.minY
        }
    }

    var maxY: Double {
        switch self {
        case .rect(let r): r.maxY
        case let .ellipse(c, _, ry): c.y + ry
        case .rects(let u): u.maxY
        case .scanned(let s): s.maxY
        }
    }

    /// The x the shape covers anywhere in the band (open at both ends, as `ShapeScanner`'s).
    func covered(top: Double, bottom: Double) -> [Interval] {
        let t = top + ShapeScanner.touch, b = bottom - ShapeScanner.touch
        switch self {
        case .rect(let r):
            guard r.width > 0, r.height > 0, b > r.y, t < r.maxY else { return [] }
            return [Interval(lower: r.x, upper: r.maxX)]
        case let .ellipse(c, rx, ry):
            guard b > c.y - ry, t < c.y + ry else { return [] }
            // The widest chord in the band: at the centre's height, or the band's edge nearest it.
            let w = Self.halfChord(at: min(max(c.y, t), b) - c.y, rx: rx, ry: ry)
            return w > 0 ? [Interval(lower: c.x - w, upper: c.x + w)] : []
        case .rects(let u):
            return u.covered(top: top, bottom: bottom)
        case .scanned(let s):
            return s.covered(top: top, bottom: bottom)
        }
    }

    /// The x inside the shape at every height of the band.
    func inside(top: Double, bottom: Double) -> [Interval] {
        let t = top + ShapeScanner.touch, b = bottom - ShapeScanner.touch
        switch self {
        case .rect(let r):
            guard t >= r.y, b <= r.maxY, r.width > 0 else { return [] }
            return [Interval(lower: r.x, upper: r.maxX)]
        case let .ellipse(c, rx, ry):
            guard t >= c.y - ry, b <= c.y + ry else { return [] }
            // The narrowest chord in the band: at the band's edge farthest from the centre.
            let w = Self.halfChord(at: max(abs(t - c.y), abs(b - c.y)), rx: rx, ry: ry)
            return w > 0 ? [Interval(lower: c.x - w, upper: c.x + w)] : []
        case .rects(let u):
            return u.inside(top: top, bottom: bottom)
        case .scanned(let s):
            return s.inside(top: top, bottom: bottom)
        }
    }

    /// Half the ellipse's chord at `dy` from its centre.
    private static func halfChord(at dy: Double, rx: Double, ry: Double) -> Double {
        let k = dy / ry
        return k >= 1 ? 0 : rx * (1 - k * k).squareRoot()
    }
}
