/// The decorate stage for fills: the boxes each filled paint's gradient or picture is
/// stretched over, with the gradient's points put into layout coordinates.
///
/// A run's box is its glyphs' extent along the line and the line's ascent and descent across
/// it. Vertical text is decorated in its line frame and turned onto the page with its boxes
/// (`VerticalFrame`), where the points are found again: they are fractions of the box on the
/// page, as CSS reads a gradient's direction in any writing mode. A span's box
/// joins the boxes of the runs of one stretch of text in that paint, over all its lines; a
/// line's box, the runs of the paint on one line; the layout's box is its size.
public enum FillRegions {
    static func find(_ layout: ParagraphLayout, budget: WorkBudget = .unlimited) throws(LayoutError) -> [FillRegion] {
        guard layout.paints.contains(where: { $0.fill != nil }) else { return [] }
        // Runs in the order of their text: a span's stretch is the runs of its paint between
        // runs of other paints.
        let order = layout.runs.indices.sorted {
            let a = layout.runs[$0], b = layout.runs[$1]
            return (a.range.lowerBound, a.lineIndex) < (b.range.lowerBound, b.lineIndex)
        }
        var regions: [FillRegion] = []
        var open: FillRegion?
        func close() {
            if let region = open { regions.append(region) }
            open = nil
        }
        for (step, index) in order.enumerated() {
            if step % 256 == 0 { try budget.check() }
            let run = layout.runs[index]
            guard layout.paints.indices.contains(run.paint), let fill = layout.paints[run.paint].fill else {
                // Text of another paint ends a stretch; glyphs layout inserted (a hyphen) do not.
                if !run.range.isEmpty { close() }
                continue
            }
            guard let box = extent(of: run, in: layout) else { continue }
            let lineIndex: Int? = fill.box == .line ? run.lineIndex : nil
            if var region = open, region.paint == run.paint, region.lineIndex == lineIndex {
                region.join(range: run.range, box: box)
                open = region
            } else {
                close()
                open = FillRegion(paint: run.paint, range: run.range, lineIndex: lineIndex, box: box, start: Point(x: box.x, y: box.y), end: Point(x: box.x, y: box.y))
            }
        }
        close()
        // A line's runs of one paint may stand apart in the text order (bidi, or text of another
        // paint between them): one box per paint and line. A layout's box: one per paint.
        if layout.paints.contains(where: { $0.fill.map { $0.box != .span } ?? false }) {
            regions = merged(regions) { region in
                switch layout.paints[region.paint].fill?.box {
                case .line: return MergeKey(paint: region.paint, line: region.lineIndex ?? -1)
                case .layout: return MergeKey(paint: region.paint, line: -1)
                default: return nil
                }
            }
        }
        for i in regions.indices {
            regions[i].settle(layout.paints[regions[i].paint].fill!, box: regions[i].box, layoutSize: layout.size)
        }
        return regions
    }

    private struct MergeKey: Hashable {
        var paint: Int
        var line: Int
    }

    /// The regions with the same key joined into the first of them (their ranges and boxes
    /// joined); a region without a key stays as it is. Linear: a dictionary finds the first.
    private static func merged(_ regions: [FillRegion], key: (FillRegion) -> MergeKey?) -> [FillRegion] {
        var result: [FillRegion] = []
        var first: [MergeKey: Int] = [:]
        for region in regions {
            guard let key = key(region) else { result.append(region); continue }
            if let k = first[key] {
                result[k].join(range: region.range, box: region.box)
            } else {
                first[key] = result.count
                result.append(region)
            }
        }
        return result
    }

    /// A run's typographic box; nil for a run with no glyphs.
    static func extent(of run: GlyphRunLayout, in layout: ParagraphLayout) -> Rect? {
        guard !run.glyphs.isEmpty, layout.lines.indices.contains(run.lineIndex) else { return nil }
        let line = layout.lines[run.lineIndex]
        var low = Double.infinity, high = -Double.infinity
        for glyph in run.glyphs {
            low = min(low, glyph.position.x, glyph.position.x + glyph.advance)
            high = max(high, glyph.position.x, glyph.position.x + glyph.advance)
        }
        let top = line.baselineOrigin.y - line.ascent
        return Rect(x: low, y: top, width: high - low, height: line.ascent + line.descent)
    }

    /// The fill's points in layout coordinates for `box`: a gradient's two, a picture's corners.
    static func points(of fill: TextFill, in box: Rect) -> (Point, Point) {
        func place(_ p: Point) -> Point { Point(x: box.x + p.x * box.width, y: box.y + p.y * box.height) }
        switch fill.kind {
        case let .linearGradient(start, end, _): return (place(start), place(end))
        case let .radialGradient(center, edge, _): return (place(center), place(edge))
        case .image: return (Point(x: box.x, y: box.y), Point(x: box.maxX, y: box.maxY))
        }
    }
}

extension FillRegion {
    /// Another stretch of the region's text and its box, joined in.
    mutating func join(range other: Range<Int>, box otherBox: Rect) {
        range = min(range.lowerBound, other.lowerBound)..<max(range.upperBound, other.upperBound)
        box = box.union(otherBox)
    }

    /// The region's box for `fill` (a layout's box is the whole layout, `layoutSize`; any other
    /// is `box`) and the fill's points in it.
    mutating func settle(_ fill: TextFill, box found: Rect, layoutSize: Size) {
        box = fill.box == .layout ? Rect(x: 0, y: 0, width: layoutSize.width, height: layoutSize.height) : found
        (start, end) = FillRegions.points(of: fill, in: box)
    }
}
