@testable import LayoutEngine
import Testing
import TestSupport

/// Our UAX #14 pass must write exactly what libunibreak writes, each line taken alone (see
/// `BreakOpportunities.linewise`).
@Suite struct BreakOpportunitiesTests {
    static let table = BreakOpportunities.shared

    static func ours(_ units: [UInt16]) -> [Int8] {
        var breaks = [Int8](repeating: 0, count: units.count)
        units.withUnsafeBufferPointer { u in breaks.withUnsafeMutableBufferPointer { table.breaks(u, into: $0) } }
        return breaks
    }

    static func units(_ scalars: [UInt32]) -> [UInt16] {
        scalars.flatMap { Array(String(Character(Unicode.Scalar($0)!)).utf16) }
    }

    /// Every class libunibreak 1.1 takes: regional indicators abort it, and the analysis
    /// replaces them before either runs (see `withoutRegionalIndicators`).
    static let samples: [UInt32] = table.samples.compactMap { $0 }.filter { !(0x1F1E6...0x1F1FF).contains($0) }
        + [0x20, 0x0A, 0x0D, 0x1F600, 0x1F3FB, 0x0301, 0x05D0, 0x2D, 0x200D]

    @Test func agreesOnEveryPairAndTriple() {
        var mismatches: [String] = []
        for a in Self.samples {
            for b in Self.samples {
                for tail in [[], [0x20], [0x61]] + Self.samples.map({ [$0] }) {
                    let units = Self.units([a, b] + tail)
                    let reference = BreakOpportunities.libunibreak(units[...], language: "")
                    if Self.ours(units) != reference, mismatches.count < 20 {
                        mismatches.append("\(([a, b] + tail).map { String($0, radix: 16) }): ours \(Self.ours(units)) libunibreak \(reference)")
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test func agreesOnRandomStrings() {
        var generator = SeededGenerator(seed: 14)
        let pool = Self.samples.map { Self.units([$0]) } + [[0x20, 0x20], [0xD83D], [0xDE00], [0x0D, 0x0A]]
        var mismatches: [String] = []
        for _ in 0..<30_000 {
            var units: [UInt16] = []
            for _ in 0..<Int.random(in: 1...14, using: &generator) { units += pool.randomElement(using: &generator)! }
            let reference = BreakOpportunities.libunibreak(units[...], language: "")
            if Self.ours(units) != reference, mismatches.count < 20 {
                mismatches.append("\(units.map { String($0, radix: 16) }): ours \(Self.ours(units)) libunibreak \(reference)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
    }

    @Test(.enabled(if: Fixtures.corpus != nil, "no ../shared/corpus beside the repository"))
    func agreesOnTheCorpus() {
        for caption in Fixtures.corpus ?? [] {
            let units = Array(withoutRegionalIndicators(ContiguousArray(caption.text.utf16)))
            #expect(Self.ours(units) == BreakOpportunities.libunibreak(units[...], language: ""), "\(caption.id)")
        }
    }

    /// Runs of letters and digits skip the pair table only where the table itself says they
    /// never break: with libunibreak 1.1 it does, so the agreement above covers the fast path.
    @Test func runsOfLettersAndDigitsTakeTheFastPath() {
        #expect(BreakOpportunities.shared.alphanumericRunsHold)
        let words = Array("abc123 def\u{0301}ghi 4,5 x.y Zürich—the 3rd".utf16)
        #expect(Self.ours(words) == BreakOpportunities.libunibreak(words[...], language: ""))
    }

    /// The gap between two words (one space between letters or digits) stays in the run's
    /// loop where the table allows the break after the space; the corpus and the random strings
    /// above cover it too.
    @Test func gapsBetweenWordsTakeTheFastPath() {
        #expect(BreakOpportunities.shared.wordGapsBreak)
        for text in ["one two three 4 5 six7 8nine", "a b", "a  b c", "a b\u{0301} c", "x 中 y", "end ", " start", "a b-c d.e f",
                     "a \u{00A0}b", "a\u{0009}b c", "a 😀 b", "1 2", "A (b) c"] {
            let units = Array(text.utf16)
            #expect(Self.ours(units) == BreakOpportunities.libunibreak(units[...], language: ""), "\(text)")
        }
        // A space before a lone high surrogate, and before one that ends the text.
        for units: [UInt16] in [[0x61, 0x20, 0xD83D], [0x61, 0x20, 0xD83D, 0x62], [0x61, 0x20, 0xDE00, 0x62]] {
            #expect(Self.ours(units) == BreakOpportunities.libunibreak(units[...], language: ""), "\(units)")
        }
    }

    /// Runs of ideographs skip the table the same way (an opportunity before each).
    @Test func runsOfIdeographsTakeTheFastPath() {
        #expect(BreakOpportunities.shared.ideographRunsHold)
        let words = Array("中文排版，「日本語」の文字。漢字\u{20000}字 あ中 1中文\u{3099}字".utf16)
        #expect(Self.ours(words) == BreakOpportunities.libunibreak(words[...], language: ""))
    }
}
