import Testing
@testable import LayoutEngine

@Suite struct BreakingTests {
    @Test func wrapsAtSpacesAndNeverExceedsWidth() throws {
        let text = "The quick brown fox jumps over the lazy dog and keeps on running far away"
        let layout = try Fixtures.layout(text, width: 200)
        #expect(layout.lines.count > 2)
        for line in layout.lines { #expect(line.width <= 200 + 1e-6) }
        let texts = Fixtures.lineTexts(layout, text)
        #expect(texts.joined() == text)
        // Every line but the last ends after a space: breaks fall between words.
        for line in texts.dropLast() { #expect(line.hasSuffix(" ")) }
    }

    @Test func trailingSpaceHangsAndIsMeasuredApart() throws {
        let layout = try Fixtures.layout("hello world", width: 90)
        #expect(layout.lines.count == 2)
        let first = layout.lines[0]
        #expect(first.trailingWhitespaceWidth > 0)
        #expect(first.usedRect.width == first.width)
    }

    @Test func hardBreaksEndLines() throws {
        let text = "one\ntwo\r\nthree\u{2029}four"
        let layout = try Fixtures.layout(text, width: 1000)
        #expect(Fixtures.lineTexts(layout, text) == ["one\n", "two\r\n", "three\u{2029}", "four"])
        #expect(layout.lines.map(\.hardBreak) == [true, true, true, false])
        // No glyph is emitted for a line break character.
        let glyphs = layout.runs.reduce(0) { $0 + $1.glyphIDs.count }
        #expect(glyphs == "onetwothreefour".count)
    }

    @Test func emptyLinesHaveHeight() throws {
        let layout = try Fixtures.layout("a\n\nb", width: 100)
        #expect(layout.lines.count == 3)
        #expect(layout.lines[1].ascent > 0)
        #expect(layout.lines[2].baselineOrigin.y > layout.lines[1].baselineOrigin.y)
    }

    @Test func emergencyBreakSplitsALongWordAtGraphemes() throws {
        let word = String(repeating: "e\u{301}", count: 40)  // e + combining acute: one grapheme each
        let layout = try Fixtures.layout(word, width: 100)
        #expect(layout.lines.count > 1)
        for line in layout.lines {
            #expect(line.width <= 100 + 1e-6)
            #expect(line.range.lowerBound % 2 == 0)  // never between a letter and its accent
        }
    }

    @Test func aLineTakesOneGraphemeEvenIfItIsWider() throws {
        let layout = try Fixtures.layout("WW", width: 5)
        #expect(layout.lines.count == 2)
        #expect(layout.lines.allSatisfy { $0.range.count == 1 })
    }

    @Test func megabyteWithoutSpacesBreaksInLinearTime() throws {
        let text = String(repeating: "abcdefghij", count: 100_000)
        let layout = try Fixtures.layout(text, width: 300, size: 12)
        #expect(layout.lines.count > 1000)
        #expect(layout.visibleRange == 0..<text.utf16.count)
        #expect(layout.lines.allSatisfy { $0.width <= 300 + 1e-6 })
    }

    @Test func emojiSequencesStayWhole() throws {
        let family = "👨\u{200D}👩\u{200D}👧\u{200D}👦"
        let flag = "🇫🇷"
        let skin = "👋🏽"
        let text = String(repeating: family + flag + skin, count: 6)
        let layout = try Fixtures.layout(text, width: 60)
        let starts = Set(text.indices.map { $0.utf16Offset(in: text) })
        for line in layout.lines { #expect(starts.contains(line.range.lowerBound)) }
        for run in layout.runs where !run.glyphIDs.isEmpty {
            #expect(Fixtures.family(of: run) == "Noto Color Emoji")
        }
    }
}
