/// The decorate stage for text: turns the paints' fills, underlines and strikethroughs into
/// geometry, line by line, after positioning.
///
/// On each line, neighbouring glyph runs (in visual order) whose decoration is the same form
/// one piece: one continuous line across fonts and sizes, as browsers and CoreText draw it. An
/// underline sits at the lowest of the runs' underline positions with the thickest of their
/// thicknesses (the fonts' `post` tables); a strikethrough at the position of the largest run's
/// font with the thickest stroke (`OS/2`). A background fills the line's text height behind
/// its runs and is split where the bidi level changes, so that each direction's part is its own
/// rect. Whitespace hanging at a line's end is not decorated, as browsers leave it.
enum TextDecorator {
    /// The decorations of `layout`, whose runs name `paints`, laid out from `text`. The budget
    /// is looked at line by line: an underline that skips ink walks every glyph's outline.
    /// `writingMode`: the mode a vertical layout, still in its lines' frame, will be turned to.
    static func decorate(_ layout: ParagraphLayout, text: AttributedText, fonts: FontRegistry,
                         writingMode: WritingMode = .horizontal, budget: WorkBudget = .unlimited) throws(LayoutError) -> [TextDecoration] {
        guard layout.paints.contains(where: \.isDecorated) else { return [] }
        let units = text.units
        var decorations: [TextDecoration] = []
        var segments: [Segment] = []  // one line's, the array kept from line to line
        var first = 0
        while first < layout.runs.count {
            try budget.check()
            let lineIndex = layout.runs[first].lineIndex, end = LinePens.lineEnd(from: first, in: layout.runs)
            segments.removeAll(keepingCapacity: true)
            collect(first..<end, of: layout, lineIndex: lineIndex, units: units, fonts: fonts, into: &segments)
            for kind in TextDecoration.Kind.allCases {
                decorate(kind, segments, layout: layout, lineIndex: lineIndex, text: text, writingMode: writingMode, into: &decorations)
            }
            first = end
        }
        return decorations
    }

    /// A run's part of a line with ink to decorate: its hanging whitespace left out.
    struct Segment {
        var run: Int
        var left: Double
        var right: Double
        /// Unowned, as `Item.font`: valid while the registry that shaped the layout lives.
        @UnownedFont var font: Font
    }

    /// The decorated runs among `runs` (one line's), in visual order. A vertical line's runs
    /// span their pens (`LinePens`), not their glyphs' positions, which carry the vertical origin.
    static func collect(_ runs: Range<Int>, of layout: ParagraphLayout, lineIndex: Int, units: ContiguousArray<UInt16>,
                        fonts: FontRegistry, into segments: inout [Segment]) {
        let line = layout.lines[lineIndex]
        let pens = LinePens.startsIfVertical(runs, of: layout, lineIndex: lineIndex)
        var contentEnd = line.range.upperBound
        while contentEnd > line.range.lowerBound
            && (UnitClass.isHangingSpace(units[contentEnd - 1]) || UnitClass.isHardBreak(units[contentEnd - 1])) {
            contentEnd -= 1
        }
        for index in runs {
            let run = layout.runs[index]
            guard layout.paints.indices.contains(run.paint), layout.paints[run.paint].isDecorated,
                  let font = fonts.font(id: run.instanceID) else { continue }
            var left = Double.infinity, right = -Double.infinity
            if let pens {
                var pen = pens[index - runs.lowerBound]
                for glyph in run.glyphs {
                    if run.isInserted || glyph.cluster < contentEnd { (left, right) = (min(left, pen), max(right, pen + glyph.advance)) }
                    pen += glyph.advance
                }
            } else {
                for glyph in run.glyphs where run.isInserted || glyph.cluster < contentEnd {
                    left = min(left, glyph.position.x)
                    right = max(right, glyph.position.x + glyph.advance)
                }
            }
            guard left < right else { continue }
            segments.append(Segment(run: index, left: left, right: right, font: font))
        }
    }

