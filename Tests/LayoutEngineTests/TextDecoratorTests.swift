import Foundation
import Testing
@testable import LayoutEngine
import LayoutUnicode

/// The decorate stage for text: span fills, underlines and strikethroughs as geometry, held to
/// the fonts' own tables, read here from the font files' bytes (not through HarfBuzz, which the
/// code under test uses).
@Suite struct TextDecoratorTests {
    static let red = Color(red: 1, green: 0, blue: 0)
    static let yellow = Color(red: 1, green: 1, blue: 0)

    /// The numbers of a font file's `post` and `OS/2` tables that decorations use, in font units.
    struct FontTables {
        var unitsPerEm: Int
        var underlinePosition: Int, underlineThickness: Int
        var strikeoutPosition: Int, strikeoutSize: Int

        init(path: String) throws {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
            func i16(_ at: Int) -> Int { Int(Int16(bitPattern: UInt16(u16(at)))) }
            func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
            var tables: [String: Int] = [:]
            for k in 0..<u16(4) {
                let record = 12 + 16 * k
                tables[String(decoding: bytes[record..<record + 4], as: UTF8.self)] = u32(record + 8)
            }
            let head = try #require(tables["head"]), post = try #require(tables["post"]), os2 = try #require(tables["OS/2"])
            unitsPerEm = u16(head + 18)
            underlinePosition = i16(post + 8)
            underlineThickness = i16(post + 10)
            strikeoutSize = i16(os2 + 26)
            strikeoutPosition = i16(os2 + 28)
        }
    }

    static func tables(of run: GlyphRunLayout) throws -> FontTables {
        try FontTables(path: Fixtures.registry.font(id: run.fontID)!.path)
    }

    static func layout(_ string: String, width: Double = 1000, size: Double = 24, paint: TextPaint = TextPaint(),
                       spans: [AttributedText.Span] = []) throws -> ParagraphLayout {
        let text = AttributedText(string, style: TextStyle(family: "Noto Sans", size: size), paint: paint, spans: spans)
        return try ParagraphLayouter(fonts: Fixtures.registry, cache: nil).layout(ParagraphRequest(text: text, width: width))
    }

    static func underline(_ style: DecorationLine.Style = .single, skipsInk: Bool = false) -> TextPaint {
        TextPaint(underline: DecorationLine(style: style, skipsInk: skipsInk))
    }

