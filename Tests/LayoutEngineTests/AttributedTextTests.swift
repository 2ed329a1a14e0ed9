import Testing
import TestSupport
@testable import LayoutEngine

@Suite struct AttributedTextTests {
    /// The transcoder against the standard library: the corpus, and seeded strings of scalars
    /// from every UTF-8 length (ASCII, two, three and four bytes, surrogate-range neighbours).
    @Test func unitsEqualTheStringsUTF16() {
        var texts = (Fixtures.corpus ?? []).map(\.text)
        let samples: [ClosedRange<UInt32>] = [0x00...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF]
        var generator = SeededGenerator(seed: 0x0_7F_16)
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                let range = samples.randomElement(using: &generator)!
                text.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: range, using: &generator))!)
            }
            texts.append(text)
        }
        texts += ["", "a", "\u{10FFFF}", "\u{FFFF}\u{10000}", "é😀\u{D7FF}\u{E000}"]
        let wrong = texts.filter { AttributedText.utf16($0) != ContiguousArray($0.utf16) }
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
    }
}
