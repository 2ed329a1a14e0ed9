import Foundation
import Testing
@testable import LayoutEngine

@Suite struct BackgroundTests {
    static let text = "  Backgrounds wrap   each line of text  \nskipping spaces at the ends   "

    static func layout(_ text: String = text, alignment: TextAlignment = .center) throws -> ParagraphLayout {
        try Fixtures.layout(text, width: 220, size: 22) { $0.alignment = alignment; $0.lineHeightMultiple = 1.4 }
    }

    static func decorate(_ kind: BackgroundStyle.Kind, text: String = text, radius: Double = 10,
                         alignment: TextAlignment = .center) throws -> (ParagraphLayout, Background) {
        let layout = try layout(text, alignment: alignment)
        let background = try Decorator(layout: layout, text: text, fonts: Fixtures.registry)
            .decorate(BackgroundStyle(kind: kind, horizontalPadding: 10, verticalPadding: 6, cornerRadius: radius))
        return (layout, background)
    }

    /// Each line's ink box: the union of its non-space glyphs' ink.
    static func inkBoxes(_ layout: ParagraphLayout, _ text: String) -> [Rect] {
        let units = Array(text.utf16)
        return layout.lines.indices.compactMap { index in
            var box: Rect?
            for run in layout.runs where run.lineIndex == index {
                let font = Fixtures.registry.font(id: run.fontID)!
                let scale = font.scale(for: run.size)
                for k in run.glyphIDs.indices where run.clusters[k] < units.count && !Decorator.isWhitespace(units[run.clusters[k]]) {
                    let ink = font.inkExtents(run.glyphIDs[k])
                    guard ink.width != 0 else { continue }
                    let glyph = Rect(x: run.positions[k].x + Double(ink.x) * scale, y: run.positions[k].y - Double(ink.y) * scale,
                                     width: Double(ink.width) * scale, height: -Double(ink.height) * scale)
                    box = box.map { $0.union(glyph) } ?? glyph
                }
            }
            return box
        }
    }

    static func contains(_ rect: Rect, _ inner: Rect) -> Bool {
        inner.x >= rect.x - 1e-9 && inner.maxX <= rect.maxX + 1e-9 && inner.y >= rect.y - 1e-9 && inner.maxY <= rect.maxY + 1e-9
    }

    /// Even-odd point-in-polygon test.
    static func inside(_ p: Point, _ polygon: [Point]) -> Bool {
        var result = false
        var j = polygon.count - 1
        for i in polygon.indices {
            let a = polygon[i], b = polygon[j]
            if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { result.toggle() }
            j = i
        }
        return result
    }

    static func segmentsCross(_ p1: Point, _ p2: Point, _ q1: Point, _ q2: Point) -> Bool {
        func orient(_ a: Point, _ b: Point, _ c: Point) -> Double { (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) }
        let d1 = orient(q1, q2, p1), d2 = orient(q1, q2, p2), d3 = orient(p1, p2, q1), d4 = orient(p1, p2, q2)
        return ((d1 > 1e-9 && d2 < -1e-9) || (d1 < -1e-9 && d2 > 1e-9)) && ((d3 > 1e-9 && d4 < -1e-9) || (d3 < -1e-9 && d4 > 1e-9))
    }

