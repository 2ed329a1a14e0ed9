/// Turns a layout made in vertical text's line frame onto the page, and back.
///
/// Vertical text is laid out as horizontal text whose x runs down the column and whose y runs
/// across the columns; the page has y down the column and x across. Right-to-left columns
/// start at the layout's right edge: x on the page is the columns' extent less the frame's y.
/// Every point and rect of the layout maps exactly (a rect stays a rect), so breaking,
/// alignment, truncation, attachments, decorations and backgrounds are made once, in the line
/// frame, and turned with everything else.
public struct VerticalFrame: Sendable {
    let mode: WritingMode
    /// How far the columns reach across the page: the line frame's height.
    let extent: Double

    /// `extent`: the line frame's height (for text that flows, the containers' right edge).
    init(mode: WritingMode, extent: Double) {
        self.mode = mode
        self.extent = extent
    }

    /// The frame of a layout already turned onto the page, for turning it back.
    public init?(turned layout: ParagraphLayout) {
        guard layout.writingMode.isVertical else { return nil }
        mode = layout.writingMode
        extent = layout.size.width
    }

    private var fromRight: Bool { mode == .verticalRightToLeft }

    public func toPage(_ p: Point) -> Point { Point(x: fromRight ? extent - p.y : p.y, y: p.x) }
    public func toLine(_ p: Point) -> Point { Point(x: p.y, y: fromRight ? extent - p.x : p.x) }

    public func toPage(_ r: Rect) -> Rect {
        Rect(x: fromRight ? extent - r.y - r.height : r.y, y: r.x, width: r.height, height: r.width)
    }

    public func toLine(_ r: Rect) -> Rect {
        Rect(x: r.y, y: fromRight ? extent - r.x - r.width : r.x, width: r.height, height: r.width)
    }

    public func toPage(_ path: Path) -> Path { Self.map(path, toPage) }
    public func toLine(_ path: Path) -> Path { Self.map(path, toLine) }

    /// Runs beside the text (emphasis marks, ruby) with their glyphs' positions mapped by `point`.
    private static func turn(_ runs: [GlyphRunLayout], _ point: (Point) -> Point) -> [GlyphRunLayout] {
        runs.map { run in
            var turned = run
            turned.glyphs = ArraySlice(run.glyphs.map { glyph in
                var moved = glyph
                moved.position = point(glyph.position)
                return moved
            })
            return turned
        }
    }

    static func map(_ path: Path, _ f: (Point) -> Point) -> Path { Path(path.commands.map { map($0, f) }) }

    private static func map(_ command: PathCommand, _ f: (Point) -> Point) -> PathCommand {
        switch command {
        case .move(let p): .move(f(p))
        case .line(let p): .line(f(p))
        case let .quad(c, p): .quad(f(c), f(p))
        case let .cubic(c1, c2, p): .cubic(f(c1), f(c2), f(p))
        case .close: .close
        }
    }

    /// The layout on the page; `glyphsOnPage`: its glyphs are there already
    /// (`TextPositioner.placesGlyphsOnPage`).
    func turned(_ layout: consuming ParagraphLayout, glyphsOnPage: Bool = false) -> ParagraphLayout {
        // Moved into a local: changed and returned as the parameter, it was copied (its arrays counted).
        var page = consume layout
        convert(&page, point: toPage, rect: toPage, path: toPage, glyphs: !glyphsOnPage)
        page.size = Size(width: page.size.height, height: page.size.width)
        page.writingMode = mode
        return page
    }

    /// A turned layout back in its line frame (backgrounds are made there).
    public func unturned(_ layout: ParagraphLayout) -> ParagraphLayout {
        var out = layout
        convert(&out, point: toLine, rect: toLine, path: toLine, glyphs: true)
        out.size = Size(width: layout.size.height, height: layout.size.width)
        out.writingMode = .horizontal
        return out
    }

    public func toPage(_ background: Background) -> Background {
        var out = background
        out.rects = background.rects.map(toPage)
        out.path = toPage(background.path)
        return out
    }

    /// Maps every point, rect and path of `layout` in place (a turned layout consumed its own:
    /// a copy read while another was written copied its arrays). Inlined, so each caller's
    /// mapping is inlined into the loops (through a function value it cost a call per glyph).
    @inline(__always)
    private func convert(_ layout: inout ParagraphLayout, point: (Point) -> Point, rect: (Rect) -> Rect,
                         path: (Path) -> Path, glyphs convertsGlyphs: Bool) {
        for i in layout.lines.indices {
            layout.lines[i].baselineOrigin = point(layout.lines[i].baselineOrigin)
            layout.lines[i].usedRect = rect(layout.lines[i].usedRect)
            if let fragment = layout.lines[i].fragmentRect { layout.lines[i].fragmentRect = rect(fragment) }
        }
        if convertsGlyphs { convertGlyphs(&layout, point: point) }
        if !layout.emphasisMarks.isEmpty { layout.emphasisMarks = Self.turn(layout.emphasisMarks, point) }
        if !layout.rubyRuns.isEmpty { layout.rubyRuns = Self.turn(layout.rubyRuns, point) }
        for i in layout.attachments.indices { layout.attachments[i].rect = rect(layout.attachments[i].rect) }
        for i in layout.containers.indices { layout.containers[i].rect = rect(layout.containers[i].rect) }
        for i in layout.decorations.indices {
            layout.decorations[i].rects = layout.decorations[i].rects.map(rect)
            layout.decorations[i].path = path(layout.decorations[i].path)
        }
        if !layout.fillRegions.isEmpty {
            // A fill's points are fractions of its box as it stands on the page: found again
            // for the turned box.
            let paints = layout.paints
            layout.fillRegions = layout.fillRegions.map { region in
                var turned = region
                turned.box = rect(region.box)
                if let fill = paints[region.paint].fill { (turned.start, turned.end) = FillRegions.points(of: fill, in: turned.box) }
                return turned
            }
        }
    }

    @inline(__always)
    private func convertGlyphs(_ layout: inout ParagraphLayout, point: (Point) -> Point) {
        // The runs slice one glyph array, as positioning makes them: one turned array again
        // (written through a slice, each run would copy the array its slices share).
        var total = 0
        for i in layout.runs.indices { total += layout.runs[i].glyphs.count }
        // Appended to an output span: an array's append checks room and uniqueness per glyph.
        let glyphs = [PositionedGlyph](exactCapacity: total) { out in
            // Through spans: a copy of each run (its slice and font retained) cost more than
            // turning its glyphs.
            let runs = layout.runs.span
            for i in runs.indices {
                let run = runs[i].glyphs.span
                for k in run.indices {
                    var turned = run[k]
                    turned.position = point(turned.position)
                    out.append(turned)
                }
            }
        }
        var start = 0
        for i in layout.runs.indices {
            let count = layout.runs[i].glyphs.count
            layout.runs[i].glyphs = glyphs[start..<start + count]
            start += count
        }
    }
}
