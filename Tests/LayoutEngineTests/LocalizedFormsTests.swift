import Foundation
import Testing
import TestSupport
@testable import LayoutEngine

/// Language-specific forms (OpenType `locl`) follow each span's language, as `hb-shape
/// --language` gives them: Serbian and Macedonian Cyrillic take their own б (and in italic
/// г, д, п, т) in Noto Sans, Russian and Bulgarian the default ones.
@Suite struct LocalizedFormsTests {
    static func hbShapeIDs(_ text: String, font: Font, language: String) throws -> [UInt32]? {
        // "[1234|1235|...]"
        try HBShape.entries(text, ["--no-glyph-names", "--no-positions", "--no-clusters", "--language=\(language)",
                                   "--font-file=\(font.path)", "--face-index=\(font.faceIndex)"])?.compactMap { UInt32($0) }
    }

    @Test(arguments: [("sr", false), ("mk", false), ("ru", false), ("bg", false), ("sr", true), ("ru", true)])
    func spanLanguageSelectsLocalForms(_ language: String, _ italic: Bool) throws {
        let text = "бгдпт"
        let base = TextStyle(family: "Noto Sans", size: 20)
        // The language on a span over the whole text, as a client sets it.
        let attributed = AttributedText(text, style: base, spans: [AttributedText.Span(range: 0..<5, patch: StylePatch(italic: italic, language: language))])
        let layout = try Fixtures.layouter.layout(ParagraphRequest(text: attributed, width: 400))
        let run = try #require(layout.runs.first)
        let font = try #require(Fixtures.registry.font(id: run.fontID))
        #expect(font.italic == italic)
        guard let expected = try Self.hbShapeIDs(text, font: font, language: language) else {
            Issue.record("hb-shape is missing: scripts/setup.sh installs libharfbuzz-bin")
            return
        }
        #expect(layout.runs.flatMap(\.glyphIDs) == expected, "\(language)\(italic ? " italic" : "")")
    }

    @Test func serbianDiffersFromRussianInOneText() throws {
        // "б" in Russian, then in Serbian: one text, two spans, two glyphs.
        let attributed = AttributedText("б б", style: TextStyle(family: "Noto Sans", size: 20, language: "ru"),
                                        spans: [AttributedText.Span(range: 2..<3, patch: StylePatch(language: "sr"))])
        let ids = try Fixtures.layouter.layout(ParagraphRequest(text: attributed, width: 400)).runs.flatMap(\.glyphIDs)
        #expect(ids.count == 3 && ids[0] != ids[2], "\(ids)")
    }
}
