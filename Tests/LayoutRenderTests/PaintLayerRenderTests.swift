import CCairo
import Foundation
import Testing
@testable import LayoutEngine
@testable import LayoutRender

/// Gradient and picture fills, several shadows and a glow, drawn: each checked in pixels where
/// its geometry says it stands, and in SVG and PDF as what those formats hold.
@Suite struct PaintLayerRenderTests {
    static let red = Color(red: 1, green: 0, blue: 0)
    static let blue = Color(red: 0, green: 0, blue: 1)
    static let origin = Point(x: 40, y: 40)

    /// `text` laid out with `paint` and drawn at scale 1 on white, 40 points in from the top
    /// left, with `fillImages` for picture fills.
    static func drawn(_ text: String, paint: TextPaint, size: Double = 60, fillImages: [[UInt8]] = [],
                      format: RenderFormat = .png) throws -> (layout: ParagraphLayout, picture: [UInt8]) {
        let attributed = AttributedText(text, style: TextStyle(family: "Noto Sans", weight: 700, size: size), paint: paint)
        let layout = try Fixtures.layouter.layout(ParagraphRequest(text: attributed, width: 600))
        var scene = RenderScene(size: Size(width: layout.size.width + 80, height: layout.size.height + 80),
                                canvas: Color(red: 1, green: 1, blue: 1), origin: origin, backgrounds: [], runs: layout.runs,
                                textColor: Color(red: 0, green: 0, blue: 0), paints: layout.paints, decorations: layout.decorations)
        scene.fillRegions = layout.fillRegions
        scene.fillImages = fillImages
        return (layout, try RenderTests.renderer.render(scene, format: format, scale: 1))
    }

    /// The pixel at `(x, y)` in layout points, as (red, green, blue, alpha) 0...255.
    static func pixel(_ png: [UInt8], _ x: Double, _ y: Double) throws -> (r: Int, g: Int, b: Int) {
        let picture = try #require(RenderTests.pixels(png))
        let value = picture.data[Int(saturating: y + origin.y) * picture.width + Int(saturating: x + origin.x)]
        return (Int((value >> 16) & 0xFF), Int((value >> 8) & 0xFF), Int(value & 0xFF))
    }

    /// The middle of the vertical stem of the glyph at `index` (an "I").
    static func stem(_ layout: ParagraphLayout, _ index: Int) -> Point {
        let glyph = layout.runs[0].glyphs[layout.runs[0].glyphs.startIndex + index]
        return Point(x: glyph.position.x + glyph.advance / 2, y: glyph.position.y - 20)
    }

    @Test func aLinearGradientRunsAcrossTheSpanFromItsFirstColourToItsLast() throws {
        let stops = [GradientStop(offset: 0, color: Self.red), GradientStop(offset: 1, color: Self.blue)]
        let fill = TextFill(.linearGradient(start: Point(x: 0, y: 0.5), end: Point(x: 1, y: 0.5), stops: stops))
        let (layout, png) = try Self.drawn("IIIIIIII", paint: TextPaint(fill: fill))
        let first = Self.stem(layout, 0), last = Self.stem(layout, 7), middle = Self.stem(layout, 4)
        let left = try Self.pixel(png, first.x, first.y), right = try Self.pixel(png, last.x, last.y)
        #expect(left.r > 200 && left.b < 60 && left.g < 40, "the first I is red: \(left)")
        #expect(right.b > 200 && right.r < 60 && right.g < 40, "the last I is blue: \(right)")
        let between = try Self.pixel(png, middle.x, middle.y)
        #expect(between.r > 60 && between.b > 60 && between.g < 40, "the middle I is between: \(between)")
        // Above the letters the canvas stays white: the gradient is clipped to the glyphs.
        let above = try Self.pixel(png, first.x, first.y - 60)
        #expect(above.r == 255 && above.g == 255 && above.b == 255)
    }

