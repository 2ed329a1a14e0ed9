import Foundation
import CCairo
import Testing
@testable import LayoutEngine
@testable import LayoutRender

/// Story frames: the canvas, its fill, and the block placed on it, checked pixel by pixel.
@Suite struct StoryFrameTests {
    static let red = Color(red: 1, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 1)

    /// A 100 x 40 block filled green (its backgrounds), nothing else.
    static func scene(_ frame: StoryFrame) -> RenderScene {
        let block = Background(rects: [Rect(x: 0, y: 0, width: 100, height: 40)],
                               path: Path([.move(Point(x: 0, y: 0)), .line(Point(x: 100, y: 0)), .line(Point(x: 100, y: 40)),
                                           .line(Point(x: 0, y: 40)), .close]),
                               fill: Color(red: 0, green: 1, blue: 0))
        var scene = RenderScene(size: Size(width: 100, height: 40), canvas: Color(red: 1, green: 1, blue: 1), origin: Point(x: 0, y: 0),
                                backgrounds: [block], runs: [], textColor: Color(red: 0, green: 0, blue: 0))
        scene.frame = frame
        return scene
    }

    static func pixels(_ frame: StoryFrame) throws -> (width: Int, height: Int, data: [UInt32]) {
        try #require(RenderTests.pixels(try RenderTests.renderer.render(scene(frame), format: .png, scale: 1)))
    }

    static func at(_ picture: (width: Int, height: Int, data: [UInt32]), _ x: Int, _ y: Int) -> UInt32 {
        picture.data[y * picture.width + x] & 0xFFFFFF
    }

    @Test func theBlockSitsCentredOnTheFramesFill() throws {
        let picture = try Self.pixels(StoryFrame(size: Size(width: 300, height: 500), fill: .color(Self.blue)))
        #expect(picture.width == 300 && picture.height == 500)
        #expect(Self.at(picture, 5, 5) == 0x0000FF, "the fill")
        #expect(Self.at(picture, 150, 250) == 0x00FF00, "the block's centre on the canvas's")
        #expect(Self.at(picture, 150 - 48, 250) == 0x00FF00 && Self.at(picture, 150 - 52, 250) == 0x0000FF)
        #expect(Self.at(picture, 150, 250 - 18) == 0x00FF00 && Self.at(picture, 150, 250 - 22) == 0x0000FF)
    }

    @Test func aPointAnAnchorARotationAndAPinchPlaceTheBlock() throws {
        // The block's top-left corner at (0.2, 0.1) of the canvas, doubled.
        let placed = try Self.pixels(StoryFrame(size: Size(width: 300, height: 500), fill: .color(Self.blue),
                                                position: Point(x: 0.2, y: 0.1), anchor: Point(x: 0, y: 0), scale: 2))
        #expect(Self.at(placed, 62, 52) == 0x00FF00 && Self.at(placed, 58, 52) == 0x0000FF)
        #expect(Self.at(placed, 60 + 198, 50 + 78) == 0x00FF00 && Self.at(placed, 60 + 202, 50 + 78) == 0x0000FF)
        // A quarter turn clockwise about the centre: 40 wide, 100 tall.
        let turned = try Self.pixels(StoryFrame(size: Size(width: 300, height: 500), fill: .color(Self.blue), rotation: 90))
        #expect(Self.at(turned, 150, 250 + 45) == 0x00FF00 && Self.at(turned, 150 + 25, 250) == 0x0000FF)
        #expect(Self.at(turned, 150 + 18, 250) == 0x00FF00)
    }

    @Test func gradientsRunBetweenTheirPoints() throws {
        let linear = try Self.pixels(StoryFrame(size: Size(width: 200, height: 400),
                                                fill: .linearGradient(start: Point(x: 0.5, y: 0), end: Point(x: 0.5, y: 1),
                                                                      stops: [GradientStop(offset: 0, color: Self.red), GradientStop(offset: 1, color: Self.blue)]),
                                                position: Point(x: 2, y: 2)))  // the block off the canvas
        let top = Self.at(linear, 100, 1), bottom = Self.at(linear, 100, 398), middle = Self.at(linear, 100, 200)
        #expect(top >> 16 > 0xF0 && top & 0xFF < 0x10)
        #expect(bottom >> 16 < 0x10 && bottom & 0xFF > 0xF0)
        #expect((0x70...0x90).contains(middle >> 16) && (0x70...0x90).contains(middle & 0xFF))
        let radial = try Self.pixels(StoryFrame(size: Size(width: 200, height: 200),
                                                fill: .radialGradient(center: Point(x: 0.5, y: 0.5), edge: Point(x: 1, y: 0.5),
                                                                      stops: [GradientStop(offset: 0, color: Self.red), GradientStop(offset: 1, color: Self.blue)]),
                                                position: Point(x: 2, y: 2)))
        #expect(Self.at(radial, 100, 100) >> 16 > 0xF0 && Self.at(radial, 199, 100) & 0xFF > 0xE0)
    }

    @Test func aPhotoCoversOrFits() throws {
        // A 20 x 10 red PNG on a 100 x 100 canvas: covering, it fills it; fitting, it leaves bars.
        let red = TestPictures.png(width: 20, height: 10) { cr in
            cairo_set_source_rgb(cr, 1, 0, 0)
            cairo_paint(cr)
        }
        let off = Point(x: 5, y: 5)
        let covered = try Self.pixels(StoryFrame(size: Size(width: 100, height: 100), fill: .photo(png: red, fits: false, background: Self.blue),
                                                 position: off))
        #expect(Self.at(covered, 10, 10) == 0xFF0000 && Self.at(covered, 50, 90) == 0xFF0000)
        let fitted = try Self.pixels(StoryFrame(size: Size(width: 100, height: 100), fill: .photo(png: red, fits: true, background: Self.blue),
                                                position: off))
        #expect(Self.at(fitted, 50, 50) == 0xFF0000 && Self.at(fitted, 50, 5) == 0x0000FF && Self.at(fitted, 50, 95) == 0x0000FF)
    }
}
