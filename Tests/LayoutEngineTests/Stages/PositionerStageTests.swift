import Testing
@testable import LayoutEngine

/// The plain positioner (`TextPositioner`, `ParagraphPositioner`) over fixed-advance faces: every
/// number below follows from a letter 5 points wide, a space 2.5, ascent 8 and descent 2 at size
/// 10 (`FixedAdvanceShaping`), worked out by hand, not read back from a layout.
@Suite struct PositionerStageTests {
    /// "aaaa bbbb" is 4 × 5 + 2.5 + 4 × 5 = 42.5 points; with " cccc" it would be 65.
    let text = "aaaa bbbb cccc"

    @Test func linesStackByTheirAscentAndDescent() throws {
        let layout = try FixedAdvance.layout(text, width: 50)
        #expect(FixedAdvance.lineTexts(layout, text) == ["aaaa bbbb", "cccc"])
        #expect(layout.lines.map(\.width) == [42.5, 20])
        #expect(layout.lines.map(\.trailingWhitespaceWidth) == [2.5, 0])
        #expect(layout.lines.map(\.ascent) == [8, 8])
        #expect(layout.lines.map(\.descent) == [2, 2])
        #expect(layout.lines.map(\.baselineOrigin.y) == [8, 18])
        #expect(layout.lines.map(\.usedRect) == [Rect(x: 0, y: 0, width: 42.5, height: 10), Rect(x: 0, y: 10, width: 20, height: 10)])
        #expect(layout.size.height == 20)
    }

    @Test func glyphsAdvanceByTheirWidths() throws {
        let layout = try FixedAdvance.layout(text, width: 50)
        let first = layout.runs.filter { $0.lineIndex == 0 }.flatMap(\.glyphs)
        #expect(first.map(\.position.x) == [0, 5, 10, 15, 20, 22.5, 27.5, 32.5, 37.5, 42.5])
        #expect(first.map(\.cluster) == Array(0..<10))
        #expect(first.allSatisfy { $0.position.y == 8 })
        let second = layout.runs.filter { $0.lineIndex == 1 }.flatMap(\.glyphs)
        #expect(second.map(\.position) == [0, 5, 10, 15].map { Point(x: $0, y: 18) })
    }

    @Test(arguments: [(TextAlignment.left, 0.0, 0.0), (.right, 7.5, 30), (.center, 3.75, 15)])
    func alignmentPlacesTheLineInTheSlack(alignment: TextAlignment, firstX: Double, secondX: Double) throws {
        let layout = try FixedAdvance.layout(text, width: 50) { $0.alignment = alignment }
        #expect(layout.lines.map(\.baselineOrigin.x) == [firstX, secondX])
        #expect(layout.lines.map(\.usedRect.x) == [firstX, secondX])
    }

    /// Justified: the one space of the first line takes the line's 7.5 points of slack; the last
    /// line keeps natural alignment.
    @Test func justifiedLinesStretchTheirSpaces() throws {
        let layout = try FixedAdvance.layout(text, width: 50) { $0.alignment = .justified }
        let first = layout.runs.filter { $0.lineIndex == 0 }.flatMap(\.glyphs)
        #expect(first.map(\.position.x) == [0, 5, 10, 15, 20, 30, 35, 40, 45, 50])
        #expect(layout.lines[0].width == 50)
        #expect(layout.runs.filter { $0.lineIndex == 1 }.flatMap(\.glyphs).map(\.position.x) == [0, 5, 10, 15])
    }

    /// A right-to-left paragraph is right-aligned by default and its glyphs run from the right.
    @Test func rightToLeftLinesStartAtTheRight() throws {
        let hebrew = "אאאא בבבב גגגג"
        let layout = try FixedAdvance.layout(hebrew, width: 50)
        #expect(layout.direction == .rightToLeft)
        #expect(layout.lines.map(\.width) == [42.5, 20])
        #expect(layout.lines.map(\.usedRect.x) == [7.5, 30])
        // Visual order, left to right: the second word (clusters 8 to 5), the space, the first word
        // (3 to 0), ending at the right edge.
        let x = Dictionary(layout.runs.filter { $0.lineIndex == 0 }.flatMap(\.glyphs).map { ($0.cluster, $0.position.x) }) { a, _ in a }
        #expect((0...8).map { x[$0] } == [45, 40, 35, 30, 27.5, 22.5, 17.5, 12.5, 7.5])
    }

    /// Two sizes on one line: the line is as tall as its tallest ascent and deepest descent.
    @Test func aLineTakesItsTallestMetrics() throws {
        var larger = StylePatch()
        larger.size = 20
        let text = AttributedText("aa bb", style: TextStyle(family: FixedAdvance.family, size: 10),
                                  spans: [.init(range: 3..<5, patch: larger)])
        let layout = try FixedAdvance.layouter.layout(ParagraphRequest(text: text, width: 100))
        #expect(layout.lines.count == 1)
        #expect(layout.lines[0].ascent == 16)
        #expect(layout.lines[0].descent == 4)
        #expect(layout.lines[0].baselineOrigin.y == 16)
        // 2 letters of 5, a space of 2.5, 2 letters of 10.
        #expect(layout.lines[0].width == 32.5)
        #expect(layout.size.height == 20)
    }

    @Test func hardBreaksEndLinesAndParagraphsAddTheirSpacing() throws {
        // U+2028 breaks a line inside its paragraph; a newline ends the paragraph, as in TextKit.
        let layout = try FixedAdvance.layout("aa\u{2028}bb\ncc", width: 100) { $0.paragraphStyle.spacingAfter = 5 }
        #expect(layout.lines.count == 3)
        #expect(layout.lines.map(\.hardBreak) == [true, true, false])
        // "aa bb" is one paragraph of two lines; "cc" starts 5 points below it.
        #expect(layout.lines.map(\.baselineOrigin.y) == [8, 18, 33])
    }

    @Test func indentsNarrowTheirLines() throws {
        // 10 points of first-line indent leave 40 for "aaaa bbbb" (42.5): it wraps after "aaaa".
        let layout = try FixedAdvance.layout(text, width: 50) { $0.paragraphStyle.firstLineHeadIndent = 10 }
        #expect(FixedAdvance.lineTexts(layout, text) == ["aaaa", "bbbb cccc"])
        #expect(layout.lines.map(\.baselineOrigin.x) == [10, 0])
    }

    @Test func lineHeightIsFixedWhenAsked() throws {
        let layout = try FixedAdvance.layout(text, width: 50) { $0.lineHeight = 16 }
        #expect(layout.lines.map(\.usedRect.height) == [16, 16])
        #expect(layout.size.height == 32)
    }
}
