import CCairo
import Testing
@testable import LayoutEngine
@testable import LayoutRender

/// A PNG's alpha read for a silhouette (`Renderer.silhouette`): pixel for pixel as drawn, opaque
/// where the picture has no alpha, and bad pictures refused by name.
@Suite struct SilhouetteDecodingTests {
    @Test func theAlphaIsReadPixelForPixel() throws {
        // A 40 × 30 picture, clear but for a half-opaque square at (10, 5)…(19, 14) and one opaque pixel.
        let png = TestPictures.png(width: 40, height: 30) { cr in
            cairo_set_source_rgba(cr, 0, 0, 1, 0.5)
            cairo_rectangle(cr, 10, 5, 10, 10)
            cairo_fill(cr)
            cairo_set_source_rgba(cr, 1, 0, 0, 1)
            cairo_rectangle(cr, 39, 29, 1, 1)
            cairo_fill(cr)
        }
        let silhouette = try Renderer.silhouette(png: png, field: "png")
        #expect(silhouette.width == 40 && silhouette.height == 30)
        for row in 0..<30 {
            for column in 0..<40 {
                let expected: UInt8 = (row, column) == (29, 39) ? 255 : (5..<15).contains(row) && (10..<20).contains(column) ? 128 : 0
                #expect(abs(Int(silhouette.alpha[row * 40 + column]) - Int(expected)) <= 1, "(\(column), \(row))")
            }
        }
        // Above half: the one opaque pixel alone; at 0.4 the square too.
        let shape = try #require(silhouette.shape(in: Rect(x: 0, y: 0, width: 40, height: 30), threshold: 0.6))
        #expect(shape.polygons().count == 1)
        #expect(try #require(silhouette.shape(in: Rect(x: 0, y: 0, width: 40, height: 30), threshold: 0.4)).polygons().count == 2)
    }

    @Test func aPictureWithoutAlphaIsOpaqueAndBadBytesAreNamed() throws {
        let opaque = TestPictures.png(CAIRO_FORMAT_RGB24, width: 8, height: 6) { _ in }
        let silhouette = try Renderer.silhouette(png: opaque, field: "png")
        #expect(silhouette.alpha.count == 48 && silhouette.alpha.allSatisfy { $0 == 255 })
        #expect(throws: LayoutError.self) { try Renderer.silhouette(png: Array("no png".utf8), field: "shape.image.png") }
        do { _ = try Renderer.silhouette(png: Array("no png".utf8), field: "shape.image.png") } catch { #expect(error.field == "shape.image.png") }
    }
}
