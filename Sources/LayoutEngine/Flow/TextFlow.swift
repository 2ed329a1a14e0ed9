/// How text passes a shape in its way, as CSS `wrap-flow` names the choices.
public enum ExclusionWrap: Sendable {
    /// On both sides, in every free interval (TextKit's exclusion paths).
    case both
    /// Only on the side where lines start (left in left-to-right text); the other side stays empty.
    case start
    /// Only on the side where lines end.
    case end
    /// On the side with the widest free interval, band by band.
    case widest
    /// On neither side: lines move down past the shape.
    case clear
    /// Text ignores the shape (it is drawn over or under it).
    case none
}

/// A shape text flows around, in its container's coordinates.
public struct Exclusion: Equatable, Sendable {
    public var shape: FlowShape
    /// Room kept clear around the shape, in points: the band grows by it above and below and
    /// what the shape covers grows by it left and right (a square pen, not a round one).
    public var margin: Double
    public var wrap: ExclusionWrap

    public init(_ shape: FlowShape, margin: Double = 0, wrap: ExclusionWrap = .both) {
        self.shape = shape
        self.margin = margin
        self.wrap = wrap
    }
}

/// One box text flows into: a column, a page, a bubble. Its origin places it in the layout;
/// its shape and exclusions are in its own coordinates (its top-left corner is 0, 0).
public struct TextContainer: Equatable, Sendable {
    public var origin: Point
    public var width: Double
    /// nil: unlimited (only sensible for the last container).
    public var height: Double?
    /// Text fills the inside of this shape, band by band, within the box; nil fills the box.
    public var shape: FlowShape?
    /// How far the text keeps inside the shape's outline, in points.
    public var inset: Double
    public var exclusions: [Exclusion]

    public init(origin: Point = Point(x: 0, y: 0), width: Double, height: Double? = nil, shape: FlowShape? = nil,
                inset: Double = 0, exclusions: [Exclusion] = []) {
        self.origin = origin
        self.width = width
        self.height = height
        self.shape = shape
        self.inset = inset
        self.exclusions = exclusions
    }
}

/// Where a container's lines sit when they do not fill its height.
public enum VerticalAlignment: Sendable {
    case top, center, bottom
    /// The space left over goes between the bands of lines, evenly; the first line stays at
    /// the top and the last reaches the bottom.
    case justifyLines
}

/// Text flowing through containers in order, each taking what fits and handing the rest on.
public struct TextFlow: Equatable, Sendable {
    public var containers: [TextContainer]
    public var verticalAlignment: VerticalAlignment
    /// Free intervals narrower than this take no text; nil means one em of the style the text
    /// starts with (the wire and documents set it to one em of the default style).
    public var minimumFragmentWidth: Double?
    /// True when a request gave its one box's shape and exclusions at its top level: errors
    /// then name those fields, not `containers[0]`'s.
    public var isOneBox: Bool

    /// One container with no shape and no exclusions (text aligned vertically in its box): every
    /// line is the box's width, so a paragraph's lines can be chosen together.
    public var isPlainBox: Bool {
        containers.count == 1 && containers[0].shape == nil && containers[0].exclusions.isEmpty
    }

    public init(containers: [TextContainer], verticalAlignment: VerticalAlignment = .top, minimumFragmentWidth: Double? = nil,
                isOneBox: Bool = false) {
        self.containers = containers
        self.verticalAlignment = verticalAlignment
        self.minimumFragmentWidth = minimumFragmentWidth
        self.isOneBox = isOneBox
    }
}

extension TextFlow {
    /// Every shape of the flow as a path in layout coordinates (containers' shapes and
    /// exclusions, flattened) with its fill rule, for a picture that shows them.
    public var shapeOutlines: [(path: Path, fillRule: FillRule)] {
        containers.flatMap { container -> [(path: Path, fillRule: FillRule)] in
            let shapes = (container.shape.map { [$0] } ?? []) + container.exclusions.filter { $0.wrap != .none }.map(\.shape)
            return shapes.map { shape in
                var commands: [PathCommand] = []
                for polygon in shape.polygons() where polygon.count >= 2 {
                    for (k, p) in polygon.enumerated() {
                        let moved = Point(x: p.x + container.origin.x, y: p.y + container.origin.y)
                        commands.append(k == 0 ? .move(moved) : .line(moved))
                    }
                    commands.append(.close)
                }
                return (Path(commands), shape.fillRule)
            }
        }
    }
}
