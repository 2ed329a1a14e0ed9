import Testing
@testable import LayoutEngine

/// Emphasis marks: one per grapheme cluster that takes one, centred on it, in a band just past
/// the font's ascent (or descent) that the line grows to hold.
@Suite struct EmphasisMarkTests {
    static let han = TextStyle(family: "Noto Sans CJK JP", size: 24)
    static let latin = TextStyle(family: "Noto Sans", size: 20)

    static func layout(_ text: String, _ style: TextStyle, paint: TextPaint = TextPaint(), spans: [AttributedText.Span] = [],
                       width: Double = 400) throws -> ParagraphLayout {
        try Fixtures.layouter.layout(ParagraphRequest(text: AttributedText(text, style: style, paint: paint, spans: spans), width: width))
    }

    /// Each cluster's extent along the line, by its first text offset.
    static func clusters(_ layout: ParagraphLayout) -> [Int: (left: Double, right: Double, baseline: Double)] {
        var extents: [Int: (left: Double, right: Double, baseline: Double)] = [:]
        for run in layout.runs {
            for glyph in run.glyphs {
                let old = extents[glyph.cluster] ?? (.infinity, -.infinity, glyph.position.y)
                extents[glyph.cluster] = (min(old.left, glyph.position.x), max(old.right, glyph.position.x + glyph.advance), old.baseline)
            }
        }
        return extents
    }

    @Test(arguments: [EmphasisMarks.Shape.dot, .circle, .doubleCircle, .triangle, .sesame])
    func eachIdeographAndKanaTakesOneMarkCentredOverIt(_ shape: EmphasisMarks.Shape) throws {
        let text = "強調する、文章。"
        let layout = try Self.layout(text, Self.han, paint: TextPaint(emphasis: EmphasisMarks(shape)))
        let marks = layout.emphasisMarks.flatMap { Array($0.glyphs) }
        // Punctuation (the comma and the full stop) takes none.
        #expect(marks.map(\.cluster) == [0, 1, 2, 3, 5, 6])
        let font = try #require(Fixtures.registry.font(id: layout.emphasisMarks[0].instanceID))
        let glyph = try #require(font.nominalGlyph(EmphasisMarks.mark(shape, filled: true).value))
        #expect(marks.allSatisfy { $0.id == glyph }, "the text's own font draws the mark")
        let size = layout.emphasisMarks[0].size
        #expect(size == 12)
        let scale = font.scale(for: size), ink = font.inkExtents(glyph)
        let clusters = Self.clusters(layout)
        let textFont = try #require(Fixtures.registry.font(id: layout.runs[0].instanceID))
        let ascent = Double(textFont.ascender) * textFont.scale(for: 24)
        for mark in marks {
            let cluster = try #require(clusters[mark.cluster])
            let inkMiddleX = mark.position.x + (Double(ink.x) + Double(ink.width) / 2) * scale
            #expect(abs(inkMiddleX - (cluster.left + cluster.right) / 2) < 1e-9)
            // The ink's middle is the middle of the band of the marks' size above the ascent.
            let inkMiddleY = mark.position.y - (Double(ink.y) + Double(ink.height) / 2) * scale
            #expect(abs(inkMiddleY - (cluster.baseline - ascent - size / 2)) < 1e-9)
        }
        let line = layout.lines[0]
        #expect(line.ascent >= ascent + size - 1e-9, "the line holds the band")
        #expect(marks.allSatisfy { $0.position.y - Double(ink.y) * scale >= line.usedRect.y - 1e-9 }, "no mark pokes out of its line")
    }

    @Test func marksGrowTheLineOverOrUnderAndLeaveOtherTextAlone() throws {
        let text = "Stress this"
        let plain = try Self.layout(text, Self.latin)
        let over = try Self.layout(text, Self.latin, paint: TextPaint(emphasis: EmphasisMarks(.dot)))
        let under = try Self.layout(text, Self.latin, paint: TextPaint(emphasis: EmphasisMarks(.dot, over: false)))
        #expect(plain.emphasisMarks.isEmpty)
        #expect(over.lines[0].ascent > plain.lines[0].ascent && over.lines[0].descent == plain.lines[0].descent)
        #expect(under.lines[0].descent > plain.lines[0].descent && under.lines[0].ascent == plain.lines[0].ascent)
        #expect(over.runs.map(\.glyphs) != plain.runs.map(\.glyphs), "the glyphs move down with the taller line")
        #expect(over.runs.map { $0.glyphs.map(\.position.x) } == plain.runs.map { $0.glyphs.map(\.position.x) }, "and not along it")
        let overMarks = over.emphasisMarks.flatMap { Array($0.glyphs) }, underMarks = under.emphasisMarks.flatMap { Array($0.glyphs) }
        #expect(overMarks.map(\.cluster) == [0, 1, 2, 3, 4, 5, 7, 8, 9, 10], "not the space")
        let baseline = over.lines[0].baselineOrigin.y, underBaseline = under.lines[0].baselineOrigin.y
        #expect(overMarks.allSatisfy { $0.position.y < baseline } && underMarks.allSatisfy { $0.position.y > underBaseline })
        // Only a span's text: the marks' line grows, and the span's clusters alone take marks.
        var patch = StylePatch()
        patch.emphasis = .set(EmphasisMarks(.circle, filled: false))
        let span = try Self.layout(text, Self.latin, spans: [AttributedText.Span(range: 7..<11, patch: patch)])
        #expect(span.emphasisMarks.flatMap { Array($0.glyphs) }.map(\.cluster) == [7, 8, 9, 10])
        #expect(span.lines[0].ascent == over.lines[0].ascent)
    }

