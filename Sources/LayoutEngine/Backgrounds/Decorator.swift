/// The decorate stage: backgrounds from a positioned layout.
///
/// Vertical text's backgrounds are made in its lines' own frame, where its columns are lines,
/// and turned onto the page with them (`VerticalFrame`).
public struct Decorator {
    /// The layout in its lines' frame: as given for horizontal text, turned back for vertical.
    public let layout: ParagraphLayout
    public let units: [UInt16]
    public let fonts: FontRegistry
    /// Asked every few hundred lines of each background.
    public let budget: WorkBudget
    /// Vertical text's page: where its glyphs' ink is read, and where backgrounds go.
    private let frame: VerticalFrame?

    /// `layout` as laid out: on the page, for vertical text too.
    public init(layout: ParagraphLayout, text: String, fonts: FontRegistry, budget: WorkBudget = .unlimited) {
        frame = VerticalFrame(turned: layout)
        self.layout = frame?.unturned(layout) ?? layout
        self.budget = budget
        self.units = Array(text.utf16)
        self.fonts = fonts
        runsByLine = Self.indicesByLine(layout.runs.map(\.lineIndex), lines: layout.lines.count)
        boxesByLine = Self.indicesByLine(layout.attachments.map(\.lineIndex), lines: layout.lines.count)
    }

    /// For each of `lines` lines, the indices of the entries whose line that is.
    private static func indicesByLine(_ lineOfEntry: [Int], lines: Int) -> [[Int]] {
        var byLine = [[Int]](repeating: [], count: lines)
        for (index, line) in lineOfEntry.enumerated() where line < lines { byLine[line].append(index) }
        return byLine
    }

    /// The attachments of each line, by index into `layout.attachments`.
    private let boxesByLine: [[Int]]

    /// The runs of each line, by index into `layout.runs`: found once, so a background asks
    /// for a line's runs without scanning every run of the layout.
    private let runsByLine: [[Int]]

    public func decorate(_ style: BackgroundStyle) throws -> Background {
        try style.validate(textLength: units.count)
        try budget.check()
        var background = shape(style)
        (background.border, background.shadow) = (style.border, style.shadow)
        try budget.check()  // a budget that ran out midway left lines out: the shape is not returned
        guard let frame else { return background }
        return frame.toPage(background)
    }

    private func shape(_ style: BackgroundStyle) -> Background {
        var boxStyle = style
        if style.kind == .connected { boxStyle.touching = true }  // one shape needs touching lines
        let boxes = lineBoxes(boxStyle)
        switch style.kind {
        case .perLine:
            let rects = boxes.compactMap { $0 }
            var path = Path()
            for rect in rects { path.commands += Path.roundedRect(rect, radius: style.cornerRadius).commands }
            return Background(rects: rects, path: path, fill: style.fill)
        case .connected:
            let rects = boxes.compactMap { $0 }
            var path = Path()
            for group in Self.connectedGroups(boxes) {
                path.commands += Path.roundedPolygon(Self.staircase(group), radius: style.cornerRadius).commands
            }
            return Background(rects: rects, path: path, fill: style.fill)
        case .block:
            let rects = boxes.compactMap { $0 }
            guard let first = rects.first else { return Background(rects: [], path: Path(), fill: style.fill) }
            let bounds = rects.dropFirst().reduce(first) { $0.union($1) }
            return Background(rects: [bounds], path: Path.roundedRect(bounds, radius: style.cornerRadius), fill: style.fill)
        case .highlight(let range):
            // Only the lines the range reaches (a truncated line's token belongs to no range);
            // rects of consecutive lines meet at the line boundary instead of overlapping by
            // twice the vertical padding (a translucent fill showed the overlap darker).
            let rects = lineBoxes(style, within: range).compactMap { $0 }
            var path = Path()
            for rect in rects { path.commands += Path.roundedRect(rect, radius: style.cornerRadius).commands }
            return Background(rects: rects, path: path, fill: style.fill)
        }
    }

    /// Each line's padded box (of its part in `range`, for a highlight), or nil for a line with no
    /// visible text there. Boxes of consecutive
    /// lines never overlap: where padding would make them, or `touching` asks them to, they
    /// meet at the boundary between the two line boxes.
    func lineBoxes(_ style: BackgroundStyle, within range: Range<Int>? = nil) -> [Rect?] {
        var boxes: [Rect?] = layout.lines.indices.map { index in
            if let range, !layout.lines[index].range.overlaps(range) { return nil }
            return extent(of: index, within: range, style: style)
        }
        for i in boxes.indices.dropLast() {
            guard var upper = boxes[i], var lower = boxes[i + 1] else { continue }
            let boundary = layout.lines[i].usedRect.maxY
            if style.touching || upper.maxY > lower.y {
                upper.height = boundary - upper.y
                lower.height = lower.maxY - boundary
                lower.y = boundary
                boxes[i] = upper
                boxes[i + 1] = lower
            }
        }
        return boxes
    }

