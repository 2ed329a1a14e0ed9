import Foundation
import Testing
import TestSupport
@testable import LayoutEngine

/// CSS `text-orientation` in vertical text: upright sets every character upright, shaped top to
/// bottom as `hb-shape --direction=ttb` shapes it, and reads it all as strong left-to-right;
/// sideways lays every character on its side, ideographs too; mixed (the default) follows UAX #50.
@Suite struct TextOrientationTests {
    static func layout(_ text: String, _ orientation: TextOrientation, combine: Int = 0) throws -> ParagraphLayout {
        try VerticalTests.layout(text, combine: combine, width: 400, height: 2000, size: 1000 / 1) {
            $0.textOrientation = orientation
            $0.width = 100_000
            $0.height = 100_000
        }
    }

    @Test func mixedFollowsUAX50() throws {
        let layout = try Self.layout("縦ABC書", .mixed)
        #expect(layout.runs.map(\.orientation) == [.upright, .sideways, .upright])
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: HBShape.path), "hb-shape (libharfbuzz-bin) is missing"))
    func uprightShapesEverythingTopToBottomAsHBShape() throws {
        let text = "縦ABC書き"
        let layout = try Self.layout(text, .upright)
        #expect(layout.runs.allSatisfy { $0.orientation == .upright })
        let font = try #require(Fixtures.registry.fonts.first { $0.family == "Noto Sans CJK JP" && $0.weight == 400 })
        let expected = try #require(try HBShape.output(text, ["--direction=ttb", "--no-glyph-names", "--font-file=\(font.path)",
                                                              "--face-index=\(font.faceIndex)"]))
        #expect(GoldenShapingTests.hbShapeVerticalLine(layout, text: text, flags: false) == expected)
    }

    @Test func uprightReadsRightToLeftScriptsAsLeftToRight() throws {
        // CSS Writing Modes 3 §5.1: upright makes every character strong left-to-right.
        let mixed = try Self.layout("縦שלום", .mixed)
        #expect(mixed.runs.contains { $0.bidiLevel == 1 })
        let upright = try Self.layout("縦שלום", .upright)
        #expect(upright.runs.allSatisfy { $0.bidiLevel == 0 && $0.orientation == .upright })
        #expect(upright.runs.flatMap(\.clusters) == upright.runs.flatMap(\.clusters).sorted(), "in logical order down the column")
    }

    @Test func sidewaysLaysIdeographsOnTheirSide() throws {
        let text = "縦書きABC"
        let layout = try Self.layout(text, .sideways)
        #expect(layout.runs.allSatisfy { $0.orientation == .sideways })
        // On its side a glyph advances as in horizontal text.
        let horizontal = try Fixtures.layouter.layout(ParagraphRequest(
            text: AttributedText(text, style: TextStyle(family: "Noto Sans CJK JP", size: 1000)), width: 100_000))
        #expect(layout.runs.flatMap(\.advances) == horizontal.runs.flatMap(\.advances))
        #expect(layout.runs.flatMap(\.glyphIDs) == horizontal.runs.flatMap(\.glyphIDs))
    }

    @Test func digitsStillCombineUpright() throws {
        for orientation in [TextOrientation.upright, .sideways] {
            let layout = try Self.layout("令和6年", orientation, combine: 2)
            #expect(layout.runs.contains { $0.orientation == .combined }, "\(orientation)")
        }
    }
}
