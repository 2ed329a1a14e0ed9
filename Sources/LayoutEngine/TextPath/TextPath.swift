import Foundation

/// Text set along a path, as SVG's `textPath` sets it: the text laid out as one line, then each
/// glyph placed with the middle of its advance on the path, turned to the path's direction
/// there. Glyphs whose middle falls before the path's start or past its end are not drawn.
public struct TextPath: Equatable, Sendable {
    /// Where the text's start, middle or end stands: SVG's `text-anchor`.
    public enum Anchor: Equatable, Sendable, CaseIterable {
        case start, middle, end
    }

    /// Which side of the path the glyphs stand on: `left` of the path as it is drawn (SVG's
    /// default, upright on a path drawn left to right), `right` with the path reversed.
    public enum Side: Equatable, Sendable, CaseIterable {
        case left, right
    }

    /// In layout coordinates; its move commands jump without adding length, as SVG's do.
    public var path: Path
    /// Points along the path where the anchor stands (SVG's `startOffset`); negative starts
    /// the text before the path's start.
    public var startOffset: Double
    public var anchor: Anchor
    public var side: Side

    public init(path: Path, startOffset: Double = 0, anchor: Anchor = .start, side: Side = .left) {
        self.path = path
        self.startOffset = startOffset
        self.anchor = anchor
        self.side = side
    }

    /// The most commands a path may have, as a flow shape's.
    public static let maxCommands = 4_096

    /// Straight pieces per curve when the path is measured: a 1,000-point quarter circle is
    /// then within 0.05 points of its arc.
    static let curveSegments = 32
}

/// A path flattened into straight pieces, measured along its length.
struct MeasuredPath {
    struct Piece {
        var start: Point
        /// How far along the path the piece starts, and how long it is.
        var distance: Double
        var length: Double
        /// Its direction's cosine and sine (clockwise from +x, y down).
        var cos: Double
        var sin: Double
        /// The direction in radians, found for the pieces a glyph stands on only: a long path
        /// has far more pieces than a caption has glyphs.
        var angle: Double { atan2(sin, cos) }
    }

    private(set) var pieces: [Piece] = []
    private(set) var length = 0.0

    /// `reversed`: measured from its end back to its start (SVG's `side="right"`).
    init(_ path: Path, reversed: Bool) {
        // Each straight piece as its two ends, in the path's order; moves jump.
        var segments: [(Point, Point)] = []
        var current = Point(x: 0, y: 0), subpathStart = current
        func line(to p: Point) {
            if p != current { segments.append((current, p)) }
            current = p
        }
        let n = TextPath.curveSegments
        for command in path.commands {
            switch command {
            case .move(let p): (current, subpathStart) = (p, p)
            case .line(let p): line(to: p)
            case let .quad(c, p):
                let s = current
                for k in 1...n {
                    let t = Double(k) / Double(n), u = 1 - t
                    line(to: k == n ? p : Point(x: u * u * s.x + 2 * u * t * c.x + t * t * p.x, y: u * u * s.y + 2 * u * t * c.y + t * t * p.y))
                }
            case let .cubic(c1, c2, p):
                let s = current
                for k in 1...n {
                    let t = Double(k) / Double(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    line(to: k == n ? p : Point(x: a * s.x + b * c1.x + c * c2.x + d * p.x, y: a * s.y + b * c1.y + c * c2.y + d * p.y))
                }
            case .close: line(to: subpathStart)
            }
        }
        if reversed { segments = segments.reversed().map { ($0.1, $0.0) } }
        pieces.reserveCapacity(segments.count)
        for (a, b) in segments {
            let dx = b.x - a.x, dy = b.y - a.y
            let length = (dx * dx + dy * dy).squareRoot()
            pieces.append(Piece(start: a, distance: self.length, length: length, cos: dx / length, sin: dy / length))
            self.length += length
        }
    }

    /// The point `distance` along the path and the piece it lies on; nil off the path. Found by
    /// a binary search over the pieces.
    func point(at distance: Double) -> (point: Point, piece: Piece)? {
        guard !pieces.isEmpty, distance >= 0, distance <= length else { return nil }
        var low = 0, high = pieces.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if pieces[middle].distance <= distance { low = middle } else { high = middle - 1 }
        }
        let piece = pieces[low]
        let along = min(piece.length, max(0, distance - piece.distance))
        return (Point(x: piece.start.x + piece.cos * along, y: piece.start.y + piece.sin * along), piece)
    }
}

