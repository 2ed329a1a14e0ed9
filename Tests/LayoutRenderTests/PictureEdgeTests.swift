import Foundation
import CCairo
import Testing
@testable import LayoutEngine
@testable import LayoutRender

/// What a person sees at the edges of drawn pictures and shapes, pixel by pixel: a photo under
/// image tags is opaque to its last pixel, scaled up or not; an attachment's picture reaches its
/// box's edge in its own colour; a ring-shaped container shown under its text keeps its hole.
@Suite struct PictureEdgeTests {
    /// A PNG of one opaque colour.
    static func solid(width: Int32, height: Int32, red: Double, green: Double, blue: Double) -> [UInt8] {
        TestPictures.png(CAIRO_FORMAT_RGB24, width: width, height: height) { cr in
            cairo_set_source_rgb(cr, red, green, blue)
            cairo_paint(cr)
        }
    }

    /// Pixels whose alpha or colour is not the expected opaque ARGB, within 2 of 255 a channel.
    static func off(_ pixels: [UInt32], from expected: UInt32) -> Int {
        pixels.filter { RenderTests.channelDistance($0, expected) > 2 }.count
    }

    /// A photo 36 × 45 pixels shown on a 360 × 450 point photo (ten times up), one at the photo's
    /// own size, and one drawn at twice the scale: no tags, so every pixel is the photo's colour.
    @Test(arguments: [(36, 45, 1.0), (360, 450, 1.0), (360, 450, 2.0)])
    func aTagPhotoIsOpaqueToItsEdges(_ photo: (width: Int32, height: Int32, scale: Double)) throws {
        let png = Self.solid(width: photo.width, height: photo.height, red: 0.8, green: 0.2, blue: 0.1)
        let layout = try Fixtures.layouter.layoutTags(TagsRequest(photo: Size(width: 360, height: 450), tags: []))
        let scene = TagScene(layout: layout, state: .shown(shadowOpacity: 0.3), photo: png)
        let pixels = try #require(RenderTests.pixels(try RenderTests.renderer.render(scene, format: .png, scale: photo.scale)))
        #expect(pixels.width == Int(saturating: 360 * photo.scale) && pixels.height == Int(saturating: 450 * photo.scale))
        let expected: UInt32 = 0xFF_CC_33_1A
        #expect(Self.off(pixels.data, from: expected) == 0, "\(Self.off(pixels.data, from: expected)) pixels are not the photo's opaque colour")
        // The corners and the middle of each edge, named, for a failure that says where.
        for (x, y) in [(0, 0), (pixels.width - 1, 0), (0, pixels.height - 1), (pixels.width - 1, pixels.height - 1), (pixels.width / 2, 0)] {
            #expect(pixels.data[y * pixels.width + x] >> 24 == 0xFF, "alpha at \(x), \(y)")
        }
    }

    /// A 10 × 10 red picture stretched into a 40 × 40 box at (10, 10) on grey: every pixel of
    /// the box is red, the box's edge pixels too, and none outside it.
    @Test(arguments: [ContentMode.scaleToFill, .aspectFit, .aspectFill])
    func anAttachmentsPictureReachesItsBoxEdgeInItsOwnColour(_ mode: ContentMode) throws {
        var scene = RenderScene(size: Size(width: 60, height: 60), canvas: Color(red: 0.5, green: 0.5, blue: 0.5),
                                origin: Point(x: 0, y: 0), backgrounds: [], runs: [], textColor: Color(red: 0, green: 0, blue: 0))
        scene.attachments = [SceneAttachment(rect: Rect(x: 10, y: 10, width: 40, height: 40),
                                             png: Self.solid(width: 10, height: 10, red: 1, green: 0, blue: 0), contentMode: mode)]
        let pixels = try #require(RenderTests.pixels(try RenderTests.renderer.render(scene, format: .png, scale: 1)))
        var inside: [UInt32] = [], outside: [UInt32] = []
        for y in 0..<60 {
            for x in 0..<60 {
                let pixel = pixels.data[y * 60 + x]
                if (10..<50).contains(x) && (10..<50).contains(y) { inside.append(pixel) } else { outside.append(pixel) }
            }
        }
        #expect(Self.off(inside, from: 0xFF_FF_00_00) == 0, "\(mode): \(Self.off(inside, from: 0xFF_FF_00_00)) pixels of the box are not red")
        #expect(Self.off(outside, from: 0xFF_80_80_80) == 0, "\(mode): the picture reached past its box")
    }

