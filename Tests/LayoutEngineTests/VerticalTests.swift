import Foundation
import Testing
import TestSupport
@testable import LayoutEngine

/// Vertical text: UAX #50 orientations from Unicode's own file, columns top to bottom and right
/// to left (or left to right), upright glyphs shaped top to bottom with their vertical forms,
/// Latin on its side, digits combined in one em, and everything turned onto the page.
@Suite struct VerticalTests {
    static let text = "縦書きの文章、ABCと2024年。"

    static func layout(_ text: String = text, mode: WritingMode = .verticalRightToLeft, combine: Int = 0, width: Double = 200,
                       height: Double = 200, size: Double = 20, configure: (inout ParagraphRequest) -> Void = { _ in })
        throws -> ParagraphLayout {
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans CJK JP", size: size)),
                                       width: width, height: height)
        request.writingMode = mode
        request.combineUpright = combine
        configure(&request)
        return try Fixtures.layouter.layout(request)
    }

    @Test func orientationsComeFromUnicodesTable() throws {
        #expect(VerticalOrientation(0x3042) == .upright)            // あ
        #expect(VerticalOrientation(0x41) == .rotated)              // A
        #expect(VerticalOrientation(0x3001) == .transformedUpright)  // 、
        #expect(VerticalOrientation(0xFF08) == .transformedRotated)  // （
        #expect(VerticalOrientation(0x1F600) == .upright)           // an emoji
        #expect(VerticalOrientation(0x0627) == .rotated)            // ا
        // Every code point of the file, where Debian's unicode-data is installed (scripts/setup.sh installs it).
        let path = "/usr/share/unicode/VerticalOrientation.txt"
        guard let file = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        var checked = 0
        for line in file.split(separator: "\n") {
            let data = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let fields = data.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2 else { continue }
            let bounds = fields[0].components(separatedBy: "..").compactMap { UInt32($0, radix: 16) }
            let expected: VerticalOrientation = ["U": .upright, "Tu": .transformedUpright, "Tr": .transformedRotated][fields[1]] ?? .rotated
            for scalar in bounds[0]...(bounds.last ?? bounds[0]) {
                if VerticalOrientation(scalar) != expected { Issue.record("U+\(String(scalar, radix: 16)): not \(expected)"); return }
                checked += 1
            }
        }
        #expect(checked > 300_000)  // every code point the file lists (the rest default to R, as the table does)
    }

    @Test func columnsRunDownAndStackRightToLeft() throws {
        let layout = try Self.layout("縦書きの文章は上から下へ、右から左へ進みます。", height: 100)
        #expect(layout.writingMode == .verticalRightToLeft)
        #expect(layout.lines.count >= 2)
        for line in layout.lines {
            #expect(line.usedRect.maxY <= 100 + 1e-6, "a column is as long as the height at most")
            #expect(line.usedRect.height > line.usedRect.width)
        }
        #expect(layout.lines[0].usedRect.x > layout.lines[1].usedRect.x)
        // The first column's right edge is the layout's.
        #expect(abs(layout.lines[0].usedRect.maxX - layout.size.width) < 1e-9)
        // Upright ideographs advance one em down the column, each drawn from its horizontal
        // origin half an em left of the column's centre line.
        let run = try #require(layout.runs.first { $0.lineIndex == 0 && $0.orientation == .upright })
        let glyphs = Array(run.glyphs)
        let centre = layout.lines[0].baselineOrigin.x
        for (a, b) in zip(glyphs, glyphs.dropFirst()) { #expect(abs((b.position.y - a.position.y) - 20) < 1e-9) }
        #expect(abs(glyphs[0].position.x - (centre - 10)) < 0.5)
        let ltr = try Self.layout("縦書きの文章は上から下へ、右から左へ進みます。", mode: .verticalLeftToRight, height: 100)
        #expect(ltr.lines[0].usedRect.x < ltr.lines[1].usedRect.x && ltr.lines[0].usedRect.x == 0)
    }

    @Test func punctuationTakesItsVerticalFormAndLatinLiesOnItsSide() throws {
        let vertical = try Self.layout()
        let horizontal = try Fixtures.layout(Self.text, width: 600, size: 20, family: "Noto Sans CJK JP")
        let comma = Self.text.utf16.distance(from: Self.text.utf16.startIndex, to: Self.text.firstIndex(of: "、")!.samePosition(in: Self.text.utf16)!)
        func glyph(_ layout: ParagraphLayout, at offset: Int) -> PositionedGlyph? {
            layout.runs.flatMap { Array($0.glyphs) }.first { $0.cluster == offset }
        }
        #expect(try #require(glyph(vertical, at: comma)).id != (try #require(glyph(horizontal, at: comma))).id)
        let latin = try #require(vertical.runs.first { $0.range.contains(7) })  // "ABC"
        #expect(latin.orientation == .sideways)
        // Sideways glyphs advance down the column too.
        let positions = latin.glyphs.map(\.position)
        #expect(positions.count == 3 && positions[1].y > positions[0].y && positions[1].x == positions[0].x)
    }

    @Test func shortDigitRunsCombineInOneEm() throws {
        let layout = try Self.layout(combine: 4, height: 400)
        #expect(layout.lines.count == 1)
        let digits = try #require(layout.runs.first { $0.orientation == .combined })
        #expect(digits.glyphs.count == 4)
        // Across the column, side by side, centred on its centre line.
        let xs = digits.glyphs.map(\.position.x)
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $0 < $1 })
        let centre = layout.lines[digits.lineIndex].baselineOrigin.x
        let last = digits.glyphs.last!
        #expect(abs((xs[0] + last.position.x + last.advance) / 2 - centre) < 0.5)
        // The next character starts one em below the run's start.
        let next = try #require(layout.runs.first { $0.range.lowerBound == digits.range.upperBound })
        let cellTop = try #require(layout.runs.first { $0.range.upperBound == digits.range.lowerBound }).glyphs.last!.position.y + 20
        #expect(abs(next.glyphs.first!.position.y - (cellTop + 20)) < 0.5)
        // Five digits are too many for the setting: they lie on their side.
        let five = try Self.layout("年号は20245年。", combine: 4)
        #expect(!five.runs.contains { $0.orientation == .combined })
    }

    @Test func truncationDecorationsAndAttachmentsTurnWithTheText() throws {
        let long = String(repeating: "縦書きの文章は上から下へ進みます。", count: 6)
        let cut = try Self.layout(long, height: 100) { $0.maxLines = 2 }
        #expect(cut.lines.count == 2 && cut.lines[1].truncated)
        #expect(cut.runs.contains { $0.isTruncationToken })
        let underlined = try Self.layout("下線のある縦書き", height: 200) {
            $0.text = AttributedText("下線のある縦書き", style: TextStyle(family: "Noto Sans CJK JP", size: 20),
                                     spans: [AttributedText.Span(range: 0..<2, patch: StylePatch(underline: .set(DecorationLine())))])
        }
        let line = try #require(underlined.decorations.first { $0.kind == .underline })
        let rect = try #require(line.rects.first)
        #expect(rect.height > rect.width, "a vertical line's underline runs down it")
        #expect(rect.maxX <= underlined.lines[0].baselineOrigin.x, "on the side the columns advance to")
        let boxed = try Self.layout("画像\u{FFFC}の後", height: 200) { $0.attachments = [InlineAttachment(width: 30, extent: .height(16))] }
        let box = try #require(boxed.attachments.first)
        #expect(abs(box.rect.height - 30) < 1e-9 && abs(box.rect.width - 16) < 1e-9)
    }

    /// A truncation token stands as text does in its columns: its ideographs upright with their
    /// vertical glyphs and advances, its ellipsis on its side.
    @Test func truncationTokensStandAsTheTextDoes() throws {
        let long = String(repeating: "縦書きの文章は上から下へ進みます。", count: 6)
        let cut = try Self.layout(long, height: 100) {
            $0.maxLines = 2
            $0.truncationToken = "続く…"
        }
        // Glyph by glyph: the token's runs may be cut where its scripts change.
        func glyphs(_ runs: [GlyphRunLayout]) -> [String] {
            runs.flatMap { run in run.glyphs.map { "\($0.id) \(run.orientation) +\($0.advance)" } }
        }
        let token = cut.runs.filter(\.isTruncationToken)
        let alone = try Self.layout("続く…", height: 200)
        #expect(alone.runs.map(\.orientation) == [.upright, .sideways])
        #expect(glyphs(token) == glyphs(alone.runs))
    }

    /// Plain text's glyphs are written onto the page as they are placed; text with a paint is
    /// turned after decorating. Both ways put every glyph in the same place, in both modes, with
    /// Latin on its side and a truncated last column.
    @Test func glyphsPlacedOnThePageLieWhereTurnedGlyphsLie() throws {
        let text = String(repeating: "縦書きの文章、ABCと2024年。Latin words ", count: 5)
        for mode in [WritingMode.verticalRightToLeft, .verticalLeftToRight] {
            let plain = try Self.layout(text, mode: mode, height: 150) { $0.maxLines = 4 }
            let painted = try Self.layout(text, mode: mode, height: 150) {
                var red = TextPaint()
                red.color = Color(red: 1, green: 0, blue: 0, alpha: 1)
                $0.text = AttributedText(text, style: TextStyle(family: "Noto Sans CJK JP", size: 20), paint: red)
                $0.maxLines = 4
            }
            #expect(!plain.runs.isEmpty && plain.lines.count == 4 && plain.lines[3].truncated)
            #expect(plain.runs.map(\.glyphs) == painted.runs.map(\.glyphs), "\(mode)")
            #expect(plain.lines == painted.lines)
        }
    }

    @Test func noColumnStartsWithClosingPunctuationOrSmallKana() throws {
        let text = String(repeating: "「はい」と言った。ちょっと待って、", count: 10)
        let units = Array(text.utf16)
        let forbidden = Set("」。、）ょっ".utf16)
        for height in stride(from: 60.0, through: 240, by: 20) {
            let layout = try Self.layout(text, width: 10_000, height: height)
            #expect(layout.lines.count > 1)
            for line in layout.lines.dropFirst() {
                #expect(!forbidden.contains(units[line.range.lowerBound]), "a column of \(height) starts at \(line.range.lowerBound)")
            }
        }
    }

    @Test func verticalTextFlowsAroundAShapeAndThroughContainers() throws {
        let text = String(repeating: "縦書きの文章は絵を避けて流れます。", count: 4)
        // A picture in the top right of a 300 × 240 page: the first columns are cut short.
        let picture = Rect(x: 200, y: 0, width: 100, height: 90)
        let around = try Self.layout(text, width: 300, height: 240) {
            $0.flow = TextFlow(containers: [TextContainer(width: 300, height: 240, exclusions: [Exclusion(FlowShape(.rect(picture)))])])
        }
        #expect(around.lines.count > 3)
        for run in around.runs {
            for glyph in run.glyphs {
                let cell = Rect(x: glyph.position.x, y: glyph.position.y - 1, width: 20, height: glyph.advance)
                #expect(!(cell.x < picture.maxX - 1 && picture.x < cell.maxX - 1 && cell.y < picture.maxY - 1 && picture.y < cell.maxY - 1),
                        "a glyph at \(glyph.position) is on the picture")
            }
        }
        // The first column is beside the picture: it starts below it.
        #expect(around.lines[0].usedRect.y >= picture.maxY - 1e-6)
        #expect(around.lines[0].usedRect.maxX <= 300 + 1e-6)
        // Two pages side by side: the right one first, each column within its page.
        let pages = [TextContainer(origin: Point(x: 160, y: 0), width: 140, height: 120),
                     TextContainer(origin: Point(x: 0, y: 0), width: 140, height: 120)]
        let paged = try Self.layout(text, width: 300, height: 120) { $0.flow = TextFlow(containers: pages) }
        #expect(paged.containers.count == 2 && paged.containers[0].range.upperBound == paged.containers[1].range.lowerBound)
        for (index, container) in paged.containers.enumerated() {
            #expect(container.rect == Rect(x: pages[index].origin.x, y: 0, width: 140, height: 120))
            for line in paged.lines[container.lines] {
                #expect(line.usedRect.x >= container.rect.x - 1e-6 && line.usedRect.maxX <= container.rect.maxX + 1e-6)
                #expect(line.usedRect.maxY <= 120 + 1e-6)
            }
        }
        #expect(paged.lines[0].usedRect.maxX > 290)  // columns start at the right page's right edge
        #expect(paged.size == Size(width: 300, height: 120))
        #expect(throws: LayoutError.self) {
            _ = try Self.layout(text) { $0.flow = TextFlow(containers: [TextContainer(width: 100)]) }
        }
    }

    @Test func verticalTextNeedsAColumnLength() throws {
        #expect(throws: LayoutError.self) { _ = try Self.layout(height: 0) { $0.height = nil } }
    }
}

