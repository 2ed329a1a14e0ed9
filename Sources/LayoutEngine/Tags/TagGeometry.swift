import Foundation

/// A straight stroke between two points.
public struct LineSegment: Equatable, Sendable {
    public var from: Point
    public var to: Point

    public init(from: Point, to: Point) {
        self.from = from
        self.to = to
    }

    public var length: Double { ((to.x - from.x) * (to.x - from.x) + (to.y - from.y) * (to.y - from.y)).squareRoot() }

    /// The rect the stroke covers at `width`, square caps included.
    func bounds(width: Double) -> Rect {
        let half = width / 2
        let left = min(from.x, to.x) - half, top = min(from.y, to.y) - half
        return Rect(x: left, y: top, width: abs(to.x - from.x) + width, height: abs(to.y - from.y) + width)
    }
}

/// The dot where the photo was tapped, and the translucent ring around it.
public struct TagDot: Equatable, Sendable {
    public var center: Point
    public var radius: Double
    public var shadowRadius: Double
    /// The ring's opacity at rest.
    public var shadowOpacity: Double
}

/// One label placed: its leader line from the dot, its underline, and its text.
public struct TagLabelGeometry: Sendable {
    public var angle: Double
    public var side: TagSide
    /// From the dot's rim along the label's angle to the slant radius.
    public var leader: LineSegment
    /// From the leader's end, horizontally, under the text to the side the style points to.
    public var underline: LineSegment
    /// The text's line box: its width the text's, its height ascent plus descent.
    public var textRect: Rect
    /// The left end of the text's baseline.
    public var baselineOrigin: Point
    /// The text's glyph runs, positioned in photo coordinates.
    public var runs: [GlyphRunLayout]
    /// The label was longer than the largest label width and ends in an ellipsis.
    public var truncated: Bool
    /// The label's text, as laid out (name, a space, value).
    public var text: String
    /// The backing behind the text (its rect grown by the legibility's padding), when the tag's
    /// legibility has one.
    public var backingRect: Rect?

    /// The text rect and the underline together: what must stay on the photo.
    public var footprint: Rect { textRect.union(underline.bounds(width: 0)) }
}

/// One tag placed on the photo.
public struct TagGeometry: Sendable {
    /// Where the request put the tag in the request's list.
    public var index: Int
    /// The style the geometry is drawn in.
    public var style: Int
    /// The style the request asked for.
    public var requestedStyle: Int
    /// The nearest style (the drawn one first) whose labels all stay on the photo; nil when none does.
    public var insideStyle: Int?
    /// Every label of the drawn style is on the photo.
    public var inside: Bool
    /// The proportional point the tag is drawn at: the request's, or with `clampsToPhoto` the
    /// nearest point on the photo to it (`clamped` then says it moved).
    public var position: Point
    public var clamped: Bool
    public var dot: TagDot
    public var labels: [TagLabelGeometry]
    /// The leader lines' and underlines' width.
    public var lineWidth: Double
    /// How the tag stays readable: its style's, or the default.
    public var legibility: TagLegibility
    /// Everything drawn: the shadow ring, the lines and the text.
    public var bounds: Rect
    /// The tag placed in the style it switches to (`ImageTag.switchTo`); nil when it stays.
    public var switched: TagSwitchGeometry?
}

/// A tag's labels placed in the style it switches to, around the same dot. With `keepInside`
/// the style is the nearest that keeps them on the photo, as for the tag's own.
public struct TagSwitchGeometry: Sendable {
    /// The style the switched labels are drawn in.
    public var style: Int
    public var labels: [TagLabelGeometry]
    public var legibility: TagLegibility
    /// The ring, the switched lines and text.
    public var bounds: Rect
}

/// Two tags whose drawn parts overlap (indices into the request's tags, `first < second`).
public struct TagOverlap: Equatable, Sendable {
    public var first: Int
    public var second: Int
}

/// The tag stage's result: every tag placed, and the pairs that overlap.
public struct TagsLayout: Sendable {
    public var photo: Size
    public var tags: [TagGeometry]
    public var overlaps: [TagOverlap]
}

/// A label's text laid out once, before it is placed in any style.
struct LaidOutLabel {
    var layout: ParagraphLayout
    var text: String
    var width: Double
    var ascent: Double
    var descent: Double
    /// x of the text's left end within its layout.
    var left: Double
}

