/// Where an underline stands beside a vertical line, read by the decorate stage, which draws
/// it, and by line metrics, which make room for it (as for emphasis marks): a column is only as
/// thick as its glyphs, so an underline past them would otherwise cross the next column.
///
/// Its side is CSS's `text-underline-position`: `auto` the page's right of the column, except
/// in Chinese, whose underlines stand on the left; or the `left` or `right` the line asks for.
/// It keeps its font's distance below a baseline past what the text reaches on that side: half
/// an em for upright glyphs, half the ascender and descender for a run on its side, and
/// emphasis marks and ruby standing there.
enum VerticalUnderline {
    /// Whether `line`, underlining text in `language`, stands on the page's right of its
    /// column: on the side it asks for, else where `auto` puts it.
    static func standsRight(_ line: DecorationLine, language: String) -> Bool {
        switch line.position {
        case .auto: standsRight(language: language)
        case .left: false
        case .right: true
        }
    }

    /// Whether `auto` puts the underline of text in `language` on the page's right: for all but
    /// Chinese (`zh`, `zh-Hant`, `zh_TW`, in any case), read without a lowercased copy.
    static func standsRight(language: String) -> Bool {
        var bytes = language.utf8.makeIterator()
        guard bytes.next().map({ $0 | 0x20 }) == UInt8(ascii: "z"), bytes.next().map({ $0 | 0x20 }) == UInt8(ascii: "h") else { return true }
        guard let next = bytes.next() else { return false }
        return next != UInt8(ascii: "-") && next != UInt8(ascii: "_")
    }

    /// How far glyphs standing as `orientation` at `size` reach past the line's middle on
    /// either side: half an em upright and combined, and on their side half the ascender and
    /// descender, about which the run is centred (`ShapedParagraph.pieces`).
    static func glyphsReach(_ orientation: GlyphOrientation, size: Double, font: Font) -> Double {
        switch orientation {
        case .horizontal: 0
        case .upright, .combined: size / 2
        case .sideways: Double(font.ascender + font.descender) / 2 * font.scale(for: size)
        }
    }

    /// How far emphasis marks and ruby beside `range` (painted `paint`, at `size`) on the
    /// page's right (or left) reach past the line's middle, as the line grows to hold them
    /// (`LineMetrics.includeMarksAcross`, `includeRubyAcross`). Marks and ruby over the text
    /// stand on the right.
    static func annotationsReach(_ range: Range<Int>, paint: TextPaint, size: Double, text: AttributedText, right: Bool) -> Double {
        var reach = 0.0
        if let emphasis = paint.emphasis, emphasis.over == right { reach = size / 2 + size * EmphasisMarks.scale }
        guard text.hasRuby else { return reach }
        let ruby = text.ruby
        var index = ShapedParagraph.firstIndex(ruby.count) { ruby[$0].base.upperBound > range.lowerBound }
        while index < ruby.count && ruby[index].base.lowerBound < range.upperBound {
            if ruby[index].under != right, let band = ruby[index].laid?.thickness { reach = max(reach, size / 2 + band) }
            index += 1
        }
        return reach
    }

    /// Where an underline's top stands past the line's middle (or a horizontal line's baseline,
    /// `reach` 0) for text reaching `reach`: its font's distance below a baseline further (the
    /// `post` table's position, y up), `scale` the font's at the text's size.
    static func top(past reach: Double, font: Font, scale: Double) -> Double {
        reach - Double(font.underline.position) * scale
    }

    /// How thick the underline's lines and the gap of a double one are, from its top.
    static func height(_ style: DecorationLine.Style, thickness: Double) -> Double {
        switch style {
        case .single, .dotted, .dashed: thickness
        case .thick: thickness * 2
        case .double: thickness * 3
        }
    }

    /// Grows `metrics`, made as right-to-left columns turn the frame (the page's right is the
    /// ascent side), to hold the underlines of `items`, a vertical line's, as `TextDecorator`
    /// draws them (`ShapedParagraph.metrics`, after emphasis marks and ruby).
    static func hold(_ items: [LineItem], text: AttributedText, in metrics: inout LineMetrics) {
        // The furthest top and the thickest underline on each side: a bound on every piece the
        // decorate stage joins (the furthest top of its runs, the thickest of their lines).
        var furthest = (right: -Double.infinity, left: -Double.infinity), thickest = (right: 0.0, left: 0.0)
        for item in items {
            guard case .glyphs(let piece) = item, piece.orientation != .horizontal else { continue }
            let language = text.styles[piece.style].language
            let scale = piece.font.scale(for: piece.size)
            var offset = piece.range.lowerBound
            while offset < piece.range.upperBound {
                let run = text.paintRun(at: offset)
                let paint = text.paints[run.paint]
                let painted = max(run.range.lowerBound, piece.range.lowerBound)..<min(run.range.upperBound, piece.range.upperBound)
                offset = painted.upperBound
                guard let line = paint.underline else { continue }
                let right = standsRight(line, language: language)
                let reach = max(glyphsReach(piece.orientation, size: piece.size, font: piece.font),
                                annotationsReach(painted, paint: paint, size: piece.size, text: text, right: right))
                let edge = top(past: reach, font: piece.font, scale: scale)
                let thick = height(line.style, thickness: Double(piece.font.underline.thickness) * scale)
                if right { (furthest.right, thickest.right) = (max(furthest.right, edge), max(thickest.right, thick)) }
                else { (furthest.left, thickest.left) = (max(furthest.left, edge), max(thickest.left, thick)) }
            }
        }
        if thickest.right > 0 { metrics.ascent = max(metrics.ascent, furthest.right + thickest.right) }
        if thickest.left > 0 { metrics.descent = max(metrics.descent, furthest.left + thickest.left) }
    }
}
