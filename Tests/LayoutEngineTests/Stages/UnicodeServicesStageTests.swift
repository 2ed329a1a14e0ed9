import Testing
@testable import LayoutEngine

/// The pipeline asks a layouter's Unicode services (`UnicodeServices`) for bidi levels,
/// dictionary words and hyphenation patterns, and takes their answers as they are: here from
/// services whose answers a test chooses, no FriBidi, ICU, libthai or libhyphen taking part, over
/// fixed-advance faces (a letter 5 points, a space 2.5 at size 10).
@Suite struct UnicodeServicesStageTests {
    /// Every unit at level `level` of every paragraph; words cut where `words` says; every word
    /// hyphenable after each third letter; what was asked, recorded.
    final class ChosenUnicode: UnicodeServices {
        let level: UInt8
        let words: [Int]
        let asked = Locked<[String]>([])

        init(level: UInt8 = 0, words: [Int] = []) {
            self.level = level
            self.words = words
        }

        func resolveBidiParagraph(_ units: Span<UInt16>, range: Range<Int>, forcedBase: UInt8?,
                                  into levels: inout MutableSpan<UInt8>) -> UInt8 {
            asked.withLock { $0.append("bidi \(range)") }
            for index in range { levels[index] = level }
            return forcedBase ?? (level & 1)
        }

        func dictionaryWords(in run: ArraySlice<UInt16>) -> [Int]? {
            asked.withLock { $0.append("words \(run.startIndex)..<\(run.endIndex)") }
            return words.map { run.startIndex + $0 }.filter { $0 > run.startIndex && $0 < run.endIndex }
        }

        func thaiWords(in run: ArraySlice<UInt16>) -> [Int]? { nil }

        func hyphenation(forLanguage language: String) -> (any HyphenationDictionary)? {
            asked.withLock { $0.append("hyphenation \(language)") }
            return EveryThirdLetter()
        }
    }

    final class EveryThirdLetter: HyphenationDictionary {
        var leftMinimum: Int { 2 }
        var rightMinimum: Int { 2 }
        func breaks(in word: [Unicode.Scalar]) -> [Int] { Array(stride(from: 3, to: word.count - 1, by: 3)) }
    }

    func layouter(_ unicode: ChosenUnicode) -> ParagraphLayouter {
        ParagraphLayouter(fonts: FixedAdvance.registry, unicode: unicode, cache: nil)
    }

    /// The chosen patterns break "bbbbbbbbb" after its third and sixth letters: in 50 points,
    /// "aaaa bbb-" (42.5) fits and "aaaa bbbbbb-" (57.5) does not. libhyphen would give no break
    /// in a word of one letter repeated.
    @Test func hyphensFallWhereTheServicesPatternsSay() throws {
        let unicode = ChosenUnicode()
        let text = "aaaa bbbbbbbbb"
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: FixedAdvance.family, size: 10)), width: 50)
        request.hyphenation = Hyphenation(minWordLength: 5, maxConsecutiveLines: 0)
        let layout = try layouter(unicode).layout(request)
        #expect(FixedAdvance.lineTexts(layout, text) == ["aaaa bbb", "bbbbbb"])
        let hyphen = try #require(layout.runs.first { $0.isHyphen })
        #expect(hyphen.lineIndex == 0)
        #expect(unicode.asked.withLock { $0 }.contains("hyphenation \(Hyphenation.defaultLanguage)"))
    }

    /// Services that put every unit at level 1 make a paragraph of Latin letters right to left:
    /// its glyphs run from the last letter on the left to the first on the right. A text with
    /// nothing right-to-left in it is never asked (every level is 0 without a question).
    @Test func levelsAreTheServicesLevels() throws {
        let unicode = ChosenUnicode(level: 1)
        let style = TextStyle(family: FixedAdvance.family, size: 10)
        let plain = try layouter(unicode).layout(ParagraphRequest(text: AttributedText("abc", style: style), width: 100))
        #expect(unicode.asked.withLock { $0 }.isEmpty)
        #expect(plain.runs.flatMap(\.glyphs).sorted { $0.position.x < $1.position.x }.map(\.id) == [0x61, 0x62, 0x63])

        let mixed = try layouter(unicode).layout(ParagraphRequest(text: AttributedText("abc \u{5D0}", style: style), width: 100))
        #expect(unicode.asked.withLock { $0 } == ["bidi 0..<5"])
        #expect(mixed.runs.flatMap(\.glyphs).sorted { $0.position.x < $1.position.x }.map(\.id) == [0x5D0, 0x20, 0x63, 0x62, 0x61])
        #expect(mixed.runs.allSatisfy { $0.bidiLevel == 1 })
    }

    /// Ideographs take the services' words: the words a double tap selects, and the phrases
    /// `word-break: auto-phrase` keeps on one line.
    @Test func dictionaryWordsAreTheServicesWords() throws {
        let unicode = ChosenUnicode(words: [1])
        let boundaries = TextBoundaries(text: "中文字", unicode: unicode)
        #expect(boundaries.wordBoundaries == [0, 1, 3])
        #expect(boundaries.word(around: 2) == 1..<3)
        #expect(unicode.asked.withLock { $0 } == ["words 0..<3"])
    }
}
