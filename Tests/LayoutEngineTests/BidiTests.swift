import Testing
@testable import LayoutEngine

@Suite struct BidiTests {
    @Test func arabicParagraphIsRightToLeftAndRightAligned() throws {
        let text = "مرحبا بالعالم"
        let layout = try Fixtures.layout(text, width: 400)
        #expect(layout.direction == .rightToLeft)
        let line = try #require(layout.lines.first)
        // Natural alignment puts a right-to-left line against the right edge.
        #expect(abs(line.usedRect.maxX - 400) < 1e-6)
        #expect(layout.runs.allSatisfy { $0.bidiLevel == 1 })
        #expect(layout.runs.allSatisfy { Fixtures.family(of: $0) == "Noto Naskh Arabic" })
    }

    @Test func mixedLineIsReorderedVisually() throws {
        // Logical: "abc " + Hebrew word + " def". Visually the Hebrew run sits between the Latin ones.
        let text = "abc \u{05E9}\u{05DC}\u{05D5}\u{05DD} def"
        let layout = try Fixtures.layout(text, width: 1000, family: "DejaVu Sans")
        let runs = layout.runs.filter { !$0.glyphIDs.isEmpty }
        #expect(runs.count == 3)
        #expect(runs.map(\.bidiLevel) == [0, 1, 0])
        // Inside the RTL run, glyphs are left to right on screen, so clusters fall.
        let hebrew = runs[1]
        #expect(hebrew.clusters == hebrew.clusters.sorted(by: >))
        // Glyph x positions rise across the whole line.
        let xs = runs.flatMap { $0.positions.map(\.x) }
        #expect(xs == xs.sorted())
    }

    @Test func numbersInsideArabicStayLeftToRight() throws {
        let text = "العدد 123 هنا"
        let layout = try Fixtures.layout(text, width: 1000)
        let digits = try #require(layout.runs.first { $0.bidiLevel == 2 })
        #expect(digits.clusters == digits.clusters.sorted())
        // The digits sit between the two Arabic words on screen: the word after them is to their left.
        let after = try #require(layout.runs.first { $0.range.lowerBound > digits.range.lowerBound && $0.bidiLevel == 1 })
        #expect(after.positions.first!.x < digits.positions.first!.x)
    }

    @Test func forcedDirectionOverridesAuto() throws {
        let layout = try Fixtures.layout("hello", width: 300) { $0.direction = .rightToLeft }
        #expect(layout.direction == .rightToLeft)
        #expect(abs(layout.lines[0].usedRect.maxX - 300) < 1e-6)
    }

    @Test func eachParagraphFindsItsOwnDirection() throws {
        let text = "hello\nمرحبا"
        let layout = try Fixtures.layout(text, width: 300)
        #expect(layout.lines[0].usedRect.x == 0)
        #expect(abs(layout.lines[1].usedRect.maxX - 300) < 1e-6)
    }
}
