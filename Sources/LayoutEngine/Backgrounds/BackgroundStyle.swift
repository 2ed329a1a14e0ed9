/// An RGBA colour, components 0...1.
public struct Color: Hashable, Sendable {
    public var red, green, blue, alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}

/// What to draw behind text.
public struct BackgroundStyle: Sendable {
    public enum Kind: Sendable, Equatable {
        /// A rounded rect around each line's text, leading and trailing whitespace excluded.
        case perLine
        /// One outline around all lines: the union of their padded rects, every corner rounded.
        case connected
        /// One rounded rect around everything (Instagram's Classic bubble).
        case block
        /// Rounded rects around a UTF-16 range, one per line it touches.
        case highlight(Range<Int>)
    }

    public var kind: Kind
    public var horizontalPadding: Double
    public var verticalPadding: Double
    /// Shrinks where a rect or a step between lines is smaller than twice the radius.
    public var cornerRadius: Double
    public var fill: Color
    /// per_line only: adjacent rects meet at the boundary between their lines instead of
    /// keeping the gap the line spacing leaves.
    public var touching: Bool
    /// A line along the outline, over the fill (YYText's `YYTextBorder`).
    public var border: BackgroundBorder?
    /// A shadow the shape casts under its fill.
    public var shadow: TextShadow?

    public init(kind: Kind, horizontalPadding: Double = 8, verticalPadding: Double = 4, cornerRadius: Double = 8,
                fill: Color = Color(red: 1, green: 1, blue: 1), touching: Bool = false) {
        self.kind = kind
        self.horizontalPadding = horizontalPadding
        self.verticalPadding = verticalPadding
        self.cornerRadius = cornerRadius
        self.fill = fill
        self.touching = touching
    }

    /// Rejects negative or non-finite geometry, naming the field.
    public func validate(textLength: Int) throws(LayoutError) {
        for (value, field) in [(horizontalPadding, "horizontal_padding"), (verticalPadding, "vertical_padding"),
                               (cornerRadius, "corner_radius")] {
            try Bounds.check(value, upTo: Bounds.maxDecorationLength, field: field, zero: "is none")
        }
        if let border { try border.validate() }
        if let shadow { try StyleRules.checkShadow(shadow, field: "shadow") }
        if case .highlight(let range) = kind, range.lowerBound < 0 || range.upperBound > textLength {
            throw LayoutError(.invalidArgument, "range \(range) is outside the text's \(textLength) UTF-16 units", field: "range")
        }
    }
}

/// A line drawn along a background's outline, centred on it, over the fill.
public struct BackgroundBorder: Hashable, Sendable {
    /// Points.
    public var width: Double
    public var color: Color
    /// Lengths drawn and skipped in turn, points, from each subpath's start (SVG's
    /// `stroke-dasharray`); empty for a solid line.
    public var dashes: [Double]

    /// The widest border a request may ask for, and the most dash lengths.
    public static let maxWidth = 100.0, maxDashes = 16

    public init(width: Double, color: Color = Color(red: 0, green: 0, blue: 0), dashes: [Double] = []) {
        self.width = width
        self.color = color
        self.dashes = dashes
    }

    /// Rejects a width outside (0, 100], more than 16 dash lengths, one outside [0, 10,000], or
    /// only zeros (a dash pattern that draws nothing and never advances), naming the field.
    func validate() throws(LayoutError) {
        try Bounds.check(width, upTo: Self.maxWidth, field: "border.width")
        try Bounds.check(count: dashes.count, limit: Self.maxDashes, field: "border.dashes")
        for (index, length) in dashes.enumerated() {
            try Bounds.check(length, upTo: Bounds.maxDecorationLength, field: "border.dashes[\(index)]", zero: "is a dot")
        }
        if !dashes.isEmpty && dashes.allSatisfy({ $0 == 0 }) {
            throw LayoutError(.invalidArgument, "a dash pattern of zeros draws nothing", field: "border.dashes")
        }
    }
}

/// A decorated background: its rects (one per line, or one) and its outline as a path.
public struct Background: Equatable, Sendable {
    public var rects: [Rect]
    public var path: Path
    public var fill: Color
    /// How the path's subpaths fill: a flow shape drawn as a background keeps its own rule, so a
    /// ring drawn even-odd keeps its hole.
    public var fillRule: FillRule
    /// The style's border and shadow, drawn along and under `path`.
    public var border: BackgroundBorder?
    public var shadow: TextShadow?

    public init(rects: [Rect], path: Path, fill: Color, fillRule: FillRule = .nonZero) {
        self.rects = rects
        self.path = path
        self.fill = fill
        self.fillRule = fillRule
    }
}
