/// The vertical metrics of a line box, in points.
struct LineMetrics {
    var ascent: Double = 0
    var descent: Double = 0
    var leading: Double = 0
    /// The height the runs ask for where some style has a line height of its own (see
    /// `StyledLineHeight`); 0 where none does, and the metrics decide.
    var styledHeight = 0.0

    /// The tallest of the fonts on the line sets each metric, as CoreText does; a font raised
    /// by `shift` points (a baseline offset) reaches that much higher and less low.
    /// An upright glyph of vertical text: half its em on either side of the line's centre.
    mutating func includeEm(size: Double) {
        ascent = max(ascent, size / 2)
        descent = max(descent, size / 2)
    }

    mutating func include(_ font: Font, size: Double, shift: Double = 0) {
        let scale = font.scale(for: size)
        ascent = max(ascent, Double(font.ascender) * scale + shift)
        descent = max(descent, Double(font.descender) * scale - shift)
        leading = max(leading, Double(font.lineGap) * scale)
    }

    /// A left-to-right column's metrics from those made as right-to-left columns turn the
    /// frame: its line is placed so and mirrored about its centre line (`RunOutput.mirrorAcross`).
    mutating func mirror() { swap(&ascent, &descent) }

    /// Grows the line to hold emphasis marks over (or under) text in `font` at `size`: a band
    /// of the marks' size just past the font's ascent (or descent), where `EmphasisMarker`
    /// centres them.
    mutating func includeMarks(_ font: Font, size: Double, shift: Double, over: Bool, under: Bool) {
        let scale = font.scale(for: size), band = size * EmphasisMarks.scale
        if over { ascent = max(ascent, Double(font.ascender) * scale + shift + band) }
        if under { descent = max(descent, Double(font.descender) * scale - shift + band) }
    }

    /// Grows a vertical line to hold emphasis marks beside text at `size`: a band of the marks'
    /// size past half the em, on the sides asked.
    mutating func includeMarksAcross(size: Double, ascentSide: Bool, descentSide: Bool) {
        let reach = size / 2 + size * EmphasisMarks.scale
        if ascentSide { ascent = max(ascent, reach) }
        if descentSide { descent = max(descent, reach) }
    }

    /// Grows the line to hold ruby `band` thick over (or under) text in `font` at `size`: the
    /// reading's frame flush against the font's character frame (`Font.characterFrame`), where
    /// `RubyPlacer` sets it.
    mutating func includeRuby(_ font: Font, size: Double, shift: Double, band: Double, under: Bool) {
        let scale = font.scale(for: size), frame = font.characterFrame
        if under {
            descent = max(descent, Double(frame.descent) * scale - shift + band)
        } else {
            ascent = max(ascent, Double(frame.ascent) * scale + shift + band)
        }
    }

    /// Grows a vertical line to hold ruby `band` thick beside text at `size`, past half its em.
    mutating func includeRubyAcross(size: Double, band: Double, ascentSide: Bool) {
        let reach = size / 2 + band
        if ascentSide { ascent = max(ascent, reach) } else { descent = max(descent, reach) }
    }

    /// Gives every box of the line its ascent and descent and grows the line to hold them:
    /// first the boxes that sit relative to the baseline, then those placed against the line's
    /// metrics so far (top, bottom, middle).
    mutating func settle(_ items: inout [LineItem]) {
        for pass in 0..<2 {
            for index in items.indices {
                guard case .box(var box) = items[index], box.placement.isLineRelative == (pass == 1) else { continue }
                let height = box.height
                switch box.placement {
                case .baseline:
                    box.ascent = box.scaledAscent
                    box.descent = box.scaledDescent
                case .lineTop:
                    box.ascent = ascent
                    box.descent = height - ascent
                case .lineBottom:
                    box.descent = descent
                    box.ascent = height - descent
                case .lineMiddle:
                    let middle = (ascent - descent) / 2  // above the baseline
                    box.ascent = middle + height / 2
                    box.descent = height / 2 - middle
                }
                ascent = max(ascent, box.ascent)
                descent = max(descent, box.descent)
                items[index] = .box(box)
            }
        }
    }

    /// The line box height and the baseline's distance from its top.
    ///
    /// Extra height from the multiple or a fixed height is split evenly above and below the
    /// text (CSS half-leading), so the text stays centred in its box.
    func box(multiple: Double, fixed: Double?) -> (height: Double, baseline: Double) {
        let natural = styledHeight > 0 ? styledHeight : ascent + descent + leading
        let height = fixed ?? natural * multiple
        let halfLeading = (height - ascent - descent) / 2
        return (height, halfLeading + ascent)
    }
}

/// A line's height where styles give line heights of their own (Dynamic Type): the tallest any
/// run asks for, and never less than the content of runs that ask for none (their fonts'
/// ascent, descent and gap, boxes included), as CSS sizes a line box from each inline box's
/// `line-height` and TextKit grows a line fragment to its tallest font.
struct StyledLineHeight {
    /// The tallest line height a run asked for; 0 when none did.
    var asked: Double = 0
    /// The content of runs without a line height of their own.
    var content = LineMetrics()
    /// Some run asked for a line height.
    var isSet: Bool { asked > 0 }

    var height: Double { max(asked, content.ascent + content.descent + content.leading) }

    mutating func include(_ lineHeight: Double?, _ font: Font, size: Double, shift: Double = 0) {
        if let lineHeight {
            asked = max(asked, lineHeight)
        } else {
            content.include(font, size: size, shift: shift)
        }
    }

    mutating func includeEm(size: Double) { content.includeEm(size: size) }

    /// Inline boxes are content: the line holds them whole.
    mutating func include(boxesOf items: [LineItem]) {
        for item in items {
            guard case .box(let box) = item else { continue }
            content.ascent = max(content.ascent, box.ascent)
            content.descent = max(content.descent, box.descent)
        }
    }
}
