import Testing
@testable import LayoutEngine

/// Vertical Type Mode: each column sized to fill the length lines fill (`width`, down the page),
/// the columns stacked across it right to left (or left to right), the whole on the page.
@Suite struct VerticalTypeModeTests {
    static let length = 300.0
    static let minSize = 14.0
    static let maxSize = 96.0
    /// Manual breaks put each phrase in a column of its own, as Type Mode users set them.
    static let text = "今日は\n最高の一日\nありがとう、また会いましょう"

    static func justify(_ text: String = text, mode: WritingMode = .verticalRightToLeft, sizing: TypeModeSizing = .perLine,
                        family: String = "Noto Sans CJK JP", configure: (inout TypeModeRequest) -> Void = { _ in })
        throws -> TypeModeLayout {
        var request = TypeModeRequest(text: text, style: TextStyle(family: family), width: length,
                                      minSize: minSize, maxSize: maxSize, sizing: sizing)
        request.writingMode = mode
        configure(&request)
        return try Fixtures.layouter.justify(request)
    }

    @Test func eachColumnFillsItsLengthAtItsOwnSize() throws {
        let fitted = try Self.justify()
        let layout = fitted.paragraph
        #expect(layout.writingMode == .verticalRightToLeft)
        #expect(layout.lines.count == 3)
        #expect(fitted.lineSizes[0] == Self.maxSize, "three ideographs are clamped at the largest size")
        #expect(fitted.lineSizes[1] > fitted.lineSizes[2], "a short phrase comes out larger")
        for (index, (line, size)) in zip(layout.lines, fitted.lineSizes).enumerated() {
            // On the page a column is taller than it is thick, and never longer than its length.
            #expect(line.usedRect.height > line.usedRect.width)
            #expect(line.usedRect.maxY <= Self.length + 1e-6)
            if size < Self.maxSize { #expect(abs(line.width - Self.length) < 0.01, "column \(index) does not fill") }
            // Its ideographs are as thick as its size: an em upright.
            #expect(abs(line.usedRect.width - size) < 1e-6 * size, "column \(index) is \(line.usedRect.width) thick at \(size) pt")
            // Its glyphs go down the column, inside it.
            let glyphs = layout.runs.filter { $0.lineIndex == index }.flatMap(\.glyphs)
            #expect(!glyphs.isEmpty)
            #expect(glyphs.map(\.position.y) == glyphs.map(\.position.y).sorted())
            for glyph in glyphs {
                #expect(glyph.position.x >= line.usedRect.x - 1e-6 && glyph.position.x <= line.usedRect.maxX + 1e-6)
            }
        }
        // Right to left: the first column at the block's right edge, each next one left of it.
        #expect(abs(layout.lines[0].usedRect.maxX - layout.size.width) < 1e-9)
        for (a, b) in zip(layout.lines, layout.lines.dropFirst()) { #expect(b.usedRect.maxX <= a.usedRect.x + 1e-6) }
        #expect(abs(layout.size.height - layout.lines.map(\.usedRect.maxY).max()!) < 1e-6)
    }

    @Test func sizesAreThoseOfTheColumnsItsGlyphsAdvanceDown() throws {
        // Upright ideographs advance by their vertical advances (an em each in this font), so a
        // column of n ideographs fills the length at length / n points.
        let fitted = try Self.justify("縦書きの\n文字の大きさ")
        #expect(abs(fitted.lineSizes[0] - Self.length / 4) < 1e-6)
        #expect(abs(fitted.lineSizes[1] - Self.length / 6) < 1e-6)
    }

    @Test func sidewaysColumnsTakeTheSizesOfHorizontalLines() throws {
        // Every character on its side shapes as horizontal text does: the fit is the same.
        let text = "so\nHAPPY\nto see you all here tonight"
        let horizontal = try Self.justify(text, mode: .horizontal, family: "Noto Sans")
        for mode in [WritingMode.verticalRightToLeft, .verticalLeftToRight] {
            let sideways = try Self.justify(text, mode: mode, family: "Noto Sans") { $0.textOrientation = .sideways }
            #expect(sideways.lineSizes == horizontal.lineSizes)
            #expect(sideways.clamped == horizontal.clamped)
            #expect(sideways.paragraph.lines.map(\.range) == horizontal.paragraph.lines.map(\.range))
            for (column, line) in zip(sideways.paragraph.lines, horizontal.paragraph.lines) {
                #expect(abs(column.width - line.width) < 1e-9)
            }
            #expect(sideways.paragraph.runs.allSatisfy { $0.orientation == .sideways })
        }
    }

    @Test func leftToRightColumnsAreRightToLeftOnesInTheOtherOrder() throws {
        // Latin on its side makes columns whose two sides differ (its ascender and descender).
        let text = "今日はSUNDAY\n最高の一日\nありがとう、また会いましょう"
        let rl = try Self.justify(text)
        let lr = try Self.justify(text, mode: .verticalLeftToRight)
        #expect(lr.paragraph.writingMode == .verticalLeftToRight)
        #expect(lr.lineSizes == rl.lineSizes)
        #expect(abs(lr.paragraph.size.width - rl.paragraph.size.width) < 1e-9)
        #expect(abs(lr.paragraph.lines[0].usedRect.x) < 1e-9, "the first column at the block's left edge")
        for (index, (a, b)) in zip(lr.paragraph.lines, rl.paragraph.lines).enumerated() {
            // Each column stands where the other mode's does, mirrored across the block…
            #expect(abs(a.usedRect.x - (rl.paragraph.size.width - b.usedRect.maxX)) < 1e-6)
            #expect(abs(a.usedRect.width - b.usedRect.width) < 1e-9)
            // …and its glyphs stand alike about its centre line.
            func offsets(_ layout: ParagraphLayout, _ line: LineLayout) -> [Double] {
                layout.runs.filter { $0.lineIndex == index }.flatMap(\.glyphs).flatMap { [$0.position.x - (line.usedRect.x + line.usedRect.width / 2), $0.position.y] }
            }
            let (left, right) = (offsets(lr.paragraph, a), offsets(rl.paragraph, b))
            #expect(left.count == right.count)
            for (x, y) in zip(left, right) { #expect(abs(x - y) < 1e-6) }
        }
    }

    @Test func maxHeightBoundsTheBlockAcrossItsColumns() throws {
        let free = try Self.justify()
        let capped = try Self.justify { $0.maxHeight = free.paragraph.size.width / 2 }
        #expect(capped.paragraph.size.width <= free.paragraph.size.width / 2 + 1e-6)
        for (a, b) in zip(free.lineSizes, capped.lineSizes) { #expect(abs(b - a / 2) < 1e-6) }
        let uniform = try Self.justify(sizing: .uniform) { $0.maxHeight = 120 }
        #expect(Set(uniform.lineSizes).count == 1)
        #expect(uniform.paragraph.size.width <= 120 + 1e-6)
        #expect(uniform.paragraph.lines.allSatisfy { $0.width <= Self.length + 1e-6 })
    }

    @Test func digitsCombineUprightInAColumnThatStillFills() throws {
        let fitted = try Self.justify("2024年の夏休み\nまた来年") { $0.combineUpright = 4 }
        let first = fitted.paragraph.runs.filter { $0.lineIndex == 0 }
        #expect(first.contains { $0.orientation == .combined })
        #expect(fitted.lineSizes[0] < Self.maxSize)
        #expect(abs(fitted.paragraph.lines[0].width - Self.length) < 0.01)
        // Two digits take the font's half-width glyphs: each combined run stands at its column's
        // size in one em, where Noto's proportional digits (1.11 em for two) were drawn smaller.
        let dated = try Self.justify("12月24日\n夏休み") { $0.combineUpright = 2 }
        let combined = dated.paragraph.runs.filter { $0.orientation == .combined }
        #expect(combined.count == 2)
        for run in combined {
            let column = dated.lineSizes[run.lineIndex]
            #expect(abs(run.size - column) < 1e-9, "drawn at \(run.size), its column at \(column)")
            #expect(abs(run.glyphs.reduce(0.0) { $0 + $1.advance } - column) < 1e-6)
        }
    }

    @Test func underlinesTurnWithTheColumns() throws {
        var paint = TextPaint()
        paint.underline = DecorationLine()
        for mode in [WritingMode.verticalRightToLeft, .verticalLeftToRight] {
            let fitted = try Self.justify(mode: mode) { $0.paint = paint }
            let layout = fitted.paragraph
            #expect(layout.decorations.count == layout.lines.count)
            for decoration in layout.decorations where decoration.kind == .underline {
                // An underline runs down its column on the page's right (Japanese), inside the
                // column, which grows to hold it.
                let column = layout.lines[decoration.lineIndex].usedRect
                for rect in decoration.rects {
                    #expect(rect.height > rect.width)
                    #expect(rect.x >= column.x - 1e-6 && rect.maxX <= column.maxX + 1e-6, "\(mode): outside its column")
                    #expect(rect.x > column.x + column.width / 2, "\(mode): not on the column's right")
                }
            }
        }
    }

    @Test func badVerticalRequestsAreRefused() {
        #expect(throws: LayoutError.self) { try Self.justify { $0.combineUpright = 5 } }
        #expect(throws: LayoutError.self) { try Self.justify { $0.width = 0 } }
    }
}
