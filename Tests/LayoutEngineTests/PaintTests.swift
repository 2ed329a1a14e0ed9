import Foundation
import Testing
@testable import LayoutEngine
import LayoutUnicode

/// Paint resolves apart from shaping: spans that differ only in colour split the reply's runs
/// but never what HarfBuzz shapes (as CoreText keeps a colour change inside one shaped run).
@Suite struct PaintTests {
    static let red = Color(red: 1, green: 0, blue: 0)
    static let blue = Color(red: 0, green: 0, blue: 1)

    /// The layout, and the items the text was shaped as (each one HarfBuzz call). Counted from
    /// the shaped text, not the process-wide call counter, which tests running beside this one move.
    static func layout(_ string: String, spans: [(Range<Int>, Color)], width: Double = 400) throws -> (ParagraphLayout, calls: [Range<Int>]) {
        let layouter = ParagraphLayouter(fonts: Fixtures.registry, cache: nil)
        let text = AttributedText(string, style: TextStyle(family: "Noto Sans", size: 24),
                                  spans: spans.map { AttributedText.Span(range: $0.0, patch: StylePatch(color: $0.1)) })
        let shaped = try layouter.shape(text, direction: .auto, context: LayoutContext(layouter: layouter))
        let layout = try layouter.layout(ParagraphRequest(text: text, width: width))
        return (layout, shaped.paragraphs.flatMap { $0.items.map(\.range) })
    }

    static func glyphs(_ layout: ParagraphLayout) -> [PositionedGlyph] { layout.runs.flatMap(\.glyphs) }

    /// A paint's init makes its rare box only when glow, fill or emphasis is set (the shortcut
    /// beside `RareBox.change`): every combination keeps what it was given, equals the same
    /// paint set field by field, and is plain only with none.
    @Test func aPaintKeepsItsRareValuesInEveryCombination() {
        let glow = TextGlow(radius: 4, color: Self.red, strength: 2)
        let fill = TextFill(.linearGradient(start: Point(x: 0, y: 0), end: Point(x: 1, y: 0),
                                    stops: [GradientStop(offset: 0, color: Self.red), GradientStop(offset: 1, color: Self.blue)]))
        let emphasis = EmphasisMarks(.dot)
        for mask in 0..<8 {
            let g = mask & 1 != 0 ? glow : nil, f = mask & 2 != 0 ? fill : nil, e = mask & 4 != 0 ? emphasis : nil
            let made = TextPaint(glow: g, fill: f, emphasis: e)
            var set = TextPaint()
            set.glow = g
            set.fill = f
            set.emphasis = e
            #expect(made.glow == g && made.fill == f && made.emphasis == e, "mask \(mask)")
            #expect(made == set && made.hashValue == set.hashValue, "mask \(mask)")
            #expect(made.isPlain == (mask == 0), "mask \(mask)")
        }
    }

