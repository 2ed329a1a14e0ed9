import Testing
import TestSupport
@testable import LayoutEngine

/// Devanagari clusters judged from the table must be Swift's `Character`s: every pair over the
/// block (with ZWNJ, ZWJ and some simple units and controls around it), every triple and
/// quadruple over one unit of each kind, and seeded random Hindi-like strings.
@Suite struct DevanagariClustersTests {
    /// The starts `markGraphemes` gives (the table for these texts), and the starts of `Character`s.
    static func starts(_ units: [UInt16]) -> (marked: [Int], expected: [Int]) {
        var flags = ContiguousArray<UnitFlags>(repeating: [], count: units.count)
        TextAnalysis.markGraphemes(ContiguousArray(units), into: &flags)
        var expected: [Int] = []
        var offset = 0
        for character in String(decoding: units, as: UTF16.self) {
            expected.append(offset)
            offset += character.utf16.count
        }
        return (flags.indices.filter { flags[$0].contains(.graphemeStart) }, expected)
    }

    static let block = (UInt16(0x0900)...UInt16(0x097F)).map { $0 }
    static let around: [UInt16] = [0x200C, 0x200D, 0x61, 0x20, 0x0A, 0xAD, 0x4E2D, 0x0627]
    /// One of each kind: consonants (plain, nukta form, late additions), virama, nukta, vowel
    /// signs spacing and not, anusvara, visarga, an independent vowel, a digit, danda, ZWNJ, ZWJ.
    static let kinds: [UInt16] = [0x0915, 0x0958, 0x0979, 0x094D, 0x093C, 0x093F, 0x0940, 0x0941, 0x0947, 0x0902, 0x0903,
                                  0x0905, 0x0966, 0x0964, 0x200C, 0x200D, 0x61]

    @Test func everyPairOverTheBlock() {
        var mismatches: [String] = []
        let alphabet = Self.block + Self.around
        for a in alphabet {
            for b in alphabet {
                let (marked, expected) = Self.starts([0x0915, a, b])
                if marked != expected { mismatches.append([a, b].map { String($0, radix: 16) }.joined(separator: " ")) }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test func everyTripleAndQuadrupleOfOneOfEachKind() {
        var mismatches: [String] = []
        for a in Self.kinds {
            for b in Self.kinds {
                for c in Self.kinds {
                    for d in Self.kinds + [nil] {
                        let units = [a, b, c] + (d.map { [$0] } ?? [])
                        let (marked, expected) = Self.starts(units)
                        if marked != expected { mismatches.append(units.map { String($0, radix: 16) }.joined(separator: " ")) }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test func randomHindiLikeStrings() {
        var generator = SeededGenerator(seed: 0x0915)
        let words = ["नमस्ते", "क्षत्रिय", "श्री", "हिन्दी", "ज़्यादा", "क़िला", "द्ध", "र्‍य", "क्‌ष", "अंग्रेज़ी", "।", " ", "१२३", "abc"]
        var mismatches: [String] = []
        for _ in 0..<3_000 {
            var units: [UInt16] = []
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                if Int.random(in: 0..<3, using: &generator) == 0 {
                    units.append((Self.block + Self.around).randomElement(using: &generator)!)
                } else {
                    units += Array(words.randomElement(using: &generator)!.utf16)
                }
            }
            let (marked, expected) = Self.starts(units)
            if marked != expected { mismatches.append(units.map { String($0, radix: 16) }.joined(separator: " ")) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Hindi words are judged by the table (not handed to the recognizer), and a segment with a
    /// control or a unit of another script is not.
    @Test func theTableJudgesDevanagariAndNothingElse() {
        func judged(_ text: String) -> Bool {
            let units = Array(text.utf16)
            var flags = [UnitFlags](repeating: [], count: units.count)
            var overlong: Int?
            var span = flags.mutableSpan
            return DevanagariClusters.mark(units.span, 0..<units.count, into: &span, overlong: &overlong)
        }
        #expect(judged("नमस्ते दुनिया") && judged("क्षत्रिय, ज़्यादा") && judged("र्‍य"))
        #expect(!judged("क\nि") && !judged("नमस्ते 🙂") && !judged("মা") && !judged("\u{0600}क"))
    }

    /// A conjunct chain longer than a cluster may be is still found too long.
    @Test func aLongConjunctIsOverlong() {
        let units = ContiguousArray([UInt16](repeating: 0x0915, count: 1) + Array(repeating: [0x094D, 0x0915], count: 20).flatMap { $0 })
        var flags = ContiguousArray<UnitFlags>(repeating: [], count: units.count)
        #expect(TextAnalysis.markGraphemes(units, into: &flags) == 0)
    }
}