/// Places a tag's parts for one style: pure trigonometry over the laid-out labels.
struct TagPlacer {
    var metrics: TagMetrics
    var photo: Size

    /// The dot's centre: the proportional point times the photo's size.
    func center(of tag: ImageTag) -> Point {
        // The tag's position is on the photo here: a request that clamps has moved it already.
        Point(x: tag.position.x * photo.width, y: tag.position.y * photo.height)
    }

    func dot(of tag: ImageTag) -> TagDot {
        TagDot(center: center(of: tag), radius: metrics.dotRadius, shadowRadius: metrics.shadowRadius,
               shadowOpacity: metrics.shadowOpacity)
    }

    /// The label's lines and text rect for `style` (the runs are moved later, once the style is chosen).
    func place(_ label: LaidOutLabel, as style: TagLabelStyle, from center: Point) -> TagLabelGeometry {
        let radians = style.angle * .pi / 180
        // y grows downward on the photo, so an angle counter-clockwise "up" subtracts from y.
        let direction = (x: cos(radians), y: -sin(radians))
        let start = Point(x: center.x + metrics.dotRadius * direction.x, y: center.y + metrics.dotRadius * direction.y)
        let end = Point(x: center.x + metrics.slantRadius * direction.x, y: center.y + metrics.slantRadius * direction.y)
        let span = label.width + 2 * metrics.textPadding
        let underlineEnd = Point(x: style.side == .right ? end.x + span : end.x - span, y: end.y)
        let textLeft = style.side == .right ? end.x + metrics.textPadding : end.x - metrics.textPadding - label.width
        let baseline = end.y - metrics.lineWidth / 2 - metrics.textGap - label.descent
        return TagLabelGeometry(angle: style.angle, side: style.side, leader: LineSegment(from: start, to: end),
                                underline: LineSegment(from: end, to: underlineEnd),
                                textRect: Rect(x: textLeft, y: baseline - label.ascent, width: label.width, height: label.ascent + label.descent),
                                baselineOrigin: Point(x: textLeft, y: baseline), runs: [],
                                truncated: label.layout.lines.first?.truncated ?? false, text: label.text)
    }

    /// Every label of `style` placed; whether all of them stay on the photo.
    func place(_ labels: [LaidOutLabel], style: TagStyle, from center: Point) -> (labels: [TagLabelGeometry], inside: Bool) {
        let photoRect = Rect(x: 0, y: 0, width: photo.width, height: photo.height)
        let placed = zip(labels, style.labels).map { place($0, as: $1, from: center) }
        return (placed, placed.allSatisfy { photoRect.contains($0.footprint) })
    }

    /// The runs of `label`'s layout moved so its text's left baseline end lands at `origin`.
    static func runs(of label: LaidOutLabel, at origin: Point) -> [GlyphRunLayout] {
        guard let line = label.layout.lines.first else { return [] }
        let dx = origin.x - label.left, dy = origin.y - line.baselineOrigin.y
        return label.layout.runs.map { run in
            var moved = run
            moved.glyphs = ArraySlice(run.glyphs.map { glyph in
                var glyph = glyph
                glyph.position = Point(x: glyph.position.x + dx, y: glyph.position.y + dy)
                return glyph
            })
            return moved
        }
    }

    /// Everything drawn for a tag: the ring, the lines at their width, the text and its backing.
    func bounds(dot: TagDot, labels: [TagLabelGeometry]) -> Rect {
        let ring = max(dot.radius, dot.shadowRadius)
        var bounds = Rect(x: dot.center.x - ring, y: dot.center.y - ring, width: 2 * ring, height: 2 * ring)
        for label in labels {
            bounds = bounds.union(label.leader.bounds(width: metrics.lineWidth))
                .union(label.underline.bounds(width: metrics.lineWidth)).union(label.textRect)
            if let backing = label.backingRect { bounds = bounds.union(backing) }
        }
        return bounds
    }
}

extension Rect {
    /// `other` lies wholly within this rect (edges may touch).
    public func contains(_ other: Rect) -> Bool {
        other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
    }

    public func contains(_ point: Point) -> Bool {
        point.x >= x && point.x <= maxX && point.y >= y && point.y <= maxY
    }

    /// The two rects share some area (touching edges do not count).
    public func overlaps(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// Grown by `amount` on every side.
    public func grown(by amount: Double) -> Rect {
        Rect(x: x - amount, y: y - amount, width: width + 2 * amount, height: height + 2 * amount)
    }
}
