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
    /// The decorations of `layout`, whose runs name `paints`; `units` is the text's.
    static func decorate(_ layout: ParagraphLayout, units: ContiguousArray<UInt16>, fonts: FontRegistry) -> [TextDecoration] {
        guard layout.paints.contains(where: \.isDecorated) else { return [] }
        var decorations: [TextDecoration] = []
        var first = 0
        while first < layout.runs.count {
            let lineIndex = layout.runs[first].lineIndex
            var end = first + 1
            while end < layout.runs.count && layout.runs[end].lineIndex == lineIndex { end += 1 }
            let line = layout.lines[lineIndex]
            let segments = Self.segments(of: layout.runs[first..<end], line: line, units: units, paints: layout.paints, fonts: fonts)
            for kind in TextDecoration.Kind.allCases {
                decorate(kind, segments, line: line, lineIndex: lineIndex, fonts: fonts, into: &decorations)
            }
            first = end
        }
        return decorations
    }

    /// A run's part of a line with ink to decorate: its hanging whitespace left out.
    struct Segment {
        var run: GlyphRunLayout
        var paint: TextPaint
        var left: Double
        var right: Double
        var font: Font
    }

    static func segments(of runs: ArraySlice<GlyphRunLayout>, line: LineLayout, units: ContiguousArray<UInt16>,
                         paints: [TextPaint], fonts: FontRegistry) -> [Segment] {
        var contentEnd = line.range.upperBound
        while contentEnd > line.range.lowerBound
            && (UnitClass.isHangingSpace(units[contentEnd - 1]) || UnitClass.isHardBreak(units[contentEnd - 1])) {
            contentEnd -= 1
        }
        var segments: [Segment] = []
        for run in runs {
            guard paints.indices.contains(run.paint), paints[run.paint].isDecorated, let font = fonts.font(id: run.fontID) else {
                continue
            }
            var left = Double.infinity, right = -Double.infinity
            for glyph in run.glyphs where run.isTruncationToken || glyph.cluster < contentEnd {
                left = min(left, glyph.position.x)
                right = max(right, glyph.position.x + glyph.advance)
            }
            guard left < right else { continue }
            segments.append(Segment(run: run, paint: paints[run.paint], left: left, right: right, font: font))
        }
        return segments
    }

    /// What makes two neighbouring segments one piece: the same fill, or the same line drawn in
    /// the same colour; backgrounds also keep to one bidi level.
    struct Key: Equatable {
        var color: Color?
        var line: DecorationLine?
        var level: UInt8
    }

    static func key(_ kind: TextDecoration.Kind, _ segment: Segment) -> Key? {
        let paint = segment.paint
        switch kind {
        case .background:
            guard let fill = paint.background else { return nil }
            return Key(color: fill, line: nil, level: segment.run.bidiLevel)
        case .underline:
            guard let line = paint.underline else { return nil }
            return Key(color: line.color ?? paint.color, line: line, level: 0)
        case .strikethrough:
            guard let line = paint.strikethrough else { return nil }
            return Key(color: line.color ?? paint.color, line: line, level: 0)
        }
    }

    static func decorate(_ kind: TextDecoration.Kind, _ segments: [Segment], line: LineLayout, lineIndex: Int,
                         fonts: FontRegistry, into decorations: inout [TextDecoration]) {
        var start = 0
        while start < segments.count {
            guard let key = key(kind, segments[start]) else { start += 1; continue }
            var end = start + 1
            // Joined only where they touch: an attachment or a gap between them ends the piece.
            while end < segments.count, self.key(kind, segments[end]) == key,
                  abs(segments[end].left - segments[end - 1].right) < 0.01 {
                end += 1
            }
            let piece = segments[start..<end]
            decorations.append(decoration(kind, key: key, piece, line: line, lineIndex: lineIndex))
            start = end
        }
    }

    static func decoration(_ kind: TextDecoration.Kind, key: Key, _ piece: ArraySlice<Segment>, line: LineLayout,
                           lineIndex: Int) -> TextDecoration {
        let left = piece.first!.left, right = piece.last!.right
        let lower = piece.map(\.run.range.lowerBound).min()!, upper = piece.map(\.run.range.upperBound).max()!
        let baseline = line.baselineOrigin.y
        guard let decorationLine = key.line else {
            let rect = Rect(x: left, y: baseline - line.ascent, width: right - left, height: line.ascent + line.descent)
            return TextDecoration(kind: .background, color: key.color, range: lower..<upper, lineIndex: lineIndex,
                                  rects: [rect], thickness: 0)
        }
        // Font units are y up; layout coordinates y down: a metric's top is baseline - position.
        var top: Double, thickness = 0.0
        if kind == .underline {
            top = -Double.infinity
            for segment in piece {
                let scale = segment.font.scale(for: segment.run.size)
                top = max(top, baseline - Double(segment.font.underline.position) * scale)
                thickness = max(thickness, Double(segment.font.underline.thickness) * scale)
            }
        } else {
            let largest = piece.max { $0.run.size < $1.run.size }!
            top = baseline - Double(largest.font.strikeout.position) * largest.font.scale(for: largest.run.size)
            for segment in piece {
                thickness = max(thickness, Double(segment.font.strikeout.thickness) * segment.font.scale(for: segment.run.size))
            }
        }
        var bands: [(top: Double, height: Double)]
        switch decorationLine.style {
        case .single, .dotted, .dashed: bands = [(top, thickness)]
        case .thick: bands = kind == .underline ? [(top, thickness * 2)] : [(top - thickness / 2, thickness * 2)]
        case .double: bands = kind == .underline ? [(top, thickness), (top + thickness * 2, thickness)]
                                                 : [(top - thickness, thickness), (top + thickness, thickness)]
        }
        var spans = [(left, right)]
        switch decorationLine.style {
        case .dotted: spans = dashes(left, right, on: thickness, off: thickness)
        case .dashed: spans = dashes(left, right, on: thickness * 3, off: thickness * 2)
        default: break
        }
        if kind == .underline && decorationLine.skipsInk {
            let bandTop = bands.map(\.top).min()!, bandBottom = bands.map { $0.top + $0.height }.max()!
            let ink = InkIntercepts.intervals(of: piece.map { ($0.run, $0.font) }, top: bandTop, bottom: bandBottom,
                                              clearance: thickness)
            spans = InkIntercepts.cut(spans, by: ink, shortest: thickness)
        }
        var rects: [Rect] = []
        for band in bands {
            for (from, to) in spans { rects.append(Rect(x: from, y: band.top, width: to - from, height: band.height)) }
        }
        return TextDecoration(kind: kind, style: decorationLine.style, color: key.color, range: lower..<upper,
                              lineIndex: lineIndex, rects: rects,
                              thickness: decorationLine.style == .thick ? thickness * 2 : thickness)
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
