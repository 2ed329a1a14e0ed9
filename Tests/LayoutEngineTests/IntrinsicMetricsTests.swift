import CFreeType
import Foundation
import Testing
import TestSupport
@testable import LayoutEngine

/// Intrinsic widths and typographic bounds (`ParagraphRequest.measuresIntrinsics`): worked out by
/// hand over fixed-advance faces (a letter 5 points, a space 2.5, ascent 8, descent 2 at size
/// 10), held to HarfBuzz's own hb-shape and to FreeType's reading of the font's tables over a
/// real font, and to what layout does at those widths.
@Suite struct IntrinsicMetricsTests {
    func metrics(_ text: String, size: Double = 10, configure: (inout ParagraphRequest) -> Void = { _ in })
        throws -> (ParagraphLayout, IntrinsicMetrics) {
        let layout = try FixedAdvance.layout(text, width: 1_000, size: size) {
            $0.measuresIntrinsics = true
            configure(&$0)
        }
        return (layout, try #require(layout.intrinsicMetrics))
    }

    /// "bbbbbb" is the widest word (30); the line is 20 + 2.5 + 30 + 2.5 + 10.
    @Test func minAndMaxContentOfOneParagraph() throws {
        let (_, metrics) = try metrics("aaaa bbbbbb cc")
        #expect(metrics.minContent == 30)
        #expect(metrics.maxContent == 65)
    }

    /// Each hard line counts alone for max-content; whitespace at a piece's end does not count.
    @Test func hardLinesAndTrailingSpaces() throws {
        let (_, metrics) = try metrics("aaaa bbbbbb   \ncc dd")
        #expect(metrics.minContent == 30)
        #expect(metrics.maxContent == 52.5)
    }

    @Test func runsCarryTheirFontsBoundsAtTheirSize() throws {
        let (layout, metrics) = try metrics("aaaa bbbb", size: 20)
        #expect(metrics.runs.count == layout.runs.count)
        #expect(metrics.runs.allSatisfy { $0 == TypographicBounds(ascent: 16, descent: 4, leading: 0) })
    }

    /// Without the option nothing is measured.
    @Test func offByDefault() throws {
        #expect(try FixedAdvance.layout("aaaa", width: 100).intrinsicMetrics == nil)
    }

    /// Along the column for vertical text: every ideograph may start a line, each an em long.
    @Test func verticalTextMeasuresAlongItsColumns() throws {
        let (_, metrics) = try metrics("一二三") {
            $0.writingMode = .verticalRightToLeft
            $0.height = 100
        }
        #expect(metrics.minContent == 10)
        #expect(metrics.maxContent == 30)
    }

    /// At max-content every paragraph is one line; at min-content no word is cut; a point less,
    /// the widest word is.
    @Test func layoutAgreesAtTheWidths() throws {
        let text = "Intrinsic widths say how narrow a box may be before words break, and how wide it need be"
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 17)), width: 300)
        request.measuresIntrinsics = true
        let metrics = try #require(try Fixtures.layouter.layout(request).intrinsicMetrics)
        request.measuresIntrinsics = false
        request.width = metrics.maxContent
        #expect(try Fixtures.layouter.layout(request).lines.count == 1)
        request.width = metrics.maxContent - 1
        #expect(try Fixtures.layouter.layout(request).lines.count == 2)
        let units = Array(text.utf16)
        func cutsAWord(_ layout: ParagraphLayout) -> Bool {
            layout.lines.dropLast().contains { line in
                let end = line.range.upperBound
                return end < units.count && units[end - 1] != 0x20 && units[end] != 0x20
            }
        }
        request.width = metrics.minContent
        #expect(!cutsAWord(try Fixtures.layouter.layout(request)))
        request.width = metrics.minContent - 1
        #expect(cutsAWord(try Fixtures.layouter.layout(request)))
    }

    /// HarfBuzz's own hb-shape on the same font file: the widest word shaped alone, and the
    /// whole line, in font units scaled to the size.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: HBShape.path), "hb-shape (libharfbuzz-bin) is missing"))
    func widthsAgreeWithHBShape() throws {
        let text = "Measure the widest unbreakable word"
        let font = try #require(Fixtures.registry.match(family: "Noto Sans", weight: 400, italic: false))
        func advance(_ piece: String) throws -> Double {
            let entries = try #require(try HBShape.entries(piece, ["--font-file=" + font.path, "--no-glyph-names", "--no-clusters"]))
            // "36+1234" or "36@12,0+1234": the advance follows the "+".
            let units = entries.map { Int($0.split(separator: "+").last!)! }.reduce(0, +)
            return Double(units) * 24 / Double(font.unitsPerEm)
        }
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 24)), width: 300)
        request.measuresIntrinsics = true
        let metrics = try #require(try Fixtures.layouter.layout(request).intrinsicMetrics)
        let widest = try text.split(separator: " ").map { try advance(String($0)) }.max()!
        #expect(abs(metrics.minContent - widest) < 1e-6)
        #expect(abs(metrics.maxContent - (try advance(text))) < 1e-6)
    }

    /// FreeType's reading of the font's tables: hhea or OS/2's typographic metrics (by the
    /// USE_TYPO_METRICS bit, as HarfBuzz and the OpenType spec choose), post's underline, OS/2's
    /// strikeout, cap height and x-height (Noto Naskh Arabic and DejaVu Sans have an OS/2 table
    /// too old to hold the last two).
    @Test func faceMetricsAgreeWithFreeType() throws {
        var library: FT_Library?
        try #require(FT_Init_FreeType(&library) == 0)
        defer { FT_Done_FreeType(library) }
        for family in ["Noto Sans", "Noto Serif", "DejaVu Sans", "Noto Naskh Arabic"] {
            let font = try #require(Fixtures.registry.match(family: family, weight: 400, italic: false))
            var face: FT_Face?
            try #require(FT_New_Face(library, font.path, FT_Long(font.faceIndex), &face) == 0)
            defer { FT_Done_Face(face) }
            let os2 = try #require(FT_Get_Sfnt_Table(face, FT_SFNT_OS2)?.assumingMemoryBound(to: TT_OS2.self).pointee)
            let hhea = try #require(FT_Get_Sfnt_Table(face, FT_SFNT_HHEA)?.assumingMemoryBound(to: TT_HoriHeader.self).pointee)
            let typo = os2.fsSelection & (1 << 7) != 0
            #expect(font.ascender == Int32(typo ? os2.sTypoAscender : hhea.Ascender), "\(family)")
            #expect(font.descender == -Int32(typo ? os2.sTypoDescender : hhea.Descender), "\(family)")
            #expect(font.lineGap == Int32(typo ? os2.sTypoLineGap : hhea.Line_Gap), "\(family)")
            // post's own value, the underline's top: FreeType's underline_position is its centre.
            let post = try #require(FT_Get_Sfnt_Table(face, FT_SFNT_POST)?.assumingMemoryBound(to: TT_Postscript.self).pointee)
            #expect(font.underline.position == Int32(post.underlinePosition), "\(family)")
            #expect(font.underline.thickness == Int32(post.underlineThickness), "\(family)")
            #expect(font.strikeout.position == Int32(os2.yStrikeoutPosition), "\(family)")
            #expect(font.strikeout.thickness == Int32(os2.yStrikeoutSize), "\(family)")
            // Where OS/2 holds no cap or x height (before version 2, or 0), the face's are
            // HarfBuzz's estimates: above the baseline, below the ascender.
            if os2.version >= 2 && os2.sCapHeight != 0 {
                #expect(font.capHeight == Int32(os2.sCapHeight), "\(family)")
                #expect(font.xHeight == Int32(os2.sxHeight), "\(family)")
            } else {
                #expect(font.capHeight > 0 && font.capHeight <= font.ascender, "\(family)")
                #expect(font.xHeight > 0 && font.xHeight < font.capHeight, "\(family)")
            }
        }
    }
}