    /// What makes two neighbouring segments one piece: the same fill, or the same line drawn in
    /// the same colour; backgrounds also keep to one bidi level.
    struct Key: Equatable {
        var color: Color?
        var line: DecorationLine?
        var level: UInt8
    }

    static func key(_ kind: TextDecoration.Kind, _ run: GlyphRunLayout, _ paints: [TextPaint]) -> Key? {
        let paint = paints[run.paint]
        switch kind {
        case .background:
            guard let fill = paint.background else { return nil }
            return Key(color: fill, line: nil, level: run.bidiLevel)
        case .underline:
            guard let line = paint.underline else { return nil }
            return Key(color: line.color ?? paint.color, line: line, level: 0)
        case .strikethrough:
            guard let line = paint.strikethrough else { return nil }
            return Key(color: line.color ?? paint.color, line: line, level: 0)
        }
    }

    static func decorate(_ kind: TextDecoration.Kind, _ segments: [Segment], layout: ParagraphLayout, lineIndex: Int,
                         text: AttributedText, writingMode: WritingMode, into decorations: inout [TextDecoration]) {
        var start = 0
        while start < segments.count {
            guard let key = key(kind, layout.runs[segments[start].run], layout.paints) else { start += 1; continue }
            var end = start + 1
            // Joined only where they touch: an attachment or a gap between them ends the piece.
            while end < segments.count, abs(segments[end].left - segments[end - 1].right) < 0.01,
                  self.key(kind, layout.runs[segments[end].run], layout.paints) == key {
                end += 1
            }
            decorations.append(decoration(kind, key: key, segments[start..<end], layout: layout, lineIndex: lineIndex,
                                          text: text, writingMode: writingMode))
            start = end
        }
    }