/// Upright vertical glyphs against HarfBuzz's own vertical shaping, `hb-shape --direction=ttb`,
/// for the same font and text: glyph ids, clusters, offsets and vertical advances.
@Suite struct VerticalShapingTests {
    /// Every character upright by UAX #50 (curly quotes are R there: they lie on their side, as
    /// a test of `punctuationTakesItsVerticalFormAndLatinLiesOnItsSide`'s kind would show).
    static let samples = ["縦書きの文章、「括弧」とー。", "中文竖排，标点符号：『引号』。", "日本語の縦組みでは句読点が右上に寄る。"]

    static func hbShape(_ text: String, font: Font) throws -> String? {
        try HBShape.output(text, ["--direction=ttb", "--no-glyph-names", "--font-file=\(font.path)", "--face-index=\(font.faceIndex)"])
    }

    @Test(arguments: samples)
    func uprightGlyphsMatchHBShape(_ text: String) throws {
        let font = try #require(Fixtures.registry.fonts.first { $0.family == "Noto Sans CJK JP" && $0.weight == 400 })
        guard let expected = try Self.hbShape(text, font: font) else {
            Issue.record("hb-shape is missing: scripts/setup.sh installs libharfbuzz-bin")
            return
        }
        // At a size of units-per-em, points are font units; one column long enough for the text.
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: font.family, size: Double(font.unitsPerEm))),
                                       width: 10_000, height: 100_000)
        request.writingMode = .verticalRightToLeft
        let layout = try Fixtures.layouter.layout(request)
        #expect(layout.lines.count == 1)
        #expect(layout.runs.allSatisfy { $0.orientation == .upright && $0.fontID == font.id })
        #expect(GoldenShapingTests.hbShapeVerticalLine(layout, text: text, flags: false) == expected)
    }
}
