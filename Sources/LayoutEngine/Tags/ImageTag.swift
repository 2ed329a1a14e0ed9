/// One label of a tag: a name and an optional value ("Nike" / "Air Max 90"), laid out as one
/// line of real text (fonts, fallback, bidi), the value after the name.
public struct TagLabel: Sendable, Equatable {
    public var name: String
    public var value: String
    /// The name's style; nil takes the request's.
    public var style: TextStyle?
    /// The value's style; nil takes the request's value style.
    public var valueStyle: TextStyle?

    public init(name: String, value: String = "", style: TextStyle? = nil, valueStyle: TextStyle? = nil) {
        self.name = name
        self.value = value
        self.style = style
        self.valueStyle = valueStyle
    }
}

/// A tag pinned on a photo: a dot at a proportional point and one to three labels.
public struct ImageTag: Sendable, Equatable {
    /// x and y in 0…1 of the photo's width and height: the tag stays put however the photo is scaled.
    public var position: Point
    public var labels: [TagLabel]
    /// Index into the style table's styles for this many labels.
    public var style: Int
    /// The style the tag switches to (a tap in the article steps a tag to its next style): the
    /// tag is placed in it too, beside its own (`TagGeometry.switched`), for the switch's
    /// animation (`TagTimeline.switchKeyframes`). nil: the tag stays in its style.
    public var switchTo: Int?

    public init(position: Point, labels: [TagLabel], style: Int = 0, switchTo: Int? = nil) {
        self.position = position
        self.labels = labels
        self.style = style
        self.switchTo = switchTo
    }
}

/// Sizes of a tag's parts, in points. The defaults suit a photo shown about 400 points wide.
public struct TagMetrics: Sendable, Equatable {
    /// From the dot to where a label's underline starts, along the label's angle.
    public var slantRadius: Double = 40
    public var dotRadius: Double = 4
    /// The translucent ring around the dot.
    public var shadowRadius: Double = 9
    /// The shadow ring's opacity at rest.
    public var shadowOpacity: Double = 0.3
    /// The leader lines' and underlines' width.
    public var lineWidth: Double = 1
    /// Between the underline and the text's descent.
    public var textGap: Double = 2
    /// Between the leader's end and the text, and after the text to the underline's end.
    public var textPadding: Double = 4
    /// A longer label is cut at its end with an ellipsis.
    public var maxLabelWidth: Double = 200
    /// A label is hit within its text rect grown by this much on each side.
    public var labelHitSlop: Double = 5
    /// The dot is hit within this distance of its centre; nil: the leader's length (`slantRadius`),
    /// the article's rule (`centerContainsPoint` with the line's radius), far more forgiving to a
    /// finger than the 4-point dot.
    public var dotHitRadius: Double?

    /// The dot's hit radius in force.
    public var effectiveDotHitRadius: Double { dotHitRadius ?? slantRadius }

    public init() {}

    /// Each size finite and within reason; names the field that is not.
    public func check(field: String) throws(LayoutError) {
        let sizes: [(String, Double, ClosedRange<Double>)] = [
            ("slant_radius", slantRadius, 0...2_000), ("dot_radius", dotRadius, 0...500), ("shadow_radius", shadowRadius, 0...500),
            ("shadow_opacity", shadowOpacity, 0...1), ("line_width", lineWidth, 0...100), ("text_gap", textGap, 0...500),
            ("text_padding", textPadding, 0...500), ("max_label_width", maxLabelWidth, 1...10_000), ("label_hit_slop", labelHitSlop, 0...500),
            ("dot_hit_radius", effectiveDotHitRadius, 0...2_000),
        ]
        for (name, value, range) in sizes where !(value.isFinite && range.contains(value)) {
            throw LayoutError(.invalidArgument, "must be in \(range.lowerBound)…\(range.upperBound), got \(value)",
                              field: field.isEmpty ? name : "\(field).\(name)")
        }
    }
}

/// Everything the tag stage needs besides the fonts.
public struct TagsRequest: Sendable {
    /// The photo's size in points; the tags' coordinates are proportional to it.
    public var photo: Size
    public var tags: [ImageTag]
    public var table: TagStyleTable
    public var metrics: TagMetrics
    /// The labels' name style; its size is the text size.
    public var textStyle: TextStyle
    /// The labels' value style.
    public var valueStyle: TextStyle
    /// Move a tag whose labels would leave the photo to the nearest style that keeps them in.
    public var keepInside: Bool
    /// Move a tag whose point lies off the photo (a drag past its edge) to the nearest point on
    /// it, where it would be refused (`TagGeometry.position` and `clamped` say where it went).
    public var clampsToPhoto = false

