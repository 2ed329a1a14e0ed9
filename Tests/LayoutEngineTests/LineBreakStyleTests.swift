import Testing
@testable import LayoutEngine
import LayoutUnicode

/// CSS `line-break` and `word-break` (CSS Text 3 §5.2 and §5.3, CSS Text 4's `auto-phrase`), as
/// ICU's `line_normal_cj` and `line_loose_cj` rules read the strictness for Chinese and Japanese.
/// The expected opportunities are written from those rules, character by character.
struct LineBreakStyleTests {
    /// The offsets a line may break before.
    static func breaks(_ string: String, lineBreak: LineBreakStrictness = .auto, wordBreak: WordBreakStyle = .normal,
                       language: String = "", spans: [AttributedText.Span] = []) -> [Int] {
        var style = TextStyle(family: "Noto Sans", size: 20, language: language)
        style.lineBreak = lineBreak
        style.wordBreak = wordBreak
        let analysis = TextAnalysis.analyze(AttributedText(string, style: style, spans: spans), direction: .leftToRight, unicode: SystemUnicode.shared)
        return analysis.flags.indices.filter { analysis.flags[$0].contains(.breakBefore) }
    }

    @Test func strictKeepsSmallKanaAndTheProlongedSoundMarkOffALinesStartAndNormalLetsThemStartOne() {
        // キ ャ ッ シ ュ ー: CJ at 1, 2, 4 and 5.
        let text = "キャッシュー"
        #expect(Self.breaks(text) == [3])
        #expect(Self.breaks(text, lineBreak: .strict) == [3])
        #expect(Self.breaks(text, lineBreak: .normal) == [1, 2, 3, 4, 5])
        #expect(Self.breaks(text, lineBreak: .loose) == [1, 2, 3, 4, 5])
        // CSS: allowed for normal and loose whatever the language.
        #expect(Self.breaks(text, lineBreak: .normal, language: "en") == [1, 2, 3, 4, 5])
    }

    @Test func normalLetsAChineseOrJapaneseLineStartWithAHyphenLikeCharacter() {
        // 10時〜12時: 〜 (NS) at 3.
        let text = "10時〜12時"
        #expect(!Self.breaks(text, language: "ja").contains(3))
        #expect(Self.breaks(text, lineBreak: .normal, language: "ja").contains(3))
        #expect(Self.breaks(text, lineBreak: .normal, language: "zh-Hans").contains(3))
        // Only in Chinese and Japanese.
        #expect(!Self.breaks(text, lineBreak: .normal, language: "ko").contains(3))
    }

    @Test func looseAddsIterationMarksEllipsesCentredPunctuationSuffixesAndPrefixesInJapanese() {
        // 人々 (々 at 1), 待って……よ (between the two … at 4), 注意：火 (： at 2), 100％ (％ at 3), ￥100 (after ￥, 1).
        let cases: [(String, Int)] = [("人々", 1), ("待って……よ", 4), ("注意：火", 2), ("100％", 3), ("￥100", 1), ("本当！？", 2)]
        for (text, offset) in cases {
            #expect(!Self.breaks(text, lineBreak: .normal, language: "ja").contains(offset), "\(text)")
            #expect(Self.breaks(text, lineBreak: .loose, language: "ja").contains(offset), "\(text)")
            #expect(!Self.breaks(text, lineBreak: .loose, language: "en").contains(offset), "\(text)")
        }
        // Still none before the first … after a letter, nor before a closing bracket.
        #expect(!Self.breaks("待って……よ", lineBreak: .loose, language: "ja").contains(3))
        #expect(!Self.breaks("「人々」", lineBreak: .loose, language: "ja").contains(3))
    }

    @Test func anywhereBreaksBetweenEveryGraphemeClusterButBeforeASpace() {
        #expect(Self.breaks("(Hi) yo", lineBreak: .anywhere) == [1, 2, 3, 5, 6])
        // A family emoji is one cluster; a flag too.
        let family = "a👨‍👩‍👧🇯🇵b"
        #expect(Self.breaks(family, lineBreak: .anywhere) == [1, 9, 13])
        // Over keep-all.
        #expect(Self.breaks("오늘은", lineBreak: .anywhere, wordBreak: .keepAll) == [1, 2])
    }

    @Test func breakAllBreaksBetweenLettersAndDigitsButKeepsPunctuationRules() {
        #expect(Self.breaks("(Hi) 42") == [5])
        #expect(Self.breaks("(Hi) 42", wordBreak: .breakAll) == [2, 5, 6])
        // A mark stays with its letter: é as e and U+0301.
        #expect(Self.breaks("cafe\u{301}s", wordBreak: .breakAll) == [1, 2, 3, 5])
    }

