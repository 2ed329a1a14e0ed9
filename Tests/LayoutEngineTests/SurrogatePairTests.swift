import Foundation
import LayoutEngine
import Testing

/// `SurrogatePair.codePoint` against the standard library's UTF-16 decoder, for every pair; and
/// no other loop writing the pair's arithmetic out again.
@Suite struct SurrogatePairTests {
    @Test func everyPairGivesTheStandardLibrarysCodePoint() {
        var wrong: [(UInt16, UInt16)] = []
        for lead in UInt16(0xD800)...0xDBFF {
            for trail in UInt16(0xDC00)...0xDFFF {
                var units = [lead, trail].makeIterator()
                var decoder = UTF16()
                guard case .scalarValue(let scalar) = decoder.decode(&units),
                      scalar.value == SurrogatePair.codePoint(lead: lead, trail: trail) else {
                    wrong.append((lead, trail))
                    continue
                }
            }
        }
        let firstWrong = wrong.prefix(5).map { String(format: "%04X %04X", $0.0, $0.1) }
        #expect(firstWrong.isEmpty, "\(wrong.count) pairs decoded otherwise")
    }

    @Test func theFirstAndLastPairsAreTheSupplementaryPlanesEdges() {
        #expect(SurrogatePair.codePoint(lead: 0xD800, trail: 0xDC00) == 0x10000)
        #expect(SurrogatePair.codePoint(lead: 0xD83D, trail: 0xDE00) == 0x1F600)
        #expect(SurrogatePair.codePoint(lead: 0xDBFF, trail: 0xDFFF) == 0x10FFFF)
    }

    /// A loop over a text's units that needs a pair's code point calls the helper: the
    /// arithmetic written out again is a twin to keep equal by hand.
    @Test func noOtherSourceWritesThePairArithmetic() throws {
        // Split so that this file does not match itself.
        let written = try NSRegularExpression(pattern: "-\\s*0x" + "DC00\\b|0x" + "D800\\)\\s*&?<<")
        var writers: [String] = []
        for root in ["Sources", "clients/swift/Sources", "Tests", "Benchmarks"] {
            for file in UnsafeInventoryTests.swiftFiles(under: root) where file.lastPathComponent != "SurrogatePair.swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                if written.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                    writers.append(file.path.replacingOccurrences(of: UnsafeInventoryTests.repository.path + "/", with: ""))
                }
            }
        }
        #expect(writers.isEmpty, "files that write a surrogate pair's arithmetic out: \(writers.sorted())")
    }
}