    static func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 }

    @Test func anUnderlineSitsWhereThePostTableSays() throws {
        let layout = try Self.layout("Hamburgefonstiv", paint: Self.underline())
        let line = layout.lines[0], run = layout.runs[0]
        let font = try Self.tables(of: run)
        let scale = 24 / Double(font.unitsPerEm)
        let decoration = try #require(layout.decorations.first)
        #expect(layout.decorations.count == 1)
        #expect(decoration.kind == .underline && decoration.range == 0..<15 && decoration.lineIndex == 0)
        #expect(decoration.rects.count == 1)
        let rect = decoration.rects[0]
        #expect(Self.near(rect.y, line.baselineOrigin.y - Double(font.underlinePosition) * scale))
        #expect(Self.near(rect.height, Double(font.underlineThickness) * scale))
        #expect(Self.near(decoration.thickness, rect.height))
        #expect(Self.near(rect.x, line.baselineOrigin.x) && Self.near(rect.width, line.width))
        #expect(decoration.color == nil, "no colour set: the client's text colour")
    }

    @Test func aStrikethroughSitsWhereTheOS2TableSays() throws {
        let layout = try Self.layout("Strike", size: 30, paint: TextPaint(strikethrough: DecorationLine(color: Self.red)))
        let line = layout.lines[0]
        let font = try Self.tables(of: layout.runs[0])
        let scale = 30 / Double(font.unitsPerEm)
        let rect = try #require(layout.decorations.first?.rects.first)
        #expect(layout.decorations[0].kind == .strikethrough && layout.decorations[0].color == Self.red)
        #expect(Self.near(rect.y, line.baselineOrigin.y - Double(font.strikeoutPosition) * scale))
        #expect(Self.near(rect.height, Double(font.strikeoutSize) * scale))
    }

    /// Two fonts (Noto Sans, DejaVu Serif) and two sizes on one line: one continuous underline at
    /// the lowest position with the thickest stroke, not a staircase.
    @Test func anUnderlineAcrossFontsAndSizesIsOneLine() throws {
        let spans = [AttributedText.Span(range: 6..<11, patch: StylePatch(family: "DejaVu Serif", size: 40))]
        let layout = try Self.layout("small LARGE small", paint: Self.underline(), spans: spans)
        #expect(Set(layout.runs.map(\.fontID)).count == 2)
        #expect(layout.decorations.count == 1)
        let decoration = layout.decorations[0]
        #expect(decoration.rects.count == 1 && decoration.range == 0..<17)
        let baseline = layout.lines[0].baselineOrigin.y
        var lowest = -Double.infinity, thickest = 0.0
        for run in layout.runs {
            let font = try Self.tables(of: run)
            let scale = run.size / Double(font.unitsPerEm)
            lowest = max(lowest, baseline - Double(font.underlinePosition) * scale)
            thickest = max(thickest, Double(font.underlineThickness) * scale)
        }
        #expect(Self.near(decoration.rects[0].y, lowest) && Self.near(decoration.rects[0].height, thickest))
        // Each font alone would have put it elsewhere: the test would catch a staircase.
        let positions = try layout.runs.map { run in
            let font = try Self.tables(of: run)
            return Double(font.underlinePosition) * run.size / Double(font.unitsPerEm)
        }
        #expect(Set(positions.map { ($0 * 1000).rounded() }).count == 2)
        #expect(Self.near(decoration.rects[0].x, layout.lines[0].baselineOrigin.x))
        #expect(Self.near(decoration.rects[0].width, layout.lines[0].width))
    }

    @Test func eachLineStyleHasItsShape() throws {
        let single = try Self.layout("Lines", paint: Self.underline()).decorations[0]
        let t = single.thickness, full = single.rects[0]
        let double = try Self.layout("Lines", paint: Self.underline(.double)).decorations[0]
        #expect(double.rects.count == 2 && double.rects[0] == full)
        #expect(Self.near(double.rects[1].y, full.y + 2 * t) && Self.near(double.rects[1].height, t))
        let thick = try Self.layout("Lines", paint: Self.underline(.thick)).decorations[0]
        #expect(thick.rects.count == 1 && Self.near(thick.rects[0].height, 2 * t) && Self.near(thick.thickness, 2 * t))
        let dotted = try Self.layout("Lines", paint: Self.underline(.dotted)).decorations[0]
        #expect(dotted.rects.count > 3)
        #expect(dotted.rects.allSatisfy { Self.near($0.height, t) && $0.width <= t + 1e-9 })
        #expect(Self.near(dotted.rects[1].x - dotted.rects[0].x, 2 * t))
        let dashed = try Self.layout("Lines", paint: Self.underline(.dashed)).decorations[0]
        #expect(Self.near(dashed.rects[0].width, 3 * t) && Self.near(dashed.rects[1].x - dashed.rects[0].x, 5 * t))
        #expect(dashed.rects.last!.x + dashed.rects.last!.width <= full.x + full.width + 1e-9)
        // A double strikethrough stays centred on the single one.
        let strike = try Self.layout("Lines", paint: TextPaint(strikethrough: DecorationLine())).decorations[0].rects[0]
        let doubleStrike = try Self.layout("Lines", paint: TextPaint(strikethrough: DecorationLine(style: .double))).decorations[0].rects
        let centre = (doubleStrike[0].y + doubleStrike[1].y + doubleStrike[1].height) / 2
        #expect(Self.near(centre, strike.y + strike.height / 2))
    }

    @Test func anUnderlineThatSkipsInkIsCutAroundDescenders() throws {
        let plain = try Self.layout("gypsy jogging", paint: Self.underline())
        let skipping = try Self.layout("gypsy jogging", paint: Self.underline(skipsInk: true))
        let rects = skipping.decorations[0].rects
        #expect(rects.count > 2, "cut around g, y, p, j")
        #expect(rects.reduce(0) { $0 + $1.width } < plain.decorations[0].rects[0].width * 0.8)
        // Every piece stays on the plain line, in order, without overlap.
        for (a, b) in zip(rects, rects.dropFirst()) { #expect(a.x + a.width < b.x) }
        #expect(rects.allSatisfy { $0.y == plain.decorations[0].rects[0].y })
        // The same pieces as a path, a closed subpath each; an uncut line has none.
        #expect(skipping.decorations[0].path.flattened().count == rects.count)
        #expect(plain.decorations[0].path.commands.isEmpty)
        // No descender: nothing to cut.
        let capitals = try Self.layout("HAMBURG", paint: Self.underline(skipsInk: true))
        #expect(capitals.decorations[0].rects == (try Self.layout("HAMBURG", paint: Self.underline())).decorations[0].rects)
    }

    @Test func aCutLeavesNoInkUnderTheGaps() throws {
        // The ink of "g" at the underline's band: every remaining piece is clear of it by the thickness.
        let layout = try Self.layout("ogo", size: 100, paint: Self.underline(skipsInk: true))
        let decoration = layout.decorations[0]
        let whole = try Self.layout("ogo", size: 100, paint: Self.underline()).decorations[0].rects[0]
        let run = layout.runs[0]
        let font = Fixtures.registry.font(id: run.fontID)!
        let ink = InkIntercepts.intervals(of: [(run, font)], top: whole.y, bottom: whole.y + whole.height, clearance: 0)
        #expect(ink.count == 1, "only the g's descender reaches the line")
        #expect(decoration.rects.count == 2)
        for rect in decoration.rects {
            #expect(rect.x + rect.width <= ink[0].0 - decoration.thickness + 1e-9 || rect.x >= ink[0].1 + decoration.thickness - 1e-9)
        }
    }

    @Test func lineEndsAndHangingSpacesAreNotDecorated() throws {
        let text = "underlined words wrap here "
        let layout = try Self.layout(text, width: 150, paint: Self.underline())
        #expect(layout.lines.count >= 2)
        #expect(layout.decorations.count == layout.lines.count)
        for (decoration, line) in zip(layout.decorations, layout.lines) {
            #expect(decoration.lineIndex == layout.lines.firstIndex(of: line))
            #expect(Self.near(decoration.rects[0].width, line.width), "trailing spaces left out")
        }
    }

    @Test func aBackgroundSplitsWhereTheBidiLevelChanges() throws {
        let text = "one عربي two"
        let layout = try Self.layout(text, paint: TextPaint(background: Self.yellow))
        let fills = layout.decorations.filter { $0.kind == .background }
        #expect(fills.count == 3)
        let line = layout.lines[0]
        for fill in fills {
            #expect(fill.color == Self.yellow && fill.rects.count == 1)
            #expect(Self.near(fill.rects[0].y, line.baselineOrigin.y - line.ascent))
            #expect(Self.near(fill.rects[0].height, line.ascent + line.descent))
        }
        // Side by side in visual order, touching.
        for (a, b) in zip(fills, fills.dropFirst()) { #expect(Self.near(a.rects[0].x + a.rects[0].width, b.rects[0].x)) }
    }

    @Test func aSpanDecoratesItsRangeAndAClearedLineLeavesAGap() throws {
        let spans = [AttributedText.Span(range: 4..<9, patch: StylePatch(underline: .cleared)),
                     AttributedText.Span(range: 10..<14, patch: StylePatch(underline: .set(DecorationLine(color: Self.red))))]
        let layout = try Self.layout("one gap! two three", paint: Self.underline(), spans: spans)
        let lines = layout.decorations.filter { $0.kind == .underline }
        #expect(lines.map(\.range) == [0..<4, 9..<10, 10..<14, 14..<18])
        #expect(lines.map(\.color) == [nil, nil, Self.red, nil])
        // The line keeps one position across the pieces.
        #expect(Set(lines.map { $0.rects[0].y }).count == 1)
    }

    @Test func aTextWithoutDecorationsGetsNone() throws {
        #expect(try Self.layout("plain", paint: TextPaint(color: Self.red)).decorations.isEmpty)
        #expect(try Self.layout("plain").decorations.isEmpty)
        let shadowed = try Self.layout("plain", paint: TextPaint(shadows: [TextShadow(offset: Point(x: 2, y: 2))]))
        #expect(shadowed.decorations.isEmpty && shadowed.paints[0].shadow != nil)
    }

    @Test func aSpanGivesItsPaintToTheDefaults() throws {
        let patch = StylePatch(color: Self.red, underline: .set(DecorationLine(style: .dashed)))
        let paint = patch.appliedPaint(to: TextPaint(background: Self.yellow))
        #expect(paint == TextPaint(color: Self.red, background: Self.yellow, underline: DecorationLine(style: .dashed)))
        let cleared = StylePatch(background: Color(red: 0, green: 0, blue: 0, alpha: 0), shadows: .cleared)
            .appliedPaint(to: TextPaint(background: Self.yellow, shadows: [TextShadow(offset: Point(x: 1, y: 1))]))
        #expect(cleared == TextPaint())
    }
}

/// Text effects resolve into layers with every colour and offset derived (docs/text-effects.md).
@Suite struct TextEffectTests {
    static func near(_ a: Color, _ b: Color) -> Bool {
        abs(a.red - b.red) < 1e-9 && abs(a.green - b.green) < 1e-9 && abs(a.blue - b.blue) < 1e-9 && abs(a.alpha - b.alpha) < 1e-9
    }

    @Test func letterpressDerivesItsLipFaceAndShadow() {
        let text = Color(red: 0.54, green: 0.56, blue: 0.6), surface = Color(red: 0.9, green: 0.91, blue: 0.93)
        let layers = TextEffect.letterpress(surface: surface, depth: 1.5).layers(textColor: text)
        #expect(layers.map(\.mode) == [.fill, .fill, .innerEdge, .innerEdge, .innerEdge])
        // The lower lip: the surface lifted 65% toward white, under the face, moved down by the depth.
        #expect(Self.near(layers[0].color, Color(red: 0.965, green: 0.9685, blue: 0.9755, alpha: 0.9)))
        #expect(layers[0].offset == Point(x: 0, y: 1.5))
        #expect(layers[1].color == text && layers[1].offset == Point(x: 0, y: 0))
        // The upper wall's shadow in three steps: darkest at the edge, 1 − 0.63³ = 75% opaque there.
        for (k, layer) in layers[2...].enumerated() {
            #expect(Self.near(layer.color, Color(red: 0.243, green: 0.252, blue: 0.27, alpha: 0.37)))
            #expect(layer.offset == Point(x: 0, y: 0.5 * Double(k + 1)))
        }
        // Light from above only: nothing moves sideways.
        #expect(layers.allSatisfy { $0.offset.x == 0 })
        // The shadow is darker than the face and the lip lighter than the surface, whatever the colours.
        for value in stride(from: 0.0, through: 1.0, by: 0.25) {
            let grey = Color(red: value, green: value, blue: value)
            let derived = TextEffect.letterpress(surface: grey, depth: 1).layers(textColor: grey)
            #expect(derived[2].color.red <= grey.red && derived[0].color.red >= grey.red)
        }
    }

    @Test func anOutlineIsAStrokeOverAnOptionalFill() {
        let blue = Color(red: 0, green: 0, blue: 1), red = Color(red: 1, green: 0, blue: 0)
        #expect(TextEffect.outline(width: 2, color: red, keepsFill: false).layers(textColor: blue)
                == [EffectLayer(mode: .stroke, color: red, strokeWidth: 2)])
        #expect(TextEffect.outline(width: 3, color: nil, keepsFill: true).layers(textColor: blue)
                == [EffectLayer(mode: .fill, color: blue), EffectLayer(mode: .stroke, color: blue, strokeWidth: 3)])
        // Text with no colour of its own is derived as black.
        #expect(TextPaint(effect: .outline(width: 1, color: nil, keepsFill: false)).effectLayers[0].color == TextEffect.defaultTextColor)
    }

    @Test func anEffectSplitsRunsButNotShaping() throws {
        let spans = [AttributedText.Span(range: 0..<4, patch: StylePatch(effect: .set(.outline(width: 1, color: nil, keepsFill: false))))]
        let text = AttributedText("Hollow text", style: TextStyle(family: "Noto Sans", size: 24), spans: spans)
        let layout = try Fixtures.layouter.layout(ParagraphRequest(text: text, width: 400))
        #expect(layout.runs.map(\.range) == [0..<4, 4..<11])
        #expect(layout.paints[layout.runs[0].paint].effect != nil && layout.paints[layout.runs[1].paint].effect == nil)
        #expect(layout.decorations.isEmpty)
    }
}