    @Test func perLineRectsHoldTheInkAndSkipEdgeSpaces() throws {
        let (layout, background) = try Self.decorate(.perLine)
        let ink = Self.inkBoxes(layout, Self.text)
        #expect(background.rects.count == ink.count)
        for (rect, box) in zip(background.rects, ink) { #expect(Self.contains(rect, box)) }
        // Leading and trailing spaces stay outside: each rect spans exactly the non-space glyphs
        // plus the padding, and edge whitespace wider than the padding reaches beyond it.
        let units = Array(Self.text.utf16)
        for index in layout.lines.indices {
            let glyphs = layout.runs.filter { $0.lineIndex == index }.flatMap { run in
                run.glyphIDs.indices.map { (cluster: run.clusters[$0], x: run.positions[$0].x, advance: run.advances[$0]) }
            }
            let content = glyphs.filter { $0.cluster < units.count && !Decorator.isWhitespace(units[$0.cluster]) }
            let spaces = glyphs.filter { $0.cluster < units.count && units[$0.cluster] == 0x20 }
            let left = content.map(\.x).min()!, right = content.map { $0.x + $0.advance }.max()!
            let rect = background.rects[index]
            #expect(rect.x <= left - 10 + 1e-6 && rect.x >= left - 10 - 2)        // ink may reach a little past the advance
            #expect(rect.maxX >= right + 10 - 1e-6 && rect.maxX <= right + 10 + 2)
            if let leading = spaces.filter({ $0.x < left }).map(\.x).min(), left - leading > 10 { #expect(leading < rect.x) }
            if let trailing = spaces.filter({ $0.x >= right }).map({ $0.x + $0.advance }).max(), trailing - right > 10 {
                #expect(trailing > rect.maxX)
            }
        }
        // Rects of neighbouring lines never overlap.
        for (a, b) in zip(background.rects, background.rects.dropFirst()) { #expect(a.maxY <= b.y + 1e-9) }
        #expect(background.path.svg.hasPrefix("M"))
        #expect(background.path.commands.filter { $0 == .close }.count == background.rects.count)
    }

    @Test(arguments: [TextAlignment.left, .center, .right])
    func connectedOutlineIsOneSimpleShapeAroundTheInk(_ alignment: TextAlignment) throws {
        let text = "One connected\nshape around lines of\nvery different widths\nok"
        let (layout, background) = try Self.decorate(.connected, text: text, alignment: alignment)
        let polygons = background.path.flattened(segments: 16)
        #expect(polygons.count == 1)
        let polygon = try #require(polygons.first)
        // Contains every line's ink box.
        for box in Self.inkBoxes(layout, text) {
            for corner in [Point(x: box.x, y: box.y), Point(x: box.maxX, y: box.y), Point(x: box.x, y: box.maxY), Point(x: box.maxX, y: box.maxY)] {
                #expect(Self.inside(corner, polygon))
            }
        }
        // Does not cross itself.
        let n = polygon.count
        for i in 0..<n {
            for j in (i + 2)..<max(i + 2, n) where !(i == 0 && j == n - 1) {
                #expect(!Self.segmentsCross(polygon[i], polygon[(i + 1) % n], polygon[j], polygon[(j + 1) % n]))
            }
        }
        // Stays inside the union of the padded rects grown by the radius.
        for point in polygon {
            #expect(background.rects.contains { r in
                point.x >= r.x - 10 - 1e-6 && point.x <= r.maxX + 10 + 1e-6 && point.y >= r.y - 10 - 1e-6 && point.y <= r.maxY + 10 + 1e-6 })
        }
        // Winds one way (clockwise on screen: positive shoelace area with y down).
        let area = zip(polygon, polygon.dropFirst() + [polygon[0]]).reduce(0.0) { $0 + ($1.0.x * $1.1.y - $1.1.x * $1.0.y) }
        #expect(area > 0)
    }

    @Test func radiusLargerThanALineIsClamped() throws {
        let (_, background) = try Self.decorate(.connected, text: "a\nmuch longer line", radius: 500)
        let polygon = try #require(background.path.flattened().first)
        #expect(polygon.allSatisfy { $0.x.isFinite && $0.y.isFinite })
        let bounds = background.rects.reduce(background.rects[0]) { $0.union($1) }
        #expect(polygon.allSatisfy { Self.contains(bounds, Rect(x: $0.x, y: $0.y, width: 0, height: 0)) })
    }

    @Test func blockIsOneRectAroundEverything() throws {
        let (layout, background) = try Self.decorate(.block)
        #expect(background.rects.count == 1)
        for box in Self.inkBoxes(layout, Self.text) { #expect(Self.contains(background.rects[0], box)) }
    }

    @Test func highlightSplitsARangeAcrossLines() throws {
        let text = "highlight this phrase across a line break please"
        let range = (text as NSString).range(of: "phrase across a line")
        let (layout, background) = try Self.decorate(.highlight(range.location..<(range.location + range.length)), text: text)
        let lines = Set(layout.runs.filter { $0.clusters.contains { (range.location..<(range.location + range.length)).contains($0) } }.map(\.lineIndex))
        #expect(background.rects.count == lines.count)
        #expect(background.rects.count >= 2)
        // Consecutive lines' rects meet at the line boundary: no band is filled twice.
        for (upper, lower) in zip(background.rects, background.rects.dropFirst()) {
            #expect(upper.maxY <= lower.y + 1e-9, "\(upper) overlaps \(lower)")
        }
        let boundary = layout.lines[0].usedRect.maxY
        #expect(abs(background.rects[0].maxY - boundary) < 1e-9 && abs(background.rects[1].y - boundary) < 1e-9)
    }

    @Test func badGeometryIsRefused() throws {
        let layout = try Self.layout()
        let decorator = Decorator(layout: layout, text: Self.text, fonts: Fixtures.registry)
        #expect(throws: LayoutError.self) { try decorator.decorate(BackgroundStyle(kind: .perLine, horizontalPadding: -1)) }
        #expect(throws: LayoutError.self) { try decorator.decorate(BackgroundStyle(kind: .perLine, cornerRadius: .nan)) }
        #expect(throws: LayoutError.self) { try decorator.decorate(BackgroundStyle(kind: .highlight(0..<10_000))) }
    }

    @Test(arguments: [BackgroundStyle.Kind.perLine, .connected, .block, .highlight(2..<20)])
    func aBorderAndAShadowTravelWithTheShape(_ kind: BackgroundStyle.Kind) throws {
        let layout = try Self.layout()
        var style = BackgroundStyle(kind: kind)
        let plain = try Decorator(layout: layout, text: Self.text, fonts: Fixtures.registry).decorate(style)
        style.border = BackgroundBorder(width: 2, color: Color(red: 1, green: 0, blue: 0), dashes: [6, 3])
        style.shadow = TextShadow(offset: Point(x: 0, y: 3), blurRadius: 4)
        let bordered = try Decorator(layout: layout, text: Self.text, fonts: Fixtures.registry).decorate(style)
        // The outline is the same; the border and shadow are drawn along and under it.
        #expect(bordered.path == plain.path && bordered.rects == plain.rects)
        #expect(bordered.border == style.border && bordered.shadow == style.shadow && plain.border == nil && plain.shadow == nil)
    }

    @Test func badBordersAndShadowsAreRefusedByName() throws {
        let decorator = Decorator(layout: try Self.layout(), text: Self.text, fonts: Fixtures.registry)
        func refusal(_ border: BackgroundBorder?, _ shadow: TextShadow? = nil) -> String? {
            var style = BackgroundStyle(kind: .perLine)
            (style.border, style.shadow) = (border, shadow)
            do { _ = try decorator.decorate(style); return nil } catch let error as LayoutError { return error.field } catch { return "\(error)" }
        }
        #expect(refusal(BackgroundBorder(width: 0)) == "border.width")
        #expect(refusal(BackgroundBorder(width: 101)) == "border.width")
        #expect(refusal(BackgroundBorder(width: .infinity)) == "border.width")
        #expect(refusal(BackgroundBorder(width: 1, dashes: Array(repeating: 2, count: 17))) == "border.dashes")
        #expect(refusal(BackgroundBorder(width: 1, dashes: [4, -1])) == "border.dashes[1]")
        #expect(refusal(BackgroundBorder(width: 1, dashes: [0, 0])) == "border.dashes")
        #expect(refusal(BackgroundBorder(width: 1, dashes: [0, 3])) == nil)  // a zero beside other lengths, as SVG allows
        #expect(refusal(nil, TextShadow(offset: Point(x: 0, y: 0), blurRadius: 101)) == "shadow.blur_radius")
        #expect(refusal(nil, TextShadow(offset: Point(x: .nan, y: 0))) == "shadow.offset_x")
    }
}
