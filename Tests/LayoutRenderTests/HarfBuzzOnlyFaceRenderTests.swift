import Foundation
import Testing
@testable import LayoutEngine
import LayoutRender
import LayoutUnicode
import LayoutFonts

/// A face FreeType refuses but HarfBuzz shapes (HarfBuzz's own test fonts lack `hhea`, `loca`
/// or `name`): loaded with its names and style read by HarfBuzz, laid out, and drawn from
/// HarfBuzz's outlines, where Cairo's FreeType faces cannot draw it. HarfBuzz's test fonts have
/// no ink, so the face drawn is Noto Sans with its `hhea` table's tag changed, which FreeType
/// refuses (HarfBuzz then gives every glyph no advance: letter spacing sets them apart).
@Suite struct HarfBuzzOnlyFaceRenderTests {
    static let testFont = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("LayoutEngineTests/HarfBuzzInHouse/fonts/a59fd13f1525a91cbe529c882e93d9d1fbb80463.ttf").path

    /// Noto Sans's bytes with `hhea` renamed `hheb` (still in the directory's order).
    static func notoSansWithoutHhea() throws -> [UInt8] {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf")))
        let tables = Int(bytes[4]) << 8 | Int(bytes[5])
        for k in 0..<tables where Array(bytes[12 + 16 * k..<16 + 16 * k]) == Array("hhea".utf8) { bytes[15 + 16 * k] = UInt8(ascii: "b") }
        return bytes
    }

    @Test func aFontWithoutHheaIsLoadedWithHarfBuzzsReading() throws {
        let registry = try FontRegistry.load(paths: [Self.testFont, "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"])
        #expect(registry.problems.isEmpty, "\(registry.problems)")
        let face = try #require(registry.fonts.first { $0.path == Self.testFont })
        #expect(face.weight == 400 && !face.italic && face.widthClass == 5 && face.coverageCount > 0)
    }

    @Test func isDrawnFromHarfBuzzsOutlines() throws {
        let client = ClientFont(family: "Nameless", bytes: FontBytes(try Self.notoSansWithoutHhea()))
        let registry = try Fixtures.registry.adding([client], field: "fonts")
        var style = TextStyle(family: "Nameless", size: 60)
        style.fontFallback = false
        style.letterSpacing = 60
        let layout = try ParagraphLayouter(fonts: registry).layout(ParagraphRequest(text: AttributedText("HIH", style: style), width: 2000))
        let face = try #require(registry.clientFaces(after: Fixtures.registry).first)
        #expect(layout.runs.count == 1 && layout.runs[0].fontID == face.id && face.family == "Nameless")
        func ink(_ registry: FontRegistry, _ layout: ParagraphLayout) throws -> Int {
            // Room above the line: without `hhea` HarfBuzz reads no ascent, and the line is short.
            let scene = RenderScene(size: Size(width: layout.size.width + 20, height: layout.size.height + 200),
                                    canvas: Color(red: 1, green: 1, blue: 1), origin: Point(x: 10, y: 100), backgrounds: [],
                                    runs: layout.runs, textColor: Color(red: 0, green: 0, blue: 0))
            let pixels = try #require(RenderTests.pixels(try Renderer(fonts: registry).render(scene, format: .png, scale: 1)))
            return pixels.data.filter { $0 & 0xFF < 128 }.count
        }
        // The same glyphs of the whole Noto Sans, drawn by FreeType, ink as much (hinting aside).
        let drawn = try ink(registry, layout)
        let whole = try ink(Fixtures.registry, try Fixtures.layouter.layout(
            ParagraphRequest(text: AttributedText("HIH", style: TextStyle(family: "Noto Sans", size: 60)), width: 2000)))
        #expect(drawn > whole * 8 / 10 && drawn < whole * 12 / 10, "drawn \(drawn), FreeType's \(whole)")
    }
}
