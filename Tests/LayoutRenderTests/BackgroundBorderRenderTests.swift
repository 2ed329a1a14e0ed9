import Foundation
import Testing
@testable import LayoutEngine
import LayoutRender

/// A background's border and shadow as a person sees them, pixel by pixel: the border along the
/// outline over the fill, dashed where it is dashed; the shadow under the fill, moved by its
/// offset, sharp or blurred; SVG keeps the dash pattern.
@Suite struct BackgroundBorderRenderTests {
    static let grey = Color(red: 0.5, green: 0.5, blue: 0.5)
    /// A 100 × 50 white box at (20, 20) on grey, 160 × 110.
    static func picture(border: BackgroundBorder? = nil, shadow: TextShadow? = nil,
                        format: RenderFormat = .png) throws -> [UInt8] {
        var background = Background(rects: [Rect(x: 20, y: 20, width: 100, height: 50)],
                                    path: Path.roundedRect(Rect(x: 20, y: 20, width: 100, height: 50), radius: 0),
                                    fill: Color(red: 1, green: 1, blue: 1))
        (background.border, background.shadow) = (border, shadow)
        let scene = RenderScene(size: Size(width: 160, height: 110), canvas: grey, origin: Point(x: 0, y: 0),
                                backgrounds: [background], runs: [], textColor: Color(red: 0, green: 0, blue: 0))
        return try RenderTests.renderer.render(scene, format: format, scale: 1)
    }

    static func pixels(_ png: [UInt8]) throws -> (Int, Int) -> (red: Int, green: Int, blue: Int) {
        let pixels = try #require(RenderTests.pixels(png))
        return { x, y in
            let p = pixels.data[y * pixels.width + x]
            return (Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
        }
    }

    static func isRed(_ p: (red: Int, green: Int, blue: Int)) -> Bool { p.red > 200 && p.green < 60 && p.blue < 60 }

    @Test func aBorderRunsAlongTheOutlineOverTheFill() throws {
        let at = try Self.pixels(Self.picture(border: BackgroundBorder(width: 4, color: Color(red: 1, green: 0, blue: 0))))
        // 4 points centred on the edge at y = 20: rows 18 to 21 red, the fill below, the canvas above.
        for x in [25, 70, 115] {
            #expect(Self.isRed(at(x, 18)) && Self.isRed(at(x, 21)), "edge at x \(x): \(at(x, 18)) \(at(x, 21))")
            #expect(at(x, 24) == (255, 255, 255) && at(x, 15) == (128, 128, 128))
        }
        #expect(Self.isRed(at(18, 45)) && Self.isRed(at(121, 45)) && Self.isRed(at(70, 71)))  // left, right, bottom
        let plain = try Self.pixels(Self.picture())
        #expect(plain(70, 19) == (128, 128, 128) && plain(70, 21) == (255, 255, 255))
    }

    @Test func aDashedBorderAlternatesAsItsPatternSays() throws {
        let at = try Self.pixels(Self.picture(border: BackgroundBorder(width: 4, color: Color(red: 1, green: 0, blue: 0), dashes: [10, 10])))
        // Along the top edge's outer half (row 19) from the corner: 10 red, 10 canvas, in turn.
        var runs: [(red: Bool, length: Int)] = []
        for x in 20..<120 {
            let red = Self.isRed(at(x, 19))
            if let last = runs.last, last.red == red { runs[runs.count - 1].length += 1 } else { runs.append((red, 1)) }
        }
        #expect(runs.count == 10 && runs.first?.red == true, "\(runs)")
        #expect(runs.allSatisfy { (9...11).contains($0.length) }, "\(runs)")
    }

    @Test func aShadowLiesUnderTheFillMovedByItsOffset() throws {
        let black = Color(red: 0, green: 0, blue: 0)
        let sharp = try Self.pixels(Self.picture(shadow: TextShadow(offset: Point(x: 10, y: 10), color: black)))
        #expect(sharp(125, 75) == (0, 0, 0) && sharp(70, 45) == (255, 255, 255))  // past the box's corner; under the fill
        #expect(sharp(135, 45) == (128, 128, 128) && sharp(15, 75) == (128, 128, 128))  // past the shadow
        let soft = try Self.pixels(Self.picture(shadow: TextShadow(offset: Point(x: 10, y: 10), blurRadius: 6, color: black)))
        // Blurred: lighter at the moved corner than deep inside its shadow, and reaching a little past the sharp edge.
        #expect(soft(70, 76).red < soft(128, 76).red && soft(128, 76).red < 128, "\(soft(70, 76)) \(soft(128, 76))")
        #expect(soft(133, 50).red < 128 && soft(133, 50).red > 60, "\(soft(133, 50))")
        #expect(soft(70, 45) == (255, 255, 255))
    }

    @Test func svgKeepsTheDashPatternAndPdfDrawsTheBorder() throws {
        let border = BackgroundBorder(width: 2, color: Color(red: 1, green: 0, blue: 0), dashes: [6, 3])
        let svg = String(decoding: try Self.picture(border: border, format: .svg), as: UTF8.self)
        #expect(svg.contains("stroke-dasharray:6,3") || svg.contains("stroke-dasharray=\"6 3\"") || svg.contains("stroke-dasharray:6 3"),
                "\(svg.prefix(2000))")
        let pdf = try Self.picture(border: border, format: .pdf)
        let plain = try Self.picture(format: .pdf)
        #expect(pdf.count > plain.count)
    }
}