    static func decoration(_ kind: TextDecoration.Kind, key: Key, _ piece: ArraySlice<Segment>, layout: ParagraphLayout,
                           lineIndex: Int, text: AttributedText, writingMode: WritingMode) -> TextDecoration {
        let line = layout.lines[lineIndex]
        let left = piece.first!.left, right = piece.last!.right
        var lower = Int.max, upper = Int.min
        for segment in piece {
            lower = min(lower, layout.runs[segment.run].range.lowerBound)
            upper = max(upper, layout.runs[segment.run].range.upperBound)
        }
        let baseline = line.baselineOrigin.y
        guard let decorationLine = key.line else {
            let rect = Rect(x: left, y: baseline - line.ascent, width: right - left, height: line.ascent + line.descent)
            return TextDecoration(kind: .background, color: key.color, range: lower..<upper, lineIndex: lineIndex,
                                  rects: [rect], thickness: 0)
        }
        // Font units are y up; layout coordinates y down: a metric's top is baseline - position.
        // A vertical line's baseline is its middle: an underline stands beside the column
        // instead (`VerticalUnderline`), made here on the under side and mirrored about the
        // centre line below when it stands over.
        let besideColumn = kind == .underline && writingMode.isVertical
        let standsRight = besideColumn && VerticalUnderline.standsRight(decorationLine, language: text.styles[text.styleIndex(at: lower)].language)
        var top = -Double.infinity, thickness = 0.0, largest = 0.0
        for segment in piece {
            // The run's fields read in place: a copy of it counted its glyphs' and instance's references.
            let size = layout.runs[segment.run].size, scale = segment.font.scale(for: size)
            if kind == .underline {
                // From the baseline in horizontal text; beside the column past what reaches there.
                let reach = !besideColumn ? 0 : besideReach(layout.runs[segment.run], font: segment.font, text: text,
                                                            paints: layout.paints, right: standsRight)
                top = max(top, baseline + VerticalUnderline.top(past: reach, font: segment.font, scale: scale))
                thickness = max(thickness, Double(segment.font.underline.thickness) * scale)
            } else {
                if size > largest { top = baseline - Double(segment.font.strikeout.position) * scale }
                largest = max(largest, size)
                thickness = max(thickness, Double(segment.font.strikeout.thickness) * scale)
            }
        }
        // A vertical line's strikethrough runs through its middle, where upright glyphs are centred.
        if kind == .strikethrough && writingMode.isVertical { top = baseline - thickness / 2 }
        // One band, or two for a double line; a thick strikethrough grows both ways from its middle.
        let style = decorationLine.style
        var band = (top: top, height: thickness)
        var second: (top: Double, height: Double)?
        switch style {
        case .single, .dotted, .dashed: break
        case .thick: band = kind == .underline ? (top, thickness * 2) : (top - thickness / 2, thickness * 2)
        case .double:
            if kind == .underline { second = (top + thickness * 2, thickness) } else {
                band = (top - thickness, thickness)
                second = (top + thickness, thickness)
            }
        }
        // The over side (the frame's −y) is the page's right in right-to-left columns, its left
        // in left-to-right ones (their frame is mirrored).
        if besideColumn && standsRight == (writingMode == .verticalRightToLeft) {
            band.top = 2 * baseline - band.top - band.height
            if let below = second { second = (2 * baseline - below.top - below.height, below.height) }
        }
        var rects: [Rect] = []
        func add(_ from: Double, _ to: Double) {
            rects.append(Rect(x: from, y: band.top, width: to - from, height: band.height))
            if let second { rects.append(Rect(x: from, y: second.top, width: to - from, height: second.height)) }
        }
        if style == .single || style == .double || style == .thick, !(kind == .underline && decorationLine.skipsInk) {
            add(left, right)
        } else {
            var spans = [(left, right)]
            if style == .dotted { spans = dashes(left, right, on: thickness, off: thickness) }
            if style == .dashed { spans = dashes(left, right, on: thickness * 3, off: thickness * 2) }
            if kind == .underline && decorationLine.skipsInk {
                let runs = piece.map { (layout.runs[$0.run], $0.font) }
                let other = second ?? band  // either side of the first band, when mirrored
                let ink = InkIntercepts.intervals(of: runs, top: min(band.top, other.top),
                                                  bottom: max(band.top + band.height, other.top + other.height),
                                                  clearance: thickness, writingMode: writingMode)
                spans = InkIntercepts.cut(spans, by: ink, shortest: thickness)
            }
            rects.reserveCapacity(spans.count * (second == nil ? 1 : 2))
            for (from, to) in spans { add(from, to) }
        }
        var decoration = TextDecoration(kind: kind, style: style, color: key.color, range: lower..<upper, lineIndex: lineIndex,
                                        rects: rects, thickness: style == .thick ? thickness * 2 : thickness)
        if kind == .underline && decorationLine.skipsInk { decoration.path = Self.path(of: rects) }
        return decoration
    }

    /// How far a vertical run reaches past its line's middle on the underline's side (see
    /// `VerticalUnderline`). Out of line: horizontal text never calls it.
    @inline(never)
    static func besideReach(_ run: borrowing GlyphRunLayout, font: Font, text: AttributedText, paints: [TextPaint], right: Bool) -> Double {
        max(VerticalUnderline.glyphsReach(run.orientation, size: run.size, font: font),
            VerticalUnderline.annotationsReach(run.range, paint: paints[run.paint], size: run.size, text: text, right: right))
    }

    /// Rects as closed subpaths, clockwise on screen.
    static func path(of rects: [Rect]) -> Path {
        var commands: [PathCommand] = []
        commands.reserveCapacity(rects.count * 5)
        for r in rects {
            commands += [.move(Point(x: r.x, y: r.y)), .line(Point(x: r.x + r.width, y: r.y)),
                         .line(Point(x: r.x + r.width, y: r.y + r.height)), .line(Point(x: r.x, y: r.y + r.height)), .close]
        }
        return Path(commands)
    }

    /// `left..<right` cut into pieces `on` long, `off` apart, from the left; the last piece is
    /// kept whole when at least half of it fits.
    static func dashes(_ left: Double, _ right: Double, on: Double, off: Double) -> [(Double, Double)] {
        guard on > 0 else { return [(left, right)] }
        var pieces: [(Double, Double)] = []
        var x = left
        while x + on / 2 <= right {
            pieces.append((x, min(x + on, right)))
            x += on + off
        }
        return pieces
    }
}
