import Testing
import TestSupport
@testable import LayoutEngine
import LayoutUnicode

@Suite struct GraphemeTests {
    /// The fast path must agree with Swift's own grapheme breaking everywhere it claims a boundary:
    /// every simple unit followed by every simple unit, and after marks, ZWJ, Prepend and CR.
    @Test func fastPathAgreesWithSwiftCharacter() {
        let simple = (0..<0x10000).map(UInt16.init).filter { !(0xD800..<0xE000).contains($0) && GraphemeFastPath.isSimple($0) }
        #expect(simple.count > 30_000)
        let probes: [UInt16] = [0x0301, 0x200D, 0x0600, 0x094D, 0x0D, 0x0A, 0x1100, 0xAC00, 0xFE0F, 0x0E33, 0xFFFC]
        var mismatches: [String] = []
        // Sample the simple set densely (every 7th unit, and every one below U+0700), paired with
        // neighbours and probes.
        for (index, a) in simple.enumerated() where index % 7 == 0 || a < 0x0700 {
            for b in [simple[(index * 31) % simple.count], simple[(index * 17 + 3) % simple.count]] + probes {
                for text in [[a, b], [b, a], [0x0915, 0x094D, a, b]] {
                    let units = ContiguousArray(text)
                    var flags = ContiguousArray<UnitFlags>(repeating: [], count: units.count)
                    TextAnalysis.markGraphemes(units, into: &flags)
                    var expected = Set<Int>()
                    var offset = 0
                    for character in String(decoding: units, as: UTF16.self) {
                        expected.insert(offset)
                        offset += character.utf16.count
                    }
                    let got = Set(flags.indices.filter { flags[$0].contains(.graphemeStart) })
                    if got != expected { mismatches.append(text.map { String($0, radix: 16) }.joined(separator: " ")) }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    /// Every mark `GraphemeFastPath.joinsPrevious` names joins the simple unit before it, unless
    /// that is a control (`isMarkBase`), and the simple unit after it starts a cluster, as
    /// `Character` has them.
    @Test func joiningMarksJoinAsCharacterHasThem() {
        let marks = (0..<0x10000).map(UInt16.init).filter(GraphemeFastPath.joinsPrevious)
        #expect(marks.count > 100)
        let bases = (0..<0x3000).map(UInt16.init).filter { !(0xD800..<0xE000).contains($0) && GraphemeFastPath.isSimple($0) }
        #expect(bases.contains { !GraphemeFastPath.isMarkBase($0) })  // the controls among them
        var wrong: [String] = []
        for mark in marks {
            for (index, base) in bases.enumerated() where index % 61 == 0 || base < 0x30 || (0x7F...0xAD).contains(base) || (0x0600..<0x0700).contains(base) {
                let characters = Array(String(decoding: [base, mark, mark, 0x0628], as: UTF16.self))
                // A base the mark extends: base + marks, then the letter; a control: each alone.
                let expected = GraphemeFastPath.isMarkBase(base) ? 2 : 3
                if characters.count != expected { wrong.append("\(String(base, radix: 16)) \(String(mark, radix: 16))") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }

    /// Analysis's first pass takes Arabic punctuation (`GraphemeFastPath.isArabicPunctuation`) as
    /// simple: beside letters, marks, joiners, controls and Prepend, its clusters are `Character`'s.
    @Test func arabicPunctuationIsSimpleAsCharacterHasIt() {
        let punctuation = (0..<0x10000).map(UInt16.init).filter(GraphemeFastPath.isArabicPunctuation)
        #expect(punctuation.count == 15)
        let neighbours: [UInt16] = [0x0628, 0x0061, 0x0020, 0x05E9, 0x0661, 0x064B, 0x200C, 0x200D, 0x0A, 0x0D, 0x0600, 0x0915, 0x094D]
        let style = TextStyle(family: "Noto Sans", size: 16)
        var wrong: [String] = []
        for mark in punctuation {
            // Between every two neighbours, first, last, and twice.
            let texts = neighbours.flatMap { a in neighbours.map { b in [a, mark, b] } + [[mark, a], [a, mark]] } + [[mark, mark]]
            for text in texts {
                let units = ContiguousArray(text)
                let string = String(decoding: units, as: UTF16.self)
                var expected: [Int] = [], offset = 0
                for character in string {
                    expected.append(offset)
                    offset += character.utf16.count
                }
                let analysis = TextAnalysis.analyze(AttributedText(string, units: units, style: style), direction: .auto,
                                                    unicode: SystemUnicode.shared)
                let got = analysis.flags.indices.filter { analysis.flags[$0].contains(.graphemeStart) }
                if got != expected { wrong.append(text.map { String($0, radix: 16) }.joined(separator: " ")) }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }

    /// Whole texts, marked as analysis marks them, against Swift's `Character`: the corpus when it
    /// is there, and seeded random mixes of emoji sequences, flags, Indic conjuncts, Hangul,
    /// combining marks, CR LF and lone surrogates.
    @Test func wholeTextsAgreeWithSwiftCharacter() {
        var texts: [ContiguousArray<UInt16>] = (Fixtures.corpus ?? []).map { ContiguousArray($0.text.utf16) }
        let pieces: [[UInt16]] = [
            Array("👩‍👩‍👧".utf16), Array("👋🏽".utf16), Array("🇩🇪🇫🇷".utf16), [0xD83C, 0xDDE9], Array("क्षि".utf16),
            Array("क्‍ष".utf16), [0x1100, 0x1161, 0x11A8], [0xAC00, 0x11A8], [0x0061, 0x0301, 0x0302], [0x0D, 0x0A],
            [0x0D], [0x0A], [0x200D], [0xFE0F], [0xD800], [0xDC00], [0x0600, 0x0661], Array("a b".utf16),
            Array("❤️".utf16), Array("1️⃣".utf16), [0x0E01, 0x0E33], [0x0020],
        ]
        var generator = SeededGenerator(seed: 0x6A_2F)
        for _ in 0..<3_000 {
            var text: [UInt16] = []
            for _ in 0..<Int.random(in: 1...8, using: &generator) { text += pieces.randomElement(using: &generator)! }
            texts.append(ContiguousArray(text))
        }
        // Texts of simple units alone, which analysis marks in its first pass without
        // `markGraphemes`, and simple units right after joiners and marks.
        for _ in 0..<1_000 {
            let simple: [[UInt16]] = [Array("word ".utf16), Array("слово ".utf16), Array("字、".utf16), Array("كلمة ".utf16),
                                      Array("शब्द".utf16), [0x0A], [0x09], [0x2028], [0xFFFC], Array("½©".utf16),
                                      // Marks that join the unit before them, after letters, spaces,
                                      // controls and each other; Arabic punctuation.
                                      Array("می‌خواهم".utf16), [0x0628, 0x064E], [0x0651, 0x064B], [0x200C], [0x05E9, 0x05C1],
                                      [0x00AD], [0x0085], [0x060C], [0x061F, 0x061B], [0x0670]]
            var text: [UInt16] = []
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                text += (Int.random(in: 0..<4, using: &generator) == 0 ? pieces : simple).randomElement(using: &generator)!
            }
            texts.append(ContiguousArray(text))
        }
        var mismatches: [String] = []
        var analysisMismatches: [String] = []
        let style = TextStyle(family: "Noto Sans", size: 16)
        for units in texts {
            var flags = ContiguousArray<UnitFlags>(repeating: [], count: units.count)
            TextAnalysis.markGraphemes(units, into: &flags)
            var expected: [Int] = []
            var offset = 0
            let string = String(decoding: units, as: UTF16.self)
            for character in string {
                expected.append(offset)
                offset += character.utf16.count
            }
            let got = flags.indices.filter { flags[$0].contains(.graphemeStart) }
            if got != expected { mismatches.append(units.map { String($0, radix: 16) }.joined(separator: " ")) }
            // As analysis marks them: simple units in its first pass, the rest by `markGraphemes`.
            let analysis = TextAnalysis.analyze(AttributedText(string, units: units, style: style), direction: .auto, unicode: SystemUnicode.shared)
            let analyzed = analysis.flags.indices.filter { analysis.flags[$0].contains(.graphemeStart) }
            if analyzed != expected { analysisMismatches.append(units.map { String($0, radix: 16) }.joined(separator: " ")) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(analysisMismatches.isEmpty, "analysis: \(analysisMismatches.prefix(5))")
    }
}
