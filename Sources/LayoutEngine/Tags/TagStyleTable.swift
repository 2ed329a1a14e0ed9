import Foundation

/// Whether a label's leader line is one of the straight styles' (horizontal or vertical) or a
/// slanted one; used to find a style's neighbours, not to draw (the angle draws).
public enum TagLineKind: String, Sendable, Codable, CaseIterable {
    case straight, slanted
}

/// The side of its leader line a label's text extends to.
public enum TagSide: String, Sendable, Codable, CaseIterable {
    case left, right

    public var mirrored: TagSide { self == .left ? .right : .left }
}

/// One label's place in a style.
public struct TagLabelStyle: Equatable, Sendable, Codable {
    /// Degrees counter-clockwise from pointing right, as on a photo seen upright: 90 is up.
    public var angle: Double
    public var line: TagLineKind
    public var side: TagSide

    public init(angle: Double, line: TagLineKind, side: TagSide) {
        self.angle = angle
        self.line = line
        self.side = side
    }
}

/// A style: where each of a tag's labels goes.
public struct TagStyle: Equatable, Sendable, Codable {
    public var name: String?
    public var labels: [TagLabelStyle]
    /// How the style's tags stay readable on the photo; nil: `TagLegibility.default`.
    public var legibility: TagLegibility?

    public init(name: String? = nil, labels: [TagLabelStyle], legibility: TagLegibility? = nil) {
        self.name = name
        self.labels = labels
        self.legibility = legibility
    }

    /// The side every label points to, nil when they differ.
    public var side: TagSide? { Set(labels.map(\.side)).count == 1 ? labels.first?.side : nil }
    /// The line kind every label has, nil when they differ.
    public var line: TagLineKind? { Set(labels.map(\.line)).count == 1 ? labels.first?.line : nil }
}

/// The styles a tag may take, by label count (1, 2 or 3) and then by style index: data, not
/// code, so an app can change its styles from its server, and an operator from the daemon's
/// configuration. The JSON form is `data/tag-styles.json`.
public struct TagStyleTable: Equatable, Sendable {
    /// `styles[n]` holds the styles for tags of n labels; the index in it is the style index.
    public private(set) var styles: [Int: [TagStyle]]

    public static let labelCounts = 1...3
    /// At most this many styles for one label count; a table is configuration, not data load.
    public static let maxStylesPerCount = 64
    /// The largest JSON table read, in bytes.
    public static let maxJSONBytes = 64 << 10

    /// A table, checked: label counts 1–3, each style with as many labels as its count, finite angles.
    public init(styles: [Int: [TagStyle]]) throws(LayoutError) {
        for (count, list) in styles {
            guard Self.labelCounts.contains(count) else {
                throw LayoutError(.invalidArgument, "styles are keyed by a label count of 1, 2 or 3, not \(count)", field: "styles")
            }
            guard list.count <= Self.maxStylesPerCount else {
                throw LayoutError(.invalidArgument, "\(list.count) styles for \(count) labels; at most \(Self.maxStylesPerCount)",
                                  field: "styles.\(count)")
            }
            for (index, style) in list.enumerated() {
                guard style.labels.count == count else {
                    throw LayoutError(.invalidArgument, "a style for \(count) labels lists \(style.labels.count)",
                                      field: "styles.\(count)[\(index)].labels")
                }
                for (label, entry) in style.labels.enumerated() where !entry.angle.isFinite {
                    throw LayoutError(.invalidArgument, "the angle is not a finite number",
                                      field: "styles.\(count)[\(index)].labels[\(label)].angle")
                }
                try style.legibility?.validate(field: "styles.\(count)[\(index)].legibility")
            }
        }
        self.styles = styles
    }