    /// `paintsGlyphs` (what a reply lists paints for) opens the rare box only when there is
    /// one: it answers as the paint's getters do, field by field.
    @Test func aPaintPaintsTheGlyphsWithAColourShadowGlowFillOrEffect() {
        let glow = TextGlow(radius: 4, color: Self.red, strength: 2)
        let fill = TextFill(.linearGradient(start: Point(x: 0, y: 0), end: Point(x: 1, y: 0),
                                    stops: [GradientStop(offset: 0, color: Self.red), GradientStop(offset: 1, color: Self.blue)]))
        let painting: [TextPaint] = [
            TextPaint(color: Self.red), TextPaint(shadows: [TextShadow(offset: Point(x: 1, y: 1))]), TextPaint(glow: glow),
            TextPaint(fill: fill), TextPaint(effect: .outline(width: 1, color: nil, keepsFill: true)),
            TextPaint(background: Self.blue, glow: glow, emphasis: EmphasisMarks(.dot)),
        ]
        let notPainting: [TextPaint] = [
            TextPaint(), TextPaint(background: Self.blue), TextPaint(underline: DecorationLine()),
            TextPaint(strikethrough: DecorationLine()), TextPaint(emphasis: EmphasisMarks(.dot)),
        ]
        for paint in painting + notPainting {
            let byGetters = paint.color != nil || !paint.shadows.isEmpty || paint.glow != nil || paint.fill != nil || paint.effect != nil
            #expect(paint.paintsGlyphs == byGetters, "\(paint)")
        }
        #expect(painting.allSatisfy(\.paintsGlyphs) && !notPainting.contains(where: \.paintsGlyphs))
        #expect(!TextPaint.anyPaintsGlyphs(notPainting) && !TextPaint.anyPaintsGlyphs([]))
        for paint in painting { #expect(TextPaint.anyPaintsGlyphs(notPainting + [paint])) }
    }

    @Test func aColourSpanSplitsTheRunsNotTheShaping() throws {
        let plain = try Self.layout("Hello colourful world", spans: [])
        let painted = try Self.layout("Hello colourful world", spans: [(6..<15, Self.red)])
        #expect(painted.0.paints == [TextPaint(), TextPaint(color: Self.red)])
        #expect(Self.glyphs(painted.0) == Self.glyphs(plain.0))
        #expect(painted.calls == plain.calls)
        #expect(plain.0.runs.count == 1)
        #expect(painted.0.runs.map(\.range) == [0..<6, 6..<15, 15..<21])
        #expect(painted.0.runs.map(\.paint) == [0, 1, 0])
    }

    @Test func anArabicLetterColouredKeepsItsJoining() throws {
        // "سلام عليكم": the second letter of the first word in red.
        let text = "سلام عليكم"
        let plain = try Self.layout(text, spans: [])
        let painted = try Self.layout(text, spans: [(1..<2, Self.red)])
        #expect(Self.glyphs(painted.0).map(\.id) == Self.glyphs(plain.0).map(\.id), "the joined forms changed")
        #expect(painted.calls == plain.calls)
        // Runs of one paint, covering the text once, in visual order on a right-to-left line.
        let ranges = painted.0.runs.map(\.range)
        #expect(ranges.reduce(0) { $0 + $1.count } == text.utf16.count)
        let red = painted.0.runs.filter { $0.paint == 1 }
        #expect(red.count == 1 && red[0].range == 1..<2 && red[0].glyphs.count >= 1)
        #expect(red[0].glyphs.allSatisfy { $0.cluster == 1 })
    }

    /// Spaces after Latin that end an Arabic paragraph take its level (UAX #9 L1) but keep the
    /// order they were shaped in: painted apart, each run's range still runs forwards (the
    /// engine trapped on a backwards range here, found by the editing sessions' random edits).
    @Test func trailingSpacesOfAnArabicParagraphPaintedApart() throws {
        let text = "مرحبا abc   defghi"
        for width in stride(from: 60.0, through: 400, by: 20) {
            let painted = try Self.layout(text, spans: [(9..<10, Self.red), (10..<11, Self.blue)], width: width)
            let ranges = painted.0.runs.map(\.range)
            #expect(ranges.reduce(0) { $0 + $1.count } == text.utf16.count)
            #expect(painted.0.runs.filter { $0.paint == 1 }.map(\.range) == [9..<10])
            #expect(painted.0.runs.filter { $0.paint == 2 }.map(\.range) == [10..<11])
        }
    }

    @Test func aLigatureAcrossAColourChangeTakesItsFirstLettersPaint() throws {
        // Noto Sans forms "fi" as one glyph: colour the i alone.
        let plain = try Self.layout("fine", spans: [])
        let painted = try Self.layout("fine", spans: [(1..<2, Self.blue)])
        #expect(Self.glyphs(painted.0) == Self.glyphs(plain.0))
        let ligature = Self.glyphs(plain.0).count < 4
        if ligature {
            #expect(painted.0.runs.allSatisfy { $0.paint == 0 }, "the ligature is f's")
        } else {
            #expect(painted.0.runs.map(\.paint) == [0, 1, 0])
        }
    }

    @Test func laterSpansWinForPaintAsForStyle() throws {
        let painted = try Self.layout("abcdef", spans: [(0..<6, Self.red), (2..<4, Self.blue)])
        #expect(painted.0.runs.map(\.range) == [0..<2, 2..<4, 4..<6])
        let colours = painted.0.runs.map { painted.0.paints[$0.paint].color }
        #expect(colours == [Self.red, Self.blue, Self.red])
    }

    @Test func wrappedAndTruncatedLinesKeepTheirPaint() throws {
        let string = "one two three four five six seven eight nine ten"
        let layouter = ParagraphLayouter(fonts: Fixtures.registry)
        var request = ParagraphRequest(text: AttributedText(string, style: TextStyle(family: "Noto Sans", size: 24),
                                                            spans: [.init(range: 4..<13, patch: StylePatch(color: Self.red))]),
                                       width: 120)
        request.maxLines = 2
        let layout = try layouter.layout(request)
        for run in layout.runs where !run.isTruncationToken {
            let painted = run.range.lowerBound >= 4 && run.range.upperBound <= 13
            #expect((run.paint == 1) == painted, "run \(run.range) has paint \(run.paint)")
        }
    }
}
