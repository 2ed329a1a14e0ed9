import Foundation
import Testing
@testable import LayoutEngine

/// Text set along a path (SVG's `textPath`): each glyph's advance centred on the path, turned
/// to its direction there, glyphs off the path left out.
@Suite struct TextPathTests {
    static let style = TextStyle(family: "Noto Sans", size: 20)

    static func layout(_ text: String, _ textPath: TextPath?, spans: [AttributedText.Span] = []) throws -> ParagraphLayout {
        var request = ParagraphRequest(text: AttributedText(text, style: style, spans: spans), width: 300)
        request.textPath = textPath
        return try Fixtures.layouter.layout(request)
    }

    static func line(_ a: Point, _ b: Point) -> Path { Path([.move(a), .line(b)]) }
    static let text = "Along the path"

    @Test func aStraightPathPlacesTheLineWhereItRuns() throws {
        let plain = try Self.layout(Self.text, nil)
        let placed = try Self.layout(Self.text, TextPath(path: Self.line(Point(x: 10, y: 100), Point(x: 900, y: 100)), startOffset: 5))
        let before = plain.runs.flatMap(\.glyphs), after = placed.runs.flatMap(\.glyphs)
        #expect(after.count == before.count)
        let origin = plain.lines[0].baselineOrigin
        for (a, b) in zip(before, after) {
            #expect(abs(b.position.x - (a.position.x - origin.x + 15)) < 1e-9)
            #expect(abs(b.position.y - (a.position.y - origin.y + 100)) < 1e-9)
            #expect(a.id == b.id && a.cluster == b.cluster)
        }
        #expect(placed.glyphAngles.flatMap { $0 }.allSatisfy { $0 == 0 })
        #expect(placed.overflowRange.isEmpty && placed.visibleRange == 0..<Self.text.utf16.count)
        // The line's box is where the glyphs stand; the layout reaches it.
        #expect(placed.lines[0].usedRect.y < 100 && placed.lines[0].usedRect.maxY > 100)
        #expect(placed.size.width >= placed.lines[0].usedRect.maxX && placed.size.height >= placed.lines[0].usedRect.maxY)
    }

    @Test func onACircleEveryGlyphsMiddleIsOnItAndTurnedToIt() throws {
        // A circle of radius 100 around (150, 150), drawn clockwise from its left (y down),
        // as four cubic quarters: the glyphs stand on its outside, upright at its top.
        let (c, r, k) = (150.0, 100.0, 0.5523 * 100.0)
        let circle = Path([.move(Point(x: c - r, y: c)),
                           .cubic(Point(x: c - r, y: c - k), Point(x: c - k, y: c - r), Point(x: c, y: c - r)),
                           .cubic(Point(x: c + k, y: c - r), Point(x: c + r, y: c - k), Point(x: c + r, y: c)),
                           .cubic(Point(x: c + r, y: c + k), Point(x: c + k, y: c + r), Point(x: c, y: c + r)),
                           .cubic(Point(x: c - k, y: c + r), Point(x: c - r, y: c + k), Point(x: c - r, y: c)), .close])
        let layout = try Self.layout(Self.text, TextPath(path: circle, startOffset: 60))
        var count = 0
        for (run, angles) in zip(layout.runs, layout.glyphAngles) {
            for (glyph, angle) in zip(run.glyphs, angles) {
                let middle = Point(x: glyph.position.x + glyph.advance / 2 * cos(angle), y: glyph.position.y + glyph.advance / 2 * sin(angle))
                let distance = ((middle.x - c) * (middle.x - c) + (middle.y - c) * (middle.y - c)).squareRoot()
                #expect(abs(distance - r) < 0.3, "glyph \(glyph.cluster) is \(distance) from the centre")
                // Clockwise round the centre: the direction is the radius turned a quarter.
                let radial = atan2(middle.y - c, middle.x - c)
                let expected = radial + .pi / 2
                #expect(abs(remainder(angle - expected, 2 * .pi)) < 0.1, "glyph \(glyph.cluster) turned \(angle), expected \(expected)")
                count += 1
            }
        }
        #expect(count == Self.text.utf16.count)
    }

    @Test func theAnchorAndTheSideMoveTheText() throws {
        let path = Self.line(Point(x: 0, y: 50), Point(x: 400, y: 50))
        let start = try Self.layout(Self.text, TextPath(path: path, startOffset: 200))
        let middle = try Self.layout(Self.text, TextPath(path: path, startOffset: 200, anchor: .middle))
        let end = try Self.layout(Self.text, TextPath(path: path, startOffset: 200, anchor: .end))
        let width = start.lines[0].width
        let first = { (layout: ParagraphLayout) in layout.runs[0].glyphs.first!.position.x }
        #expect(abs(first(start) - 200) < 1e-9)
        #expect(abs(first(middle) - (200 - width / 2)) < 1e-9)
        #expect(abs(first(end) - (200 - width)) < 1e-9)
        // On the right side the path runs back: the text reads right to left, upside down, below it.
        let right = try Self.layout(Self.text, TextPath(path: path, side: .right))
        let glyphs = right.runs.flatMap(\.glyphs)
        #expect(glyphs.first!.position.x == 400 && glyphs[1].position.x < glyphs[0].position.x)
        #expect(right.glyphAngles.flatMap { $0 }.allSatisfy { abs(abs($0) - .pi) < 1e-9 })
        #expect(right.lines[0].usedRect.y >= 50 - right.lines[0].descent - 1e-9 && right.lines[0].usedRect.maxY > 60)
    }