    /// Reads the JSON form: `{"styles": {"1": [{"labels": [{"angle": 0, "line": "straight", "side": "right"}]}], …}}`.
    public init(json: [UInt8]) throws(LayoutError) {
        guard json.count <= Self.maxJSONBytes else {
            throw LayoutError(.resourceExhausted, "a style table of \(json.count) bytes; at most \(Self.maxJSONBytes)", field: "style_table_json")
        }
        struct File: Decodable { var styles: [String: [TagStyle]] }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: Data(json))
        } catch {
            throw LayoutError(.invalidArgument, "not a tag style table: \(Self.describe(error))", field: "style_table_json")
        }
        var styles: [Int: [TagStyle]] = [:]
        for (key, list) in file.styles {
            guard let count = Int(key) else {
                throw LayoutError(.invalidArgument, "styles are keyed by a label count, not \"\(key)\"", field: "style_table_json.styles")
            }
            styles[count] = list
        }
        do {
            try self.init(styles: styles)
        } catch {
            throw LayoutError(error.code, error.message, field: "style_table_json." + error.field)
        }
    }

    /// The table layoutd ships: left/right × straight/slanted for 1, 2 and 3 labels.
    public static let standard: TagStyleTable = {
        do { return try TagStyleTable(json: Array(defaultJSON.utf8)) } catch { fatalError("the default tag style table: \(error)") }
    }()

    /// How many styles a tag of `labelCount` labels has (0 when the table has none).
    public func count(for labelCount: Int) -> Int { styles[labelCount]?.count ?? 0 }

    /// The style, or an error naming `field` when the table has no such entry.
    public func style(_ index: Int, labelCount: Int, field: @autoclosure () -> String) throws(LayoutError) -> TagStyle {
        let list = styles[labelCount] ?? []
        guard list.indices.contains(index) else {
            let have = list.isEmpty ? "none" : "0…\(list.count - 1)"
            throw LayoutError(.invalidArgument, "no style \(index) for \(labelCount) label\(labelCount == 1 ? "" : "s") "
                              + "(this table has \(have))", field: field())
        }
        return list[index]
    }

    /// The next style, as tapping the dot cycles: `(style + 1) % count`.
    public func toggled(_ index: Int, labelCount: Int) throws(LayoutError) -> Int {
        _ = try style(index, labelCount: labelCount, field: "style")
        return (index + 1) % count(for: labelCount)
    }

    /// The style whose every label's angle is within `tolerance` degrees of `angles` (first
    /// such in index order), or nil. Angles compare on the circle: 359.9 is 0.1 from 0.
    public func recognize(angles: [Double], tolerance: Double = 0.5) -> Int? {
        guard let list = styles[angles.count], angles.allSatisfy(\.isFinite) else { return nil }
        return list.firstIndex { style in
            zip(style.labels, angles).allSatisfy { Self.angularDistance($0.angle, $1) <= tolerance }
        }
    }

    /// The distance between two angles in degrees, 0…180.
    public static func angularDistance(_ a: Double, _ b: Double) -> Double {
        let turn = (a - b).truncatingRemainder(dividingBy: 360)
        let positive = turn < 0 ? turn + 360 : turn
        return min(positive, 360 - positive)
    }

    /// Style indices for `labelCount` labels, nearest to `index` first: itself, then the same
    /// line kind mirrored, then the other line kind on the same side, then both changed, then
    /// the rest in index order.
    public func neighbours(of index: Int, labelCount: Int) -> [Int] {
        let list = styles[labelCount] ?? []
        guard list.indices.contains(index) else { return [] }
        let from = list[index]
        func distance(_ style: TagStyle) -> Int {
            guard let side = from.side, let line = from.line, let otherSide = style.side, let otherLine = style.line else { return 4 }
            switch (otherSide == side, otherLine == line) {
            case (true, true): return 0
            case (false, true): return 1
            case (true, false): return 2
            case (false, false): return 3
            }
        }
        return list.indices.filter { $0 != index }.sorted { (distance(list[$0]), $0) < (distance(list[$1]), $1) }
            .reduce(into: [index]) { $0.append($1) }
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.keyNotFound(_, let context),
             DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? context.debugDescription : "\(path.dropFirst(path.hasPrefix(".") ? 1 : 0)): \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }
}
