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
        var end: Point
        /// How far along the path the piece starts.
        var distance: Double
        var length: Double
    }

    private(set) var pieces: [Piece] = []
    private(set) var length = 0.0

    /// `reversed`: measured from its end back to its start (SVG's `side="right"`).
    init(_ path: Path, reversed: Bool) {
        var polylines: [[Point]] = []
        var current: [Point] = []
        // A closed subpath ends where it started; `Path.flattened` leaves that piece implicit.
        var subpathStart: Point?
        for command in path.commands {
            if case .move(let p) = command {
                if current.count > 1 { polylines.append(current) }
                current = [p]
                subpathStart = p
                continue
            }
            if case .close = command {
                if let start = subpathStart, let last = current.last, last != start { current.append(start) }
                if current.count > 1 { polylines.append(current) }
                current = []
                continue
            }
            let piece = Path([.move(current.last ?? subpathStart ?? Point(x: 0, y: 0)), command])
            current += piece.flattened(segments: TextPath.curveSegments).first?.dropFirst() ?? []
        }
        if current.count > 1 { polylines.append(current) }
        if reversed { polylines = polylines.reversed().map { $0.reversed() } }
        for line in polylines {
            for (a, b) in zip(line, line.dropFirst()) {
                let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
                guard length > 0 else { continue }
                pieces.append(Piece(start: a, end: b, distance: self.length, length: length))
                self.length += length
            }
        }
    }

    /// The point `distance` along the path and the path's direction there (radians, clockwise
    /// from +x, y down); nil off the path. Found by a binary search over the pieces.
    func point(at distance: Double) -> (point: Point, angle: Double)? {
        guard !pieces.isEmpty, distance >= 0, distance <= length else { return nil }
        var low = 0, high = pieces.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if pieces[middle].distance <= distance { low = middle } else { high = middle - 1 }
        }
        let piece = pieces[low]
        let t = min(1, max(0, (distance - piece.distance) / piece.length))
        let point = Point(x: piece.start.x + (piece.end.x - piece.start.x) * t, y: piece.start.y + (piece.end.y - piece.start.y) * t)
        return (point, atan2(piece.end.y - piece.start.y, piece.end.x - piece.start.x))
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
        glyphs.reserveCapacity(layout.runs.reduce(0) { $0 + $1.glyphs.count })
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
            for glyph in run.glyphs {
                let along = shift + lineStarts[run.lineIndex] + glyph.position.x - line.baselineOrigin.x
                guard let (point, angle) = measured.point(at: along + glyph.advance / 2) else {
                    if !run.isInserted { hidden.append(glyph.cluster) }
                    continue
                }
                let (c, s) = (cos(angle), sin(angle))
                let half = glyph.advance / 2, dy = glyph.position.y - line.baselineOrigin.y
                let origin = Point(x: point.x - half * c - dy * s, y: point.y - half * s + dy * c)
                glyphs.append(PositionedGlyph(id: glyph.id, position: origin, advance: glyph.advance, cluster: glyph.cluster))
                runAngles.append(angle)
                let turned = box(of: glyphs[glyphs.count - 1], angle: angle, ascent: line.ascent, descent: line.descent)
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

    /// A glyph's typographic box turned by `angle` about its origin: along its advance, from
    /// the line's ascent above the baseline to its descent below; the rect around the corners.
    static func box(of glyph: PositionedGlyph, angle: Double, ascent: Double, descent: Double) -> Rect {
        let (c, s) = (cos(angle), sin(angle))
        var box: Rect?
        for (a, b) in [(0.0, -ascent), (glyph.advance, -ascent), (0, descent), (glyph.advance, descent)] {
            let corner = Rect(x: glyph.position.x + a * c - b * s, y: glyph.position.y + a * s + b * c, width: 0, height: 0)
            box = box?.union(corner) ?? corner
        }
        return box!
    }
}
