import CFreeType
import Foundation
import LayoutFonts
import Testing
@testable import LayoutEngine
import LayoutUnicode

/// Synthesised bold and oblique: made where the family lacks the weight or slant (CSS
/// `font-synthesis`), held to FreeType's own emboldening and shear (`FT_GlyphSlot_Embolden`,
/// `FT_Outline_EmboldenXY`, `FT_GlyphSlot_Oblique`), which Cairo applies when Pango draws a
/// synthetic face.
@Suite struct FontSynthesisTests {
    /// URW's Z003 has one face, Medium Italic (weight 500): asking 700 of it makes a bold.
    static let z003 = "Z003"

    static func layout(_ text: String, family: String, weight: Int = 400, italic: Bool = false, size: Double = 24,
                       synthesis: FontSynthesis = .all, registry: FontRegistry = Fixtures.registry) throws -> ParagraphLayout {
        var style = TextStyle(family: family, weight: weight, italic: italic, size: size)
        style.synthesis = synthesis
        return try ParagraphLayouter(fonts: registry).layout(ParagraphRequest(text: AttributedText(text, style: style), width: 4000))
    }

    static func face(_ family: String, weight: Int = 400, italic: Bool = false) throws -> Font {
        try #require(Fixtures.registry.match(family: family, weight: weight, italic: italic))
    }

    @Test func boldIsMadeWhereTheFamilyHasNone() throws {
        let regular = try Self.layout("Hello", family: Self.z003)
        let bold = try Self.layout("Hello", family: Self.z003, weight: 700)
        let run = try #require(bold.runs.first)
        let font = try #require(run.instance)
        #expect(font.synthesis == .weight && run.fontID == regular.runs[0].fontID)
        #expect(abs(run.syntheticBold - 1) < 1e-9 && run.syntheticSlant == 0)  // 24 pt / 24
        // Each advance grows by the emboldening, to the font unit (an em of 1000: 42 units).
        let face = try Self.face(Self.z003)
        let growth = (Double(face.unitsPerEm) / 24).rounded() * face.scale(for: 24)
        for (plain, grown) in zip(regular.runs[0].advances, run.advances) {
            #expect(abs(grown - plain - growth) < 1e-9)
        }
        // The text takes more room and its ink grows: wider by the advances and the last glyph's growth.
        #expect(bold.size.width > regular.size.width + 4.5)
    }

    @Test func obliqueIsMadeWhereTheFamilyHasNoItalic() throws {
        // Noto Sans CJK has no italic: italic Han is slanted, its advances kept.
        let upright = try Self.layout("汉字", family: "Noto Sans CJK SC")
        let italic = try Self.layout("汉字", family: "Noto Sans CJK SC", italic: true)
        let run = try #require(italic.runs.first)
        #expect(run.instance?.synthesis == .style && run.syntheticSlant == FontSynthesis.obliqueShear && run.syntheticBold == 0)
        #expect(run.advances == upright.runs[0].advances && run.glyphIDs == upright.runs[0].glyphIDs)
        // A family with its own italic draws with it, nothing made.
        let noto = try Self.layout("Hello", family: "Noto Sans", italic: true)
        #expect(noto.runs.allSatisfy { $0.instance == nil } && Fixtures.family(of: noto.runs[0]) == "Noto Sans")
        #expect(Fixtures.registry.font(id: noto.runs[0].fontID)?.italic == true)
    }

    @Test func fallbackFacesAreSynthesisedForTheStyle() throws {
        // Italic Noto Sans has no Han: the CJK face that draws it is slanted for the style.
        let layout = try Self.layout("Tokyo 東京", family: "Noto Sans", weight: 900, italic: true)
        let han = try #require(layout.runs.first { Fixtures.family(of: $0).hasPrefix("Noto Sans CJK") })
        #expect(han.instance?.synthesis == .style)  // its Bold exists: only the slant is made
        let latin = try #require(layout.runs.first { Fixtures.family(of: $0) == "Noto Sans" })
        #expect(latin.instance == nil)
    }

    @Test func aStyleChoosesWhatMayBeMade() throws {
        let none = try Self.layout("汉字 Hello", family: Self.z003, weight: 700, italic: true, synthesis: [])
        #expect(none.runs.allSatisfy { $0.instance == nil })
        let weightOnly = try Self.layout("汉字", family: "Noto Sans CJK SC", italic: true, synthesis: .weight)
        #expect(weightOnly.runs.allSatisfy { $0.instance == nil })
        let styleOnly = try Self.layout("Hello", family: Self.z003, weight: 700, synthesis: .style)
        #expect(styleOnly.runs.allSatisfy { $0.instance == nil })
    }

