import Testing
@testable import LayoutEngine

/// Every cell of the Dynamic Type table, held to Apple's published iOS sizes and leadings
/// (Human Interface Guidelines, Typography, "iOS, iPadOS Dynamic Type sizes"), written out here
/// apart from the code's table.
@Suite struct DynamicTypeTests {
    /// Sizes, then leadings, per style, xSmall to AX5.
    static let published: [(DynamicType.TextStyle, sizes: [Double], leadings: [Double])] = [
        (.largeTitle, [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60], [38, 39, 40, 41, 43, 46, 48, 52, 57, 61, 66, 70]),
        (.title1, [25, 26, 27, 28, 30, 32, 34, 38, 43, 48, 53, 58], [31, 32, 33, 34, 37, 39, 41, 46, 51, 57, 62, 69]),
        (.title2, [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56], [24, 25, 26, 28, 30, 32, 34, 41, 47, 52, 59, 66]),
        (.title3, [17, 18, 19, 20, 22, 24, 26, 31, 37, 43, 49, 55], [22, 23, 24, 25, 28, 30, 32, 38, 44, 51, 58, 65]),
        (.headline, [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53], [19, 20, 21, 22, 24, 26, 29, 34, 40, 48, 56, 62]),
        (.body, [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53], [19, 20, 21, 22, 24, 26, 29, 34, 40, 48, 56, 62]),
        (.callout, [13, 14, 15, 16, 18, 20, 22, 26, 32, 38, 44, 51], [18, 19, 20, 21, 23, 25, 28, 32, 39, 46, 52, 60]),
        (.subheadline, [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49], [16, 18, 19, 20, 22, 24, 28, 31, 37, 43, 50, 58]),
        (.footnote, [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44], [16, 16, 16, 18, 20, 22, 24, 29, 33, 40, 46, 52]),
        (.caption1, [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43], [13, 13, 13, 16, 19, 21, 23, 28, 32, 39, 44, 51]),
        (.caption2, [11, 11, 11, 11, 13, 15, 17, 20, 24, 29, 34, 40], [13, 13, 13, 13, 18, 20, 22, 25, 29, 35, 41, 48]),
    ]

    @Test func everyCellIsApplesNumber() {
        #expect(Self.published.count == DynamicType.TextStyle.allCases.count)
        for (style, sizes, leadings) in Self.published {
            for category in DynamicType.Category.allCases {
                let entry = DynamicType.entry(style, category)
                #expect(entry.size == sizes[category.rawValue], "\(style) at \(category)")
                #expect(entry.leading == leadings[category.rawValue], "\(style) at \(category)")
                #expect(entry.weight == (style == .headline ? 600 : 400))
            }
        }
    }

    @Test func theIssuesNumbersAtLargeAndForBody() {
        let large = DynamicType.TextStyle.allCases.map { DynamicType.entry($0).size }
        #expect(large == [34, 28, 22, 20, 17, 17, 16, 15, 13, 12, 11])
        #expect(DynamicType.Category.allCases.map { DynamicType.entry(.body, $0).size } == [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53])
    }

    @Test func anExplicitSizeScalesByItsStylesRatio() {
        // title1: 28 at large, 34 at xxxLarge.
        #expect(abs(DynamicType.scaled(20, style: .title1, category: .xxxLarge) - 20 * 34 / 28) < 1e-12)
        #expect(DynamicType.scaled(20, style: .title1, category: .large) == 20)
        // No style: body's curve, as UIFontMetrics.default.
        #expect(abs(DynamicType.scaled(10, style: nil, category: .ax5) - 10 * 53 / 17) < 1e-12)
        #expect(DynamicType.scaled(10, style: nil, category: .ax5, maximum: 24) == 24)
        #expect(DynamicType.scaled(10, style: .footnote, category: .xSmall, maximum: 24) < 10)
    }
}

/// Dynamic Type's leading belongs to the text: a line of body text at Large is 22 pt, a line that
/// holds taller text grows to hold it, and a document whose text changes category lays out as a
/// fresh layout of the new text does.
@Suite struct DynamicTypeLineTests {
    static let body = DynamicType.entry(.body, .large)
    static var bodyStyle: TextStyle {
        var style = TextStyle(family: "Noto Sans", size: body.size)
        style.lineHeight = body.leading
        return style
    }
    static let text = "Body text at the size of its category, long enough to wrap over several lines of this box."

    static func layout(_ spans: [AttributedText.Span] = [], style: TextStyle = bodyStyle) throws -> ParagraphLayout {
        try Fixtures.layouter.layout(ParagraphRequest(text: AttributedText(text, style: style, spans: spans), width: 200))
    }

