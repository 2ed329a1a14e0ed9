import Foundation
import Testing
@testable import LayoutEngine
import LayoutRender
import LayoutUnicode

/// A variable font's instance is drawn at its axis values, not the default's (VariableFontTests
/// holds the shaping and metrics to hb-shape).
@Suite struct VariableFontRenderTests {
    static let interPath = "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf"

    @Test func rendererDrawsTheInstance() throws {
        let registry = try FontRegistry.load(paths: [Self.interPath, "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"],
                                             defaultFamily: "Inter")
        let layouter = ParagraphLayouter(fonts: registry)
        let renderer = Renderer(fonts: registry)
        func inkPixels(weight: Int) throws -> Int {
            let style = TextStyle(family: "Inter", weight: weight, size: 60)
            let layout = try layouter.layout(ParagraphRequest(text: AttributedText("IIIIIIII", style: style), width: 2000))
            let scene = RenderScene(size: Size(width: layout.size.width + 20, height: layout.size.height + 20),
                                    canvas: Color(red: 1, green: 1, blue: 1), origin: Point(x: 10, y: 10), backgrounds: [],
                                    runs: layout.runs, textColor: Color(red: 0, green: 0, blue: 0))
            let png = try renderer.render(scene, format: .png, scale: 1)
            let pixels = try #require(RenderTests.pixels(png))
            return pixels.data.filter { $0 & 0xFF < 128 }.count  // dark blue channel: ink
        }
        let thin = try inkPixels(weight: 100)
        let black = try inkPixels(weight: 900)
        #expect(thin > 0 && black > thin * 3, "thin \(thin), black \(black)")
    }
}
