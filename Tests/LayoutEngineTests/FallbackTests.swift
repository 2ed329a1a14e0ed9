import Testing
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
