/// What a point on the photo falls on.
public struct TagHit: Equatable, Sendable {
    public enum Part: Equatable, Sendable {
        case dot
        case label(Int)
    }
    /// Index into the request's tags.
    public var tag: Int
    public var part: Part
}

extension TagsLayout {
    /// The part under `point` (photo coordinates) with the parts drawn as `state` says: the dot
    /// within `dotRadius` of its centre (by default the leader's length, see
    /// `TagMetrics.dotHitRadius`), a label within its text rect grown by `slop` on each side. A part at
    /// opacity 0 cannot be hit. Tags drawn later lie on top and are tried first; within a tag the
    /// drawn dot comes first, then the labels, then the rest of the dot's hit circle, so a label
    /// near its dot stays reachable. A client decides from it: a tap on the dot toggles the
    /// style, on a label edits it.
    public func hit(_ point: Point, state: TagPartState = .shown(shadowOpacity: 0.3), slop: Double = 5,
                    dotRadius: Double = TagMetrics().effectiveDotHitRadius) -> TagHit? {
        for tag in tags.reversed() {
            let dx = point.x - tag.dot.center.x, dy = point.y - tag.dot.center.y
            let squared = dx * dx + dy * dy
            let dot = state.dotOpacity > 0
            if dot, squared <= tag.dot.radius * tag.dot.radius {
                return TagHit(tag: tag.index, part: .dot)
            }
            if state.textOpacity > 0, let label = tag.labels.firstIndex(where: { $0.textRect.grown(by: slop).contains(point) }) {
                return TagHit(tag: tag.index, part: .label(label))
            }
            if dot, squared <= dotRadius * dotRadius {
                return TagHit(tag: tag.index, part: .dot)
            }
        }
        return nil
    }
}
