/// A container made ready for breaking: its shape and exclusions as scanners, asked for the
/// free intervals of one band of lines at a time. Intervals come in layout coordinates.
struct FlowRegion {
    private struct Obstacle {
        var outline: ShapeOutline
        var margin: Double
        var wrap: ExclusionWrap
    }

    let container: TextContainer
    private let shape: ShapeOutline?
    private let obstacles: [Obstacle]
    let minimumWidth: Double
    /// Where the first band may start and where the last must end, in the container's coordinates.
    let firstTop: Double
    let bottom: Double
    /// Below this no exclusion changes anything: a band with no room here never gets any.
    private let lastObstacleBottom: Double

    init(_ container: TextContainer, minimumWidth: Double) {
        self.container = container
        self.minimumWidth = minimumWidth
        shape = container.shape.map(ShapeOutline.init)
        var obstacles: [Obstacle] = []
        obstacles.reserveCapacity(container.exclusions.count)
        for exclusion in container.exclusions where exclusion.wrap != .none {
            obstacles.append(Obstacle(outline: ShapeOutline(exclusion.shape), margin: exclusion.margin, wrap: exclusion.wrap))
        }
        self.obstacles = obstacles
        var top = 0.0, bottom = container.height ?? .infinity
        if let shape {
            top = max(top, shape.minY + container.inset)
            bottom = min(bottom, shape.maxY - container.inset)
        }
        firstTop = top
        self.bottom = bottom
        lastObstacleBottom = obstacles.map { $0.outline.maxY + $0.margin }.max() ?? -.infinity
    }

    /// Below this top every band of the container is its whole width, however far down: no
    /// shape, no bottom, past the lowest exclusion. Text laid out from any top below it is the
    /// same text moved (a document moves paragraphs there instead of laying them out again).
    /// nil when there is no such top.
    var uniformBelow: Double? {
        guard shape == nil, container.height == nil else { return nil }
        return max(firstTop, lastObstacleBottom)
    }

    /// True when an exclusion may narrow a band at `top` or below it, so a lower band may be
    /// wider: in a box with exclusions, above the lowest one's bottom edge (a band from that edge
    /// down meets none: bands meet shapes open at both ends, and documents move text laid out
    /// from there, `uniformBelow`, as the same text). A shaped container's bands are all
    /// narrowed by the shape, with no wider band known to come.
    func narrowsBands(at top: Double) -> Bool { shape == nil && top < lastObstacleBottom }

    /// True when the slots do not depend on the band's height or place: a plain box.
    var isRectangular: Bool { shape == nil && obstacles.isEmpty }

    /// The free intervals of the band from `top` (container coordinates) `height` tall, in
    /// the order text fills them: left to right, or right to left for a right-to-left paragraph.
    func slots(top: Double, height: Double, rightToLeft: Bool) -> [LineSlot] {
        let bandBottom = top + height
        var free = [Interval(lower: 0, upper: container.width)]
        if let shape {
            let inset = container.inset
            let inside = shape.inside(top: top - inset, bottom: bandBottom + inset).compactMap { interval -> Interval? in
                let shrunk = Interval(lower: interval.lower + inset, upper: interval.upper - inset)
                return shrunk.width > 0 ? shrunk : nil
            }
            free = Intervals.intersecting(free, inside)
        }
        for index in obstacles.indices where !free.isEmpty {
            let m = obstacles[index].margin
            var covered = obstacles[index].outline.covered(top: top - m, bottom: bandBottom + m)
            if m > 0 {
                // Grown alike, the intervals stay in order: they only need joining where they now meet.
                for k in covered.indices { covered[k].lower -= m; covered[k].upper += m }
                covered = Intervals.joined(covered)
            }
            guard let lo = covered.first?.lower, let hi = covered.last?.upper else { continue }
            // Start and end sides follow the paragraph: a right-to-left line starts on the right.
            let leftOfShape = Interval(lower: -.greatestFiniteMagnitude, upper: lo)
            let rightOfShape = Interval(lower: hi, upper: .greatestFiniteMagnitude)
            let startSide = rightToLeft ? rightOfShape : leftOfShape, endSide = rightToLeft ? leftOfShape : rightOfShape
            switch obstacles[index].wrap {
            case .both:
                free = Intervals.subtracting(covered, from: free)
            case .clear:
                free = []
            case .start:
                free = Intervals.intersecting(free, [startSide])
            case .end:
                free = Intervals.intersecting(free, [endSide])
            case .widest:
                let onStart = Intervals.intersecting(free, [startSide]), onEnd = Intervals.intersecting(free, [endSide])
                // A tie goes to the side lines start on.
                free = (onStart.map(\.width).max() ?? 0) >= (onEnd.map(\.width).max() ?? 0) ? onStart : onEnd
            case .none:
                break
            }
        }
        let x = container.origin.x
        var slots: [LineSlot] = []
        slots.reserveCapacity(free.count)
        for interval in rightToLeft ? free.reversed() : free where interval.width >= minimumWidth && interval.width > 0 {
            slots.append(LineSlot(start: x + interval.lower, width: interval.width))
        }
        return slots
    }

    /// Where to look next when the band at `top` has no room (or none wide enough for the next
    /// word); nil when no lower band can have more.
    ///
    /// Exclusions only take room away, so a blocked band can gain room only where something it
    /// meets ends or narrows. A rect covers the same across every band it meets: while only
    /// rects meet the band, the next band worth trying starts where the first of them ends,
    /// exactly (a million-point rect costs one step, and text resumes at its bottom edge, not up
    /// to a quarter line below). A curved edge opens up gradually: a quarter of a line lower,
    /// but never less than 1/`triesPerShape` of the tallest curved shape met, so a huge shape
    /// costs a bounded number of tries (a layout's cost grows with lines × shapes, not with
    /// the shapes' size). A band no exclusion meets is the container's whole width: only
    /// below every exclusion (where a word too long for any line is cut) can it take more.
    func nextTop(after top: Double, height: Double) -> Double? {
        if top >= lastObstacleBottom && shape == nil { return nil }  // nothing left to move past
        var step = max(height / 4, 0.25)
        var varies = false
        if let shape {
            varies = true
            step = max(step, (shape.maxY - shape.minY) / Self.triesPerShape)
        }
        var firstRectEnd = Double.infinity
        for obstacle in obstacles {
            let lower = obstacle.outline.minY - obstacle.margin, upper = obstacle.outline.maxY + obstacle.margin
            guard top + height > lower, top < upper else { continue }
            // A rect, or any shape text clears, takes the same from every band it meets.
            if obstacle.outline.isRect || obstacle.wrap == .clear {
                firstRectEnd = min(firstRectEnd, upper)
            } else {
                varies = true
                step = max(step, (upper - lower) / Self.triesPerShape)
            }
        }
        let next = varies ? top + step : firstRectEnd.isFinite ? firstRectEnd : lastObstacleBottom
        return next + height <= bottom + LineBreaker.tolerance ? next : nil
    }

    /// The most bands tried down the height of one curved shape (see `nextTop`).
    static let triesPerShape = 1_024.0
}
