/// How every paragraph of a request sits in its box, as CoreText's paragraph style has it:
/// indents, spacing between paragraphs, and bounds on the line height. All in points.
public struct ParagraphStyle: Sendable, Equatable {
    /// From the leading edge (the left in a left-to-right paragraph, the right in a
    /// right-to-left one) to a paragraph's first line.
    public var firstLineHeadIndent: Double = 0
    /// From the leading edge to every other line.
    public var headIndent: Double = 0
    /// From the trailing edge to every line.
    public var tailIndent: Double = 0
    /// Added above every paragraph but the first, and below every one but the last.
    public var spacingBefore: Double = 0
    public var spacingAfter: Double = 0
    /// A line's height (after the multiple or the fixed height) is held within these; 0 and
    /// nil leave it free.
    public var minimumLineHeight: Double = 0
    public var maximumLineHeight: Double?
    /// Tab stops, from the leading edge of the box; past the last, one every
    /// `defaultTabInterval` points (28 when 0, CoreText's default).
    public var tabStops: [TabStop] = []
    public var defaultTabInterval: Double = 0
    /// Opening punctuation that starts a paragraph hangs before its edge, and stops, commas and
    /// closing punctuation that end a line hang past theirs (`HangingPunctuation`).
    public var hangingPunctuation = false
    /// Every paragraph an item of this list: its marker hangs in the list's indent (`ListStyle`).
    public var list: ListStyle?

    public init(firstLineHeadIndent: Double = 0, headIndent: Double = 0, tailIndent: Double = 0, spacingBefore: Double = 0,
                spacingAfter: Double = 0, minimumLineHeight: Double = 0, maximumLineHeight: Double? = nil) {
        self.firstLineHeadIndent = firstLineHeadIndent
        self.headIndent = headIndent
        self.tailIndent = tailIndent
        self.spacingBefore = spacingBefore
        self.spacingAfter = spacingAfter
        self.minimumLineHeight = minimumLineHeight
        self.maximumLineHeight = maximumLineHeight
    }

    public static let plain = ParagraphStyle()

    /// The stops a tab moves to, sorted.
    var tabs: TabStops {
        TabStops(stops: tabStops.sorted { $0.location < $1.location },
                 interval: defaultTabInterval > 0 ? defaultTabInterval : TabStops.defaultInterval)
    }

    /// `slot` narrowed by the indents of a line (the first of its paragraph or not), in a
    /// paragraph of the given direction; never narrower than nothing.
    func indented(_ slot: LineSlot, firstLine: Bool, rightToLeft: Bool) -> LineSlot {
        guard self != .plain else { return slot }
        let head = (firstLine ? firstLineHeadIndent : headIndent) + (list?.indent ?? 0)
        let width = max(0, slot.width - head - tailIndent)
        return LineSlot(start: slot.start + (rightToLeft ? tailIndent : head), width: width, leadingIndent: head)
    }

    /// A line box's height held to the bounds, its baseline kept where the extra (or lost)
    /// height splits evenly above and below, as a multiple's does.
    func bounded(_ box: (height: Double, baseline: Double)) -> (height: Double, baseline: Double) {
        var height = max(box.height, minimumLineHeight)
        if let maximumLineHeight { height = min(height, maximumLineHeight) }
        guard height != box.height else { return box }
        return (height, box.baseline + (height - box.height) / 2)
    }

    func validate() throws(LayoutError) {
        // Nearly every request has none: checked without building a field name or a list.
        guard self != .plain else { return }
        for (value, name) in [(firstLineHeadIndent, "first_line_head_indent"), (headIndent, "head_indent"), (tailIndent, "tail_indent"),
                              (spacingBefore, "spacing_before"), (spacingAfter, "spacing_after"),
                              (minimumLineHeight, "min_line_height"), (maximumLineHeight ?? 0, "max_line_height")] {
            try Bounds.check(value, upTo: Bounds.maxLength, field: "paragraph_style." + name, zero: "is none")
        }
        try Bounds.check(defaultTabInterval, upTo: Bounds.maxLength, field: "paragraph_style.default_tab_interval", zero: "means 28")
        try Bounds.check(count: tabStops.count, limit: 256, field: "paragraph_style.tab_stops")
        for (index, stop) in tabStops.enumerated() {
            try Bounds.check(stop.location, upTo: Bounds.maxLength, field: "paragraph_style.tab_stops[\(index)].location", zero: "is the edge")
        }
        if let list {
            try Bounds.check(list.indent, upTo: Bounds.maxLength, field: "paragraph_style.list.indent", zero: "is none")
            guard (0...1_000_000).contains(list.start) else {
                throw LayoutError(.invalidArgument, "must be in [0, 1000000], got \(list.start)", field: "paragraph_style.list.start")
            }
            if case .bullet(let text) = list.marker, text.isEmpty || text.utf16.count > 16 {
                throw LayoutError(.invalidArgument, "a bullet is 1 to 16 UTF-16 units, got \(text.utf16.count)", field: "paragraph_style.list.bullet")
            }
        }
        if let maximumLineHeight, maximumLineHeight < minimumLineHeight {
            throw LayoutError(.invalidArgument, "max_line_height \(maximumLineHeight) is below min_line_height \(minimumLineHeight)",
                              field: "paragraph_style.max_line_height")
        }
    }
}
