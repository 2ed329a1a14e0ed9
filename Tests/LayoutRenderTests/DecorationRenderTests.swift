import Foundation
import Testing
@testable import LayoutEngine
import LayoutRender

/// Pictures of each decoration and effect in Latin, Arabic and Chinese, compared with stored
/// references as the Type Mode pictures are (`RenderTests`; LAYOUTD_UPDATE_REFERENCES=1
/// rewrites them), and pixel checks that each decoration is drawn where its geometry says.
@Suite struct DecorationRenderTests {
    static let red = Color(red: 0.85, green: 0.1, blue: 0.1)
    static let blue = Color(red: 0.1, green: 0.3, blue: 0.9)
    static let yellow = Color(red: 1, green: 0.9, blue: 0.3)

    /// Every decoration on one text, span by span.
    static func spans(_ count: Int) -> [AttributedText.Span] {
        let patches: [StylePatch] = [
            StylePatch(underline: .set(DecorationLine())),
            StylePatch(underline: .set(DecorationLine(style: .double, color: red))),
            StylePatch(underline: .set(DecorationLine(style: .thick, skipsInk: true))),
            StylePatch(underline: .set(DecorationLine(style: .dotted, color: blue))),
            StylePatch(underline: .set(DecorationLine(style: .dashed))),
            StylePatch(strikethrough: .set(DecorationLine(color: red))),
            StylePatch(background: yellow),
            StylePatch(color: blue, shadows: .set([TextShadow(offset: Point(x: 2, y: 2), blurRadius: 3)])),
        ]
        let step = max(count / patches.count, 1)
        return patches.enumerated().compactMap { index, patch in
            let start = index * step
            return start < count ? AttributedText.Span(range: start..<min(start + step, count), patch: patch) : nil
        }
    }

    /// The effects, in halves: letterpress, then an outline with its fill.
    static func effectSpans(_ count: Int) -> [AttributedText.Span] {
        [AttributedText.Span(range: 0..<count / 2, patch: StylePatch(color: Color(red: 0.54, green: 0.56, blue: 0.6),
                                                                      effect: .set(.letterpress(surface: Color(red: 0.9, green: 0.91, blue: 0.93), depth: 1.5)))),
         AttributedText.Span(range: count / 2..<count, patch: StylePatch(color: blue, effect: .set(.outline(width: 1.5, color: red, keepsFill: true))))]
    }

    static func scene(_ text: String, effects: Bool = false) throws -> RenderScene {
        let count = text.utf16.count
        let attributed = AttributedText(text, style: TextStyle(family: "Noto Sans", weight: effects ? 700 : 400, size: effects ? 34 : 26),
                                        spans: effects ? effectSpans(count) : spans(count))
        let layout = try Fixtures.layouter.layout(ParagraphRequest(text: attributed, width: 320))
        // Letterpressed text is drawn on its surface, as the daemon draws it when no canvas is named.
        return RenderScene(size: Size(width: 360, height: layout.size.height + 40),
                           canvas: RenderScene.pressedSurface(layout.paints) ?? Color(red: 1, green: 1, blue: 1),
                           origin: Point(x: 20, y: 20), backgrounds: [], runs: layout.runs, textColor: Color(red: 0, green: 0, blue: 0),
                           paints: layout.paints, decorations: layout.decorations)
    }

    static let cases: [(name: String, text: String)] = [
        ("decorations-latin", "Underlined, doubled, thick and gappy, dotted, dashed, struck, filled and shadowed"),
        ("decorations-arabic", "خط تحت الكلمات، مزدوج وسميك ومنقط ومتقطع، مشطوب، بخلفية وظل"),
        ("decorations-chinese", "下划线、双线、粗线、点线、虚线、删除线、背景色和阴影都在这里"),
        ("effects-latin", "Pressed into paper, then outlined"),
        ("effects-arabic", "نص محفور في الورق ثم نص محدد"),
        ("effects-chinese", "压印在纸上的文字和描边文字"),
    ]

    @Test(arguments: cases.map(\.name))
    func decorationsMatchTheirReference(_ name: String) throws {
        let c = try #require(Self.cases.first { $0.name == name })
        let png = try RenderTests.renderer.render(try Self.scene(c.text, effects: name.hasPrefix("effects")), format: .png, scale: 2)
        let file = RenderTests.references.appendingPathComponent("\(name).png")
        if ProcessInfo.processInfo.environment["LAYOUTD_UPDATE_REFERENCES"] == "1" { try Data(png).write(to: file) }
        let reference = try #require(RenderTests.pixels(Array(try Data(contentsOf: file))), "missing reference \(file.path)")
        let produced = try #require(RenderTests.pixels(png))
        #expect(produced.width == reference.width && produced.height == reference.height)
        let share = RenderTests.difference(produced.data, reference.data)
        #expect(share < 0.002, "\(name): \(share * 100)% of pixels differ")
    }

