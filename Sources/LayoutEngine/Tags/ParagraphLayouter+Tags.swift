extension ParagraphLayouter {
    /// The tag stage: lays each label out as one line of text (the same pipeline as a
    /// paragraph), then places the dot, leader lines, underlines and text for each tag's style,
    /// moving a tag that would leave the photo to its nearest style that keeps it on when asked,
    /// and reports the tags that overlap.
    public func layoutTags(_ request: TagsRequest, budget: WorkBudget = .unlimited) throws -> TagsLayout {
        try request.validate()
        let placer = TagPlacer(metrics: request.metrics, photo: request.photo)
        var placed: [TagGeometry] = []
        placed.reserveCapacity(request.tags.count)
        try withContext(budget: budget) { context in  // one for every label
            for (index, var tag) in request.tags.enumerated() {
                try budget.check()
                let requested = tag.position
                if request.clampsToPhoto { tag.position = TagsRequest.clamped(tag.position) }
                let labels = try tag.labels.enumerated().map { labelIndex, label in
                    try layOut(label, request: request, field: "tags[\(index)].labels[\(labelIndex)]", context: context)
                }
                var geometry = try place(tag, index: index, labels: labels, placer: placer, request: request,
                                         clamped: tag.position != requested)
                if let next = tag.switchTo {
                    var switching = tag
                    switching.style = next
                    let switched = try place(switching, index: index, labels: labels, placer: placer, request: request,
                                             clamped: geometry.clamped, styleField: "switch_to.style")
                    geometry.switched = TagSwitchGeometry(style: switched.style, labels: switched.labels,
                                                          legibility: switched.legibility, bounds: switched.bounds)
                }
                placed.append(geometry)
            }
        }
        return TagsLayout(photo: request.photo, tags: placed, overlaps: Self.overlaps(placed))
    }

    /// The tag placed in its style (`styleField` names the style in errors).
    private func place(_ tag: ImageTag, index: Int, labels: [LaidOutLabel], placer: TagPlacer,
                       request: TagsRequest, clamped: Bool, styleField: String = "style") throws -> TagGeometry {
        let center = placer.center(of: tag)
        let count = tag.labels.count
        let field = "tags[\(index)].\(styleField)"
        let requested = placer.place(labels, style: try request.table.style(tag.style, labelCount: count, field: field), from: center)
        var drawn = (style: tag.style, labels: requested.labels, inside: requested.inside)
        var insideStyle: Int? = requested.inside ? tag.style : nil
        if !requested.inside {
            for candidate in request.table.neighbours(of: tag.style, labelCount: count).dropFirst() {
                let attempt = placer.place(labels, style: try request.table.style(candidate, labelCount: count, field: field), from: center)
                guard attempt.inside else { continue }
                insideStyle = candidate
                if request.keepInside { drawn = (candidate, attempt.labels, true) }
                break
            }
        }
        let legibility = try request.table.style(drawn.style, labelCount: count, field: field).legibility ?? .default
        for labelIndex in drawn.labels.indices {
            drawn.labels[labelIndex].runs = TagPlacer.runs(of: labels[labelIndex], at: drawn.labels[labelIndex].baselineOrigin)
            drawn.labels[labelIndex].backingRect = legibility.backingRect(around: drawn.labels[labelIndex].textRect)
        }
        let dot = placer.dot(of: tag)
        return TagGeometry(index: index, style: drawn.style, requestedStyle: tag.style, insideStyle: insideStyle, inside: drawn.inside,
                           position: tag.position, clamped: clamped, dot: dot, labels: drawn.labels, lineWidth: request.metrics.lineWidth,
                           legibility: legibility, bounds: placer.bounds(dot: dot, labels: drawn.labels))
    }

    /// A label's name and value as one line of text, cut with an ellipsis past the largest width.
    private func layOut(_ label: TagLabel, request: TagsRequest, field: @autoclosure () -> String, context: LayoutContext) throws -> LaidOutLabel {
        let nameStyle = label.style ?? request.textStyle
        let valueStyle = label.valueStyle ?? request.valueStyle
        let name = label.name.trimmingWhitespace, value = label.value.trimmingWhitespace
        let string = value.isEmpty ? name : name + " " + value
        let nameUnits = name.utf16.count
        let spans = value.isEmpty ? [] : [AttributedText.Span(range: nameUnits + 1..<string.utf16.count, patch: StylePatch(all: valueStyle))]
        let paragraph = ParagraphRequest(text: AttributedText(string, style: nameStyle, spans: spans),
                                         width: request.metrics.maxLabelWidth, maxLines: 1)
        let layout = try under(field()) { try self.layout(paragraph, context: context) }
        guard let line = layout.lines.first else {
            throw LayoutError(.invalidArgument, "the label has no text to lay out", field: "\(field()).name")
        }
        return LaidOutLabel(layout: layout, text: string, width: line.width, ascent: line.ascent, descent: line.descent,
                            left: line.usedRect.x)
    }

    /// Pairs of tags whose parts overlap: a label's text or underline, or a dot's ring, over
    /// another tag's. Bounds alone would call two tags whose corners cross an overlap.
    static func overlaps(_ tags: [TagGeometry]) -> [TagOverlap] {
        func parts(_ tag: TagGeometry) -> [Rect] {
            let ring = max(tag.dot.radius, tag.dot.shadowRadius)
            return [Rect(x: tag.dot.center.x - ring, y: tag.dot.center.y - ring, width: 2 * ring, height: 2 * ring)]
                + tag.labels.map(\.footprint)
        }
        let footprints = tags.map(parts)
        var pairs: [TagOverlap] = []
        for first in tags.indices {
            for second in tags.indices where second > first && tags[first].bounds.overlaps(tags[second].bounds) {
                if footprints[first].contains(where: { a in footprints[second].contains { a.overlaps($0) } }) {
                    pairs.append(TagOverlap(first: first, second: second))
                }
            }
        }
        return pairs
    }
}

extension StylePatch {
    /// A patch that sets every field to `style`'s.
    init(all style: TextStyle) {
        self.init(family: style.family, weight: style.weight, italic: style.italic, size: style.size,
                  letterSpacing: style.letterSpacing, features: style.features, language: style.language,
                  baselineOffset: style.baselineOffset)
    }
}

extension String {
    /// Without leading and trailing white space; the string itself when it has none (the common
    /// case, which walking Characters both ways made a quarter of a tag's cost).
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return self }
        return String(scalars[first...last])
    }

    /// Some character other than white space.
    var hasVisibleContent: Bool { unicodeScalars.contains { !$0.properties.isWhitespace } }
}
