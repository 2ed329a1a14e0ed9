extension TextDocument {
    /// Paragraph `index`'s layout moved to its place in the document: offsets, y, line and
    /// attachment indices as a layout of the whole text would give them. Its paints are its own.
    public func placed(_ index: Int) -> ParagraphLayout {
        paragraphs[index].layout.placed(placement(of: index))
    }

    /// Where paragraph `index`'s layout (in its own offsets and coordinates) stands in the document.
    public func placement(of index: Int) -> ParagraphPlacement {
        ParagraphPlacement(offset: start(of: index), top: top(of: index), firstLine: firstLine(of: index),
                           firstAttachment: firstAttachment(of: index))
    }

    /// The whole document as one layout, as laying its text out afresh would give it (paints
    /// are each paragraph's, one table after another).
    public func assembled() -> ParagraphLayout {
        var whole = ParagraphLayout(lines: [], runs: [], attachments: [], visibleRange: 0..<length,
                                    size: Size(width: width, height: height), direction: paragraphs[0].layout.direction, paints: [])
        for index in paragraphs.indices {
            var part = placed(index)
            let paintBase = whole.paints.count
            for i in part.runs.indices { part.runs[i].paint += paintBase }
            whole.paints += part.paints
            whole.lines += part.lines
            whole.runs += part.runs
            whole.attachments += part.attachments
            whole.decorations += part.decorations
            if !part.fillRegions.isEmpty {
                whole.fillRegions += part.fillRegions.map { region in
                    var moved = region
                    moved.paint += paintBase
                    return moved
                }
            }
            if let ink = part.ink {
                var merged = whole.ink ?? InkBounds(runs: [], lines: [], layout: nil, firstGlyph: nil)
                merged.runs += ink.runs
                merged.lines += ink.lines
                merged.layout = [merged.layout, ink.layout].compactMap { $0 }.reduce(nil) { all, rect in all.map { $0.union(rect) } ?? rect }
                merged.firstGlyph = merged.firstGlyph ?? ink.firstGlyph
                whole.ink = merged
            }
        }
        return whole
    }

    /// The position nearest `point` and its line, as `HitTester.hit` answers on the whole text:
    /// the paragraph whose band holds the point (the first above the text, the last below) answers.
    public func hit(_ point: Point) -> (position: TextPosition, line: Int)? {
        let index = settings.flows ? paragraphIndex(nearest: point) : paragraphIndex(atY: point.y)
        let paragraph = paragraphs[index]
        let tester = HitTester(layout: paragraph.layout, units: paragraph.units)
        guard let found = tester.hit(Point(x: point.x, y: point.y - top(of: index))) else { return nil }
        return (TextPosition(offset: found.position.offset + start(of: index), affinity: found.position.affinity),
                found.line + firstLine(of: index))
    }

    /// In text that flows (columns side by side, lines beside shapes): the paragraph holding the
    /// line nearest `point`, measured as `HitTester` measures it over the whole text. The lines'
    /// bands narrow it down first; only paragraphs with a line at the nearest band build boxes.
    private func paragraphIndex(nearest point: Point) -> Int {
        var nearestAcross = Double.infinity
        for (index, paragraph) in paragraphs.enumerated() {
            let y = point.y - top(of: index)  // paragraphs are kept moved up by their displacement
            for line in paragraph.layout.lines {
                nearestAcross = min(nearestAcross, HitTester.distanceAcross(y, top: line.usedRect.y, bottom: line.usedRect.maxY))
            }
        }
        var best: (index: Int, distance: (Double, Double))?
        for (index, paragraph) in paragraphs.enumerated() {
            let y = point.y - top(of: index)
            guard paragraph.layout.lines.contains(where: {
                HitTester.distanceAcross(y, top: $0.usedRect.y, bottom: $0.usedRect.maxY) == nearestAcross
            }) else { continue }
            let found = HitTester(layout: paragraph.layout, units: paragraph.units).nearest(to: Point(x: point.x, y: y))
            if best == nil || found.distance < best!.distance { best = (index, found.distance) }
        }
        return best?.index ?? 0
    }

    /// Where a caret at `position` stands (both places at a bidi boundary, primary first), and
    /// its line, as `HitTester.caret` answers on the whole text.
    public func caret(_ position: TextPosition) -> (primary: Rect, secondary: Rect?, line: Int)? {
        guard position.offset >= 0 && position.offset <= length else { return nil }
        let index = paragraphIndex(containing: position.offset)
        let paragraph = paragraphs[index]
        let offset = position.offset - start(of: index)
        if position.affinity == .downstream,
           let simple = HitTester.simpleCaret(layout: paragraph.layout, units: paragraph.units, offset: offset) {
            let top = top(of: index)
            let rect = simple.primary
            return (Rect(x: rect.x, y: rect.y + top, width: rect.width, height: rect.height), nil, simple.line + firstLine(of: index))
        }
        // One caret needs only the lines that can hold its offset cut into boxes.
        let tester = HitTester(layout: paragraph.layout, units: paragraph.units, caretsIn: offset...offset)
            ?? HitTester(layout: paragraph.layout, units: paragraph.units)
        let top = top(of: index)
        guard let found = tester.caret(TextPosition(offset: offset, affinity: position.affinity)) else {
            return nil
        }
        func moved(_ rect: Rect) -> Rect { Rect(x: rect.x, y: rect.y + top, width: rect.width, height: rect.height) }
        return (moved(found.primary), found.secondary.map(moved), found.line + firstLine(of: index))
    }
}

extension PathCommand {
    func moved(down dy: Double) -> PathCommand {
        func p(_ point: Point) -> Point { Point(x: point.x, y: point.y + dy) }
        switch self {
        case .move(let a): return .move(p(a))
        case .line(let a): return .line(p(a))
        case let .quad(a, b): return .quad(p(a), p(b))
        case let .cubic(a, b, c): return .cubic(p(a), p(b), p(c))
        case .close: return .close
        }
    }
}
