import Testing
@testable import LayoutEngine

/// Paragraph styles against hand-computed positions: indents on either side in either
/// direction, spacing between paragraphs, and line heights held to their bounds.
@Suite struct ParagraphStyleTests {
    static let text = "The first paragraph wraps over a few lines at this width, and then some more words."

    static func layout(_ style: ParagraphStyle, text: String = text, width: Double = 300,
                       alignment: TextAlignment = .natural) throws -> ParagraphLayout {
        try Fixtures.layout(text, width: width, size: 20) {
            $0.paragraphStyle = style
            $0.alignment = alignment
        }
    }

    @Test func indentsPlaceLinesFromEachEdge() throws {
        let style = ParagraphStyle(firstLineHeadIndent: 30, headIndent: 10, tailIndent: 20)
        let layout = try Self.layout(style)
        #expect(layout.lines.count >= 3)
        #expect(abs(layout.lines[0].baselineOrigin.x - 30) < 1e-9)
        for line in layout.lines.dropFirst() { #expect(abs(line.baselineOrigin.x - 10) < 1e-9) }
        #expect(layout.lines[0].width <= 300 - 30 - 20 + 1e-6)
        for line in layout.lines.dropFirst() { #expect(line.width <= 300 - 10 - 20 + 1e-6) }
        // Right-aligned, the tail indent is the gap at the right.
        let right = try Self.layout(style, alignment: .right)
        for line in right.lines { #expect(abs(line.baselineOrigin.x + line.width - (300 - 20)) < 1e-6) }
        // Without indents the first line holds more.
        let plain = try Self.layout(.plain)
        #expect(plain.lines[0].range.count > layout.lines[0].range.count)
    }

    @Test func aRightToLeftParagraphIndentsFromTheRight() throws {
        let style = ParagraphStyle(firstLineHeadIndent: 40, headIndent: 0, tailIndent: 25)
        let layout = try Self.layout(style, text: "هذه فقرة عربية طويلة بما يكفي لتلتف على عدة أسطر في هذا العرض الضيق جدا", width: 260)
        #expect(layout.direction == .rightToLeft && layout.lines.count >= 2)
        // Natural alignment is right: the first line ends 40 pt from the right edge, others at it.
        #expect(abs(layout.lines[0].baselineOrigin.x + layout.lines[0].width - (260 - 40)) < 1e-6)
        #expect(abs(layout.lines[1].baselineOrigin.x + layout.lines[1].width - 260) < 1e-6)
        for line in layout.lines { #expect(line.baselineOrigin.x >= 25 - 1e-6) }
    }

    @Test func spacingPartsParagraphsAndCountsInTheHeight() throws {
        let text = "First paragraph.\nSecond paragraph.\nThird."
        let plain = try Self.layout(.plain, text: text)
        let spaced = try Self.layout(ParagraphStyle(spacingBefore: 6, spacingAfter: 10), text: text)
        #expect(spaced.lines.count == 3 && plain.lines.count == 3)
        for index in 0..<3 {
            let expected = plain.lines[index].usedRect.y + Double(index) * 16
            #expect(abs(spaced.lines[index].usedRect.y - expected) < 1e-9, "line \(index)")
        }
        #expect(abs(spaced.size.height - (plain.size.height + 32)) < 1e-9)
        // A height that holds two paragraphs with their spacing but not the third cuts after two.
        let cut = try Fixtures.layout(text, width: 300, size: 20) {
            $0.paragraphStyle = ParagraphStyle(spacingBefore: 6, spacingAfter: 10)
            $0.height = spaced.lines[1].usedRect.maxY + 1
        }
        #expect(cut.lines.count == 2 && !cut.overflowRange.isEmpty)
    }

    @Test func lineHeightsAreHeldToTheirBounds() throws {
        let plain = try Self.layout(.plain)
        let natural = plain.lines[0].usedRect.height
        let tall = try Self.layout(ParagraphStyle(minimumLineHeight: natural + 20))
        #expect(tall.lines.allSatisfy { abs($0.usedRect.height - (natural + 20)) < 1e-9 })
        // The text sits in the middle of the taller box.
        #expect(abs(tall.lines[0].baselineOrigin.y - (plain.lines[0].baselineOrigin.y + 10)) < 1e-9)
        let short = try Self.layout(ParagraphStyle(maximumLineHeight: natural - 4))
        #expect(short.lines.allSatisfy { abs($0.usedRect.height - (natural - 4)) < 1e-9 })
    }

    @Test func badValuesAndUnsupportedPlacesAreRefusedByName() throws {
        func field(_ configure: (inout ParagraphRequest) -> Void) -> String? {
            do { _ = try Fixtures.layout("x\ny", width: 100, configure: configure); return nil } catch { return (error as? LayoutError)?.field }
        }
        #expect(field { $0.paragraphStyle.headIndent = -1 } == "paragraph_style.head_indent")
        #expect(field { $0.paragraphStyle = ParagraphStyle(minimumLineHeight: 30, maximumLineHeight: 20) } == "paragraph_style.max_line_height")
        #expect(field {
            $0.paragraphStyle.spacingAfter = 4
            $0.flow = TextFlow(containers: [TextContainer(width: 100, height: 100)], verticalAlignment: .center)
            $0.height = 100
        } == "paragraph_style.spacing_before")
        var settings = TextDocumentTests.settings()
        settings.request.height = 100
        #expect(throws: LayoutError.self) { try TextDocumentTests.document("a\nb", settings: settings) }
    }
}