    @Test func keepAllBreaksKoreanAndChineseOnlyAtSpacesAndPunctuation() {
        // 오늘은 친구들과: normal breaks between syllables, keep-all only after the space.
        #expect(Self.breaks("오늘은 친구들과") == [1, 2, 4, 5, 6, 7])
        #expect(Self.breaks("오늘은 친구들과", wordBreak: .keepAll) == [4])
        // 今天，明天: after the comma (3) only.
        #expect(Self.breaks("今天，明天", wordBreak: .keepAll) == [3])
        // Latin words as before.
        #expect(Self.breaks("one two", wordBreak: .keepAll) == Self.breaks("one two"))
    }

    @Test func autoPhraseBreaksJapaneseBetweenPhrases() throws {
        // Android's documented example of LineBreakConfig's phrase style: 今日は｜自由が丘で｜焼き鳥を｜食べます。
        #expect(Self.breaks("今日は自由が丘で焼き鳥を食べます。", wordBreak: .autoPhrase, language: "ja") == [3, 8, 12])
        // The CSS Working Group's example (csswg-drafts#6730): 私の｜名前は｜中野です。
        #expect(Self.breaks("私の名前は中野です。", wordBreak: .autoPhrase, language: "ja") == [2, 5])
        // Another language: as normal.
        let text = "今日は自由が丘で焼き鳥を食べます。"
        #expect(Self.breaks(text, wordBreak: .autoPhrase, language: "zh") == Self.breaks(text, language: "zh"))
    }

    @Test func aSpanTailorsOnlyTheOpportunitiesBeforeItsOwnCharacters() {
        // keep-all over 친구들과 alone: 오늘은 still breaks between syllables.
        var keepAll = StylePatch()
        keepAll.wordBreak = .keepAll
        let spans = [AttributedText.Span(range: 4..<8, patch: keepAll)]
        #expect(Self.breaks("오늘은 친구들과", spans: spans) == [1, 2, 4])
    }

    /// Every caption: what each value adds to or takes from the default, as CSS defines them.
    @Test(arguments: [false, true])
    func theValuesRelateAsCSSDefinesThemOnEveryCaption(corpus: Bool) throws {
        let captions = corpus ? Fixtures.corpus?.filter { $0.script == "Hani" } : Fixtures.ownCaptions
        guard let captions else { return }  // no ../shared: the corpus-free run covers the rules
        for caption in captions {
            let text = caption.text
            let language = caption.script == "Jpan" ? "ja" : caption.script == "Hani" ? "zh" : caption.script == "Kore" ? "ko" : ""
            let auto = Set(Self.breaks(text, language: language))
            let normal = Set(Self.breaks(text, lineBreak: .normal, language: language))
            let loose = Set(Self.breaks(text, lineBreak: .loose, language: language))
            let anywhere = Set(Self.breaks(text, lineBreak: .anywhere, language: language))
            let breakAll = Set(Self.breaks(text, wordBreak: .breakAll, language: language))
            let keepAll = Set(Self.breaks(text, wordBreak: .keepAll, language: language))
            let phrases = Set(Self.breaks(text, wordBreak: .autoPhrase, language: language))
            #expect(auto.isSubset(of: normal) && normal.isSubset(of: loose), "\(caption.id)")
            #expect(auto.isSubset(of: breakAll) && breakAll.isSubset(of: anywhere) && loose.isSubset(of: anywhere), "\(caption.id)")
            #expect(keepAll.isSubset(of: auto) && phrases.isSubset(of: auto), "\(caption.id)")
            // keep-all: never between two ideographs, kana or Hangul syllables.
            let units = Array(text.utf16)
            for offset in keepAll where offset > 0 {
                #expect(!(Self.isCJKLetter(units[offset - 1]) && Self.isCJKLetter(units[offset])), "\(caption.id) at \(offset)")
            }
        }
    }

    static func isCJKLetter(_ u: UInt16) -> Bool {
        (0x3041...0x30FA).contains(u) || (0x4E00...0x9FFF).contains(u) || (0xAC00...0xD7A3).contains(u)
    }

    @Test func aKeepAllKoreanParagraphEndsEachLineAfterASpace() throws {
        let text = "오늘은 친구들과 한강에서 자전거를 탔어요. 날씨가 정말 좋았어요!"
        // Without keep-all some line ends inside a word at these widths.
        let midWord = try stride(from: 90.0, through: 300, by: 15).contains { width in
            let layout = try Fixtures.layouter.layout(ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 16)), width: width))
            return layout.lines.dropLast().contains { Array(text.utf16)[$0.range.upperBound - 1] != 0x20 }
        }
        #expect(midWord)
        for width in stride(from: 90.0, through: 300, by: 15) {
            var style = TextStyle(family: "Noto Sans", size: 16)
            style.wordBreak = .keepAll
            let layout = try Fixtures.layouter.layout(ParagraphRequest(text: AttributedText(text, style: style), width: width))
            #expect(layout.lines.count > 1)
            for line in layout.lines.dropLast() {
                let last = Array(text.utf16)[line.range.upperBound - 1]
                #expect(last == 0x20, "width \(width): a line ends inside a word")
            }
        }
    }
}