    /// The padded box of line `index`'s text (or of its part in `range`): from the first to the
    /// last glyph that is not whitespace, advances and ink together, and from the line's ascent
    /// to its descent; attachments on the line (in the range) are held whole.
    func extent(of index: Int, within range: Range<Int>?, style: BackgroundStyle) -> Rect? {
        let line = layout.lines[index]
        // Every 256 lines, a look at the budget; an expired one ends the background early and
        // `decorate` reports it (extent stays non-throwing for the closures that map lines).
        if index % 256 == 255 && (try? budget.check()) == nil { return nil }
        var minX = Double.infinity, maxX = -Double.infinity
        var minY = line.baselineOrigin.y - line.ascent, maxY = line.baselineOrigin.y + line.descent
        for run in runsByLine[index].lazy.map({ self.layout.runs[$0] }) {
            guard let font = fonts.font(id: run.instanceID) else { continue }
            let scale = font.scale(for: run.size)
            for glyph in run.glyphs {
                let cluster = glyph.cluster
                if run.isInserted { if range != nil { continue } } else {
                    guard cluster < units.count, !Self.isWhitespace(units[cluster]) else { continue }
                    if let range, !range.contains(cluster) { continue }
                }
                let origin = glyph.position
                let ink = font.inkExtents(glyph.id)
                if let frame {
                    // Vertical text: the ink read where the page shows it (upright, or on its
                    // side), in the lines' frame. A sideways glyph's advance runs along the line
                    // from its origin; an upright one's cell is not kept, so its ink stands for it.
                    if run.orientation == .sideways { (minX, maxX) = (min(minX, origin.x), max(maxX, origin.x + glyph.advance)) }
                    guard let page = InkBounds.glyphInk(ink, at: frame.toPage(origin), scale: scale,
                                                        sideways: run.orientation == .sideways) else { continue }
                    let box = frame.toLine(page)
                    (minX, maxX) = (min(minX, box.x), max(maxX, box.maxX))
                    (minY, maxY) = (min(minY, box.y), max(maxY, box.maxY))
                    continue
                }
                let inkLeft = origin.x + Double(ink.x) * scale
                minX = min(minX, origin.x, inkLeft)
                maxX = max(maxX, origin.x + glyph.advance, inkLeft + Double(ink.width) * scale)
                if ink.width != 0 {
                    minY = min(minY, origin.y - Double(ink.y) * scale)
                    maxY = max(maxY, origin.y - Double(ink.y + ink.height) * scale)
                }
            }
        }
        // Attachments in the range are part of the text the background holds, box and all.
        for box in boxesByLine[index].lazy.map({ self.layout.attachments[$0] }) {
            if let range, !range.overlaps(box.range) { continue }
            minX = min(minX, box.rect.x)
            maxX = max(maxX, box.rect.maxX)
            minY = min(minY, box.rect.y)
            maxY = max(maxY, box.rect.maxY)
        }
        guard minX < maxX else { return nil }
        return Rect(x: minX - style.horizontalPadding, y: minY - style.verticalPadding,
                    width: maxX - minX + 2 * style.horizontalPadding, height: maxY - minY + 2 * style.verticalPadding)
    }

    static func isWhitespace(_ u: UInt16) -> Bool { UnitClass.isHangingSpace(u) || UnitClass.isHardBreak(u) || u == 0xA0 }

    /// Runs of consecutive boxes that touch and overlap horizontally: each becomes one outline.
    static func connectedGroups(_ boxes: [Rect?]) -> [[Rect]] {
        var groups: [[Rect]] = []
        var current: [Rect] = []
        for box in boxes {
            guard let box else {
                if !current.isEmpty { groups.append(current) }
                current = []
                continue
            }
            if let last = current.last, !(abs(last.maxY - box.y) < 1e-9 && box.x < last.maxX && last.x < box.maxX) {
                groups.append(current)
                current = []
            }
            current.append(box)
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    /// The outline of stacked, touching, horizontally overlapping rects, clockwise on screen:
    /// across the top, down the right side step by step, back along the bottom, up the left side.
    /// Collinear and repeated vertices are dropped so every corner is a real turn.
    static func staircase(_ rects: [Rect]) -> [Point] {
        var points: [Point] = [Point(x: rects[0].x, y: rects[0].y), Point(x: rects[0].maxX, y: rects[0].y)]
        for (i, rect) in rects.enumerated() {
            points.append(Point(x: rect.maxX, y: rect.maxY))
            if i + 1 < rects.count { points.append(Point(x: rects[i + 1].maxX, y: rect.maxY)) }
        }
        for (i, rect) in rects.enumerated().reversed() {
            points.append(Point(x: rect.x, y: rect.maxY))
            points.append(Point(x: rect.x, y: rect.y))
            if i > 0 { points.append(Point(x: rects[i - 1].x, y: rect.y)) }
        }
        points.removeLast()  // back at the first point
        return simplified(points)
    }

    /// Drops repeated and collinear vertices in one pass over the polygon (a stack, then the
    /// seam where it closes), so an outline of thousands of lines costs linear time.
    static func simplified(_ points: [Point]) -> [Point] {
        func redundant(_ a: Point, _ b: Point, _ c: Point) -> Bool {
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            return (abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9) || abs(cross) < 1e-9
        }
        var result: [Point] = []
        result.reserveCapacity(points.count)
        for point in points {
            result.append(point)
            while result.count >= 3 && redundant(result[result.count - 3], result[result.count - 2], result[result.count - 1]) {
                result.remove(at: result.count - 2)
            }
        }
        var start = 0  // vertices dropped at the front, removed once at the end
        while result.count - start > 3 {
            let n = result.count
            if redundant(result[n - 2], result[n - 1], result[start]) {
                result.removeLast()
            } else if redundant(result[n - 1], result[start], result[start + 1]) {
                start += 1
            } else {
                break
            }
        }
        return Array(result[start...])
    }
}
