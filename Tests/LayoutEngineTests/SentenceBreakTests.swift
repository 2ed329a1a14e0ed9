import Foundation
import Testing
@testable import LayoutEngine
import LayoutUnicode

/// UAX #29 sentences: every case of Unicode's own SentenceBreakTest.txt, the property table
/// against SentenceBreakProperty.txt, and the sentences a hit-test answers.
@Suite struct SentenceBreakTests {
    static let auxiliary = "/usr/share/unicode/auxiliary/"

    @Test(.enabled(if: FileManager.default.fileExists(atPath: auxiliary + "SentenceBreakTest.txt"),
                   "Debian's unicode-data is not installed (scripts/setup.sh installs it)"))
    func everyCaseOfUnicodesTestFile() throws {
        let file = try String(contentsOfFile: Self.auxiliary + "SentenceBreakTest.txt", encoding: .utf8)
        var checked = 0, failures: [String] = []
        for line in file.split(separator: "\n") where line.hasPrefix("÷") {
            let rule = line.split(separator: "#", maxSplits: 1)[0]
            var units: [UInt16] = [], expected: [Int] = []
            for token in rule.split(whereSeparator: \.isWhitespace) {
                if token == "÷" { expected.append(units.count) } else if token != "×", let scalar = UInt32(token, radix: 16) {
                    units += Array(String(Character(Unicode.Scalar(scalar)!)).utf16)
                }
            }
            let found = SentenceBreak.boundaries(units)
            if found != expected && failures.count < 10 { failures.append("\(rule): \(found)") }
            checked += 1
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(checked > 400)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: auxiliary + "SentenceBreakProperty.txt"),
                   "Debian's unicode-data is not installed (scripts/setup.sh installs it)"))
    func theTableHoldsEveryCodePointOfTheFile() throws {
        let file = try String(contentsOfFile: Self.auxiliary + "SentenceBreakProperty.txt", encoding: .utf8)
        let names: [String: SentenceBreak] = ["CR": .cr, "LF": .lf, "Extend": .extend, "Sep": .sep, "Format": .format, "Sp": .sp,
                                              "Lower": .lower, "Upper": .upper, "OLetter": .oLetter, "Numeric": .numeric,
                                              "ATerm": .aTerm, "SContinue": .sContinue, "STerm": .sTerm, "Close": .close]
        var checked = 0
        for line in file.split(separator: "\n") {
            let fields = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                .split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2, let expected = names[fields[1]] else { continue }
            let bounds = fields[0].components(separatedBy: "..").compactMap { UInt32($0, radix: 16) }
            for scalar in bounds[0]...(bounds.last ?? bounds[0]) {
                if SentenceBreak(scalar) != expected { Issue.record("U+\(String(scalar, radix: 16)): not \(expected)"); return }
                checked += 1
            }
        }
        #expect(checked > 20_000)
        #expect(SentenceBreak(0x0041) == .upper && SentenceBreak(0x3002) == .sTerm && SentenceBreak(0x4E00) == .oLetter)
        #expect(SentenceBreak(0x0021) == .sTerm && SentenceBreak(0x002E) == .aTerm && SentenceBreak(0x1F600) == .other)
    }

    @Test func sentencesAroundOffsets() {
        // UAX #29 has no abbreviations: "Mr. Smith" would be two sentences, as the standard says.
        let text = "The cat sat (quietly). It weighs 3.5 kg, e.g. a lot. 你好。再见。"
        let boundaries = TextBoundaries(text: text)
        let units = Array(text.utf16)
        func sentence(_ offset: Int) -> String { String(decoding: units[boundaries.sentence(around: offset)], as: UTF16.self) }
        #expect(sentence(0) == "The cat sat (quietly). ")
        #expect(sentence(30) == "It weighs 3.5 kg, e.g. a lot. ")
        #expect(sentence(54) == "你好。")
        #expect(sentence(units.count) == "再见。")
    }
}