    /// The pixel at a point of the scene (points, before the origin), at scale 1.
    static func pixel(_ png: [UInt8], _ x: Double, _ y: Double, origin: Point) throws -> UInt32 {
        let picture = try #require(RenderTests.pixels(png))
        return picture.data[Int(saturating: y + origin.y) * picture.width + Int(saturating: x + origin.x)]
    }

    /// `text` laid out and drawn at scale 1, on white (or `canvas`), 10 points in from the top left.
    static func drawn(_ text: AttributedText, canvasWidth: Double, below: Double = 20,
                      canvas: Color = Color(red: 1, green: 1, blue: 1)) throws -> (layout: ParagraphLayout, png: [UInt8]) {
        let layout = try Fixtures.layouter.layout(ParagraphRequest(text: text, width: canvasWidth - 20))
        let scene = RenderScene(size: Size(width: canvasWidth, height: layout.size.height + below), canvas: canvas,
                                origin: origin, backgrounds: [], runs: layout.runs, textColor: Color(red: 0, green: 0, blue: 0),
                                paints: layout.paints, decorations: layout.decorations)
        return (layout, try RenderTests.renderer.render(scene, format: .png, scale: 1))
    }

    static let origin = Point(x: 10, y: 10)

    /// A one-glyph layout's glyph, its ink's left and right edges and its middle height, in points.
    static func ink(of layout: ParagraphLayout) -> (glyph: PositionedGlyph, left: Double, right: Double, middle: Double) {
        let glyph = layout.runs[0].glyphs.first!
        let font = Fixtures.registry.font(id: layout.runs[0].fontID)!
        let ink = font.inkExtents(glyph.id), scale = font.scale(for: layout.runs[0].size)
        let left = glyph.position.x + Double(ink.x) * scale
        return (glyph, left, left + Double(ink.width) * scale, glyph.position.y - Double(ink.y) * scale + Double(-ink.height) * scale / 2)
    }

    @Test func eachDecorationIsDrawnWhereItsGeometrySays() throws {
        let text = "Hamburg Hamburg"
        let spans = [AttributedText.Span(range: 0..<7, patch: StylePatch(underline: .set(DecorationLine(style: .thick, color: Self.red)))),
                     AttributedText.Span(range: 8..<15, patch: StylePatch(background: Self.yellow))]
        let (layout, png) = try Self.drawn(AttributedText(text, style: TextStyle(family: "Noto Sans", size: 40), spans: spans), canvasWidth: 620)
        let origin = Self.origin
        let underline = try #require(layout.decorations.first { $0.kind == .underline }?.rects.first)
        let fill = try #require(layout.decorations.first { $0.kind == .background }?.rects.first)
        // ARGB: red underline in the middle of its rect, yellow fill above the glyphs' baseline at the left of the fill.
        let onLine = try Self.pixel(png, underline.x + underline.width / 2, underline.y + underline.height / 2, origin: origin)
        #expect((onLine >> 16) & 0xFF > 180 && (onLine >> 8) & 0xFF < 80, "underline pixel \(String(onLine, radix: 16))")
        let inFill = try Self.pixel(png, fill.x + 1, fill.y + 2, origin: origin)
        #expect((inFill >> 16) & 0xFF > 220 && (inFill >> 8) & 0xFF > 200 && inFill & 0xFF < 120, "fill pixel \(String(inFill, radix: 16))")
        // Below the underline: the white canvas.
        let below = try Self.pixel(png, underline.x + underline.width / 2, underline.y + underline.height + 6, origin: origin)
        #expect(below & 0xFFFFFF == 0xFFFFFF)
    }

    @Test func aShadowIsDrawnAtItsOffset() throws {
        let paint = TextPaint(shadows: [TextShadow(offset: Point(x: 0, y: 30), blurRadius: 0, color: Self.blue)])
        let (layout, png) = try Self.drawn(AttributedText("I", style: TextStyle(family: "Noto Sans", size: 60), paint: paint),
                                           canvasWidth: 100, below: 60)
        let origin = Self.origin
        let glyph = layout.runs[0].glyphs.first!
        let stem = glyph.position.x + glyph.advance / 2
        // Just under the baseline there is no I, but its shadow, 30 points down, is there.
        let shadow = try Self.pixel(png, stem, glyph.position.y + 10, origin: origin)
        #expect(shadow & 0xFF > 180 && (shadow >> 16) & 0xFF < 80, "shadow pixel \(String(shadow, radix: 16))")
        let ink = try Self.pixel(png, stem, glyph.position.y - 20, origin: origin)
        #expect(ink & 0xFFFFFF == 0, "the glyph itself is drawn over its shadow")
    }

