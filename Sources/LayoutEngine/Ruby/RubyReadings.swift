/// An annotation's readings laid out before its base is shaped: each alone on one line, at the
/// reading's size, in the base's style and the text's writing mode (in vertical text, in the
/// line frame: upright kana take their vertical forms). Their widths decide how the base is
/// spaced (`RubyBases`), their height how far the line grows, and their glyphs are placed over
/// the base once it has its place (`RubyPlacer`).
final class RubyReadings: Sendable {
    /// One per reading: its runs (positions from the reading's own line origin), in the line frame.
    let layouts: [ParagraphLayout]
    /// Each reading's advance along the line.
    let widths: [Double]
    /// The readings' character frame across the line, above and below their baseline: their
    /// fonts' ideographic em box, or ascent and descent (`Font.characterFrame`); in vertical
    /// text half the em either side of their centre line.
    let ascent: Double
    let descent: Double
    /// Every reading is of Japanese characters (kana, ideographs, full-width forms), which the
    /// rules space when they are narrower than their base; other readings stay solid.
    let isJapanese: Bool

    init(layouts: [ParagraphLayout], japanese: Bool, fonts: FontRegistry, vertical: Bool) {
        self.layouts = layouts
        widths = layouts.map { $0.lines.first?.width ?? 0 }
        var ascent = 0.0, descent = 0.0
        for layout in layouts {
            if vertical {
                ascent = max(ascent, layout.lines.first?.ascent ?? 0)
                descent = max(descent, layout.lines.first?.descent ?? 0)
                continue
            }
            for run in layout.runs {
                guard let font = fonts.font(id: run.instanceID) else { continue }
                let frame = font.characterFrame, scale = font.scale(for: run.size)
                ascent = max(ascent, Double(frame.ascent) * scale)
                descent = max(descent, Double(frame.descent) * scale)
            }
        }
        (self.ascent, self.descent) = (ascent, descent)
        isJapanese = japanese
    }

    /// The band the readings take across the line.
    var thickness: Double { ascent + descent }
}

extension RubyReadings {
    /// Whether `scalar` is one of the characters the simple rules call Japanese (full-width:
    /// kana, ideographs, the CJK symbols and full-width forms), which they space freely.
    static func isJapanese(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3000...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF01...0xFF60,
             0x20000...0x3FFFF:
            true
        default:
            false
        }
    }

    /// Whether every scalar of `text` is Japanese.
    static func isJapanese(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy(isJapanese)
    }
}

extension ParagraphLayouter {
    /// `text` with each annotation's readings laid out (`RubyAnnotation.laid`), in the base's
    /// style at the annotation's scale and in `writingMode`; the text as it is without ruby.
    func measuredRuby(_ text: AttributedText, writingMode: WritingMode, budget: WorkBudget) throws -> AttributedText {
        guard text.hasRuby else { return text }
        var annotations = text.ruby
        for index in annotations.indices {
            try budget.check()
            let annotation = annotations[index]
            var style = text.styles[text.styleIndex(at: annotation.base.lowerBound)]
            style.size *= annotation.scale
            style.letterSpacing = 0
            style.baselineOffset = 0
            style.lineHeight = nil
            let layouts = try annotation.readings.map { reading in
                var request = ParagraphRequest(text: AttributedText(reading, style: style), width: Bounds.maxLength, truncationToken: nil)
                request.writingMode = writingMode
                if writingMode.isVertical { (request.width, request.height) = (style.size * 2, Bounds.maxLength) }
                return try withContext(budget: budget) { try layoutInLineFrame(request, context: $0) }
            }
            annotations[index].laid = RubyReadings(layouts: layouts, japanese: annotation.readings.allSatisfy(RubyReadings.isJapanese),
                                                   fonts: fonts, vertical: writingMode.isVertical)
        }
        return text.replacingRuby(annotations)
    }
}
