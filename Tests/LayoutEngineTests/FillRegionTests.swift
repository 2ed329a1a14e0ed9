import Testing
@testable import LayoutEngine

/// Gradient and picture fills, shadows and glows resolve from spans, and the decorate stage
/// finds each fill's box (`FillRegions`).
@Suite struct FillRegionTests {
    static let red = Color(red: 1, green: 0, blue: 0)
    static let blue = Color(red: 0, green: 0, blue: 1)
    static let stops = [GradientStop(offset: 0, color: red), GradientStop(offset: 1, color: blue)]
    static func linear(_ box: TextFill.Box = .span) -> TextFill {
        TextFill(.linearGradient(start: Point(x: 0, y: 0.5), end: Point(x: 1, y: 0.5), stops: stops), box: box)
    }

    static func layout(_ text: String, spans: [AttributedText.Span], width: Double = 200) throws -> ParagraphLayout {
        try Fixtures.layouter.layout(ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 20), spans: spans),
                                                      width: width))
    }

    /// The union of the typographic boxes of the runs of `paint` (on `line` alone when given).
    static func runBox(_ layout: ParagraphLayout, paint: Int, line: Int? = nil) -> Rect? {
        layout.runs.filter { $0.paint == paint && (line == nil || $0.lineIndex == line) }
            .compactMap { FillRegions.extent(of: $0, in: layout) }
            .reduce(nil) { all, box in all.map { $0.union(box) } ?? box }
    }

    @Test func aSpansFillCoversItsTextOnEveryLineInOneBox() throws {
        let text = "one two three four five six seven"
        let layout = try Self.layout(text, spans: [AttributedText.Span(range: 0..<text.utf16.count, patch: StylePatch(fill: .set(Self.linear())))])
        #expect(layout.lines.count > 1)
        let region = try #require(layout.fillRegions.first)
        #expect(layout.fillRegions.count == 1)
        #expect(region.range == 0..<text.utf16.count && region.lineIndex == nil)
        let box = try #require(Self.runBox(layout, paint: region.paint))
        #expect(region.box == box)
        // The gradient runs across the box, at its middle height.
        #expect(region.start == Point(x: box.x, y: box.y + box.height / 2))
        #expect(region.end == Point(x: box.maxX, y: box.y + box.height / 2))
        // The box spans the lines: from the first line's top to the last line's bottom.
        #expect(abs(box.y - (layout.lines[0].baselineOrigin.y - layout.lines[0].ascent)) < 1e-9)
        let last = layout.lines[layout.lines.count - 1]
        #expect(abs(box.maxY - (last.baselineOrigin.y + last.descent)) < 1e-9)
    }

    @Test func aLineFillGivesEachLineItsOwnBox() throws {
        let text = "one two three four five six seven"
        let layout = try Self.layout(text, spans: [AttributedText.Span(range: 0..<text.utf16.count, patch: StylePatch(fill: .set(Self.linear(.line))))])
        #expect(layout.fillRegions.count == layout.lines.count)
        for (index, region) in layout.fillRegions.enumerated() {
            #expect(region.lineIndex == index)
            #expect(region.box == Self.runBox(layout, paint: region.paint, line: index))
            #expect(region.range.lowerBound == layout.lines[index].range.lowerBound)
        }
    }

    @Test func aLayoutFillStretchesOverTheWholeLayout() throws {
        let text = "one two three four five six"
        let spans = [AttributedText.Span(range: 0..<3, patch: StylePatch(fill: .set(Self.linear(.layout)))),
                     AttributedText.Span(range: 8..<13, patch: StylePatch(fill: .set(Self.linear(.layout))))]
        let layout = try Self.layout(text, spans: spans)
        // Both spans take one paint (they are alike), and one box: the layout's.
        let region = try #require(layout.fillRegions.first)
        #expect(layout.fillRegions.count == 1)
        #expect(region.box == Rect(x: 0, y: 0, width: layout.size.width, height: layout.size.height))
        #expect(region.range == 0..<13)
        #expect(region.end.x == layout.size.width)
    }

    @Test func textOfAnotherPaintSplitsASpanFillInTwo() throws {
        let text = "gradient plain gradient"
        let spans = [AttributedText.Span(range: 0..<8, patch: StylePatch(fill: .set(Self.linear()))),
                     AttributedText.Span(range: 15..<23, patch: StylePatch(fill: .set(Self.linear())))]
        let layout = try Self.layout(text, spans: spans, width: 400)
        #expect(layout.fillRegions.map(\.range) == [0..<8, 15..<23])
        #expect(layout.fillRegions[0].box.maxX < layout.fillRegions[1].box.x)
        // Plain text has no regions, and a paint without a fill none either.
        #expect(try Self.layout(text, spans: [AttributedText.Span(range: 0..<8, patch: StylePatch(color: Self.red))]).fillRegions.isEmpty)
    }

    @Test func rightToLeftAndVerticalTextHaveBoxesToo() throws {
        let arabic = "نص عربي طويل يلتف على سطرين أو أكثر"
        let layout = try Self.layout(arabic, spans: [AttributedText.Span(range: 0..<arabic.utf16.count, patch: StylePatch(fill: .set(Self.linear(.line))))],
                                     width: 120)
        #expect(layout.fillRegions.count == layout.lines.count)
        for region in layout.fillRegions { #expect(region.box.width > 0 && region.box.height > 0) }
        var request = ParagraphRequest(text: AttributedText("縦書きの文字", style: TextStyle(family: "Noto Sans CJK JP", size: 20),
                                                             spans: [AttributedText.Span(range: 0..<6, patch: StylePatch(fill: .set(Self.linear())))]),
                                       width: 200, height: 200)
        request.writingMode = .verticalRightToLeft
        let vertical = try Fixtures.layouter.layout(request)
        let region = try #require(vertical.fillRegions.first)
        let box = region.box
        // A column, taller than wide, around the glyphs on the page; the gradient still runs
        // from the box's left to its right, as CSS reads a direction in any writing mode.
        #expect(box.height > box.width)
        let ys = vertical.runs.flatMap(\.glyphs).map(\.position.y)
        #expect(box.y <= ys.min()! && ys.max()! <= box.maxY)
        #expect(region.start == Point(x: box.x, y: box.y + box.height / 2) && region.end == Point(x: box.maxX, y: box.y + box.height / 2))
    }

    @Test func aPlacedParagraphMovesItsRegions() throws {
        let text = "filled words"
        let layout = try Self.layout(text, spans: [AttributedText.Span(range: 0..<6, patch: StylePatch(fill: .set(Self.linear())))])
        #expect(!layout.movesOnlyLinesAndRuns)
        let placed = layout.placed(ParagraphPlacement(offset: 100, top: 50, firstLine: 3))
        let before = layout.fillRegions[0], after = placed.fillRegions[0]
        #expect(after.range == 100..<106)
        #expect(after.box.y == before.box.y + 50 && after.start.y == before.start.y + 50 && after.end.y == before.end.y + 50)
        #expect(after.box.x == before.box.x)
    }

    @Test func shadowsResolveAsAListThatASpanReplacesOrClears() throws {
        let outer = [TextShadow(offset: Point(x: 1, y: 1)), TextShadow(offset: Point(x: 2, y: 2), blurRadius: 3)]
        let base = TextPaint(shadows: outer)
        let inner = TextShadow(offset: Point(x: 5, y: 0))
        #expect(StylePatch(shadows: .set([inner])).appliedPaint(to: base).shadows == [inner])
        #expect(StylePatch(shadows: .cleared).appliedPaint(to: base).shadows.isEmpty)
        #expect(StylePatch(color: Self.red).appliedPaint(to: base).shadows == outer)
        #expect(base.shadow == outer[0])
        var glowing = StylePatch()
        glowing.glow = .set(TextGlow(radius: 6, color: Self.blue, strength: 2))
        glowing.fill = .set(Self.linear())
        let painted = glowing.appliedPaint(to: base)
        #expect(painted.glow == TextGlow(radius: 6, color: Self.blue, strength: 2) && painted.fill == Self.linear())
        var cleared = StylePatch()
        (cleared.glow, cleared.fill) = (.cleared, .cleared)
        let plain = cleared.appliedPaint(to: painted)
        #expect(plain.glow == nil && plain.fill == nil && plain == base)
    }

    @Test func badFillsAndGlowsAreRefusedByName() {
        func field(_ paint: TextPaint) -> String? {
            do { try StyleRules.check(paint, field: "style"); return nil } catch { return error.field }
        }
        let one = [GradientStop(offset: 0, color: Self.red)]
        #expect(field(TextPaint(fill: TextFill(.linearGradient(start: Point(x: 0, y: 0), end: Point(x: 1, y: 0), stops: one))))
                == "style.fill.linear_gradient.stops")
        let backwards = [GradientStop(offset: 0.8, color: Self.red), GradientStop(offset: 0.2, color: Self.blue)]
        #expect(field(TextPaint(fill: TextFill(.radialGradient(center: Point(x: 0.5, y: 0.5), edge: Point(x: 1, y: 1), stops: backwards))))
                == "style.fill.radial_gradient.stops[1].offset")
        #expect(field(TextPaint(fill: TextFill(.linearGradient(start: Point(x: 0.5, y: 0), end: Point(x: 0.5, y: 0), stops: Self.stops))))
                == "style.fill.linear_gradient.end")
        #expect(field(TextPaint(fill: TextFill(.linearGradient(start: Point(x: .nan, y: 0), end: Point(x: 1, y: 0), stops: Self.stops))))
                == "style.fill.linear_gradient.start.x")
        #expect(field(TextPaint(fill: TextFill(.image(index: 64, mode: .aspectFill)))) == "style.fill.image.image")
        #expect(field(TextPaint(glow: TextGlow(radius: 0))) == "style.glow.radius")
        #expect(field(TextPaint(glow: TextGlow(radius: 4, strength: 9))) == "style.glow.strength")
        #expect(field(TextPaint(shadows: Array(repeating: TextShadow(offset: Point(x: 1, y: 1)), count: 9))) == "style.shadows")
        #expect(field(TextPaint(shadows: [TextShadow(offset: Point(x: 1, y: 1)), TextShadow(offset: Point(x: 1, y: 1), blurRadius: 101)]))
                == "style.shadows[1].blur_radius")
        #expect(field(TextPaint(glow: TextGlow(radius: 4), fill: Self.linear())) == nil)
    }
}