    @Test func eachStretchOfAPaintHasItsOwnGradient() throws {
        // One fill over the first and last four letters: one paint, two regions, each box its own
        // gradient from red to blue; the plain letters between stay black.
        let stops = [GradientStop(offset: 0, color: Self.red), GradientStop(offset: 1, color: Self.blue)]
        let fill = TextFill(.linearGradient(start: Point(x: 0, y: 0.5), end: Point(x: 1, y: 0.5), stops: stops))
        let spans = [AttributedText.Span(range: 0..<4, patch: StylePatch(fill: .set(fill))),
                     AttributedText.Span(range: 8..<12, patch: StylePatch(fill: .set(fill)))]
        let attributed = AttributedText("IIIIIIIIIIII", style: TextStyle(family: "Noto Sans", weight: 700, size: 60), spans: spans)
        let layout = try Fixtures.layouter.layout(ParagraphRequest(text: attributed, width: 600))
        #expect(layout.fillRegions.count == 2)
        var scene = RenderScene(size: Size(width: layout.size.width + 80, height: layout.size.height + 80),
                                canvas: Color(red: 1, green: 1, blue: 1), origin: Self.origin, backgrounds: [], runs: layout.runs,
                                textColor: Color(red: 0, green: 0, blue: 0), paints: layout.paints)
        scene.fillRegions = layout.fillRegions
        let png = try RenderTests.renderer.render(scene, format: .png, scale: 1)
        func colour(_ offset: Int) throws -> (r: Int, g: Int, b: Int) {
            let glyph = try #require(layout.runs.flatMap(\.glyphs).first { $0.cluster == offset })
            return try Self.pixel(png, glyph.position.x + glyph.advance / 2, glyph.position.y - 20)
        }
        let first = try colour(0), fourth = try colour(3), plain = try colour(5), ninth = try colour(8), last = try colour(11)
        #expect(first.r > 150 && first.b < 100 && ninth.r > 150 && ninth.b < 100, "each box starts red: \(first) \(ninth)")
        #expect(fourth.b > 150 && last.b > 150, "and ends blue: \(fourth) \(last)")
        #expect(plain.r < 40 && plain.g < 40 && plain.b < 40, "the letters between are the text colour: \(plain)")
    }

