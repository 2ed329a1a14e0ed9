import Foundation
import Testing
@testable import LayoutEngine
import LayoutRender

/// A synthesised face is drawn as it was laid out (FontSynthesisTests holds its advances and
/// outlines to FreeType): an oblique leans right by its shear, a bold puts down more ink, and
/// SVG and PDF draw the same outlines.
@Suite struct SyntheticFaceRenderTests {
    /// "l" sits on the baseline and reaches the ascender: a vertical stem, good for seeing a slant.
    static func picture(_ text: String, family: String, weight: Int = 400, italic: Bool = false, size: Double = 80,
                        format: RenderFormat = .png) throws -> [UInt8] {
        let layout = try Fixtures.layouter.layout(ParagraphRequest(
            text: AttributedText(text, style: TextStyle(family: family, weight: weight, italic: italic, size: size)), width: 2000))
        let scene = RenderScene(size: Size(width: layout.size.width + 40, height: layout.size.height + 20),
                                canvas: Color(red: 1, green: 1, blue: 1), origin: Point(x: 20, y: 10), backgrounds: [],
                                runs: layout.runs, textColor: Color(red: 0, green: 0, blue: 0))
        return try RenderTests.renderer.render(scene, format: format, scale: 1)
    }

    /// The mean x of the ink in each pixel row that has ink, top down.
    static func rowCentres(_ png: [UInt8]) throws -> [(y: Int, x: Double)] {
        let pixels = try #require(RenderTests.pixels(png))
        var rows: [(Int, Double)] = []
        for y in 0..<pixels.height {
            let xs = (0..<pixels.width).filter { pixels.data[y * pixels.width + $0] & 0xFF < 128 }
            if !xs.isEmpty { rows.append((y, Double(xs.reduce(0, +)) / Double(xs.count))) }
        }
        return rows
    }

    @Test func anObliqueLeansByItsShear() throws {
        // Noto Sans CJK has no italic face: its "l" is slanted for italic text.
        let upright = try Self.rowCentres(Self.picture("l", family: "Noto Sans CJK SC"))
        let slanted = try Self.rowCentres(Self.picture("l", family: "Noto Sans CJK SC", italic: true))
        func lean(_ rows: [(y: Int, x: Double)]) -> Double {
            // Between rows a fifth and four fifths down the stem (clear of its rounded ends).
            let top = rows[rows.count / 5], bottom = rows[rows.count * 4 / 5]
            return (top.x - bottom.x) / Double(bottom.y - top.y)
        }
        #expect(abs(lean(upright)) < 0.02, "upright lean \(lean(upright))")
        #expect(abs(lean(slanted) - FontSynthesis.obliqueShear) < 0.03, "slanted lean \(lean(slanted)), shear \(FontSynthesis.obliqueShear)")
    }

    @Test func aSyntheticBoldPutsDownMoreInk() throws {
        func ink(_ png: [UInt8]) throws -> Int { try #require(RenderTests.pixels(png)).data.filter { $0 & 0xFF < 128 }.count }
        let medium = try ink(Self.picture("lllll", family: "Z003"))
        let bold = try ink(Self.picture("lllll", family: "Z003", weight: 700))
        // Each stem grows by an em / 24 (3.3 px at 80 pt) on stems a few pixels wide.
        #expect(Double(bold) > Double(medium) * 1.3, "medium \(medium), bold \(bold)")
    }

    @Test func svgDrawsTheSyntheticOutlinesAsPaths() throws {
        // Cairo writes a face's glyphs as symbols each use points to; a synthesised run is the
        // engine's outlines, filled as one path.
        let upright = String(decoding: try Self.picture("汉l", family: "Noto Sans CJK SC", format: .svg), as: UTF8.self)
        let slanted = String(decoding: try Self.picture("汉l", family: "Noto Sans CJK SC", italic: true, format: .svg), as: UTF8.self)
        #expect(upright.contains("<use xlink:href=\"#glyph"))
        #expect(!slanted.contains("<use xlink:href=\"#glyph") && slanted.contains("<path"))
    }

    @Test func pdfDrawsTheSyntheticOutlines() throws {
        // A PDF of synthesised runs alone embeds no font: every glyph is the engine's outline,
        // filled. (Drawn with the face as it is, Cairo would embed Noto Sans CJK, and Cairo 1.16
        // leaks a little while it cuts a CFF font down for a PDF: scripts/asan.sh.)
        let pdf = String(decoding: try Self.picture("汉l", family: "Noto Sans CJK SC", italic: true, format: .pdf), as: UTF8.self)
        #expect(pdf.hasPrefix("%PDF-") && pdf.contains("/Type /Page"))
        #expect(!pdf.contains("/FontDescriptor") && !pdf.contains("/FontFile"))
    }
}