    @Test func theBoldThresholdIsTheBrowsers() throws {
        // 600 or more asked of a face under 600: 500 and 599 draw the face as it is.
        for weight in [500, 599] {
            #expect(try Self.layout("Hello", family: Self.z003, weight: weight).runs[0].instance == nil)
        }
        #expect(try Self.layout("Hello", family: Self.z003, weight: 600).runs[0].instance?.synthesis == .weight)
        // A family whose heaviest face is Bold draws 900 with it, as browsers do: nothing made.
        let black = try Self.layout("Hello", family: "DejaVu Sans", weight: 900)
        #expect(black.runs[0].instance == nil && Fixtures.registry.font(id: black.runs[0].fontID)?.weight == 700)
    }

    @Test func colourEmojiAndVariableAxesAreNeverSynthesised() throws {
        let emoji = try Self.layout("😀", family: "Noto Color Emoji", weight: 900, italic: true)
        #expect(emoji.runs.allSatisfy { $0.instance == nil })
        // Inter's roman face has a weight axis and no slant: 800 is its own instance, italic is made.
        let inter = try #require(VariableFontTests.registry, "fonts-inter-variable is missing: scripts/setup.sh installs it")
        let heavy = try Self.layout("Hamburg", family: "Inter", weight: 800, italic: true, registry: inter)
        let font = try #require(heavy.runs[0].instance)
        #expect(font.synthesis == .style)
        #expect(heavy.runs[0].variations.contains { $0.tag == "wght" && $0.value == 800 })
    }

    @Test func theSyntheticFaceIsMadeOnceAndShared() throws {
        let first = try #require(try Self.layout("Hello", family: Self.z003, weight: 700).runs[0].instance)
        let second = try #require(try Self.layout("Hello there", family: Self.z003, weight: 800).runs[0].instance)
        #expect(first === second)
    }

    @Test func aSyntheticBoldIsAsWideAsARealBoldRoughly() throws {
        // DejaVu Sans Book made bold against DejaVu Sans Bold: wider than Book, and within 10%
        // of the real Bold (whose stems the designer widened by more than an em / 24).
        let book = try Self.face("DejaVu Sans")
        let registry = FontRegistry(fonts: [book], defaultFamily: "DejaVu Sans", fallbackFamilies: [])
        let text = "The quick brown fox jumps over the lazy dog"
        let regular = try Self.layout(text, family: "DejaVu Sans", registry: registry).size.width
        let synthetic = try Self.layout(text, family: "DejaVu Sans", weight: 700, registry: registry)
        #expect(synthetic.runs[0].instance?.synthesis == .weight)
        let real = try Self.layout(text, family: "DejaVu Sans", weight: 700).size.width
        #expect(synthetic.size.width > regular * 1.05)
        #expect(abs(synthetic.size.width / real - 1) < 0.10, "synthetic \(synthetic.size.width), real Bold \(real)")
    }

    // MARK: FreeType as the oracle