/// The position stage's last step for text on a path: the laid-out lines, one after another,
/// bent onto the path (`TextPath`).
enum TextPathPlacer {
    /// `layout`, laid out as one line in a box as wide as the text, with every glyph moved onto
    /// the path and turned (`ParagraphLayout.glyphAngles`), glyphs off the path left out, each
    /// line's used rect the box of its glyphs there, and the size reaching the furthest glyph.
    static func place(_ layout: ParagraphLayout, along textPath: TextPath, budget: WorkBudget) throws(LayoutError) -> ParagraphLayout {
        let measured = MeasuredPath(textPath.path, reversed: textPath.side == .right)
        // Lines after a hard break go on along the path, as SVG joins a textPath's lines.
        var lineStarts: [Double] = []
        var advance = 0.0
        for line in layout.lines {
            lineStarts.append(advance)
            advance += line.width + line.trailingWhitespaceWidth
        }
        let total = advance - (layout.lines.last?.trailingWhitespaceWidth ?? 0)
        let shift: Double
        switch textPath.anchor {
        case .start: shift = textPath.startOffset
        case .middle: shift = textPath.startOffset - total / 2
        case .end: shift = textPath.startOffset - total
        }
        var placed = layout
        var glyphs: [PositionedGlyph] = []
        glyphs.reserveCapacity(layout.glyphCount)
        var spans: [(run: GlyphRunLayout, glyphs: Range<Int>)] = []
        var angles: [[Double]] = []
        var lineBoxes = [Rect?](repeating: nil, count: layout.lines.count)
        var shown: ClosedRange<Int>?  // the first and last cluster of the glyphs on the path
        var hidden: [Int] = []  // the clusters of the glyphs off it
        for (index, run) in layout.runs.enumerated() {
            if index % 256 == 0 { try budget.check() }
            let line = layout.lines[run.lineIndex]
            let first = glyphs.count
            var runAngles: [Double] = []
            runAngles.reserveCapacity(run.glyphs.count)
            for glyph in run.glyphs {
                let along = shift + lineStarts[run.lineIndex] + glyph.position.x - line.baselineOrigin.x
                guard let (point, piece) = measured.point(at: along + glyph.advance / 2) else {
                    if !run.isInserted { hidden.append(glyph.cluster) }
                    continue
                }
                let (c, s) = (piece.cos, piece.sin)
                let half = glyph.advance / 2, dy = glyph.position.y - line.baselineOrigin.y
                let origin = Point(x: point.x - half * c - dy * s, y: point.y - half * s + dy * c)
                // The glyph as it was (its flags too), moved onto the path.
                var placedGlyph = glyph
                placedGlyph.position = origin
                glyphs.append(placedGlyph)
                runAngles.append(piece.angle)
                let turned = box(of: placedGlyph, cos: c, sin: s, ascent: line.ascent, descent: line.descent)
                lineBoxes[run.lineIndex] = lineBoxes[run.lineIndex]?.union(turned) ?? turned
                if !run.isInserted { shown = shown.map { min($0.lowerBound, glyph.cluster)...max($0.upperBound, glyph.cluster) } ?? glyph.cluster...glyph.cluster }
            }
            guard glyphs.count > first else { continue }
            spans.append((run, first..<glyphs.count))
            angles.append(runAngles)
        }
        // The runs slice one array of the placed glyphs, as positioning makes them.
        placed.runs = spans.map { span in
            var run = span.run
            run.glyphs = glyphs[span.glyphs]
            return run
        }
        var bounds = Rect(x: 0, y: 0, width: 0, height: 0)
        for index in placed.lines.indices {
            guard let box = lineBoxes[index] else {
                placed.lines[index].usedRect = Rect(x: 0, y: 0, width: 0, height: 0)
                continue
            }
            placed.lines[index].usedRect = box
            placed.lines[index].baselineOrigin = measured.point(at: max(0, min(measured.length, shift + lineStarts[index])))?.point
                ?? Point(x: box.x, y: box.y)
            bounds = bounds.union(box)
        }
        placed.size = Size(width: max(0, bounds.maxX), height: max(0, bounds.maxY))
        // What is not on the path is cut: the text from the first cluster off it after those on it.
        let textEnd = layout.visibleRange.upperBound
        if let shown {
            let cut = hidden.filter { $0 > shown.upperBound }.min() ?? textEnd
            placed.visibleRange = shown.lowerBound..<cut
            if cut < textEnd { placed.overflowRange = cut..<textEnd }
        } else {
            placed.visibleRange = 0..<0
            placed.overflowRange = layout.visibleRange
        }
        placed.glyphAngles = angles
        if !layout.fillRegions.isEmpty { placed.fillRegions = FillRegions.placed(layout.fillRegions, in: placed) }
        return placed
    }

    /// A glyph's typographic box turned about its origin (by the angle whose cosine and sine
    /// are given): along its advance, from the line's ascent above the baseline to its descent
    /// below; the rect around the four corners.
    static func box(of glyph: PositionedGlyph, cos c: Double, sin s: Double, ascent: Double, descent: Double) -> Rect {
        let (x, y, w) = (glyph.position.x, glyph.position.y, glyph.advance)
        // The corners (a along, b across): (0, -ascent), (w, -ascent), (0, descent), (w, descent).
        let xs = (x + ascent * s, x + w * c + ascent * s, x - descent * s, x + w * c - descent * s)
        let ys = (y - ascent * c, y + w * s - ascent * c, y + descent * c, y + w * s + descent * c)
        let minX = min(min(xs.0, xs.1), min(xs.2, xs.3)), maxX = max(max(xs.0, xs.1), max(xs.2, xs.3))
        let minY = min(min(ys.0, ys.1), min(ys.2, ys.3)), maxY = max(max(ys.0, ys.1), max(ys.2, ys.3))
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
