import Testing
@testable import LayoutEngine

/// List markers (TextKit's NSTextList): every paragraph an item, its marker — a bullet, or a
/// number, letter or roman numeral counted from `start` — set in the hanging indent before the
/// first line, the text indented by the list's indent on every line.
@Suite struct ListMarkerTests {
    static func layout(_ text: String, list: ListStyle, width: Double = 300,
                       direction: BaseDirection = .auto) throws -> ParagraphLayout {
        try Fixtures.layout(text, width: width, size: 20) { request in
            var style = ParagraphStyle()
            style.list = list
            request.paragraphStyle = style
            request.direction = direction
        }
    }

    static func markers(_ layout: ParagraphLayout) -> [GlyphRunLayout] { layout.runs.filter(\.isListMarker) }

    @Test func bulletsHangBeforeEachParagraphsFirstLine() throws {
        let text = "First item that is long enough to wrap onto a second line\nSecond item\nThird"
        let layout = try Self.layout(text, list: ListStyle(marker: .bullet("•"), indent: 30))
        let markers = Self.markers(layout)
        #expect(markers.count == 3)
        let firstLines = Set(markers.map(\.lineIndex))
        for (index, line) in layout.lines.enumerated() {
            // Every line's text starts at the indent, wrapped lines too.
            let glyphs = layout.runs.filter { $0.lineIndex == index && !$0.isListMarker }.flatMap(\.glyphs)
            #expect(abs((glyphs.map(\.position.x).min() ?? 0) - 30) < 1e-9, "line \(index)")
            #expect(firstLines.contains(index) == (index == 0 || Array(text.utf16)[line.range.lowerBound - 1] == 0x0A))
        }
        for marker in markers {
            #expect(marker.range.isEmpty && marker.glyphs.count == 1 && !marker.isTruncationToken)
            #expect(abs(marker.glyphs.first!.position.x) < 1e-9)
            #expect(marker.glyphs.first!.position.y == layout.lines[marker.lineIndex].baselineOrigin.y)
        }
    }

    @Test(arguments: [(ListMarker.decimal, ["1.", "2.", "3."]), (.lowerAlpha, ["a.", "b.", "c."]), (.upperRoman, ["I.", "II.", "III."])])
    func orderedMarkersCount(_ marker: ListMarker, _ expected: [String]) throws {
        #expect((0..<3).map { ListStyle(marker: marker).label(forItem: $0) } == expected)
        let layout = try Self.layout("one\ntwo\nthree", list: ListStyle(marker: marker, indent: 40))
        #expect(Self.markers(layout).count == 3)
    }

    @Test func countingStartsWhereAsked() {
        let list = ListStyle(marker: .decimal, start: 9)
        #expect(list.label(forItem: 0) == "9." && list.label(forItem: 2) == "11.")
        #expect(ListStyle(marker: .lowerAlpha).label(forItem: 26) == "aa.")
        #expect(ListStyle(marker: .lowerRoman).label(forItem: 13) == "xiv.")
    }

    @Test func rightToLeftListsHangOnTheRight() throws {
        let layout = try Self.layout("שלום\nעולם", list: ListStyle(marker: .bullet("•"), indent: 30), width: 300)
        for marker in Self.markers(layout) {
            let glyph = marker.glyphs.first!
            #expect(abs(glyph.position.x + glyph.advance - 300) < 1e-9)
        }
        let text = layout.runs.filter { !$0.isListMarker }.flatMap(\.glyphs)
        #expect(text.allSatisfy { $0.position.x + $0.advance <= 270 + 1e-9 })
    }

    @Test func aTruncatedItemKeepsItsMarker() throws {
        let layout = try Fixtures.layout("An item far too long to fit on the one line it is allowed here", width: 200, size: 20) { request in
            var style = ParagraphStyle()
            style.list = ListStyle(marker: .decimal, indent: 30)
            request.paragraphStyle = style
            request.maxLines = 1
        }
        #expect(layout.lines.count == 1 && layout.lines[0].truncated)
        #expect(Self.markers(layout).count == 1 && layout.runs.contains(where: \.isTruncationToken))
        let text = layout.runs.filter { !$0.isListMarker }.flatMap(\.glyphs)
        #expect(text.allSatisfy { $0.position.x >= 30 - 1e-9 && $0.position.x + $0.advance <= 200 + 1e-6 })
    }
}
