import LayoutEngine
import LayoutWire
import LayoutUnicode

extension RequestProcessor {
    /// The most questions of each kind one hit-test request may ask.
    static let maxHitTestQuestions = 4_096
    /// The most selection rects one reply may carry: a selection of a long text has a rect per
    /// line, and 4,096 of them over a thousand lines took a second to make and did not fit a reply.
    static let maxSelectionRects = 16_384

    /// Lays the source out as its own request would, then answers where the points land,
    /// where the carets stand and what the selections cover.
    func hitTest(_ request: Layoutd_V1_HitTestRequest, budget: WorkBudget = .unlimited) throws -> Layoutd_V1_HitTestReply {
        for (count, field) in [(request.points.count, "points"), (request.carets.count, "carets"), (request.selections.count, "selections"),
                               (request.around.count, "around"), (request.moves.count, "moves")] {
            try Bounds.check(count: count, limit: Self.maxHitTestQuestions, field: field)
        }
        let layout: ParagraphLayout, text: String
        switch request.source {
        case .layout(let source):
            guard !source.hasTextPath else {
                // Boxes, carets and selections are cut along lines; glyphs bent onto a path have none.
                throw LayoutError(.invalidArgument, "hit-testing answers along lines; text on a path is not supported", field: "layout.text_path")
            }
            layout = try under("layout") { try decoratedLayout(source, budget: budget).layout }
            text = source.text
        case .justify(let source):
            layout = try under("justify") { try decoratedStory(source, budget: budget).fitted.paragraph }
            text = source.text
        case .none:
            throw LayoutError(.invalidArgument, "a hit-test request needs a layout or a justify source", field: "source")
        }
        let length = text.utf16.count
        try Self.checkFinite(request.points)
        func check(_ offset: UInt32, field: String) throws { try Self.check(offset, within: length, of: "text", field: field) }
        func check(_ position: Layoutd_V1_TextPosition, field: String) throws {
            try Self.check(position, within: length, of: "text", field: field)
        }
        for (index, caret) in request.carets.enumerated() { try check(caret, field: "carets[\(index)]") }
        for (index, range) in request.selections.enumerated() where UInt64(range.start) + UInt64(range.length) > UInt64(length) {
            throw LayoutError(.invalidArgument, "range \(range.start)..<\(UInt64(range.start) + UInt64(range.length)) is outside the "
                              + "text's \(length) UTF-16 units", field: "selections[\(index)]")
        }
        for (index, offset) in request.around.enumerated() { try check(offset, field: "around[\(index)]") }
        for (index, move) in request.moves.enumerated() {
            try check(move.from, field: "moves[\(index)].from")
            if case .UNRECOGNIZED(let value) = move.direction {
                throw LayoutError(.invalidArgument, "unknown direction \(value)", field: "moves[\(index)].direction")
            }
        }
        try budget.check()
        let tester = HitTester(layout: layout, text: text)
        var reply = Layoutd_V1_HitTestReply()
        // A question costs up to a pass over the layout's lines: the budget is checked as they go.
        var asked = 0
        func next() throws {
            asked += 1
            if asked % 64 == 0 { try budget.check() }
        }
        reply.hits = try request.points.map { point in
            try next()
            var hit = Layoutd_V1_Hit()
            if let found = tester.hit(Point(x: Double(point.x), y: Double(point.y))) {
                hit.position = Layoutd_V1_TextPosition(found.position)
                hit.lineIndex = UInt32(found.line)
            }
            return hit
        }
        reply.carets = try request.carets.map { wire in
            try next()
            var caret = Layoutd_V1_Caret()
            if let found = tester.caret(TextPosition(wire)) {
                caret.primary = Layoutd_V1_Rect(found.primary)
                if let secondary = found.secondary { caret.secondary = Layoutd_V1_Rect(secondary) }
                caret.lineIndex = UInt32(found.line)
            }
            return caret
        }
        var rects = 0
        reply.selections = try request.selections.map { range in
            try next()
            var selection = Layoutd_V1_Selection()
            selection.rects = tester.selection(Int(range.start)..<Int(range.start + range.length)).map(Layoutd_V1_Rect.init)
            rects += selection.rects.count
            guard rects <= Self.maxSelectionRects else {
                throw LayoutError(.resourceExhausted, "the selections cover more than \(Self.maxSelectionRects) rects; "
                                  + "a reply may carry at most that many", field: "selections")
            }
            return selection
        }
        reply.moved = try request.moves.map { move in
            try next()
            let from = TextPosition(move.from)
            let direction: CaretMove = switch move.direction {
            case .backward: .backward
            case .right: .right
            case .left: .left
            default: .forward
            }
            return Layoutd_V1_TextPosition(tester.moved(from, direction))
        }
        if !request.around.isEmpty {
            let boundaries = TextBoundaries(text: text)
            reply.around = try request.around.map { offset in
                try next()
                var ranges = Layoutd_V1_TextRanges()
                ranges.word = Layoutd_V1_Range(boundaries.word(around: Int(offset)))
                if let line = tester.caret(TextPosition(offset: Int(offset)))?.line, line < layout.lines.count {
                    ranges.line = Layoutd_V1_Range(layout.lines[line].range)
                }
                ranges.paragraph = Layoutd_V1_Range(boundaries.paragraph(around: Int(offset)))
                ranges.sentence = Layoutd_V1_Range(boundaries.sentence(around: Int(offset)))
                return ranges
            }
        }
        return reply
    }
}

extension RequestProcessor {
    /// Refuses the first point that is not finite, naming it (`points[i]`).
    static func checkFinite(_ points: [Layoutd_V1_Point]) throws(LayoutError) {
        for (index, point) in points.enumerated() where !(point.x.isFinite && point.y.isFinite) {
            throw LayoutError(.invalidArgument, "a point must be finite, got (\(point.x), \(point.y))", field: "points[\(index)]")
        }
    }

    /// Refuses an offset past the `length` UTF-16 units of the `what` it is in.
    static func check(_ offset: UInt32, within length: Int, of what: String, field: String) throws(LayoutError) {
        guard offset <= length else {
            throw LayoutError(.invalidArgument, "offset \(offset) is past the \(what)'s \(length) UTF-16 units", field: field)
        }
    }

    /// The same for a position, and its affinity one the protocol knows.
    static func check(_ position: Layoutd_V1_TextPosition, within length: Int, of what: String, field: String) throws(LayoutError) {
        try check(position.offset, within: length, of: what, field: field + ".offset")
        if case .UNRECOGNIZED(let value) = position.affinity {
            throw LayoutError(.invalidArgument, "unknown affinity \(value)", field: field + ".affinity")
        }
    }
}

extension TextPosition {
    init(_ wire: Layoutd_V1_TextPosition) {
        self.init(offset: Int(wire.offset), affinity: wire.affinity == .upstream ? .upstream : .downstream)
    }
}

extension Layoutd_V1_TextPosition {
    init(_ position: TextPosition) {
        self.init()
        offset = UInt32(position.offset)
        affinity = position.affinity == .upstream ? .upstream : .downstream
    }
}