    @Test func aMarkTheTextsFontLacksComesFromAFontThatHasIt() throws {
        // Noto Sans has no sesame (U+FE45): another of the daemon's fonts draws it.
        let layout = try Self.layout("Sesame", Self.latin, paint: TextPaint(emphasis: EmphasisMarks(.sesame)))
        let run = try #require(layout.emphasisMarks.first)
        let textFont = try #require(Fixtures.registry.font(id: layout.runs[0].instanceID))
        #expect(!textFont.covers(0xFE45))
        #expect(run.fontID != layout.runs[0].fontID && run.glyphs.count == 6)
        #expect(Fixtures.registry.font(id: run.instanceID)?.covers(0xFE45) == true)
    }

    /// The letters that skip the category look-up take marks exactly as the look-up says.
    @Test func theShortcutRangesAgreeWithTheGeneralCategories() {
        for range in [0x30...0x7A, 0x3041...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3] {
            for value in range {
                let scalar = Unicode.Scalar(UInt32(value))!
                #expect(EmphasisMarks.marks(scalar) == EmphasisMarks.marksByCategory(scalar), "U+\(String(value, radix: 16))")
            }
        }
    }

    static func vertical(_ text: String, _ mode: WritingMode, paint: TextPaint = TextPaint(), spans: [AttributedText.Span] = [])
        throws -> ParagraphLayout {
        var request = ParagraphRequest(text: AttributedText(text, style: Self.han, paint: paint, spans: spans), width: 200)
        request.height = 200
        request.writingMode = mode
        return try Fixtures.layouter.layout(request)
    }

    /// Each mark's ink centre on the page, from the font's own extents of the mark's glyph.
    static func inkCentres(_ run: GlyphRunLayout) throws -> [Point] {
        let font = try #require(Fixtures.registry.font(id: run.instanceID))
        let scale = font.scale(for: run.size)
        return run.glyphs.map { glyph in
            let ink = font.inkExtents(glyph.id)
            return Point(x: glyph.position.x + (Double(ink.x) + Double(ink.width) / 2) * scale,
                         y: glyph.position.y - (Double(ink.y) + Double(ink.height) / 2) * scale)
        }
    }

    /// Vertical text: a mark per ideograph, upright, its ink centred on the character's em down
    /// the column and beside it on the right (over) or the left (under), whichever way the
    /// columns run; the column grows on that side only.
    @Test(arguments: [WritingMode.verticalRightToLeft, .verticalLeftToRight])
    func verticalMarksStandBesideEachCharacter(_ mode: WritingMode) throws {
        let plain = try Self.vertical("強調する", mode)
        let columnWidth = plain.lines[0].usedRect.width
        for over in [true, false] {
            let layout = try Self.vertical("強調する", mode, paint: TextPaint(emphasis: EmphasisMarks(.sesame, over: over)))
            let run = try #require(layout.emphasisMarks.first)
            #expect(layout.emphasisMarks.count == 1 && run.orientation == .upright && run.glyphs.map(\.cluster) == [0, 1, 2, 3])
            let column = layout.lines[0].usedRect
            #expect(abs(column.width - (columnWidth + 12)) < 0.01, "the column grows by the marks' band: \(column.width)")
            // The glyphs' column: their em, centred on the line's centre.
            let centre = layout.lines[0].baselineOrigin.x
            for (k, ink) in try Self.inkCentres(run).enumerated() {
                #expect(abs(ink.y - (column.y + 24 * Double(k) + 12)) < 0.01, "mark \(k) centred on its em down the column: \(ink.y)")
                let expected = centre + (over ? 1 : -1) * (12 + 6)
                #expect(abs(ink.x - expected) < 0.01, "mark \(k) beside the em, \(over ? "right" : "left"): \(ink.x), not \(expected)")
            }
        }
    }

    /// A background behind vertical text spans the characters' ems down the column, where a
    /// glyph's position would put it most of an em lower (the vertical origin).
    @Test func aBackgroundInVerticalTextCoversItsCharacters() throws {
        let fill = StylePatch(background: Color(red: 1, green: 0.9, blue: 0.3))
        let layout = try Self.vertical("縦書きの文", .verticalRightToLeft, spans: [AttributedText.Span(range: 1..<3, patch: fill)])
        let rect = try #require(layout.decorations.first?.rects.first)
        let column = layout.lines[0].usedRect
        #expect(abs(rect.y - (column.y + 24)) < 0.01 && abs(rect.height - 48) < 0.01, "\(rect) in \(column)")
    }

    @Test func marksOnAPathAreRefusedByName() {
        var request = ParagraphRequest(text: AttributedText("Stress", style: Self.latin, paint: TextPaint(emphasis: EmphasisMarks(.dot))),
                                       width: 200)
        request.textPath = TextPath(path: Path([.move(Point(x: 0, y: 50)), .line(Point(x: 300, y: 50))]))
        #expect { _ = try Fixtures.layouter.layout(request) } throws: { ($0 as? LayoutError)?.field == "emphasis" }
    }
}
