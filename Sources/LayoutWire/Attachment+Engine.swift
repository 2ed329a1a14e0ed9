import LayoutEngine
import LayoutRender

extension Layoutd_V1_Attachment {
    /// The engine's attachment; sizes are checked by the engine when it finds the box's style.
    func inlineAttachment(field: String, fonts: FontRegistry) throws(LayoutError) -> InlineAttachment {
        // Drawing's alone, but checked with the rest: a layout names a mode it does not know too.
        _ = try ContentMode(contentMode, field: field + ".content_mode")
        let alignment: AttachmentAlignment
        switch self.alignment {
        case .baseline: alignment = .baseline
        case .fontTop: alignment = .fontTop
        case .fontCenter: alignment = .fontCenter
        case .fontBottom: alignment = .fontBottom
        case .placeholderBaseline: alignment = .placeholderBaseline(offset: Double(baselineOffset))
        case .aboveBaseline: alignment = .aboveBaseline
        case .belowBaseline: alignment = .belowBaseline
        case .lineTop: alignment = .lineTop
        case .lineBottom: alignment = .lineBottom
        case .lineMiddle: alignment = .lineMiddle
        case .UNRECOGNIZED(let value):
            throw LayoutError(.invalidArgument, "unknown attachment alignment \(value)", field: field + ".alignment")
        }
        var reference = FontReference()
        if hasReferenceFont {
            let patch = try referenceFont.patch(field: field + ".reference_font", fonts: fonts)
            reference = FontReference(family: patch.family, weight: patch.weight, size: patch.size)
        }
        let extent: InlineAttachment.Extent = hasMetrics
            ? .metrics(ascent: Double(metrics.ascent), descent: Double(metrics.descent)) : .height(Double(height))
        return InlineAttachment(width: Double(width), extent: extent, alignment: alignment, referenceFont: reference, inEms: sizeInEms,
                                breaksAround: !keepWithText)
    }
}

extension Array where Element == Layoutd_V1_Attachment {
    public func inlineAttachments(fonts: FontRegistry) throws(LayoutError) -> [InlineAttachment] {
        var result: [InlineAttachment] = []
        result.reserveCapacity(count)
        for (index, attachment) in enumerated() {
            result.append(try attachment.inlineAttachment(field: "attachments[\(index)]", fonts: fonts))
        }
        return result
    }
}

extension Layoutd_V1_AttachmentBox {
    public init(_ box: AttachmentLayout) {
        self.init()
        index = UInt32(box.index)
        range = Layoutd_V1_Range.with {
            $0.start = UInt32(box.range.lowerBound)
            $0.length = UInt32(box.range.count)
        }
        lineIndex = UInt32(box.lineIndex)
        rect = Layoutd_V1_Rect.with {
            $0.x = Float(box.rect.x)
            $0.y = Float(box.rect.y)
            $0.width = Float(box.rect.width)
            $0.height = Float(box.rect.height)
        }
        ascent = Float(box.ascent)
        descent = Float(box.descent)
        bidiLevel = UInt32(box.bidiLevel)
    }
}

extension ContentMode {
    /// The wire's content mode; an unknown one is refused by name.
    public init(_ mode: Layoutd_V1_ContentMode, field: String) throws(LayoutError) {
        switch mode {
        case .scaleToFill: self = .scaleToFill
        case .aspectFit: self = .aspectFit
        case .aspectFill: self = .aspectFill
        case .center: self = .center
        case .UNRECOGNIZED(let value): throw LayoutError(.invalidArgument, "unknown content mode \(value)", field: field)
        }
    }
}

extension Layoutd_V1_ContentMode {
    public init(_ mode: ContentMode) {
        switch mode {
        case .scaleToFill: self = .scaleToFill
        case .aspectFit: self = .aspectFit
        case .aspectFill: self = .aspectFill
        case .center: self = .center
        }
    }
}