    @Test func aPictureFillShowsThePictureInTheGlyphs() throws {
        // Left half green, right half blue, stretched over the text.
        let picture = TestPictures.png(width: 40, height: 20) { cr in
            cairo_set_source_rgb(cr, 0, 0.8, 0)
            cairo_rectangle(cr, 0, 0, 20, 20)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 0, 0, 1)
            cairo_rectangle(cr, 20, 0, 20, 20)
            cairo_fill(cr)
        }
        let fill = TextFill(.image(index: 0, mode: .scaleToFill))
        let (layout, png) = try Self.drawn("IIIIIIII", paint: TextPaint(fill: fill), fillImages: [picture])
        let first = Self.stem(layout, 0), last = Self.stem(layout, 7)
        let left = try Self.pixel(png, first.x, first.y), right = try Self.pixel(png, last.x, last.y)
        #expect(left.g > 150 && left.r < 40 && left.b < 40, "the first I shows the green half: \(left)")
        #expect(right.b > 200 && right.r < 40 && right.g < 40, "the last I shows the blue half: \(right)")
        // A picture the request lacks leaves the glyphs in their colour.
        let (_, missing) = try Self.drawn("IIIIIIII", paint: TextPaint(color: Self.red, fill: fill))
        let plain = try Self.pixel(missing, first.x, first.y)
        #expect(plain.r > 200 && plain.g < 40 && plain.b < 40, "without its picture the fill is the text colour: \(plain)")
    }

    @Test func everyShadowIsDrawnTheTopOneOverTheOthers() throws {
        let shadows = [TextShadow(offset: Point(x: 0, y: 30), color: Self.red), TextShadow(offset: Point(x: 0, y: 40), color: Self.blue)]
        let (layout, png) = try Self.drawn("I", paint: TextPaint(shadows: shadows))
        let glyph = layout.runs[0].glyphs.first!
        let stem = glyph.position.x + glyph.advance / 2
        // 35 points down both shadows cover the stem's foot; the first, red, is on top.
        let overlap = try Self.pixel(png, stem, glyph.position.y + 35 - 20)
        #expect(overlap.r > 200 && overlap.b < 60, "the top shadow is the first: \(overlap)")
        // Past the red one's reach only the blue one is there.
        let blueOnly = try Self.pixel(png, stem, glyph.position.y + 35)
        #expect(blueOnly.b > 200 && blueOnly.r < 60, "the second shadow is drawn too: \(blueOnly)")
        // The glyph is over both.
        let ink = try Self.pixel(png, stem, glyph.position.y - 20)
        #expect(ink.r == 0 && ink.g == 0 && ink.b == 0)
    }

    @Test func aGlowSurroundsTheGlyphsEvenlyAndGrowsWithItsStrength() throws {
        let glow = { (strength: Int) in TextPaint(glow: TextGlow(radius: 8, color: Self.blue, strength: strength)) }
        let (layout, weak) = try Self.drawn("I", paint: glow(1))
        let (_, strong) = try Self.drawn("I", paint: glow(4))
        let stem = Self.stem(layout, 0)
        // The stem's edges, black glyph on the halo, found along the row.
        var left = stem.x, right = stem.x
        while try Self.pixel(weak, left - 1, stem.y).r < 60 { left -= 1 }
        while try Self.pixel(weak, right + 1, stem.y).r < 60 { right += 1 }
        // Three points out on each side: tinted blue alike (no offset), more so when stronger.
        let outLeft = try Self.pixel(weak, left - 3, stem.y), outRight = try Self.pixel(weak, right + 3, stem.y)
        #expect(outLeft.r < 230 && outLeft.b > 240, "blue to the left: \(outLeft)")
        #expect(abs(outLeft.r - outRight.r) < 20, "as much on both sides: \(outLeft) \(outRight)")
        let strongLeft = try Self.pixel(strong, left - 3, stem.y)
        #expect(strongLeft.r < outLeft.r - 40, "a stronger glow is denser: \(strongLeft) against \(outLeft)")
        // Far off the glyph, the canvas.
        let far = try Self.pixel(weak, right + 30, stem.y)
        #expect(far.r == 255 && far.g == 255 && far.b == 255)
    }

    @Test func svgAndPdfCarryTheFillsAndGlows() throws {
        let stops = [GradientStop(offset: 0, color: Self.red), GradientStop(offset: 1, color: Self.blue)]
        let paint = TextPaint(shadows: [TextShadow(offset: Point(x: 2, y: 2), blurRadius: 3)], glow: TextGlow(radius: 4),
                              fill: TextFill(.radialGradient(center: Point(x: 0.5, y: 0.5), edge: Point(x: 1, y: 1), stops: stops)))
        let (_, svg) = try Self.drawn("Glow", paint: paint, format: .svg)
        let text = try #require(String(bytes: svg, encoding: .utf8))
        #expect(text.contains("radialGradient"))
        let linear = TextPaint(fill: TextFill(.linearGradient(start: Point(x: 0, y: 0), end: Point(x: 1, y: 1), stops: stops)))
        let (_, linearSVG) = try Self.drawn("Glow", paint: linear, format: .svg)
        #expect(String(bytes: linearSVG, encoding: .utf8)?.contains("linearGradient") == true)
        let (_, pdf) = try Self.drawn("Glow", paint: paint, format: .pdf)
        #expect(pdf.starts(with: Array("%PDF".utf8)))
        // A PDF gradient is a shading.
        #expect(String(decoding: pdf, as: UTF8.self).contains("/Shading"))
    }

    @Test func textOnAPathIsDrawnTurnedAlongIt() throws {
        // Straight down the page from (60, 0): the letters' ink stands in a narrow column,
        // tall where the line would be wide, in PNG and the same turned glyphs in SVG.
        var request = ParagraphRequest(text: AttributedText("IIIIIIII", style: TextStyle(family: "Noto Sans", weight: 700, size: 30)), width: 300)
        request.textPath = TextPath(path: Path([.move(Point(x: 60, y: 0)), .line(Point(x: 60, y: 400))]))
        let layout = try Fixtures.layouter.layout(request)
        var scene = RenderScene(size: Size(width: 200, height: 400), canvas: Color(red: 1, green: 1, blue: 1), origin: Point(x: 0, y: 0),
                                backgrounds: [], runs: layout.runs, textColor: Color(red: 0, green: 0, blue: 0), paints: layout.paints)
        scene.glyphAngles = layout.glyphAngles
        let png = try RenderTests.renderer.render(scene, format: .png, scale: 1)
        let picture = try #require(RenderTests.pixels(png))
        var inked: [(x: Int, y: Int)] = []
        for y in 0..<picture.height {
            for x in 0..<picture.width where picture.data[y * picture.width + x] & 0xFF < 100 { inked.append((x, y)) }
        }
        let xs = inked.map(\.x), ys = inked.map(\.y)
        #expect(!inked.isEmpty)
        #expect(xs.max()! - xs.min()! < 40, "a narrow column: x \(xs.min()!)...\(xs.max()!)")
        #expect(ys.max()! - ys.min()! > 80, "as long as the line (eight I's of 11 points): y \(ys.min()!)...\(ys.max()!)")
        // Turned clockwise, the glyphs' tops face right: their ink lies right of the path.
        #expect(xs.min()! >= 55 && xs.max()! > 70)
        // SVG and PDF draw the same turned glyphs.
        let svg = try RenderTests.renderer.render(scene, format: .svg, scale: 1)
        #expect(String(decoding: svg, as: UTF8.self).contains("<svg"))
        #expect(try RenderTests.renderer.render(scene, format: .pdf, scale: 1).starts(with: Array("%PDF".utf8)))
    }
}
