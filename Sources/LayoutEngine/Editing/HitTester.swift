/// Where a point lands in a finished layout, where a caret stands, and what a selection covers:
/// TextKit's `characterIndex(for:)` and `caretRect`, SkParagraph's `getGlyphPositionAtCoordinate`
/// and `getRectsForRange`, over every layout the engine makes.
///
/// Each line is cut into boxes of whole grapheme clusters (`LineBoxes`): a caret stands at a
/// box's edge, a hit takes the nearer edge of the box under the point, a selection covers boxes.
/// Vertical text is measured in its line frame (`VerticalFrame`), where columns are lines, and
/// every point and rect is turned back onto the page.
public struct HitTester: Sendable {
    /// How wide a caret rect is, leaning into the character after it (before it at a line's end).
    public static let caretWidth = 1.0

    let lines: [LineBoxes]
    private let frame: VerticalFrame?
    let textLength: Int
    /// The paragraph's base direction: where a visual move past a line's end goes.
    let rightToLeft: Bool

    /// `text` is the laid-out text (its grapheme clusters bound every answer).
    public init(layout: ParagraphLayout, text: String) {
        self.init(layout: layout, units: AttributedText.utf16(text))
    }

    /// The same from the text's UTF-16 units; its grapheme clusters found as the analyze stage
    /// finds them (a quarter of the time Swift's `Character` walk took on a caption).
    public init(layout: ParagraphLayout, units: ContiguousArray<UInt16>) {
        var flags = ContiguousArray<UnitFlags>(repeating: [], count: units.count)
        _ = TextAnalysis.markGraphemes(units, into: &flags)
        var starts = flags.map { $0.contains(.graphemeStart) }
        starts.append(true)
        frame = VerticalFrame(turned: layout)
        rightToLeft = layout.direction == .rightToLeft
        let inLine = frame?.unturned(layout) ?? layout
        lines = inLine.lines.indices.map { index in
            LineBoxes.make(line: inLine.lines[index], index: index, runs: inLine.runs, attachments: inLine.attachments,
                           graphemeStarts: starts, units: units)
        }
        textLength = units.count
        graphemeStarts = starts
    }

    /// True at every offset a grapheme cluster starts (and at the text's end).
    let graphemeStarts: [Bool]

    /// A horizontal layout's tester from lines already cut (`init(layout:units:caretsIn:)`).
    init(lines: [LineBoxes], textLength: Int, graphemeStarts: [Bool], rightToLeft: Bool) {
        self.lines = lines
        self.frame = nil
        self.textLength = textLength
        self.graphemeStarts = graphemeStarts
        self.rightToLeft = rightToLeft
    }

    // MARK: Hit-testing

    /// The position nearest `point` and the line it is on. A point above, below or beside the
    /// text takes the nearest line, then the nearest place on it, as TextKit does; a point
    /// on a glyph takes the edge of its cluster it is nearer to.
    public func hit(_ point: Point) -> (position: TextPosition, line: Int)? {
        guard !lines.isEmpty else { return nil }
        let p = frame?.toLine(point) ?? point
        let index = nearestLine(to: p)
        let line = lines[index]
        guard let first = line.boxes.first, let last = line.boxes.last else {
            return (position(line.range.lowerBound, at: line.origin, in: index), index)
        }
        // The edge of the box under the point it is nearer to (or of the line's end boxes).
        let offset: Int, edge: Double
        if p.x < first.start {
            (offset, edge) = (first.leftOffset, first.start)
        } else if p.x >= last.end {
            (offset, edge) = (last.rightOffset, last.end)
        } else {
            let box = line.boxes[boxIndex(containing: p.x, in: line.boxes)]
            (offset, edge) = p.x < (box.start + box.end) / 2 ? (box.leftOffset, box.start) : (box.rightOffset, box.end)
        }
        return (position(min(offset, line.contentEnd), at: edge, in: index), index)
    }

    /// The position for `offset` found at `edge` on line `index`: upstream when its downstream
    /// caret stands elsewhere (on the next line, or in the other run at a bidi boundary) and
    /// its upstream one stands here.
    func position(_ offset: Int, at edge: Double, in index: Int) -> TextPosition {
        let downstream = TextPosition(offset: offset), upstream = TextPosition(offset: offset, affinity: .upstream)
        func here(_ position: TextPosition) -> Bool {
            guard let place = caretPlaces(position).first else { return false }
            return place.line == index && abs(place.x - edge) < 1e-6
        }
        return !here(downstream) && here(upstream) ? upstream : downstream
    }

    private func nearestLine(to p: Point) -> Int { nearest(to: p).index }

    /// The line nearest `p` (in the line frame) and how far it is: across the lines first, then
    /// along; the first line wins a tie.
    func nearest(to p: Point) -> (index: Int, distance: (across: Double, along: Double)) {
        var best = 0
        var bestDistance = (Double.infinity, Double.infinity)
        for (index, line) in lines.enumerated() {
            let across = Self.distanceAcross(p.y, top: line.top, bottom: line.bottom)
            let along = p.x < line.left ? line.left - p.x : p.x > line.right ? p.x - line.right : 0
            if (across, along) < bestDistance {
                bestDistance = (across, along)
                best = index
            }
        }
        return (best, bestDistance)
    }