    @Test func bodyLinesTakeTheTablesLeading() throws {
        let layout = try Self.layout()
        #expect(layout.lines.count > 2)
        for line in layout.lines { #expect(abs(line.usedRect.height - 22) < 1e-9) }
    }

    /// A 40-pt span sat on 22-pt lines, its glyphs over the lines around it.
    @Test func aTallerSpanGrowsItsLineToItsContent() throws {
        let span = AttributedText.Span(range: 5..<9, patch: StylePatch(size: 40))
        let layout = try Self.layout([span])
        let font = try #require(Fixtures.registry.font(id: layout.runs.first { $0.size == 40 }!.fontID))
        let content = Double(font.ascender + font.descender) * font.scale(for: 40)
        let tall = try #require(layout.lines.first { $0.range.contains(5) })
        #expect(tall.usedRect.height >= content - 1e-9, "\(tall.usedRect.height) < \(content)")
        #expect(tall.ascent + tall.descent <= tall.usedRect.height + 1e-9)
        // Lines stack without overlapping, and the others keep the table's leading.
        for (upper, lower) in zip(layout.lines, layout.lines.dropFirst()) {
            #expect(upper.usedRect.maxY <= lower.usedRect.y + 1e-9)
        }
        for line in layout.lines where !line.range.contains(5) { #expect(abs(line.usedRect.height - 22) < 1e-9) }
    }

    /// Smaller Dynamic Type text (a caption span) in a body line: the body's leading still holds.
    @Test func aSmallerTextStyleSpanKeepsTheLine() throws {
        let caption = DynamicType.entry(.caption2, .large)
        let span = AttributedText.Span(range: 0..<4, patch: StylePatch(size: caption.size, lineHeight: caption.leading))
        #expect(try Self.layout([span]).lines.allSatisfy { abs($0.usedRect.height - 22) < 1e-9 })
    }

    /// Switching a document's text from body at Large to body at AX2 lays it out as a fresh
    /// layout of body at AX2 (it kept the old 22-pt baselines).
    @Test func aDocumentSwitchedToAnotherCategoryLaysOutAfresh() throws {
        let ax2 = DynamicType.entry(.body, .ax2)
        let settings = DocumentSettings(request: ParagraphRequest(text: AttributedText("", style: Self.bodyStyle), width: 200),
                                        style: Self.bodyStyle)
        let document = try TextDocument(units: AttributedText.utf16(Self.text), settings: settings, layouter: Fixtures.layouter)
        _ = try document.style(0..<document.length, patch: StylePatch(size: ax2.size, lineHeight: ax2.leading))
        var fresh = Self.bodyStyle
        (fresh.size, fresh.lineHeight) = (ax2.size, ax2.leading)
        let expected = try Self.layout(style: fresh)
        let edited = document.assembled()
        #expect(edited.lines.map(\.usedRect) == expected.lines.map(\.usedRect))
        #expect(edited.lines.map(\.baselineOrigin) == expected.lines.map(\.baselineOrigin))
        #expect(expected.lines.allSatisfy { abs($0.usedRect.height - ax2.leading) < 1e-9 })
    }
}

/// The reader's Bold Text setting beside the size category: faces matched 300 heavier.
@Suite struct BoldTextTests {
    static func fontWeights(_ text: String, style: TextStyle, spans: [AttributedText.Span] = []) throws -> [Int] {
        let layout = try Fixtures.layouter.layout(ParagraphRequest(text: AttributedText(text, style: style, spans: spans), width: 400))
        return layout.runs.map { Fixtures.registry.font(id: $0.fontID)!.weight }
    }

    @Test func bodyTextTakesTheFamilysBoldAndSpansGrowToo() throws {
        var style = TextStyle(family: "Noto Sans", size: 17)
        #expect(try Self.fontWeights("Body text", style: style) == [400])
        style.boldText = true
        #expect(style.effectiveWeight == 700 && style.weight == 400, "the weight asked stays; the face is matched heavier")
        #expect(try Self.fontWeights("Body text", style: style) == [700])
        // A span's own weight is made heavier too, up to 1000 (Noto Sans's heaviest, Black 900).
        let spans = [AttributedText.Span(range: 0..<4, patch: StylePatch(weight: 700))]
        let weights = try Self.fontWeights("Body text", style: style, spans: spans)
        let black = try #require(Fixtures.registry.match(family: "Noto Sans", weight: 1000, italic: false)).weight
        #expect(weights.first == black && weights.last == 700)
        var capped = TextStyle(family: "Noto Sans", weight: 900, size: 17)
        capped.boldText = true
        #expect(capped.effectiveWeight == 1000)
        // A span may set it for its own text alone.
        let plain = TextStyle(family: "Noto Sans", size: 17)
        var patch = StylePatch()
        patch.boldText = true
        #expect(try Self.fontWeights("Body text", style: plain, spans: [AttributedText.Span(range: 5..<9, patch: patch)]) == [400, 700])
    }

    @Test func aFamilyWithoutABoldIsMadeBold() throws {
        // Z003 has one face (Medium Italic): bold text past 600 makes it bold, as a weight would.
        var style = TextStyle(family: "Z003", weight: 400, size: 20)
        style.boldText = true
        let layout = try Fixtures.layouter.layout(ParagraphRequest(text: AttributedText("Bold", style: style), width: 300))
        #expect(layout.runs[0].syntheticBold > 0)
    }
}
