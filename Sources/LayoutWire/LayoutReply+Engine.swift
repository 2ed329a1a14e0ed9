import LayoutEngine

extension Layoutd_V1_LayoutReply {
    /// The wire form of a paragraph layout.
    public init(_ layout: ParagraphLayout) {
        self.init()
        lines = layout.lines.map(Layoutd_V1_Line.init)
        runs = layout.runs.map(Layoutd_V1_GlyphRun.init)
        visibleRange = Layoutd_V1_Range(layout.visibleRange)
        width = Float(layout.size.width)
        height = Float(layout.size.height)
        direction = layout.direction == .rightToLeft ? .rtl : .ltr
        attachments = layout.attachments.map(Layoutd_V1_AttachmentBox.init)
        decorations = layout.decorations.map(Layoutd_V1_TextDecoration.init)
        fillRegions = layout.fillRegions.map(Layoutd_V1_FillRegion.init)
        emphasisMarks = layout.emphasisMarks.map(Layoutd_V1_GlyphRun.init)
        rubyRuns = layout.rubyRuns.map(Layoutd_V1_GlyphRun.init)
        for (index, angles) in layout.glyphAngles.enumerated() { runs[index].angles = angles.map(Layoutd_V1_GlyphRun.wireAngle) }
        if layout.reportsGlyphFlags {
            for (index, run) in layout.runs.enumerated() { runs[index].glyphFlags = run.glyphs.map { UInt32($0.flags.rawValue) } }
        }
        paints = Layoutd_V1_Paint.list(layout.paints)
        containers = layout.containers.map(Layoutd_V1_ContainerLayout.init)
        if !layout.overflowRange.isEmpty { overflowRange = Layoutd_V1_Range(layout.overflowRange) }
        writingMode = Layoutd_V1_WritingMode(layout.writingMode)
        if let scale = layout.appliedScale { appliedScale = Float(scale) }
        if let metrics = layout.intrinsicMetrics {
            minContentWidth = Float(metrics.minContent)
            maxContentWidth = Float(metrics.maxContent)
            for (index, bounds) in metrics.runs.enumerated() {
                runs[index].ascent = Float(bounds.ascent)
                runs[index].descent = Float(bounds.descent)
                runs[index].leading = Float(bounds.leading)
            }
        }
        if let ink = layout.ink {
            for (index, rect) in ink.lines.enumerated() { if let rect { lines[index].inkBounds = Layoutd_V1_Rect(rect) } }
            for (index, rect) in ink.runs.enumerated() { if let rect { runs[index].inkBounds = Layoutd_V1_Rect(rect) } }
            if let rect = ink.layout { inkBounds = Layoutd_V1_Rect(rect) }
            if let rect = ink.firstGlyph { firstGlyphInk = Layoutd_V1_Rect(rect) }
        }
    }
}

extension Layoutd_V1_Range {
    public init(_ range: Range<Int>) {
        self.init()
        start = UInt32(range.lowerBound)
        length = UInt32(range.count)
    }
}

extension Layoutd_V1_Rect {
    public init(_ rect: Rect) {
        self.init()
        x = Float(rect.x)
        y = Float(rect.y)
        width = Float(rect.width)
        height = Float(rect.height)
    }
}

extension Layoutd_V1_Point {
    public init(_ point: Point) {
        self.init()
        x = Float(point.x)
        y = Float(point.y)
    }
}

extension Layoutd_V1_Line {
    public init(_ line: LineLayout) {
        self.init()
        range = Layoutd_V1_Range(line.range)
        baselineOrigin = Layoutd_V1_Point(line.baselineOrigin)
        ascent = Float(line.ascent)
        descent = Float(line.descent)
        leading = Float(line.leading)
        width = Float(line.width)
        trailingWhitespaceWidth = Float(line.trailingWhitespaceWidth)
        usedRect = Layoutd_V1_Rect(line.usedRect)
        hardBreak = line.hardBreak
        truncated = line.truncated
        container = UInt32(line.container)
        if let rect = line.fragmentRect { fragmentRect = Layoutd_V1_Rect(rect) }
    }
}

extension Layoutd_V1_GlyphRun {
    public init(_ run: GlyphRunLayout) {
        self.init()
        fontID = run.fontID
        size = Float(run.size)
        bidiLevel = UInt32(run.bidiLevel)
        glyphIds = run.glyphs.map(\.id)
        positions.reserveCapacity(run.glyphs.count * 2)
        for glyph in run.glyphs {
            positions.append(Float(glyph.position.x))
            positions.append(Float(glyph.position.y))
        }
        advances = run.glyphs.map { Float($0.advance) }
        clusters = run.glyphs.map { UInt32($0.cluster) }
        range = Layoutd_V1_Range(run.range)
        truncationToken = run.isTruncationToken
        lineIndex = UInt32(run.lineIndex)
        paint = UInt32(run.paint)
        orientation = Layoutd_V1_GlyphOrientation(run.orientation)
        variations = run.variations.map(Layoutd_V1_Variation.init)
        hyphen = run.isHyphen
        listMarker = run.isListMarker
        syntheticBold = Float(run.syntheticBold)
        syntheticSlant = Float(run.syntheticSlant)
    }
}

extension Layoutd_V1_FontsReply {
    /// Every loaded face, with the default family and the fallback order.
    public init(_ registry: FontRegistry) {
        self.init()
        faces = registry.fonts.map { font in
            var face = Layoutd_V1_FontFace()
            face.fontID = font.id
            face.family = font.family
            face.style = font.styleName
            face.weight = UInt32(font.weight)
            face.italic = font.italic
            face.path = font.path
            face.faceIndex = UInt32(font.faceIndex)
            face.unitsPerEm = UInt32(font.unitsPerEm)
            face.coverage = UInt32(font.coverageCount)
            face.axes = font.axes.map { axis in
                var wire = Layoutd_V1_VariationAxis()
                wire.tag = axis.tag
                wire.minimum = axis.minimum
                wire.defaultValue = axis.defaultValue
                wire.maximum = axis.maximum
                return wire
            }
            face.namedInstances = font.namedInstances.map(\.name)
            face.ascender = font.ascender
            face.descender = font.descender
            face.lineGap = font.lineGap
            face.capHeight = font.capHeight
            face.xHeight = font.xHeight
            (face.underlinePosition, face.underlineThickness) = font.underline
            (face.strikeoutPosition, face.strikeoutThickness) = font.strikeout
            return face
        }
        fallbackFamilies = registry.fallbackFamilies
        defaultFamily = registry.defaultFamily
    }
}

extension Layoutd_V1_Variation {
    public init(_ variation: FontVariation) {
        self.init()
        tag = variation.tag
        value = variation.value
    }
}

extension Layoutd_V1_WritingMode {
    public init(_ mode: WritingMode) {
        switch mode {
        case .horizontal: self = .horizontalTb
        case .verticalRightToLeft: self = .verticalRl
        case .verticalLeftToRight: self = .verticalLr
        }
    }
}

extension Layoutd_V1_GlyphOrientation {
    public init(_ orientation: GlyphOrientation) {
        switch orientation {
        case .horizontal: self = .horizontal
        case .upright: self = .upright
        case .sideways: self = .sideways
        case .combined: self = .combined
        }
    }
}

extension Layoutd_V1_GlyphRun {
    /// A glyph's turn on the wire, in degrees, from the engine's radians: both reply writers
    /// (this conversion and `LayoutReplyFrame.writeAngles`) use it.
    @inline(__always)
    static func wireAngle(_ radians: Double) -> Float { Float(radians * 180 / .pi) }
}