    @Test func glyphsOffThePathAreLeftOutAndTheRestOverflows() throws {
        let short = try Self.layout(Self.text, TextPath(path: Self.line(Point(x: 0, y: 40), Point(x: 60, y: 40))))
        let shown = short.runs.flatMap(\.glyphs)
        #expect(!shown.isEmpty && shown.count < Self.text.utf16.count)
        for glyph in shown { #expect(glyph.position.x + glyph.advance / 2 <= 60 + 1e-9) }
        let cut = shown.map(\.cluster).max()! + 1
        #expect(short.overflowRange == cut..<Self.text.utf16.count && short.visibleRange == 0..<cut)
        // Before the path's start too: a negative offset hides the first glyphs.
        let early = try Self.layout(Self.text, TextPath(path: Self.line(Point(x: 0, y: 40), Point(x: 600, y: 40)), startOffset: -30))
        #expect(early.runs.flatMap(\.glyphs).allSatisfy { $0.position.x + $0.advance / 2 >= 0 })
        #expect(early.runs.flatMap(\.glyphs).count < Self.text.utf16.count && early.visibleRange.lowerBound > 0)
    }

    @Test func aFillsBoxFollowsTheGlyphsOnThePath() throws {
        let stops = [GradientStop(offset: 0, color: Color(red: 1, green: 0, blue: 0)), GradientStop(offset: 1, color: Color(red: 0, green: 0, blue: 1))]
        let fill = TextFill(.linearGradient(start: Point(x: 0, y: 0.5), end: Point(x: 1, y: 0.5), stops: stops))
        let path = Self.line(Point(x: 100, y: 0), Point(x: 100, y: 500))  // straight down
        let layout = try Self.layout(Self.text, TextPath(path: path), spans: [AttributedText.Span(range: 0..<5, patch: StylePatch(fill: .set(fill)))])
        let region = try #require(layout.fillRegions.first)
        // Down the page: the box is taller than wide and holds its glyphs' origins.
        #expect(region.box.height > region.box.width)
        for glyph in layout.runs.filter({ $0.paint == region.paint }).flatMap(\.glyphs) {
            #expect(region.box.x <= glyph.position.x + 1e-9 && glyph.position.x <= region.box.maxX + 1e-9)
            #expect(region.box.y <= glyph.position.y + 1e-9 && glyph.position.y <= region.box.maxY + 1e-9)
        }
    }

    @Test func whatNeedsLinesOrAProperPathIsRefused() {
        func field(_ change: (inout ParagraphRequest) -> Void) -> String? {
            var request = ParagraphRequest(text: AttributedText("x", style: Self.style), width: 300)
            request.textPath = TextPath(path: Self.line(Point(x: 0, y: 0), Point(x: 100, y: 0)))
            change(&request)
            do { _ = try Fixtures.layouter.layout(request); return nil } catch { return (error as? LayoutError)?.field }
        }
        #expect(field { _ in } == nil)
        #expect(field { $0.writingMode = .verticalRightToLeft; $0.height = 100 } == "writing_mode")
        #expect(field { $0.maxLines = 1 } == "max_lines")
        #expect(field { $0.measuresInk = true } == "ink")
        #expect(field { $0.text = AttributedText("x", style: Self.style, spans: [AttributedText.Span(range: 0..<1, patch: StylePatch(underline: .set(DecorationLine())))]) }
                == "text_path")
        #expect(field { $0.textPath?.path = Path([.line(Point(x: 1, y: 1))]) } == "text_path.path.commands[0]")
        #expect(field { $0.textPath?.path = Path([.move(Point(x: 0, y: 0)), .line(Point(x: .nan, y: 1))]) } == "text_path.path.commands[1].points")
        #expect(field { $0.textPath?.path = Path([.move(Point(x: 0, y: 0))] + Array(repeating: .line(Point(x: 1, y: 1)), count: 4_096)) }
                == "text_path.path.commands")
        #expect(field { $0.textPath?.startOffset = .infinity } == "text_path.start_offset")
        // An empty path places nothing: all the text overflows.
        var request = ParagraphRequest(text: AttributedText("xy", style: Self.style), width: 300)
        request.textPath = TextPath(path: Path([.move(Point(x: 5, y: 5))]))
        let empty = try? Fixtures.layouter.layout(request)
        #expect(empty?.runs.isEmpty == true && empty?.overflowRange == 0..<2)
    }
}
