import Foundation
import Testing
@testable import LayoutEngine
import LayoutRender

/// A blurred shadow's mask covers the shape's box and the blur's reach, cut from the grid a
/// mask of the whole picture has: the same pixels as a mask across the picture (to within 2 in
/// 255 per channel: Cairo's rounding differs a little with the mask's size), for less work.
@Suite struct BlurredShadowTests {
    /// `text` in 30-point Noto Sans with one blurred shadow, on a 400 × 600 canvas, as pixels.
    static func pixels(_ text: String, blur: Double, scale: Double) throws -> (width: Int, height: Int, data: [UInt32]) {
        let paint = TextPaint(shadows: [TextShadow(offset: Point(x: 3, y: 4), blurRadius: blur, color: Color(red: 0.9, green: 0.1, blue: 0.4))])
        let layout = try Fixtures.layouter.layout(ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 30),
                                                                                         paint: paint), width: 360))
        let scene = RenderScene(size: Size(width: 400, height: 600), canvas: Color(red: 1, green: 1, blue: 1), origin: Point(x: 20, y: 20),
                                backgrounds: [], runs: layout.runs, textColor: Color(red: 0, green: 0, blue: 0), paints: layout.paints)
        let png = try RenderTests.renderer.render(scene, format: .png, scale: scale)
        return try #require(RenderTests.pixels(png))
    }

    @Test(arguments: [(2.0, 1.0), (6.0, 2.0), (9.5, 3.0)])
    func aShadowsPixelsAreTheSameWhateverElseItsMaskCovers(blur: Double, scale: Double) throws {
        // Alone, the mask holds "Shadow" and its blur; with a dot 15 lines below, the mask runs
        // from the word to the dot, most of the picture. The word's band must not change.
        let alone = try Self.pixels("Shadow", blur: blur, scale: scale)
        let far = try Self.pixels("Shadow" + String(repeating: "\n", count: 13) + ".", blur: blur, scale: scale)
        #expect(alone.width == far.width && alone.height == far.height)
        let band = Int(saturating: 110 * scale) * alone.width
        var differing = 0, shaded = 0
        for index in 0..<band {
            if RenderTests.channelDistance(alone.data[index], far.data[index]) > 2 { differing += 1 }
            // Reddish, not the text's black or the canvas's white: the shadow.
            let pixel = alone.data[index]
            if (pixel >> 16) & 0xFF > (pixel & 0xFF) + 40 { shaded += 1 }
        }
        #expect(shaded > 100, "the shadow is drawn")
        #expect(differing == 0, "\(differing) pixels differ by more than 2 in 255")
    }
}
