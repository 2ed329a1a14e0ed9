import Foundation
import Testing
@testable import LayoutEngine
import LayoutUnicode

@Suite struct TextBoundariesTests {
    static func word(_ text: String, at offset: Int) -> String {
        let range = TextBoundaries(text: text).word(around: offset)
        return String(decoding: Array(text.utf16)[range], as: UTF16.self)
    }

    @Test func wordsFollowUAX29() {
        let text = "Hello, world! It's 3.14 o'clock."
        #expect(Self.word(text, at: 1) == "Hello")
        #expect(Self.word(text, at: 5) == ",")
        #expect(Self.word(text, at: 6) == " ")
        #expect(Self.word(text, at: 15) == "It's")
        #expect(Self.word(text, at: 20) == "3.14")
        #expect(Self.word(text, at: 25) == "o'clock")
        #expect(Self.word(text, at: text.utf16.count) == ".", "at the end: the last segment")
    }

    /// Thai has no spaces between words; libthai's dictionary finds them where UAX #29 would
    /// cut between letters.
    @Test func thaiWordsComeFromTheDictionary() {
        let text = "ภาษาไทยง่ายนิดเดียว"
        #expect(Self.word(text, at: 1) == "ภาษา")
        #expect(Self.word(text, at: 5) == "ไทย")
        #expect(Self.word(text, at: 8) == "ง่าย")
        let bounds = TextBoundaries(text: text).wordBoundaries
        #expect(bounds.count < 8, "a few words, not a cut per letter: \(bounds)")
    }

    /// Chinese and Japanese words come from ICU's dictionary, where UAX #29 alone makes every
    /// ideograph a word of its own.
    @Test func chineseAndJapaneseWordsComeFromTheDictionary() {
        #expect(Self.word("我们今天去北京", at: 1) == "我们")
        #expect(Self.word("我们今天去北京", at: 2) == "今天")
        #expect(Self.word("我们今天去北京", at: 6) == "北京")
        #expect(Self.word("日本語の文章を書きます", at: 1) == "日本語")
        #expect(Self.word("日本語の文章を書きます", at: 4) == "文章")
        #expect(Self.word("カタカナ語", at: 1) == "カタカナ", "a katakana run stays one word")
        // Lao has no spaces between words either.
        #expect(Self.word("ພາສາລາວ", at: 1) == "ພາສາ")
        #expect(Self.word("ພາສາລາວ", at: 5) == "ລາວ")
    }

    @Test func dictionaryRunsKeepTheirNeighboursAndSurrogates() {
        let text = "Hello 北京大学, world 我们𠀋北京"
        #expect(Self.word(text, at: 1) == "Hello")
        #expect(Self.word(text, at: 6) == "北京")
        #expect(Self.word(text, at: 8) == "大学")
        #expect(Self.word(text, at: 10) == ",")
        #expect(Self.word(text, at: 13) == "world")
        let units = Array(text.utf16)
        for boundary in TextBoundaries(text: text).wordBoundaries where boundary < units.count {
            #expect(!UTF16.isTrailSurrogate(units[boundary]), "a boundary inside U+2000B at \(boundary)")
        }
        #expect(Self.word(text, at: 21) == "𠀋", "inside its surrogate pair: the whole ideograph")
        #expect(Self.word(text, at: 22) == "北京")
    }

    @Test func paragraphsEndAfterTheirHardBreak() {
        let text = "one\r\ntwo\n\nthree"
        let boundaries = TextBoundaries(text: text)
        #expect(boundaries.paragraph(around: 1) == 0..<5)
        #expect(boundaries.paragraph(around: 6) == 5..<9)
        #expect(boundaries.paragraph(around: 9) == 9..<10)
        #expect(boundaries.paragraph(around: 12) == 10..<15)
        #expect(boundaries.paragraph(around: 15) == 10..<15)
        #expect(TextBoundaries(text: "").word(around: 0) == 0..<0)
    }
}
