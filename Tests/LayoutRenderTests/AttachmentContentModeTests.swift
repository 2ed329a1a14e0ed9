import Foundation
import CCairo
import Testing
@testable import LayoutEngine
@testable import LayoutRender

/// Attachments' content modes, pixel by pixel: a 300 × 150 picture of a black disc 150 across, on
/// white, drawn into a 40 × 40 box at (10, 10) on a grey canvas. What a person sees: stretched,
/// the disc is an oval 20 wide and 40 tall; fitted, a disc 20 across with white bars above and
/// below; filled, a disc 40 across, the picture's sides cut off; centred, the picture's middle
/// 40 × 40 pixels, all of them inside the disc.
@Suite struct AttachmentContentModeTests {
    static let box = Rect(x: 10, y: 10, width: 40, height: 40)

    static let picture = TestPictures.png(width: 300, height: 150) { cr in
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_arc(cr, 150, 75, 75, 0, 2 * .pi)
        cairo_fill(cr)
    }

    /// The dark pixels' bounding box, and the white ones inside the attachment's box.
    static func drawn(_ mode: ContentMode) throws -> (dark: (minX: Int, maxX: Int, minY: Int, maxY: Int), white: Int) {
        var scene = RenderScene(size: Size(width: 60, height: 60), canvas: Color(red: 0.5, green: 0.5, blue: 0.5),
                                origin: Point(x: 0, y: 0), backgrounds: [], runs: [], textColor: Color(red: 0, green: 0, blue: 0))
        scene.attachments = [SceneAttachment(rect: box, png: picture, contentMode: mode)]
        let pixels = try #require(RenderTests.pixels(try RenderTests.renderer.render(scene, format: .png, scale: 1)))
        var dark = (minX: Int.max, maxX: Int.min, minY: Int.max, maxY: Int.min), white = 0
        for y in 0..<pixels.height {
            for x in 0..<pixels.width {
                let value = pixels.data[y * pixels.width + x] & 0xFF
                if value < 0x40 { dark = (min(dark.minX, x), max(dark.maxX, x), min(dark.minY, y), max(dark.maxY, y)) }
                if value > 0xC0 { white += 1 }
                if value < 0x40 || value > 0xC0 {
                    #expect(Double(x) >= box.x - 1 && Double(x) < box.maxX + 1 && Double(y) >= box.y - 1 && Double(y) < box.maxY + 1,
                            "\(mode): ink outside the box at \(x), \(y)")
                }
            }
        }
        return (dark, white)
    }

    static func size(_ dark: (minX: Int, maxX: Int, minY: Int, maxY: Int)) -> (width: Int, height: Int) {
        (dark.maxX - dark.minX + 1, dark.maxY - dark.minY + 1)
    }

    @Test func scaleToFillStretchesTheDiscIntoAnOval() throws {
        let (width, height) = Self.size(try Self.drawn(.scaleToFill).dark)
        #expect(abs(width - 20) <= 2 && abs(height - 40) <= 1, "\(width) × \(height)")
    }

    @Test func aspectFitKeepsTheDiscRoundWithBars() throws {
        let (dark, white) = try Self.drawn(.aspectFit)
        let (width, height) = Self.size(dark)
        #expect(abs(width - 20) <= 2 && abs(height - 20) <= 2 && abs(width - height) <= 1, "\(width) × \(height)")
        // Centred: the disc's middle at the box's.
        #expect(abs(Double(dark.minX + dark.maxX) / 2 - 30) <= 1 && abs(Double(dark.minY + dark.maxY) / 2 - 30) <= 1)
        // The picture is 40 × 20 in the box: the bars above and below are the canvas, not white.
        #expect(white < 40 * 20, "\(white) white pixels")
    }

    @Test func aspectFillCoversTheBoxAndCutsTheSides() throws {
        let (dark, white) = try Self.drawn(.aspectFill)
        let (width, height) = Self.size(dark)
        #expect(abs(width - 40) <= 1 && abs(height - 40) <= 1, "\(width) × \(height)")
        // The disc's corners are the picture's white: the whole box is the picture.
        #expect(white > 200 && white < 40 * 40 / 4, "\(white) white pixels")
    }

    @Test func centerDrawsTheMiddleAtItsOwnSize() throws {
        let (dark, white) = try Self.drawn(.center)
        #expect(Self.size(dark) == (40, 40) && white == 0)
    }

    /// The placement's arithmetic, for a client that draws attachments itself.
    @Test func placementsAreCentredAndScaledAsTheirModesSay() {
        let box = Rect(x: 0, y: 0, width: 40, height: 40)
        #expect(ContentMode.aspectFit.placement(width: 300, height: 150, in: box) == (40.0 / 300, 40.0 / 300, Point(x: 0, y: 10)))
        let fill = ContentMode.aspectFill.placement(width: 300, height: 150, in: box)
        #expect(fill.scaleX == 40.0 / 150 && fill.origin == Point(x: -20, y: 0))
        #expect(ContentMode.center.placement(width: 300, height: 150, in: box).origin == Point(x: -130, y: -55))
    }
}