    /// How far `y` lies above or below a line's band (0 inside it).
    static func distanceAcross(_ y: Double, top: Double, bottom: Double) -> Double {
        y < top ? top - y : y >= bottom ? y - bottom : 0
    }

    private func boxIndex(containing x: Double, in boxes: [CaretBox]) -> Int {
        var low = 0, high = boxes.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if boxes[middle].start <= x { low = middle } else { high = middle - 1 }
        }
        return low
    }

    // MARK: Carets

    /// The caret rects of `position` (its offset moved back to a grapheme boundary and into the
    /// text): the primary one, for the position's affinity, and at a bidi boundary or a soft
    /// line end the other place the same offset has. Each is `caretWidth` wide, leaning into
    /// the character after it, the full height of its line.
    public func caret(_ position: TextPosition) -> (primary: Rect, secondary: Rect?, line: Int)? {
        let places = caretPlaces(position)
        guard let primary = places.first else { return nil }
        let secondary = places.dropFirst().first
        return (rect(primary), secondary.map(rect), primary.line)
    }

    struct Place {
        var line: Int
        var x: Double
        /// Which way the rect leans: +1 into the box to the right, -1 to the left.
        var lean: Double
    }

    private func rect(_ place: Place) -> Rect {
        let line = lines[place.line]
        let x = place.lean > 0 ? place.x : place.x - Self.caretWidth
        let r = Rect(x: x, y: line.top, width: Self.caretWidth, height: line.bottom - line.top)
        return frame?.toPage(r) ?? r
    }

    /// Every place a caret for `position` may stand, the one its affinity picks first.
    func caretPlaces(_ position: TextPosition) -> [Place] {
        guard !lines.isEmpty else { return [] }
        var offset = min(max(0, position.offset), textLength)
        while offset > 0 && !graphemeStarts[offset] { offset -= 1 }
        // The lines that hold the offset: the one it starts or sits in, and at a soft line end
        // also the line it ends.
        var downstream: [Place] = [], upstream: [Place] = []
        for (index, line) in lines.enumerated() {
            if offset >= line.range.lowerBound && (offset < line.contentEnd || (offset == line.contentEnd && !line.softWrapped)
                || (offset == line.contentEnd && index == lines.count - 1) || line.range.isEmpty) {
                // Upstream, a bidi boundary's caret is the one after the text before the offset.
                downstream += places(of: offset, in: index, preferringStart: position.affinity == .downstream)
            } else if offset == line.range.upperBound && line.softWrapped {
                upstream += places(of: offset, in: index, preferringStart: false)
            }
        }
        if downstream.isEmpty && upstream.isEmpty {
            // Past the visible text (truncated or overflowing): the end of the last line.
            let last = lines.count - 1
            return places(of: lines[last].contentEnd, in: last, preferringStart: false)
        }
        return position.affinity == .upstream && !upstream.isEmpty ? upstream + downstream : downstream + upstream
    }

    /// The caret places of `offset` on line `index`: before the box that starts there (its
    /// leading edge), and after the box that ends there (its trailing edge) when that is
    /// elsewhere; `preferringStart` puts the first first.
    private func places(of offset: Int, in index: Int, preferringStart: Bool) -> [Place] {
        let line = lines[index]
        var before: Place?, after: Place?
        for box in line.boxes {
            if box.range.lowerBound == offset { before = Place(line: index, x: box.leadingEdge, lean: box.rightToLeft ? -1 : 1) }
            if box.range.upperBound == offset { after = Place(line: index, x: box.trailingEdge, lean: box.rightToLeft ? 1 : -1) }
        }
        var result: [Place] = []
        if preferringStart {
            if let before { result.append(before) }
            if let after, after.x != before?.x { result.append(after) }
        } else {
            if let after { result.append(after) }
            if let before, before.x != after?.x { result.append(before) }
        }
        if result.isEmpty {
            // An empty line, or an offset no box starts or ends at (inside hidden text).
            let x = line.boxes.isEmpty ? line.origin : nearestEdge(to: offset, in: line)
            result.append(Place(line: index, x: x, lean: 1))
        }
        return result
    }

    private func nearestEdge(to offset: Int, in line: LineBoxes) -> Double {
        let box = line.boxes.min { abs($0.range.lowerBound - offset) < abs($1.range.lowerBound - offset) }!
        return box.range.lowerBound >= offset ? box.leadingEdge : box.trailingEdge
    }

    // MARK: Selections

    /// The rects a selection of `range` covers: the boxes of its grapheme clusters, joined where
    /// they touch on a line, each the height of its line. Bidi reordering splits a selection
    /// into pieces; a line break ends one.
    public func selection(_ range: Range<Int>) -> [Rect] {
        var rects: [Rect] = []
        for line in lines where line.range.overlaps(range) {
            var piece: Rect?
            for box in line.boxes where box.range.lowerBound >= range.lowerBound && box.range.upperBound <= range.upperBound
                && !box.range.isEmpty && !range.isEmpty {
                if var open = piece, abs(open.x + open.width - box.start) < 1e-9 {
                    open.width = box.end - open.x
                    piece = open
                } else {
                    if let open = piece { rects.append(open) }
                    piece = Rect(x: box.start, y: line.top, width: box.end - box.start, height: line.bottom - line.top)
                }
            }
            if let open = piece { rects.append(open) }
        }
        return frame.map { frame in rects.map { frame.toPage($0) } } ?? rects
    }
}