    /// A FreeType face of `font`'s file, given to `body`.
    static func withFreeType<T>(_ font: Font, _ body: (FT_Face) throws -> T) throws -> T {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw CancellationError() }
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        guard FT_New_Face(library, font.path, FT_Long(font.faceIndex), &face) == 0, let face else { throw CancellationError() }
        defer { FT_Done_Face(face) }
        return try body(face)
    }

    @Test(arguments: ["Z003", "DejaVu Sans", "Noto Sans CJK SC"])
    func advancesGrowAsFreeTypeEmboldens(_ family: String) throws {
        let face = try Self.face(family)
        let bold = face.synthesized(id: FontInstances.firstID, .weight)
        let text = family.hasPrefix("Noto Sans CJK") ? "汉字，好" : "Hag fjord!"
        let units = ContiguousArray(text.utf16)
        func shaped(_ font: Font) -> ShapedGlyphs {
            font.shaping.shape(units.span, range: 0..<units.count, context: 0..<units.count, rtl: false, upright: false,
                               script: family.hasPrefix("Noto Sans CJK") ? .han : .latin, style: ShapingStyle(TextStyle(), library: nil),
                               buffer: ShapingScratch())
        }
        // HarfBuzz's advances hold the font's kerning, FreeType's glyph advances do not: what
        // is compared is how much each grows.
        let plain = shaped(face), grown = shaped(bold)
        #expect(plain.header > 3 && plain.header == grown.header)
        try Self.withFreeType(face) { ftFace in
            // At one pixel per font unit FreeType's 26.6 advances are font units × 64.
            FT_Set_Char_Size(ftFace, 0, FT_F26Dot6(face.unitsPerEm) * 64, 72, 72)
            for (before, after) in withExtendedLifetime((plain, grown), { zip(Array(plain.slice), Array(grown.slice)) }) {
                guard FT_Load_Glyph(ftFace, before.id, FT_Int32(FT_LOAD_NO_HINTING)) == 0 else { continue }
                let unbolded = Double(ftFace.pointee.glyph.pointee.advance.x)
                FT_GlyphSlot_Embolden(ftFace.pointee.glyph)
                let growth = (Double(ftFace.pointee.glyph.pointee.advance.x) - unbolded) / 64
                #expect(growth > 40 && abs(Double(after.advance - before.advance) - growth) <= 1,
                        "glyph \(before.id): grew \(after.advance - before.advance) against FreeType's \(growth)")
            }
        }
    }

    @Test(arguments: ["Z003", "DejaVu Sans", "Noto Sans CJK SC"], [FontSynthesis.weight, .style, .all])
    func outlinesGrowAndSlantAsFreeTypes(_ family: String, _ synthesis: FontSynthesis) throws {
        let face = try Self.face(family)
        let made = face.synthesized(id: FontInstances.firstID, synthesis)
        let strength = made.shaping is SyntheticShaping ? (made.shaping as! SyntheticShaping).strength : 0
        let text = family.hasPrefix("Noto Sans CJK") ? "汉永字" : "HOgsa&@"
        var compared = 0
        try Self.withFreeType(face) { ftFace in
            for scalar in text.unicodeScalars {
                let glyph = try #require(face.nominalGlyph(scalar.value))
                guard FT_Load_Glyph(ftFace, glyph, FT_Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING)) == 0 else { continue }
                let outline = withUnsafeMutablePointer(to: &ftFace.pointee.glyph.pointee.outline) { $0 }
                // FreeType's strength in the outline's units (font units here), as the engine's.
                if synthesis.contains(.weight) { FT_Outline_EmboldenXY(outline, FT_Pos(saturating: strength.rounded()), FT_Pos(saturating: strength.rounded())) }
                if synthesis.contains(.style) {
                    var shear = FT_Matrix(xx: 0x10000, xy: 0x0366A, yx: 0, yy: 0x10000)
                    FT_Outline_Transform(outline, &shear)
                }
                var box = FT_BBox()
                FT_Outline_Get_CBox(outline, &box)
                let bounds = OutlineBounds()
                made.drawOutline(of: glyph, into: bounds)
                let ours = try #require(bounds.box)
                // Two font units of slack (of 1000 to 2048): FreeType rounds every moved point to
                // a unit, and HarfBuzz draws TrueType's implied on-curve points, which FreeType
                // leaves to be derived from the moved control points.
                let slack: Float = 2.5
                #expect(abs(ours.minX - Float(box.xMin)) <= slack && abs(ours.maxX - Float(box.xMax)) <= slack
                        && abs(ours.minY - Float(box.yMin)) <= slack && abs(ours.maxY - Float(box.yMax)) <= slack,
                        "\(family) \(scalar) \(synthesis): \(ours) against FreeType's \(box)")
                compared += 1
            }
        }
        #expect(compared == text.unicodeScalars.count)
    }

    @Test func inkBoundsHoldTheGrownOutline() throws {
        let plain = try #require(try Fixtures.layout("Hello", family: Self.z003) { $0.measuresInk = true }.ink?.layout)
        var request = ParagraphRequest(text: AttributedText("Hello", style: TextStyle(family: Self.z003, weight: 700, size: 24)),
                                       width: 300)
        request.measuresInk = true
        let bold = try #require(try Fixtures.layouter.layout(request).ink?.layout)
        // Up by the whole strength (1 pt at 24 pt) where the tallest letter's top is flat enough.
        #expect(bold.y < plain.y - 0.5 && bold.maxX > plain.maxX + 4.5)
    }
}