    /// A fitted picture of another shape leaves the box's bars as the canvas: the edge's colour
    /// is not smeared into them.
    @Test func aFittedPicturesBarsStayTheCanvas() throws {
        var scene = RenderScene(size: Size(width: 60, height: 60), canvas: Color(red: 0.5, green: 0.5, blue: 0.5),
                                origin: Point(x: 0, y: 0), backgrounds: [], runs: [], textColor: Color(red: 0, green: 0, blue: 0))
        scene.attachments = [SceneAttachment(rect: Rect(x: 10, y: 10, width: 40, height: 40),
                                             png: Self.solid(width: 20, height: 10, red: 1, green: 0, blue: 0), contentMode: .aspectFit)]
        let pixels = try #require(RenderTests.pixels(try RenderTests.renderer.render(scene, format: .png, scale: 1)))
        // The picture is 40 × 20 at (10, 20); the bars are y 10..<20 and 40..<50.
        let bars = (10..<50).flatMap { x in [12, 18, 41, 48].map { y in pixels.data[y * 60 + x] } }
        let picture = (10..<50).flatMap { x in (20..<40).map { y in pixels.data[y * 60 + x] } }
        #expect(Self.off(bars, from: 0xFF_80_80_80) == 0)
        #expect(Self.off(picture, from: 0xFF_FF_00_00) == 0)
    }

    /// A ring container (a disc 200 across, a hole 100 across, drawn even-odd) shown under a
    /// short text: the ring is tinted, the hole is the white canvas; drawn non-zero, the same
    /// path is a whole disc.
    @Test(arguments: [FillRule.evenOdd, .nonZero])
    func aRingContainerKeepsItsHoleWhenShown(_ rule: FillRule) throws {
        func circle(_ cx: Double, _ cy: Double, _ r: Double) -> [PathCommand] {
            let k = 0.5523 * r
            return [.move(Point(x: cx + r, y: cy)),
                    .cubic(Point(x: cx + r, y: cy + k), Point(x: cx + k, y: cy + r), Point(x: cx, y: cy + r)),
                    .cubic(Point(x: cx - k, y: cy + r), Point(x: cx - r, y: cy + k), Point(x: cx - r, y: cy)),
                    .cubic(Point(x: cx - r, y: cy - k), Point(x: cx - k, y: cy - r), Point(x: cx, y: cy - r)),
                    .cubic(Point(x: cx + k, y: cy - r), Point(x: cx + r, y: cy - k), Point(x: cx + r, y: cy)), .close]
        }
        let ring = FlowShape(.path(Path(circle(100, 100, 100) + circle(100, 100, 50))), fillRule: rule)
        let flow = TextFlow(containers: [TextContainer(width: 200, height: 200, shape: ring)])
        var request = ParagraphRequest(text: AttributedText("A ring.", style: TextStyle(family: "Noto Sans", size: 12)), width: 200)
        request.flow = flow
        let scene = FlowRenderTests.scene(try Fixtures.layouter.layout(request), shapes: flow.shapeOutlines)
        let pixels = try #require(RenderTests.pixels(try RenderTests.renderer.render(scene, format: .png, scale: 1)))
        // The scene's origin is (20, 20): the hole's centre is at (120, 120), the ring's bottom at (120, 195).
        let hole = pixels.data[120 * pixels.width + 120], band = pixels.data[195 * pixels.width + 120]
        #expect(band & 0xFF < 0xF8, "the ring is tinted")
        if rule == .evenOdd {
            #expect(hole == 0xFF_FF_FF_FF, "the hole is the canvas, got \(String(hole, radix: 16))")
        } else {
            #expect(hole == band, "non-zero: the hole is filled as the ring is")
        }
    }
}
