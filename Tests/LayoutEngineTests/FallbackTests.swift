import Foundation
import Testing
import TestSupport
@testable import LayoutEngine

@Suite struct FallbackTests {
    @Test func eachScriptGetsAFontThatDrawsIt() throws {
        let cases: [(String, String)] = [
            ("Привет, мир", "Noto Sans"),
            ("你好，世界", "Noto Sans CJK SC"),
            ("नमस्ते दुनिया", "Noto Sans Devanagari"),
            ("سلام دنیا", "Noto Naskh Arabic"),
            ("😀🎉", "Noto Color Emoji"),
        ]
        for (text, family) in cases {
            let layout = try Fixtures.layout(text, width: 1000)
            let families = Set(layout.runs.map(Fixtures.family))
            #expect(families == [family], "\(text)")
            #expect(layout.runs.allSatisfy { !$0.glyphIDs.contains(0) }, "\(text) has .notdef")
        }
    }

    @Test func languageSelectsTheRegionalCJKFace() throws {
        let text = "直"
        let request = ParagraphRequest(text: AttributedText(text, style: TextStyle(size: 20, language: "ja")), width: 100)
        let layout = try Fixtures.layouter.layout(request)
        #expect(Fixtures.family(of: layout.runs[0]) == "Noto Sans CJK JP")
    }

    @Test func latinInsideChineseKeepsTheRequestedFont() throws {
        let layout = try Fixtures.layout("我用iPhone拍照", width: 1000)
        let families = layout.runs.map(Fixtures.family)
        #expect(families == ["Noto Sans CJK SC", "Noto Sans", "Noto Sans CJK SC"])
    }

    @Test func weightAndItalicMatchTheNearestFace() {
        let registry = Fixtures.registry
        #expect(registry.match(family: "Noto Sans", weight: 700, italic: true)?.styleName == "Bold Italic")
        #expect(registry.match(family: "noto sans", weight: 650, italic: false)?.weight == 700)
        #expect(registry.match(family: "Noto Sans", weight: 450, italic: false)?.weight == 400)
        #expect(registry.match(family: "DejaVu Sans", weight: 400, italic: false)?.widthClass == 5)
        #expect(registry.match(family: "No Such Family", weight: 400, italic: false) == nil)
    }

    @Test func unknownFamilyIsAnError() {
        #expect(throws: LayoutError.self) { try Fixtures.layout("x", family: "Comic Sans") }
    }

    @Test(.enabled(if: Fixtures.corpus != nil, "../shared/corpus/captions.jsonl is not beside this clone"))
    func everyCorpusCaptionLaysOutWithoutNotdef() throws {
        let corpus = try #require(Fixtures.corpus)
        #expect(corpus.count > 1000)
        try Self.layOutWithoutNotdef(corpus)
    }

    @Test func ownCaptionsLayOutWithoutNotdef() throws {
        try Self.layOutWithoutNotdef(Fixtures.ownCaptions)
    }

    static func layOutWithoutNotdef(_ captions: [Fixtures.Caption]) throws {
        var failures: [String] = []
        for caption in captions {
            let layout = try Fixtures.layout(caption.text, width: 300)
            if layout.runs.contains(where: { $0.glyphIDs.contains(0) }) { failures.append(caption.id) }
            // Nothing is lost: every unit of the text is on a line.
            #expect(layout.visibleRange.count == caption.text.utf16.count, "\(caption.id)")
        }
        #expect(failures.isEmpty, "captions with .notdef: \(failures.prefix(20))")
    }

    /// The regional CJK face by language tag, case-insensitively by prefix, as the tag's
    /// lowercased prefixes give it.
    @Test func cjkFaceFollowsTheLanguageTag() {
        func reference(_ language: String) -> String {
            let tag = language.lowercased()
            if tag.hasPrefix("ja") { return "Noto Sans CJK JP" }
            if tag.hasPrefix("ko") { return "Noto Sans CJK KR" }
            if tag.hasPrefix("zh-hk") || tag.hasPrefix("zh-mo") { return "Noto Sans CJK HK" }
            if tag.hasPrefix("zh-hant") || tag.hasPrefix("zh-tw") { return "Noto Sans CJK TC" }
            return "Noto Sans CJK SC"
        }
        let tags = ["", "ja", "JA", "ja-JP", "jA-jp", "j", "ko", "KO-kr", "k", "zh", "zh-Hans", "zh-CN", "zh-HK", "ZH-hk",
                    "zh-MO", "zh-Hant", "zh-Hant-TW", "ZH-HANT", "zh-TW", "zh-T", "zh-", "en", "ar", "jaa", "zh-hantx", "é-ja"]
        for tag in tags { #expect(ScriptFonts.cjkFamily(language: tag) == reference(tag), "\(tag)") }
        #expect(ScriptFonts.cjkFamily(language: "ja") == "Noto Sans CJK JP")
        #expect(ScriptFonts.cjkFamily(language: "zh-Hant-TW") == "Noto Sans CJK TC")
    }
}

/// Fallback off (`TextStyle.fontFallback`): the style's own face draws everything, .notdef where
/// it lacks a character, exactly as hb-shape draws the text with that face alone.
@Suite struct FallbackOffTests {
    static let text = "Thai ภาษา and 😀 stay"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: HBShape.path), "hb-shape (libharfbuzz-bin) is missing"))
    func theOwnFaceDrawsEverythingAsHBShapeDoes() throws {
        var style = TextStyle(family: "Noto Sans", size: 20)
        style.fontFallback = false
        let layout = try Fixtures.layouter.layout(ParagraphRequest(text: AttributedText(Self.text, style: style), width: 1_000))
        let font = try #require(Fixtures.registry.match(family: "Noto Sans", weight: 400, italic: false))
        #expect(layout.runs.allSatisfy { $0.fontID == font.id })
        let ours = layout.runs.flatMap(\.glyphIDs)
        let theirs = try #require(try HBShape.entries(Self.text, ["--font-file=" + font.path, "--no-glyph-names", "--no-clusters",
                                                                   "--no-positions"])).map { UInt32($0)! }
        #expect(ours == theirs)
        #expect(ours.contains(0), "Noto Sans lacks Thai and emoji: .notdef shows")
    }

    @Test func fallbackStaysOnByDefaultAndOutsideTheSpan() throws {
        let plain = try Fixtures.layout(Self.text, width: 1_000, size: 20)
        #expect(!plain.runs.flatMap(\.glyphIDs).contains(0))
        #expect(Set(plain.runs.map(\.fontID)).count >= 3, "Noto Sans, Noto Sans Thai and Noto Color Emoji")
        // Off over the Thai word alone (units 5..<9): the emoji still falls back.
        var off = StylePatch()
        off.fontFallback = false
        let text = AttributedText(Self.text, style: TextStyle(family: "Noto Sans", size: 20), spans: [.init(range: 5..<9, patch: off)])
        let layout = try Fixtures.layouter.layout(ParagraphRequest(text: text, width: 1_000))
        let thai = layout.runs.flatMap(\.glyphs).filter { (5..<9).contains($0.cluster) }
        #expect(!thai.isEmpty && thai.allSatisfy { $0.id == 0 })
        #expect(layout.runs.flatMap(\.glyphs).filter { !(5..<9).contains($0.cluster) && $0.id == 0 }.isEmpty)
        let emoji = try #require(Fixtures.registry.emojiFont)
        #expect(layout.runs.contains { $0.fontID == emoji.id })
    }
}
