import CFreeType
import Foundation
import Testing
@testable import LayoutEngine

/// Ink bounds against FreeType's own glyph bounding boxes, and where they sit for lines,
/// attachments, spaces and sideways glyphs.
@Suite struct InkBoundsTests {
    static func layout(_ text: String, width: Double = 400, family: String = "Noto Sans",
                       configure: (inout ParagraphRequest) -> Void = { _ in }) throws -> ParagraphLayout {
        try Fixtures.layout(text, width: width, family: family) {
            $0.measuresInk = true
            configure(&$0)
        }
    }

    /// A glyph's control box in font units from FreeType (unscaled, unhinted), y up.
    static func freeTypeBox(_ font: Font, _ glyph: UInt32) -> (xMin: Int, yMin: Int, xMax: Int, yMax: Int)? {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return nil }
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        guard FT_New_Face(library, font.path, FT_Long(font.faceIndex), &face) == 0, let face else { return nil }
        defer { FT_Done_Face(face) }
        guard FT_Load_Glyph(face, glyph, FT_Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING)) == 0 else { return nil }
        var box = FT_BBox()
        FT_Outline_Get_CBox(&face.pointee.glyph.pointee.outline, &box)
        return (Int(box.xMin), Int(box.yMin), Int(box.xMax), Int(box.yMax))
    }

    @Test func eachRunsInkIsItsGlyphsFreeTypeBoxes() throws {
        let layout = try Self.layout("Hägar fjord, Ωμέγα and 漢字 with مرحبا بالعالم")
        let ink = try #require(layout.ink)
        #expect(ink.runs.count == layout.runs.count)
        var compared = 0
        for (run, measured) in zip(layout.runs, ink.runs) {
            let font = try #require(Fixtures.registry.font(id: run.fontID))
            let scale = font.scale(for: run.size)
            var expected: Rect?
            for glyph in run.glyphs {
                guard let box = Self.freeTypeBox(font, glyph.id), box.xMax > box.xMin else { continue }
                let rect = Rect(x: glyph.position.x + Double(box.xMin) * scale, y: glyph.position.y - Double(box.yMax) * scale,
                                width: Double(box.xMax - box.xMin) * scale, height: Double(box.yMax - box.yMin) * scale)
                expected = expected.map { $0.union(rect) } ?? rect
            }
            guard let expected else { #expect(measured == nil); continue }
            let got = try #require(measured)
            // One font unit of slack: HarfBuzz reads the glyf header's box, FreeType the points'.
            let slack = scale * 1.01
            #expect(abs(got.x - expected.x) <= slack && abs(got.y - expected.y) <= slack
                    && abs(got.maxX - expected.maxX) <= slack && abs(got.maxY - expected.maxY) <= slack,
                    "\(Fixtures.family(of: run)): \(got) against FreeType's \(expected)")
            compared += 1
        }
        #expect(compared >= 3)
        // The layout's ink is the union of its lines', which hold their runs'.
        let union = ink.lines.compactMap { $0 }.reduce(nil as Rect?) { all, rect in all.map { $0.union(rect) } ?? rect }
        #expect(ink.layout == union)
    }

    @Test func inkDiffersFromTheLineBoxWhereTheGlyphsDo() throws {
        // Lower case without ascenders or descenders sits well inside its line box; the first
        // glyph's ink starts to the right of the line's origin by the letter's side bearing.
        let layout = try Self.layout("acme")
        let ink = try #require(layout.ink)
        let line = layout.lines[0]
        let box = try #require(ink.lines[0])
        #expect(box.y > line.usedRect.y + 5 && box.maxY <= line.baselineOrigin.y + 0.5)
        let first = try #require(ink.firstGlyph)
        #expect(first.x > line.baselineOrigin.x && first.x < line.baselineOrigin.x + 3)
        #expect(first.maxX < box.maxX)
        // "g" and "p" reach below the baseline.
        let descending = try #require(try Self.layout("gyp").ink?.layout)
        #expect(descending.maxY > line.baselineOrigin.y + 3)
    }

    @Test func spacesHaveNoInkAndAttachmentsAreInk() throws {
        let spaces = try Self.layout("     ")
        #expect(spaces.ink?.layout == nil && spaces.ink?.runs.allSatisfy { $0 == nil } == true)
        let boxed = try Self.layout("a \u{FFFC}") {
            $0.attachments = [InlineAttachment(width: 40, extent: .height(60))]
        }
        let line = try #require(boxed.ink?.lines[0])
        let box = boxed.attachments[0].rect
        #expect(line.maxX >= box.maxX - 1e-9 && line.y <= box.y + 1e-9)
    }

    @Test func sidewaysGlyphsAreTurnedAsDrawn() throws {
        // Vertical text: Latin lies on its side, so its ink is tall and narrow down the column.
        let layout = try Self.layout("縦書きABCD", width: 200, family: "Noto Sans CJK JP") {
            $0.writingMode = .verticalRightToLeft
            $0.height = 300
        }
        let ink = try #require(layout.ink)
        let sideways = layout.runs.indices.filter { layout.runs[$0].orientation == .sideways }
        #expect(!sideways.isEmpty)
        for index in sideways {
            let rect = try #require(ink.runs[index])
            #expect(rect.height > rect.width, "ABCD on its side runs down the page: \(rect)")
            let column = layout.lines[layout.runs[index].lineIndex].usedRect
            #expect(rect.x >= column.x - 1 && rect.maxX <= column.maxX + 1)
        }
    }

    @Test func withoutTheAskTheLayoutHasNoInk() throws {
        #expect(try Fixtures.layout("plain").ink == nil)
    }
}
