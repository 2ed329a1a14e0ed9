/// Where a document puts one of its paragraphs: along the text by `offset`, down by `top`, its
/// lines and attachments numbered from `firstLine` and `firstAttachment`.
public struct ParagraphPlacement: Sendable, Equatable {
    public var offset: Int
    public var top: Double
    public var firstLine: Int
    public var firstAttachment: Int

    public init(offset: Int = 0, top: Double = 0, firstLine: Int = 0, firstAttachment: Int = 0) {
        self.offset = offset
        self.top = top
        self.firstLine = firstLine
        self.firstAttachment = firstAttachment
    }

    public var isIdentity: Bool { self == ParagraphPlacement() }
}

extension ParagraphLayout {
    /// The layout put where `placement` says.
    public func placed(_ placement: ParagraphPlacement) -> ParagraphLayout {
        moved(offset: placement.offset, top: placement.top, firstLine: placement.firstLine, firstAttachment: placement.firstAttachment)
    }

    /// True when only lines, runs and the visible range move with a placement: no attachments,
    /// decorations, emphasis marks, ruby, fills, ink or intrinsic metrics. A writer may then apply the placement as it writes those, instead
    /// of writing a moved copy (`LayoutReplyFrame.writeReply(_:placed:…)`).
    public var movesOnlyLinesAndRuns: Bool {
        attachments.isEmpty && decorations.isEmpty && ink == nil && intrinsicMetrics == nil && fillRegions.isEmpty
            && emphasisMarks.isEmpty && rubyRuns.isEmpty
    }

    /// The layout moved along the text by `offset`, down by `top`, and its lines and attachments
    /// renumbered from `firstLine` and `firstAttachment`: a document's paragraph put in place.
    func moved(offset start: Int = 0, top: Double, firstLine: Int = 0, firstAttachment: Int = 0) -> ParagraphLayout {
        var layout = self
        guard start != 0 || top != 0 || firstLine != 0 || firstAttachment != 0 else { return layout }
        for i in layout.lines.indices {
            layout.lines[i].range = layout.lines[i].range.shifted(by: start)
            layout.lines[i].baselineOrigin.y += top
            layout.lines[i].usedRect.y += top
            layout.lines[i].fragmentRect?.y += top
        }
        // A ruby run's clusters count in its readings, not in the text: they stay.
        func move(_ runs: inout [GlyphRunLayout], clustersInText: Bool = true) {
            let clusterShift = clustersInText ? start : 0
            for i in runs.indices {
                runs[i].range = runs[i].range.shifted(by: start)
                runs[i].lineIndex += firstLine
                runs[i].glyphs = ArraySlice(runs[i].glyphs.map { glyph in
                    PositionedGlyph(id: glyph.id, position: Point(x: glyph.position.x, y: glyph.position.y + top), advance: glyph.advance,
                                    cluster: glyph.cluster + clusterShift)
                })
            }
        }
        move(&layout.runs)
        if !layout.emphasisMarks.isEmpty { move(&layout.emphasisMarks) }
        if !layout.rubyRuns.isEmpty { move(&layout.rubyRuns, clustersInText: false) }
        for i in layout.attachments.indices {
            layout.attachments[i].index += firstAttachment
            layout.attachments[i].range = layout.attachments[i].range.shifted(by: start)
            layout.attachments[i].lineIndex += firstLine
            layout.attachments[i].rect.y += top
        }
        for i in layout.decorations.indices {
            layout.decorations[i].range = layout.decorations[i].range.shifted(by: start)
            layout.decorations[i].lineIndex += firstLine
            for r in layout.decorations[i].rects.indices { layout.decorations[i].rects[r].y += top }
            layout.decorations[i].path.commands = layout.decorations[i].path.commands.map { $0.moved(down: top) }
        }
        if !layout.fillRegions.isEmpty {
            layout.fillRegions = layout.fillRegions.map { region in
                var moved = region
                moved.range = region.range.shifted(by: start)
                moved.lineIndex = region.lineIndex.map { $0 + firstLine }
                (moved.box.y, moved.start.y, moved.end.y) = (region.box.y + top, region.start.y + top, region.end.y + top)
                return moved
            }
        }
        layout.visibleRange = layout.visibleRange.shifted(by: start)
        if var ink = layout.ink {
            func moved(_ rect: Rect?) -> Rect? { rect.map { Rect(x: $0.x, y: $0.y + top, width: $0.width, height: $0.height) } }
            ink.runs = ink.runs.map(moved)
            ink.lines = ink.lines.map(moved)
            (ink.layout, ink.firstGlyph) = (moved(ink.layout), moved(ink.firstGlyph))
            layout.ink = ink
        }
        if let flowEnd { layout.flowEnd = flowEnd.moved(down: top) }
        return layout
    }
}
