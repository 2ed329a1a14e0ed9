/// The documented range of every number a request carries; docs/protocol.md lists them.
///
/// Every limit is far past what a story, a caption or a page needs, and small enough that no
/// product of them overflows a `Double`'s exact range, a `Float` on the wire or Cairo's
/// coordinates: a width of 2e19 once reached an integer conversion and took the daemon down.
public enum Bounds {
    /// Widths and heights of containers, in points: (0, 1,000,000].
    public static let maxLength = 1_000_000.0
    /// Font sizes, in points: [0.01, 10,000]. Below a hundredth of a point Cairo's font matrix
    /// is singular and drawing fails.
    public static let minFontSize = 0.01
    public static let maxFontSize = 10_000.0

    /// True when `size` is a font size in range.
    public static func containsFontSize(_ size: Double) -> Bool { size.isFinite && size >= minFontSize && size <= maxFontSize }

    /// A limit as a person writes it: 10000, not 10000.0.
    public static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(saturating: value)) : String(value)
    }
    /// Letter spacing, in points, either way: [−10,000, 10,000].
    public static let maxLetterSpacing = 10_000.0
    /// Fixed line heights, in points: (0, 100,000].
    public static let maxLineHeight = 100_000.0
    /// Line height multiples: (0, 100].
    public static let maxLineHeightMultiple = 100.0
    /// Background paddings and corner radii, in points: [0, 10,000].
    public static let maxDecorationLength = 10_000.0

    /// Style spans in one request.
    public static let maxSpans = 16_384
    /// Backgrounds and highlights in one request.
    public static let maxBackgrounds = 64
    /// Rects all the backgrounds of one reply may hold together (a per-line background on a
    /// text of 4,096 lines, or 16 highlights over 256 lines each): past this a small request
    /// could ask for a reply, and work, thousands of times its size (each rect is a rounded
    /// path of nine commands on the wire).
    public static let maxBackgroundRects = 4_096
    /// OpenType features in one style.
    public static let maxFeatures = 64

    /// Refuses a repeated field with more than `limit` entries, naming it.
    public static func check(count: Int, limit: Int, field: String) throws(LayoutError) {
        guard count <= limit else {
            throw LayoutError(.resourceExhausted, "\(count) entries; a request may carry at most \(limit)", field: field)
        }
    }

    /// True when `value` is finite and in `0 < value <= upper` (or `0 <= value` when zero is allowed).
    @inlinable
    public static func contains(_ value: Double, upTo upper: Double, zeroAllowed: Bool = false) -> Bool {
        value.isFinite && (zeroAllowed ? value >= 0 : value > 0) && value <= upper
    }

    /// Refuses `value` unless it is finite and in (0, upper] — or in [0, upper] when `zero` says
    /// what 0 means for the field (its documented "unset") — naming the field and its range.
    /// Inlined where it is called (the request conversion is another module): a value in range
    /// costs a compare or two, where a generic call goes through witness tables; the message is
    /// built only for a refusal.
    @inlinable
    public static func check<F: BinaryFloatingPoint & CustomStringConvertible>(
        _ value: F, upTo upper: Double, field: String, unit: String = "points", zero: String? = nil
    ) throws(LayoutError) {
        guard !contains(Double(value), upTo: upper, zeroAllowed: zero != nil) else { return }
        throw refusal(value.description, upTo: upper, field: field, unit: unit, zero: zero)
    }

    /// Why a value is out of its range, naming the field and the range.
    @usableFromInline
    static func refusal(_ value: String, upTo upper: Double, field: String, unit: String, zero: String?) -> LayoutError {
        let range = zero == nil ? "(0, \(text(upper))]" : "[0, \(text(upper))]"
        let units = unit.isEmpty ? "" : " " + unit
        let note = zero.map { " (0 \($0))" } ?? ""
        return LayoutError(.invalidArgument, "\(field) must be in \(range)\(units)\(note), got \(value)", field: field)
    }
}
