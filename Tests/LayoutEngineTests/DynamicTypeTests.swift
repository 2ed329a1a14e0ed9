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
