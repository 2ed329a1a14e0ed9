import Foundation

/// One drawing command, in layout coordinates (points, y down).
public enum PathCommand: Equatable, Sendable {
    case move(Point)
    case line(Point)
    case quad(Point, Point)
    case cubic(Point, Point, Point)
    case close

    /// The points the command names, controls first.
    public var points: [Point] {
        switch self {
        case .move(let a), .line(let a): [a]
        case let .quad(a, b): [a, b]
        case let .cubic(a, b, c): [a, b, c]
        case .close: []
        }
    }
}

/// A path: closed subpaths of commands, with an SVG `d` string for clients that draw SVG.
public struct Path: Equatable, Sendable {
    public var commands: [PathCommand] = []

    public init(_ commands: [PathCommand] = []) { self.commands = commands }

    /// The SVG `d` string, coordinates to two decimals ("M8 4.5 L10.25 4.5 Z"). Written byte by
    /// byte: `String(format:)` per number made an outline of 65,000 rects take seconds.
    public var svg: String {
        var out: [UInt8] = []
        out.reserveCapacity(commands.count * 16)
        for (index, command) in commands.enumerated() {
            if index > 0 { out.append(UInt8(ascii: " ")) }
            switch command {
            case .move(let p): SVGNumber.write("M", [p], into: &out)
            case .line(let p): SVGNumber.write("L", [p], into: &out)
            case let .quad(c, p): SVGNumber.write("Q", [c, p], into: &out)
            case let .cubic(c1, c2, p): SVGNumber.write("C", [c1, c2, p], into: &out)
            case .close: out.append(UInt8(ascii: "Z"))
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The path as polygons, curves replaced by `segments` straight pieces each (for tests and hit-testing).
    public func flattened(segments: Int = 8) -> [[Point]] {
        var polygons: [[Point]] = []
        var current: [Point] = []
        for command in commands {
            switch command {
            case .move(let p):
                if !current.isEmpty { polygons.append(current) }
                current = [p]
            case .line(let p): current.append(p)
            case let .quad(c, p):
                let s = current.last ?? p
                for k in 1...segments {
                    let t = Double(k) / Double(segments), u = 1 - t
                    current.append(Point(x: u * u * s.x + 2 * u * t * c.x + t * t * p.x, y: u * u * s.y + 2 * u * t * c.y + t * t * p.y))
                }
            case let .cubic(c1, c2, p):
                let s = current.last ?? p
                for k in 1...segments {
                    let t = Double(k) / Double(segments), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    current.append(Point(x: a * s.x + b * c1.x + c * c2.x + d * p.x, y: a * s.y + b * c1.y + c * c2.y + d * p.y))
                }
            case .close:
                if !current.isEmpty { polygons.append(current) }
                current = []
            }
        }
        if !current.isEmpty { polygons.append(current) }
        return polygons
    }

    /// A polygon with every corner rounded: radius `radius`, shrunk at a corner to half its
    /// shorter edge so neighbouring arcs never overlap. Convex and concave corners alike get a
    /// quarter-circle cubic (control points at 0.5523 of the radius).
    public static func roundedPolygon(_ vertices: [Point], radius: Double) -> Path {
        let n = vertices.count
        guard n >= 3 else { return Path() }
        let kappa = 0.5522847498
        var commands: [PathCommand] = []
        func length(_ a: Point, _ b: Point) -> Double { hypot(b.x - a.x, b.y - a.y) }
        func toward(_ a: Point, _ b: Point, _ d: Double) -> Point {
            let l = length(a, b)
            return l == 0 ? a : Point(x: a.x + (b.x - a.x) * d / l, y: a.y + (b.y - a.y) * d / l)
        }
        for i in 0..<n {
            let previous = vertices[(i + n - 1) % n], corner = vertices[i], next = vertices[(i + 1) % n]
            let r = max(0, min(radius, length(previous, corner) / 2, length(corner, next) / 2))
            let start = toward(corner, previous, r), end = toward(corner, next, r)
            commands.append(i == 0 ? .move(start) : .line(start))
            if r > 0 {
                commands.append(.cubic(toward(start, corner, r * kappa), toward(end, corner, r * kappa), end))
            }
        }
        commands.append(.close)
        return Path(commands)
    }

    public static func roundedRect(_ rect: Rect, radius: Double) -> Path {
        roundedPolygon([Point(x: rect.x, y: rect.y), Point(x: rect.maxX, y: rect.y),
                        Point(x: rect.maxX, y: rect.maxY), Point(x: rect.x, y: rect.maxY)], radius: radius)
    }
}

/// Writes SVG path numbers: rounded to hundredths, no trailing zeros, integers without a point.
enum SVGNumber {
    static func write(_ verb: Unicode.Scalar, _ points: [Point], into out: inout [UInt8]) {
        out.append(UInt8(ascii: verb))
        for (index, point) in points.enumerated() {
            if index > 0 { out.append(UInt8(ascii: " ")) }
            write(point.x, into: &out)
            out.append(UInt8(ascii: " "))
            write(point.y, into: &out)
        }
    }

    static func write(_ value: Double, into out: inout [UInt8]) {
        let hundredths = (value * 100).rounded()
        // Past 1e15 hundredths (far beyond any bounded layout) the digits come from the formatter.
        guard hundredths.isFinite, abs(hundredths) < 1e15 else {
            out.append(contentsOf: String(format: "%.2f", value).utf8)
            return
        }
        var whole = Int(saturating: hundredths)
        if whole < 0 {
            out.append(UInt8(ascii: "-"))
            whole = -whole
        }
        let integer = whole / 100, fraction = whole % 100
        appendDigits(integer, into: &out)
        guard fraction != 0 else { return }
        out.append(UInt8(ascii: "."))
        out.append(UInt8(ascii: "0") + UInt8(fraction / 10))
        if fraction % 10 != 0 { out.append(UInt8(ascii: "0") + UInt8(fraction % 10)) }
    }

    private static func appendDigits(_ value: Int, into out: inout [UInt8]) {
        if value >= 10 { appendDigits(value / 10, into: &out) }
        out.append(UInt8(ascii: "0") + UInt8(value % 10))
    }
}
