import Testing
@testable import LayoutEngine

/// Hanging punctuation: an opening quote that starts a paragraph sits before the start edge, a
/// stop or comma that ends a line past the end edge, taking no room, so the letters line up
/// with the box; without the option nothing hangs.
@Suite struct HangingPunctuationTests {
    static func layout(_ text: String, width: Double, alignment: TextAlignment = .natural, hanging: Bool = true) throws -> ParagraphLayout {
        try Fixtures.layout(text, width: width, size: 20) { request in
            var style = ParagraphStyle()
            style.hangingPunctuation = hanging
            request.paragraphStyle = style
            request.alignment = alignment
        }
    }

    static func glyph(_ layout: ParagraphLayout, at offset: Int) throws -> PositionedGlyph {
        try #require(layout.runs.flatMap(\.glyphs).first { $0.cluster == offset })
    }

    @Test func anOpeningQuoteHangsBeforeTheStartEdge() throws {
        let layout = try Self.layout("\u{201C}Quoted words\u{201D}", width: 300)
        let quote = try Self.glyph(layout, at: 0)
        #expect(abs(quote.position.x + quote.advance) < 1e-9 && quote.position.x < 0)
        #expect(abs(try Self.glyph(layout, at: 1).position.x) < 1e-9)
        let plain = try Self.layout("\u{201C}Quoted words\u{201D}", width: 300, hanging: false)
        #expect(abs(try Self.glyph(plain, at: 0).position.x) < 1e-9)
    }

    @Test func aFinalStopHangsPastTheEndEdge() throws {
        let text = "Right aligned."
        let layout = try Self.layout(text, width: 300, alignment: .right)
        let d = try Self.glyph(layout, at: text.utf16.count - 2)
        #expect(abs(d.position.x + d.advance - 300) < 1e-9)
        let stop = try Self.glyph(layout, at: text.utf16.count - 1)
        #expect(stop.position.x >= 300 - 1e-9)
        let plain = try Self.layout(text, width: 300, alignment: .right, hanging: false)
        let plainStop = try Self.glyph(plain, at: text.utf16.count - 1)
        #expect(abs(plainStop.position.x + plainStop.advance - 300) < 1e-9)
    }

    @Test func aCommaThatOnlyFitsHangingStaysOnTheLine() throws {
        // The box is exactly as wide as "words words" (the comma would not fit inside it).
        let words = try Self.layout("words words", width: 1000, hanging: false)
        let width = words.lines[0].width
        let text = "words words, more"
        let hanging = try Self.layout(text, width: width)
        #expect(hanging.lines[0].range.upperBound >= 13)  // "words words, " on the first line
        let plain = try Self.layout(text, width: width, hanging: false)
        #expect(plain.lines[0].range.upperBound == 6)  // the comma does not fit: "words " alone
    }

    @Test func justifiedLinesLineTheirLettersUpWithBothEdges() throws {
        let text = "One line of words, then another line of words. And a last one here."
        let layout = try Self.layout(text, width: 160, alignment: .justified)
        let units = Array(text.utf16)
        for line in layout.lines.dropLast() {
            let last = line.range.upperBound - 1 - (units[line.range.upperBound - 1] == 0x20 ? 1 : 0)
            let glyph = try Self.glyph(layout, at: last)
            if units[last] == 0x2C || units[last] == 0x2E {
                let before = try Self.glyph(layout, at: last - 1)
                #expect(abs(before.position.x + before.advance - 160) < 1e-6)
            } else {
                #expect(abs(glyph.position.x + glyph.advance - 160) < 1e-6)
            }
        }
    }
}