    @Test func anOutlineWithoutFillLeavesTheGlyphsHollow() throws {
        let paint = TextPaint(effect: .outline(width: 1, color: nil, keepsFill: false))
        let (layout, png) = try Self.drawn(AttributedText("O", style: TextStyle(family: "Noto Sans", weight: 700, size: 100), paint: paint),
                                           canvasWidth: 140)
        let origin = Self.origin
        // Halfway through the O's left stroke: white inside the outline, black on it.
        let (_, left, _, middle) = Self.ink(of: layout)
        let onEdge = try [-1.0, 0, 1].map { try Self.pixel(png, left + $0, middle, origin: origin) }.min { $0 & 0xFF < $1 & 0xFF }!
        let inStroke = try Self.pixel(png, left + 6, middle, origin: origin)
        #expect(onEdge & 0xFF < 160, "the outline is drawn: \(String(onEdge, radix: 16))")
        #expect(inStroke & 0xFFFFFF == 0xFFFFFF, "the stroke's inside is not filled: \(String(inStroke, radix: 16))")
    }

    /// Letterpress as a person sees it: a grey "O" pressed 3 points into a paler grey surface,
    /// lit from above. Along its upper edges, inside the letter, a shadow that is darkest at the
    /// edge and fades into the face; under its lower edges, outside it, a line lighter than the
    /// surface (the cavity's lit lip); its left and right edges as plain as its face (no
    /// sideways offset, which read as a misregistered two-tone print); the surface elsewhere.
    @Test func letterpressReadsAsPressedIntoTheSurface() throws {
        let grey = Color(red: 0.5, green: 0.5, blue: 0.5), surface = Color(red: 0.8, green: 0.8, blue: 0.8)
        let paint = TextPaint(color: grey, effect: .letterpress(surface: surface, depth: 3))
        let (layout, png) = try Self.drawn(AttributedText("O", style: TextStyle(family: "Noto Sans", weight: 700, size: 120), paint: paint),
                                           canvasWidth: 140, canvas: surface)
        let origin = Self.origin
        let (glyph, left, right, middle) = Self.ink(of: layout)
        let font = try #require(Fixtures.registry.font(id: layout.runs[0].fontID))
        let ink = font.inkExtents(glyph.id), scale = font.scale(for: layout.runs[0].size)
        let top = glyph.position.y - Double(ink.y) * scale, bottom = top - Double(ink.height) * scale
        let centre = (left + right) / 2
        func value(_ x: Double, _ y: Double) throws -> Int { Int(try Self.pixel(png, x, y, origin: origin) & 0xFF) }
        let face = try value(left + 9, middle), plain = 204
        #expect(abs(face - 128) <= 3, "the face is the text's grey: \(face)")
        let leftEdge = try value(left + 1.5, middle), rightEdge = try value(right - 1.5, middle)
        #expect(abs(leftEdge - face) <= 6 && abs(rightEdge - face) <= 6, "the side edges are the face: \(leftEdge), \(rightEdge)")
        let edge = try value(centre, top + 1), fading = try value(centre, top + 2.5), past = try value(centre, top + 6)
        #expect(edge < face - 25, "shadow at the upper edge \(edge) against the face \(face)")
        #expect(fading > edge && fading < face, "the shadow fades: \(edge), \(fading), \(face)")
        #expect(abs(past - face) <= 3, "the face past the shadow: \(past)")
        let lip = try value(centre, bottom + 1.5), above = try value(centre, top - 1.5)
        let beyond = try value(centre, bottom + 8), lowerInside = try value(centre, bottom - 1.5)
        #expect(lip > plain + 15, "a lit lip under the lower edge: \(lip) against the surface \(plain)")
        #expect(abs(above - plain) <= 3, "no lip above the letter: \(above)")
        #expect(abs(beyond - plain) <= 3, "the surface below the lip: \(beyond)")
        #expect(abs(lowerInside - face) <= 6, "the lower edge inside is the face: \(lowerInside)")
    }

    @Test func svgAndPdfCarryTheDecorations() throws {
        let scene = try Self.scene(Self.cases[0].text)
        let svg = String(decoding: try RenderTests.renderer.render(scene, format: .svg, scale: 1), as: UTF8.self)
        let plain = RenderScene(size: scene.size, canvas: scene.canvas, origin: scene.origin, backgrounds: [], runs: scene.runs,
                                textColor: scene.textColor)
        let plainSVG = String(decoding: try RenderTests.renderer.render(plain, format: .svg, scale: 1), as: UTF8.self)
        #expect(svg.count > plainSVG.count)
        #expect(svg.contains("rgb(85"), "the red lines are in the SVG: \(svg.prefix(600))")
        let pdf = try RenderTests.renderer.render(scene, format: .pdf, scale: 1)
        #expect(pdf.starts(with: Array("%PDF".utf8)))
    }
}
