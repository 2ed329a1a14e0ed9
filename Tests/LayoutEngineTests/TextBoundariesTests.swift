import Foundation
import Testing
@testable import LayoutEngine

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

    @Test func ideographsAreWordsOfTheirOwn() {
        // No dictionary for Chinese or Japanese (docs/protocol.md): UAX #29 alone.
        #expect(Self.word("我们今天", at: 1) == "们")
        #expect(Self.word("カタカナ語", at: 1) == "カタカナ", "katakana stays together (UAX #29 Katakana)")
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
