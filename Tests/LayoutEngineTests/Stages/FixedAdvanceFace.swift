@testable import LayoutEngine
import LayoutFonts
import LayoutUnicode

/// A face whose every glyph has a known advance, and whose metrics are round numbers: the stage
/// tests' font, as minikin tests its breaker with rectangles. Its shaping is one glyph per code
/// point, the glyph's id the code point, in visual order, never a ligature, never kerned; no
/// HarfBuzz and no font file take part. At 1,000 units per em and size 10, a letter is 5 points
/// wide and a space 2.5; ascent 8, descent 2.
final class FixedAdvanceShaping: FaceShaping {
    static let unitsPerEm: Int32 = 1_000
    static let letter: Int32 = 500
    static let space: Int32 = 250
    /// Ascent and descent of the face; an upright glyph advances by their sum.
    static let ascender: Int32 = 800
    static let descender: Int32 = 200
    /// The ink of a letter: from the baseline to 700 units up, its advance wide; g, j, p, q and y
    /// reach 200 units below the baseline.
    static let inkTop: Int32 = 700
    static let descent: Int32 = 200
    static let descenders: Set<UInt32> = Set("gjpqy".unicodeScalars.map(\.value))

    /// Characters with an advance other than a letter's: spaces, and widths a test chooses.
    let advances: [UInt32: Int32]
    let lacks: Set<UInt32>

    init(advances: [UInt32: Int32] = [:], lacks: Set<UInt32> = []) {
        self.advances = [0x20: Self.space].merging(advances) { $1 }
        self.lacks = lacks
    }

    func advance(of scalar: UInt32) -> Int32 {
        if let chosen = advances[scalar] { return chosen }
        // Controls and the invisible format characters take no room, as HarfBuzz draws them.
        if scalar < 0x20 || (0x7F...0x9F).contains(scalar) || (0x200B...0x200F).contains(scalar)
            || scalar == 0x2028 || scalar == 0x2029 || scalar == 0xFEFF { return 0 }
        return Self.letter
    }

    func shape(_ units: Span<UInt16>, range: Range<Int>, context: Range<Int>, rtl: Bool, upright: Bool,
               script: Script, style: ShapingStyle, buffer: ShapingScratch) -> ShapedGlyphs {
        var glyphs: [ShapedGlyph] = []
        var index = range.lowerBound
        while index < range.upperBound {
            let unit = units[index]
            var scalar = UInt32(unit)
            var length = 1
            if UTF16.isLeadSurrogate(unit), index + 1 < range.upperBound, UTF16.isTrailSurrogate(units[index + 1]) {
                scalar = SurrogatePair.codePoint(lead: unit, trail: units[index + 1])
                length = 2
            }
            let advance = upright ? Self.ascender + Self.descender : advance(of: scalar)
            glyphs.append(ShapedGlyph(id: lacks.contains(scalar) ? 0 : scalar, cluster: Int32(index - range.lowerBound),
                                      advance: advance, xOffset: 0, yOffset: 0, unsafeToBreak: false))
            index += length
        }
        if rtl { glyphs.reverse() }
        return ShapedGlyphs.make(glyphs)
    }

    func nominalGlyph(_ scalar: UInt32) -> UInt32? { lacks.contains(scalar) ? nil : scalar }

    func inkExtents(_ glyph: UInt32) -> (x: Int32, y: Int32, width: Int32, height: Int32) {
        let advance = advance(of: glyph)
        guard glyph != 0x20, advance > 0 else { return (0, 0, 0, 0) }
        let bottom = Self.descenders.contains(glyph) ? -Self.descent : 0
        return (0, Self.inkTop, advance, bottom - Self.inkTop)
    }

    /// The ink box as the outline: one rectangle.
    func drawOutline(of glyph: UInt32, into sink: any OutlineSink) {
        let ink = inkExtents(glyph)
        guard ink.width > 0 else { return }
        let (left, right, top, bottom) = (Float(ink.x), Float(ink.x + ink.width), Float(ink.y), Float(ink.y + ink.height))
        sink.move(to: left, bottom)
        sink.line(to: right, bottom)
        sink.line(to: right, top)
        sink.line(to: left, top)
        sink.close()
    }
}

/// Registries and layouters over fixed-advance faces.
enum FixedAdvance {
    static let family = "Fixed"

    /// A face of `family` (`FixedAdvanceShaping`'s metrics; underline 100 units below the
    /// baseline and 50 thick, strikeout 300 up and 50 thick).
    static func font(id: UInt32 = 0, family: String = family, weight: Int = 400, italic: Bool = false,
                     advances: [UInt32: Int32] = [:], lacks: Set<UInt32> = []) -> Font {
        let shaping = FixedAdvanceShaping(advances: advances, lacks: lacks)
        let coverage = Font.emptyCoverage()
        var count = 0
        for scalar in UInt32(0x20)..<0x10000 where !(0xD800..<0xE000).contains(scalar) && !lacks.contains(scalar) {
            coverage[Int(scalar) >> 6] |= 1 << UInt64(scalar & 63)
            count += 1
        }
        let metrics = Font.Metrics(unitsPerEm: FixedAdvanceShaping.unitsPerEm, ascender: FixedAdvanceShaping.ascender,
                                   descender: FixedAdvanceShaping.descender, lineGap: 0, underline: (-100, 50),
                                   strikeout: (300, 50))
        return Font(id: id, family: family, styleName: italic ? "Italic" : "Regular", weight: weight, italic: italic,
                    widthClass: 5, path: "", faceIndex: 0, metrics: metrics, isColorEmoji: false, axes: [],
                    namedInstances: [], coverageCount: count, bmpCoverage: coverage, instanceOf: nil, coordinates: [],
                    shaping: shaping, blob: nil)
    }

    static let registry = FontRegistry(fonts: [font()], defaultFamily: family, fallbackFamilies: [])
    static let layouter = ParagraphLayouter(fonts: registry, cache: nil)

    /// `text` laid out in the fixed face at `size` in a box `width` wide.
    static func layout(_ text: String, width: Double, size: Double = 10,
                       configure: (inout ParagraphRequest) -> Void = { _ in }) throws -> ParagraphLayout {
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: family, size: size)), width: width)
        configure(&request)
        return try layouter.layout(request)
    }

    /// The text of each line, from its UTF-16 range, without trailing spaces and breaks.
    static func lineTexts(_ layout: ParagraphLayout, _ text: String) -> [String] {
        let units = Array(text.utf16)
        return layout.lines.map {
            String(decoding: units[$0.range], as: UTF16.self).trimmingCharacters(in: " \n\u{2029}")
        }
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var scalars = Substring(self)
        while let last = scalars.last, set.contains(last) { scalars.removeLast() }
        return String(scalars)
    }
}
