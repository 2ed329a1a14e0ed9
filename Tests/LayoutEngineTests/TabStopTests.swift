import Testing
@testable import LayoutEngine

/// Tab stops as CoreText's paragraph style has them, against positions worked out by hand:
/// start, end, centre and decimal stops measured from the box's leading edge, a stop every
/// 28 points past the last (or the default interval), indents, right-to-left paragraphs, and
/// lines that wrap because a tab took their room.
@Suite struct TabStopTests {
    static func layout(_ text: String, width: Double = 400, stops: [TabStop] = [], interval: Double = 0,
                       configure: (inout ParagraphStyle) -> Void = { _ in }) throws -> ParagraphLayout {
        try Fixtures.layout(text, width: width, size: 20) { request in
            var style = ParagraphStyle()
            style.tabStops = stops
            style.defaultTabInterval = interval
            configure(&style)
            request.paragraphStyle = style
        }
    }

    /// The glyph whose cluster starts at `offset`.
    static func glyph(_ layout: ParagraphLayout, at offset: Int) throws -> PositionedGlyph {
        try #require(layout.runs.flatMap(\.glyphs).first { $0.cluster == offset })
    }

    @Test func aTabMovesToTheNextDefaultStop() throws {
        let layout = try Self.layout("a\tb")
        #expect(abs(try Self.glyph(layout, at: 2).position.x - 28) < 1e-9)
        let wider = try Self.layout("a\tb", interval: 50)
        #expect(abs(try Self.glyph(wider, at: 2).position.x - 50) < 1e-9)
        // Past a stop: the next one.
        let long = try Self.layout("abcdefg\tb")
        let before = try Self.glyph(long, at: 6)
        let next = (((before.position.x + before.advance) / 28).rounded(.down) + 1) * 28
        #expect(abs(try Self.glyph(long, at: 8).position.x - next) < 1e-9)
        // The tab draws nothing: the space glyph, not the .notdef box.
        let space = try #require(Fixtures.registry.match(family: "Noto Sans", weight: 400, italic: false)?.nominalGlyph(0x20))
        #expect(try Self.glyph(layout, at: 1).id == space)
    }

    @Test func startEndCenterAndDecimalStops() throws {
        let start = try Self.layout("ab\tc", stops: [TabStop(location: 100)])
        #expect(abs(try Self.glyph(start, at: 3).position.x - 100) < 1e-9)
        let end = try Self.layout("x\t123", stops: [TabStop(location: 200, alignment: .end)])
        let three = try Self.glyph(end, at: 4)
        #expect(abs(three.position.x + three.advance - 200) < 1e-9)
        let center = try Self.layout("x\tabc", stops: [TabStop(location: 150, alignment: .center)])
        let (a, c) = (try Self.glyph(center, at: 2), try Self.glyph(center, at: 4))
        #expect(abs((a.position.x + c.position.x + c.advance) / 2 - 150) < 1e-9)
        for number in ["12.5", "1234.25", "7"] {
            let decimal = try Self.layout("x\t" + number, stops: [TabStop(location: 150, alignment: .decimal(separator: "."))])
            let units = Array(("x\t" + number).utf16)
            if let dot = units.firstIndex(of: 0x2E) {
                #expect(abs(try Self.glyph(decimal, at: dot).position.x - 150) < 1e-9, "\(number)")
            } else {
                // No separator: the number ends at the stop.
                let last = try Self.glyph(decimal, at: units.count - 1)
                #expect(abs(last.position.x + last.advance - 150) < 1e-9)
            }
        }
        // Several stops on one line, each tab to the next.
        let row = try Self.layout("a\tb\tc", stops: [TabStop(location: 60), TabStop(location: 160, alignment: .end)])
        #expect(abs(try Self.glyph(row, at: 2).position.x - 60) < 1e-9)
        let lastGlyph = try Self.glyph(row, at: 4)
        #expect(abs(lastGlyph.position.x + lastGlyph.advance - 160) < 1e-9)
    }

    @Test func stopsCountFromTheEdgeNotTheIndent() throws {
        let layout = try Self.layout("a\tb", stops: [TabStop(location: 100)]) { $0.firstLineHeadIndent = 20 }
        #expect(abs(try Self.glyph(layout, at: 0).position.x - 20) < 1e-9)
        #expect(abs(try Self.glyph(layout, at: 2).position.x - 100) < 1e-9)
    }

    @Test func rightToLeftStopsCountFromTheRight() throws {
        let layout = try Self.layout("א\tב", width: 400, stops: [TabStop(location: 100)])
        let bet = try Self.glyph(layout, at: 2)
        #expect(abs(bet.position.x + bet.advance - 300) < 1e-9)
    }

    @Test func aTabThatTakesTheRoomWrapsTheLine() throws {
        let layout = try Self.layout("aaaa\tbbbb cc", width: 120, stops: [TabStop(location: 100)])
        #expect(layout.lines.count >= 2)
        for line in layout.lines { #expect(line.width <= 120 + 1e-6) }
        // Every glyph stays inside the box.
        for glyph in layout.runs.flatMap(\.glyphs) { #expect(glyph.position.x + glyph.advance <= 120 + 1e-6) }
        // Balanced and total fit break a paragraph with tabs greedily.
        let optimal = try Fixtures.layout("aaaa\tbbbb cc", width: 120, size: 20) { request in
            var style = ParagraphStyle()
            style.tabStops = [TabStop(location: 100)]
            request.paragraphStyle = style
            request.breakStrategy = .optimal
        }
        #expect(optimal.lines.map(\.range) == layout.lines.map(\.range))
    }

    @Test func justifiedLinesWithTabsKeepTheirStops() throws {
        let layout = try Fixtures.layout("a\tb and some words that wrap onto a second line here", width: 200, size: 20) { request in
            var style = ParagraphStyle()
            style.tabStops = [TabStop(location: 100)]
            request.paragraphStyle = style
            request.alignment = .justified
        }
        #expect(abs(try Self.glyph(layout, at: 2).position.x - 100) < 1e-9)
    }
}
