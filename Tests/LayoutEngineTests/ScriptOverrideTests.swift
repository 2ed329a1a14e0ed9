import Foundation
import Testing
import TestSupport
@testable import LayoutEngine
import LayoutUnicode

/// A style's script override shapes its text as that script, as `hb-shape --script` does on the
/// same font: Zawgyi's `Qaag` keeps Myanmar's medial ra where it was typed, and Latin turns
/// Devanagari's reordering off. Fonts are still chosen by the characters' own script.
@Suite struct ScriptOverrideTests {
    static let devanagari = "किताब"
    static let myanmar = "မြန်မာ"
    static let myanmarPath = "/usr/share/fonts/truetype/noto/NotoSansMyanmar-Regular.ttf"

    static func hbShapeIDs(_ text: String, font: Font, script: String?) throws -> [UInt32]? {
        try HBShape.entries(text, ["--no-glyph-names", "--no-positions", "--no-clusters", "--font-file=\(font.path)",
                                   "--face-index=\(font.faceIndex)"] + (script.map { ["--script=\($0)"] } ?? []))?.compactMap { UInt32($0) }
    }

    static func glyphs(_ text: String, family: String, script: Script?, layouter: ParagraphLayouter = Fixtures.layouter,
                       registry: FontRegistry = Fixtures.registry) throws -> (ids: [UInt32], font: Font) {
        var style = TextStyle(family: family, size: 20)
        style.script = script
        let layout = try layouter.layout(ParagraphRequest(text: AttributedText(text, style: style), width: 400))
        let run = try #require(layout.runs.first)
        return (layout.runs.flatMap(\.glyphIDs), try #require(registry.font(id: run.fontID)))
    }

    @Test func latinTurnsDevanagariReorderingOffAsHbShapeDoes() throws {
        let own = try Self.glyphs(Self.devanagari, family: "Noto Sans Devanagari", script: nil)
        let latin = try Self.glyphs(Self.devanagari, family: "Noto Sans Devanagari", script: try StyleRules.script("Latn", field: "script"))
        #expect(own.font.family == "Noto Sans Devanagari" && latin.font.family == "Noto Sans Devanagari", "the font follows the characters")
        guard let expectedOwn = try Self.hbShapeIDs(Self.devanagari, font: own.font, script: nil),
              let expectedLatin = try Self.hbShapeIDs(Self.devanagari, font: latin.font, script: "Latn") else {
            Issue.record("hb-shape is missing: scripts/setup.sh installs libharfbuzz-bin")
            return
        }
        #expect(own.ids == expectedOwn)
        #expect(latin.ids == expectedLatin)
        #expect(own.ids != latin.ids, "the i-matra moves before its consonant only in Devanagari's shaper")
    }

    @Test func zawgyiKeepsTheMedialRaWhereItWasTyped() throws {
        guard FileManager.default.fileExists(atPath: Self.myanmarPath) else {
            Issue.record("missing \(Self.myanmarPath): scripts/setup.sh installs fonts-noto-core")
            return
        }
        let registry = try FontRegistry.load(paths: [Self.myanmarPath])
        let layouter = ParagraphLayouter(fonts: registry)
        let unicode = try Self.glyphs(Self.myanmar, family: "Noto Sans Myanmar", script: nil, layouter: layouter, registry: registry)
        let zawgyi = try Self.glyphs(Self.myanmar, family: "Noto Sans Myanmar", script: try StyleRules.script("qaag", field: "script"),
                                     layouter: layouter, registry: registry)
        guard let expectedUnicode = try Self.hbShapeIDs(Self.myanmar, font: unicode.font, script: nil),
              let expectedZawgyi = try Self.hbShapeIDs(Self.myanmar, font: zawgyi.font, script: "Qaag") else {
            Issue.record("hb-shape is missing: scripts/setup.sh installs libharfbuzz-bin")
            return
        }
        #expect(unicode.ids == expectedUnicode)
        #expect(zawgyi.ids == expectedZawgyi)
        #expect(unicode.ids != zawgyi.ids)
        // The same glyphs; only the medial ra's place differs.
        #expect(unicode.ids.sorted() == zawgyi.ids.sorted())
    }

    @Test func aSpansScriptHoldsOnlyForItsRange() throws {
        let text = Self.devanagari + " " + Self.devanagari
        let span = AttributedText.Span(range: 6..<11, patch: { var patch = StylePatch(); patch.script = Script(tag: 0x4C61746E); return patch }())
        let layout = try Fixtures.layouter.layout(ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans Devanagari", size: 20),
                                                                                        spans: [span]), width: 400))
        let own = try Self.glyphs(Self.devanagari, family: "Noto Sans Devanagari", script: nil).ids
        let latin = try Self.glyphs(Self.devanagari, family: "Noto Sans Devanagari", script: Script(tag: 0x4C61746E)).ids
        let ids = layout.runs.flatMap(\.glyphIDs)
        #expect(Array(ids.prefix(own.count)) == own && Array(ids.suffix(latin.count)) == latin, "\(ids)")
    }

    @Test func aScriptCodeIsFourLettersInAnyCase() throws {
        #expect(try StyleRules.script("qAAG", field: "script") == Script(tag: 0x5161_6167))
        #expect(try StyleRules.script("Latn", field: "script") == Script(tag: 0x4C61_746E))
        for bad in ["", "Lat", "Latin", "La1n", "Lat ", "Łatn"] {
            #expect(throws: LayoutError.self, "\(bad)") { try StyleRules.script(bad, field: "default_style.script") }
        }
        do { _ = try StyleRules.script("Latin", field: "default_style.script") } catch {
            #expect(error.field == "default_style.script" && error.message.contains("ISO 15924"))
        }
    }
}