    /// At most this many tags on one photo.
    public static let maxTags = 256
    /// The longest label name or value, in UTF-16 units.
    public static let maxLabelUnits = 500

    public init(photo: Size, tags: [ImageTag], table: TagStyleTable = .standard, metrics: TagMetrics = TagMetrics(),
                textStyle: TextStyle = TextStyle(weight: 600, size: 13), valueStyle: TextStyle = TextStyle(weight: 400, size: 13),
                keepInside: Bool = false) {
        self.photo = photo
        self.tags = tags
        self.table = table
        self.metrics = metrics
        self.textStyle = textStyle
        self.valueStyle = valueStyle
        self.keepInside = keepInside
    }

    /// The nearest point on the photo (a coordinate that is not a number stays one, and is refused).
    static func clamped(_ point: Point) -> Point {
        func inside(_ value: Double) -> Double { value.isNaN ? value : min(max(value, 0), 1) }
        return Point(x: inside(point.x), y: inside(point.y))
    }

    private static func checkProportional(_ value: Double, field: @autoclosure () -> String) throws(LayoutError) {
        guard value.isFinite, (0...1).contains(value) else {
            throw LayoutError(.invalidArgument, "a proportional coordinate must be in 0…1, got \(value)", field: field())
        }
    }

    private static func checkLength(_ text: String, field: @autoclosure () -> String) throws(LayoutError) {
        // UTF-8 bytes bound UTF-16 units from above: count units only for a long string.
        guard text.utf8.count > maxLabelUnits, text.utf16.count > maxLabelUnits else { return }
        throw LayoutError(.invalidArgument, "\(text.utf16.count) UTF-16 units; a label has at most \(maxLabelUnits) a part", field: field())
    }

    private static func checkSize(_ style: TextStyle?, field: @autoclosure () -> String) throws(LayoutError) {
        guard let style, !(style.size.isFinite && style.size > 0 && style.size <= 1_000) else { return }
        throw LayoutError(.invalidArgument, "the size must be in (0, 1000], got \(style.size)", field: field())
    }

    /// Checks what the geometry relies on, naming the field that is wrong.
    public func validate() throws(LayoutError) {
        for (name, side) in [("photo.width", photo.width), ("photo.height", photo.height)]
        where !(side.isFinite && side > 0 && side <= 100_000) {
            throw LayoutError(.invalidArgument, "the photo's side must be in (0, 100000] points, got \(side)", field: name)
        }
        try Bounds.check(count: tags.count, limit: Self.maxTags, field: "tags")
        try metrics.check(field: "metrics")
        for (name, style) in [("text_style", textStyle), ("value_style", valueStyle)] {
            guard style.size.isFinite, style.size > 0, style.size <= 1_000 else {
                throw LayoutError(.invalidArgument, "the size must be in (0, 1000], got \(style.size)", field: "\(name).size")
            }
        }
        // Field paths are built only on failure: building them for every label was a sixth of a tag's cost.
        for (index, tag) in tags.enumerated() {
            let point = clampsToPhoto ? Self.clamped(tag.position) : tag.position
            try Self.checkProportional(point.x, field: "tags[\(index)].at.x")
            try Self.checkProportional(point.y, field: "tags[\(index)].at.y")
            guard TagStyleTable.labelCounts.contains(tag.labels.count) else {
                throw LayoutError(.invalidArgument, "a tag has 1 to 3 labels, not \(tag.labels.count)", field: "tags[\(index)].labels")
            }
            for (labelIndex, label) in tag.labels.enumerated() {
                let field = { (part: String) in "tags[\(index)].labels[\(labelIndex)].\(part)" }
                guard label.name.hasVisibleContent else {
                    throw LayoutError(.invalidArgument, "a label's name is empty", field: field("name"))
                }
                try Self.checkLength(label.name, field: field("name"))
                try Self.checkLength(label.value, field: field("value"))
                try Self.checkSize(label.style, field: field("style.size"))
                try Self.checkSize(label.valueStyle, field: field("value_style.size"))
            }
            _ = try table.style(tag.style, labelCount: tag.labels.count, field: "tags[\(index)].style")
            if let next = tag.switchTo {
                _ = try table.style(next, labelCount: tag.labels.count, field: "tags[\(index)].switch_to.style")
            }
        }
    }
}
