/// Turns a request's attachments into the boxes the shaped paragraph carries: each finds its
/// U+FFFC, its style, and its ascent and descent, before anything is itemized.
enum AttachmentResolver {
    static let objectReplacement: UInt16 = 0xFFFC

    /// How many OBJECT REPLACEMENT CHARACTERs (the places attachments go) `units` holds.
    static func objectReplacements(in units: some Collection<UInt16>) -> Int {
        units.reduce(0) { $0 + ($1 == objectReplacement ? 1 : 0) }
    }
    /// Attachments in one request.
    static let maxAttachments = 1_024
    /// Widths and heights, in points: [0, 10,000]; in ems: [0, 100].
    static let maxLength = 10_000.0
    static let maxEms = 100.0

    /// One box per attachment, in text order. The Nth attachment goes to the Nth U+FFFC; a
    /// U+FFFC past the last attachment stays a character, and more attachments than U+FFFC are
    /// an error naming the count.
    /// `firstIndex` is the request's index of `attachments[0]`: a paragraph after the first
    /// holds the attachments from there on, and names them as the request does.
    static func boxes(for attachments: [InlineAttachment], firstIndex: Int = 0, text: AttributedText, analysis: TextAnalysis,
                      fallback: FontFallback) throws(LayoutError) -> [InlineBox] {
        guard !attachments.isEmpty else { return [] }
        try Bounds.check(count: attachments.count, limit: maxAttachments, field: "attachments")
        var boxes: [InlineBox] = []
        boxes.reserveCapacity(attachments.count)
        var offset = 0
        for index in attachments.indices {  // not enumerated(): that copied each attachment
            let units = text.units.span
            while offset < units.count && units[offset] != objectReplacement { offset += 1 }
            guard offset < text.units.count else {
                throw LayoutError(.invalidArgument, "\(attachments.count) attachments but the text has \(index) "
                                  + "OBJECT REPLACEMENT CHARACTERs (U+FFFC) to hold them", field: "attachments")
            }
            // The whole grapheme cluster: marks after U+FFFC go with the box.
            let end = analysis.nextGrapheme(after: offset, end: text.units.count)
            boxes.append(try box(attachments[index], index: firstIndex + index, range: offset..<end, style: text.styleIndex(at: offset),
                                 level: analysis.levels[offset], text: text, fallback: fallback))
            offset = end
        }
        return boxes
    }

    private static func box(_ attachment: InlineAttachment, index: Int, range: Range<Int>, style: Int, level: UInt8,
                            text: AttributedText, fallback: FontFallback) throws(LayoutError) -> InlineBox {
        // Field names are made only for an error: building them for every box cost more than the box.
        let limit = attachment.inEms ? maxEms : maxLength
        func check(_ value: Double, _ name: String, zero: String) throws(LayoutError) {
            guard !Bounds.contains(value, upTo: limit, zeroAllowed: true) else { return }
            try Bounds.check(value, upTo: limit, field: "attachments[\(index)].\(name)", unit: attachment.inEms ? "ems" : "points", zero: zero)
        }
        try check(attachment.width, "width", zero: "is an empty box")
        switch attachment.extent {
        case .height(let height):
            try check(height, "height", zero: "is a box of no height")
        case .metrics(let ascent, let descent):
            try check(ascent, "ascent", zero: "puts no part above the baseline")
            try check(descent, "descent", zero: "puts no part below the baseline")
        }
        let em = attachment.inEms ? text.styles[style].size : 1
        let width = attachment.width * em
        let height = attachment.height * em
        var ascent = height
        var descent = 0.0
        var placement = AttachmentPlacement.baseline
        switch attachment.alignment {
        case .baseline, .aboveBaseline:
            if case .metrics(let a, let d) = attachment.extent, attachment.alignment == .baseline {
                ascent = a * em
                descent = d * em
            }
        case .belowBaseline:
            ascent = 0
            descent = height
        case .placeholderBaseline(let offset):
            try check(offset, "baseline_offset", zero: "puts the box below the baseline")
            ascent = offset * em
            descent = height - ascent
        case .fontTop, .fontCenter, .fontBottom:
            let (ascender, descender) = try referenceMetrics(attachment.referenceFont, style: style, text: text,
                                                             fallback: fallback, index: index)
            (ascent, descent) = yyTextMetrics(attachment.alignment, height: height, ascender: ascender, descender: descender)
        case .lineTop: placement = .lineTop
        case .lineBottom: placement = .lineBottom
        case .lineMiddle: placement = .lineMiddle
        }
        return InlineBox(range: range, attachment: index, style: style, level: level, baseWidth: width, baseAscent: ascent,
                         baseDescent: descent, scalesWithLine: attachment.inEms,
                         baselineOffset: placement == .baseline ? text.styles[style].baselineOffset : 0, placement: placement)
    }

    /// YYText's arithmetic, from `attachmentStringWithContent:contentMode:attachmentSize:alignToFont:alignment:`.
    /// `descender` is negative, as in UIFont.
    static func yyTextMetrics(_ alignment: AttachmentAlignment, height: Double, ascender: Double,
                              descender: Double) -> (ascent: Double, descent: Double) {
        var ascent: Double
        var descent: Double
        switch alignment {
        case .fontTop:
            ascent = ascender
            descent = height - ascender
            if descent < 0 {
                descent = 0
                ascent = height
            }
        case .fontCenter:
            let fontHeight = ascender - descender
            let yOffset = ascender - fontHeight / 2
            ascent = height / 2 + yOffset
            descent = height - ascent
            if descent < 0 {
                descent = 0
                ascent = height
            }
        default:  // .fontBottom
            ascent = height + descender
            descent = -descender
            if ascent < 0 {
                ascent = 0
                descent = height
            }
        }
        return (ascent, descent)
    }

    /// The reference font's ascender (positive) and descender (negative), in points.
    private static func referenceMetrics(_ reference: FontReference, style: Int, text: AttributedText,
                                         fallback: FontFallback, index: Int) throws(LayoutError) -> (Double, Double) {
        func field(_ name: String) -> String { "attachments[\(index)].reference_font.\(name)" }
        let base = text.styles[style]
        var font = fallback.primary[style]
        if reference.family != nil || reference.weight != nil {
            let family = fallback.registry.family(named: reference.family ?? base.family)
            guard let match = fallback.registry.cachedMatch(family: family, weight: reference.weight ?? base.effectiveWeight, italic: base.italic) else {
                throw LayoutError(.notFound, "no loaded font family named \"\(family)\"", field: field("family"))
            }
            font = match
        }
        let size = reference.size ?? base.size
        if reference.size != nil, !Bounds.containsFontSize(size) {
            throw LayoutError(.invalidArgument, "\(field("size")) must be in [\(Bounds.text(Bounds.minFontSize)), "
                              + "\(Bounds.text(Bounds.maxFontSize))] points, got \(size)", field: field("size"))
        }
        let scale = font.scale(for: size)
        return (Double(font.ascender) * scale, -Double(font.descender) * scale)
    }
}
