import Testing
@testable import LayoutEngine

/// Decoration geometry over fixed-advance faces, whose underline's top is 100 units below the
/// baseline and strikeout's 300 above, each 50 thick: 1, 3 and 0.5 points at size 10.
@Suite struct DecorationStageTests {
    func decorated(_ text: String, width: Double, size: Double = 10, paint: TextPaint) throws -> ParagraphLayout {
        let request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: FixedAdvance.family, size: size),
                                                            paint: paint), width: width)
        return try FixedAdvance.layouter.layout(request)
    }

    @Test func underlineSitsAtTheFontsPositionAcrossTheInk() throws {
        let layout = try decorated("aaaa bbbb cccc", width: 50, paint: TextPaint(underline: DecorationLine()))
        let underlines = layout.decorations.filter { $0.kind == .underline }
        #expect(underlines.count == 2)
        // The first line's space at its end hangs and is not underlined.
        #expect(underlines[0].rects == [Rect(x: 0, y: 9, width: 42.5, height: 0.5)])
        #expect(underlines[1].rects == [Rect(x: 0, y: 19, width: 20, height: 0.5)])
        #expect(underlines.map(\.thickness) == [0.5, 0.5])
    }

    @Test func strikethroughCrossesAboveTheBaseline() throws {
        let layout = try decorated("aaaa", width: 50, size: 20, paint: TextPaint(strikethrough: DecorationLine()))
        let strike = try #require(layout.decorations.first { $0.kind == .strikethrough })
        // At size 20: baseline 16, the stroke's top 6 above it, 1 thick.
        #expect(strike.rects == [Rect(x: 0, y: 10, width: 40, height: 1)])
    }

    /// A background fills the line's text height (ascent plus descent) behind its glyphs.
    @Test func backgroundFillsTheLineBox() throws {
        let layout = try decorated("aaaa bbbb", width: 100, paint: TextPaint(background: Color(red: 1, green: 0, blue: 0)))
        let fill = try #require(layout.decorations.first { $0.kind == .background })
        #expect(fill.rects == [Rect(x: 0, y: 0, width: 42.5, height: 10)])
    }

    /// Skip-ink leaves gaps where ink crosses the line: the fixed face's "a" stands on the
    /// baseline and is not cut around.
    @Test func skipInkCutsNothingWithoutDescenders() throws {
        let layout = try decorated("aaaa", width: 50, paint: TextPaint(underline: DecorationLine(skipsInk: true)))
        let underline = try #require(layout.decorations.first { $0.kind == .underline })
        #expect(underline.rects == [Rect(x: 0, y: 9, width: 20, height: 0.5)])
    }

    /// "g" and "p" reach 2 points below the baseline, through the underline's band (9 to 9.5):
    /// the line is cut around each, half a point (its thickness) clear, leaving "a"'s middle,
    /// 5.5 to 9.5.
    @Test func skipInkCutsAroundDescenders() throws {
        let layout = try decorated("gap", width: 50, paint: TextPaint(underline: DecorationLine(skipsInk: true)))
        let underline = try #require(layout.decorations.first { $0.kind == .underline })
        #expect(underline.rects == [Rect(x: 5.5, y: 9, width: 4, height: 0.5)])
        let plain = try decorated("gap", width: 50, paint: TextPaint(underline: DecorationLine()))
        #expect(plain.decorations.first { $0.kind == .underline }?.rects == [Rect(x: 0, y: 9, width: 15, height: 0.5)])
    }
}
