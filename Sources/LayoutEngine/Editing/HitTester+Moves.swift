/// Arrow keys: where a caret goes from a position, in the text's order or on the screen.
public enum CaretMove: Sendable, Equatable {
    /// To the next grapheme boundary in the text, and the previous.
    case forward, backward
    /// To the next caret place to the right on the line, and to the left (down and up the
    /// column in vertical text); past a line's end, onto the line the paragraph's direction
    /// goes to.
    case right, left
}

extension HitTester {
    /// Where a caret at `position` goes for `move`. Logical moves step over one grapheme
    /// cluster; visual moves step to the next distinct caret place on the line, so in mixed
    /// text a run of the other direction is crossed letter by letter the way it is drawn.
    public func moved(_ position: TextPosition, _ move: CaretMove) -> TextPosition {
        switch move {
        case .forward, .backward:
            var offset = min(max(0, position.offset), textLength)
            let step = move == .forward ? 1 : -1
            repeat { offset += step } while offset > 0 && offset < textLength && !graphemeStarts[offset]
            return TextPosition(offset: min(max(0, offset), textLength))
        case .right, .left:
            guard let place = caretPlaces(position).first else { return position }
            let stops = self.stops(on: place.line)
            let rightward = move == .right
            // Where the caret is in the line's sequence: its offset at its place (else the place).
            guard let here = stops.firstIndex(where: { $0.position.offset == position.offset && abs($0.x - place.x) < 1e-6 })
                ?? stops.indices.min(by: { abs(stops[$0].x - place.x) < abs(stops[$1].x - place.x) }) else { return position }
            let next = here + (rightward ? 1 : -1)
            if stops.indices.contains(next) { return stops[next].position }
            // Past the line's end: onto the neighbouring line the paragraph's direction leads to,
            // entering at its near end.
            let forwardInText = rightward == !rightToLeft
            let line = place.line + (forwardInText ? 1 : -1)
            guard lines.indices.contains(line) else { return position }
            let entry = self.stops(on: line)
            return (rightward ? entry.first : entry.last)?.position ?? position
        }
    }

    /// The caret stops of a line, left to right: at each edge between two boxes, the offset of
    /// the box on the left, then (when it differs, at a bidi boundary) the offset of the box on
    /// the right — two stops at one x, as editors step across a bidi boundary — each with the
    /// affinity that puts its caret there.
    func stops(on index: Int) -> [(x: Double, position: TextPosition)] {
        let line = lines[index]
        guard !line.boxes.isEmpty else { return [(line.origin, TextPosition(offset: line.range.lowerBound))] }
        var edges: [(x: Double, offsets: [Int])] = [(line.boxes[0].start, [line.boxes[0].leftOffset])]
        for (k, box) in line.boxes.enumerated() {
            var offsets = [box.rightOffset]
            if k + 1 < line.boxes.count, line.boxes[k + 1].leftOffset != box.rightOffset { offsets.append(line.boxes[k + 1].leftOffset) }
            edges.append((box.end, offsets))
        }
        var stops: [(x: Double, position: TextPosition)] = []
        for edge in edges {
            for offset in edge.offsets where offset <= line.contentEnd {
                let candidate = position(offset, at: edge.x, in: index)
                guard let place = caretPlaces(candidate).first, place.line == index, abs(place.x - edge.x) < 1e-6,
                      !stops.contains(where: { $0.position == candidate }) else { continue }
                stops.append((edge.x, candidate))
            }
        }
        return stops
    }
}
