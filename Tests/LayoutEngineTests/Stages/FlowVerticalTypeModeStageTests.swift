import Testing
@testable import LayoutEngine

/// The flowed, vertical and Type Mode positioners over fixed-advance faces (a letter 5 points, a
/// space 2.5, ascent 8 and descent 2 at size 10; upright, every glyph advances a full em).
/// The expected numbers are worked out by hand.
@Suite struct FlowVerticalTypeModeStageTests {
    let words = "aaaa bbbb cccc dddd eeee ffff"

    /// A 40 × 10 exclusion at the container's top-left leaves the first line 60 points from x =
    /// 40: "aaaa bbbb" (42.5) fits, "cccc" would make it 65. Below it the line has all 100.
    @Test func flowedLinesGoAroundAnExclusion() throws {
        let exclusion = Exclusion(FlowShape(.rect(Rect(x: 0, y: 0, width: 40, height: 10))))
        let layout = try FixedAdvance.layout(words, width: 100) {
            $0.flow = TextFlow(containers: [TextContainer(width: 100, exclusions: [exclusion])])
        }
        #expect(FixedAdvance.lineTexts(layout, words) == ["aaaa bbbb", "cccc dddd eeee ffff"])
        #expect(layout.lines.map(\.baselineOrigin) == [Point(x: 40, y: 8), Point(x: 0, y: 18)])
        #expect(layout.lines[0].fragmentRect == Rect(x: 40, y: 0, width: 60, height: 10))
    }

    /// Two containers of two lines each at 45 points: the text fills the first, then the second,
    /// which starts at its own origin.
    @Test func flowedTextPassesFromContainerToContainer() throws {
        let layout = try FixedAdvance.layout(words, width: 45) {
            $0.flow = TextFlow(containers: [TextContainer(width: 45, height: 20),
                                            TextContainer(origin: Point(x: 100, y: 0), width: 45, height: 20)])
        }
        #expect(FixedAdvance.lineTexts(layout, words) == ["aaaa bbbb", "cccc dddd", "eeee ffff"])
        #expect(layout.lines.map(\.container) == [0, 0, 1])
        #expect(layout.lines.map(\.baselineOrigin) == [Point(x: 0, y: 8), Point(x: 0, y: 18), Point(x: 100, y: 8)])
        #expect(layout.containers.map(\.lines) == [0..<2, 2..<3])
    }

    /// Columns 30 points long hold three upright ideographs each (an em each); seven make three
    /// columns, the first at the right, each an em across.
    @Test func verticalColumnsRunRightToLeft() throws {
        let text = "一二三四五六七"
        let layout = try FixedAdvance.layout(text, width: 100) {
            $0.writingMode = .verticalRightToLeft
            $0.height = 30
        }
        #expect(layout.lines.map(\.range) == [0..<3, 3..<6, 6..<7])
        #expect(layout.size.width == 30)
        let columns = layout.lines.map(\.usedRect)
        #expect(columns.map(\.x) == [20, 10, 0])
        #expect(columns.map(\.width) == [10, 10, 10])
        #expect(columns.map(\.height) == [30, 30, 10])
        let firstColumn = layout.runs.filter { $0.lineIndex == 0 }.flatMap(\.glyphs)
        #expect(firstColumn.map(\.position.y) == [0, 10, 20])
    }

    /// Left-to-right columns (Mongolian's order) start at the left.
    @Test func verticalColumnsCanRunLeftToRight() throws {
        let layout = try FixedAdvance.layout("一二三四五六七", width: 100) {
            $0.writingMode = .verticalLeftToRight
            $0.height = 30
        }
        #expect(layout.lines.map(\.usedRect.x) == [0, 10, 20])
    }

    /// Each line of Type Mode takes the size at which it fills 100 points: four letters at 50,
    /// ten at 20; two letters would need 100, over the maximum of 96.
    @Test func typeModeSizesEachLineToTheWidth() throws {
        let request = TypeModeRequest(text: "aaaa\naaaaaaaaaa\naa", style: TextStyle(family: FixedAdvance.family),
                                      width: 100, minSize: 10, maxSize: 96)
        let fitted = try FixedAdvance.layouter.justify(request)
        #expect(fitted.lineSizes == [50, 20, 96])
        #expect(fitted.clamped == [false, false, true])
        #expect(fitted.paragraph.lines.map(\.width) == [100, 100, 96])
        // Lines as tall as their sizes (ascent 0.8 and descent 0.2 of each), stacked.
        #expect(fitted.paragraph.lines.map(\.baselineOrigin.y) == [40, 66, 146.8])
        #expect(fitted.paragraph.size.height == 166)
    }

    /// A line that can only reach the minimum size keeps it and is marked clamped.
    @Test func typeModeClampsToTheMinimum() throws {
        let request = TypeModeRequest(text: String(repeating: "a", count: 40), style: TextStyle(family: FixedAdvance.family),
                                      width: 100, minSize: 10, maxSize: 96)
        let fitted = try FixedAdvance.layouter.justify(request)
        // At the minimum, 20 letters fill a line; two lines of 20 letters each fill it exactly.
        #expect(fitted.lineSizes == [10, 10])
        #expect(fitted.paragraph.lines.map(\.width) == [100, 100])
    }
}
