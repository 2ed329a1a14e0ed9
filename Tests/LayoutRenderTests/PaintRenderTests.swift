import Foundation
import Testing
@testable import LayoutEngine
import LayoutRender

/// The renderer draws each run in the paint the layout gave it (PaintTests holds the layout side).
@Suite struct PaintRenderTests {
    static let red = Color(red: 1, green: 0, blue: 0)
    static let blue = Color(red: 0, green: 0, blue: 1)

    @Test func theRendererDrawsEachRunInItsPaint() throws {
        let text = AttributedText("Red and blue", style: TextStyle(family: "Noto Sans", size: 24),
                                  spans: [.init(range: 0..<3, patch: StylePatch(color: Self.red)),
                                          .init(range: 8..<12, patch: StylePatch(color: Self.blue))])
        let painted = try Fixtures.layouter.layout(ParagraphRequest(text: text, width: 400))
        let scene = RenderScene(size: Size(width: 400, height: painted.size.height), canvas: Color(red: 1, green: 1, blue: 1),
                                origin: Point(x: 0, y: 0), backgrounds: [], runs: painted.runs,
                                textColor: Color(red: 0, green: 0, blue: 0), paints: painted.paints)
        let svg = String(decoding: try RenderTests.renderer.render(scene, format: .svg, scale: 1), as: UTF8.self)
        #expect(svg.contains("rgb(100%, 0%, 0%)") || svg.contains("rgb(100%,0%,0%)"))
        #expect(svg.contains("rgb(0%, 0%, 100%)") || svg.contains("rgb(0%,0%,100%)"))
        #expect(svg.contains("rgb(0%, 0%, 0%)") || svg.contains("rgb(0%,0%,0%)"))
    }
}
