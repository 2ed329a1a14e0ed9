import Foundation
import Testing
@testable import LayoutEngine
import LayoutUnicode

/// Unicode's own conformance files (Debian's unicode-data, /usr/share/unicode), every case,
/// through the stages that answer each question: grapheme clusters and line breaks (analysis),
/// sentences and words (`TextBoundaries`), bidi levels (`BidiResolver`, both bidi files). The
/// dictionary cuts of Thai, Han, kana, Lao, Khmer and Burmese words (docs/unicode.md) only add
/// boundaries inside runs the files do not test. Line breaking skips the one tailoring by its
/// property: no break inside a grapheme cluster.
@Suite struct UnicodeConformanceTests {
    static let directory = "/usr/share/unicode"

    /// A break test's cases: the text as UTF-16, and the offsets with a boundary (÷), 0 and
    /// the end included.
    struct BreakCase {
        var scalars: [Unicode.Scalar]
        var units: [UInt16]
        var boundaries: [Int]
        var line: Int
    }

    static func breakCases(_ file: String) throws -> [BreakCase] {
        let text = try String(contentsOfFile: "\(directory)/auxiliary/\(file)", encoding: .utf8)
        var cases: [BreakCase] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let body = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard body.contains("÷") else { continue }
            var item = BreakCase(scalars: [], units: [], boundaries: [], line: number + 1)
            for token in body.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                switch token {
                case "÷": item.boundaries.append(item.units.count)
                case "×": break
                default:
                    guard let value = UInt32(token, radix: 16), let scalar = Unicode.Scalar(value) else { continue }
                    item.scalars.append(scalar)
                    item.units += Array(String(Character(scalar)).utf16)
                }
            }
            cases.append(item)
        }
        return cases
    }

    static func hasFiles(_ names: String...) -> Bool {
        names.allSatisfy { FileManager.default.fileExists(atPath: "\(directory)/auxiliary/\($0)") }
    }

    /// Every case of a break test file against `boundaries`, which gives a text's boundaries
    /// as the file writes them (0 and the end included); at least `least` cases.
    static func expectEveryCase(of file: String, least: Int, _ boundaries: ([UInt16]) -> [Int]) throws {
        let cases = try breakCases(file)
        var failures: [String] = []
        for item in cases {
            let found = boundaries(item.units)
            if found != item.boundaries { failures.append("line \(item.line): \(found) against \(item.boundaries)") }
        }
        #expect(cases.count > least)
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count): \(failures.prefix(5))")
    }

    @Test(.enabled(if: hasFiles("GraphemeBreakTest.txt"), "needs Debian's unicode-data"))
    func graphemeBreakTest() throws {
        try Self.expectEveryCase(of: "GraphemeBreakTest.txt", least: 500) { units in
            var flags = ContiguousArray<UnitFlags>(repeating: [], count: units.count)
            TextAnalysis.markGraphemes(ContiguousArray(units), into: &flags)
            return flags.indices.filter { flags[$0].contains(.graphemeStart) } + [units.count]
        }
    }

    @Test(.enabled(if: hasFiles("SentenceBreakTest.txt"), "needs Debian's unicode-data"))
    func sentenceBreakTest() throws {
        try Self.expectEveryCase(of: "SentenceBreakTest.txt", least: 400) { SentenceBreak.boundaries($0) }
    }

    @Test(.enabled(if: hasFiles("WordBreakTest.txt"), "needs Debian's unicode-data"))
    func wordBreakTest() throws {
        try Self.expectEveryCase(of: "WordBreakTest.txt", least: 1_500) {
            TextBoundaries(text: String(decoding: $0, as: UTF16.self)).wordBoundaries
        }
    }

    /// LineBreakTest.txt through the analysis of a text (`TextAnalysis.analyze`): every position
    /// of every case, but those inside an extended grapheme cluster, where the analysis never
    /// breaks (docs/unicode.md: a space or a hyphen before a combining mark or an emoji modifier
    /// is one cluster with it, where UAX #14 alone allows a break after the space).
    @Test(.enabled(if: hasFiles("LineBreakTest.txt"), "needs Debian's unicode-data"))
    func lineBreakTest() throws {
        let cases = try Self.breakCases("LineBreakTest.txt")
        var failures: [String] = [], insideClusters = 0, compared = 0
        for item in cases {
            let analysis = TextAnalysis.analyze(AttributedText(String(decoding: item.units, as: UTF16.self), style: TextStyle()),
                                                direction: .leftToRight, unicode: SystemUnicode.shared)
            // The file's positions: between its characters, the text's ends left out.
            var offsets: [Int] = [], offset = 0
            for scalar in item.scalars.dropLast() {
                offset += String(Character(scalar)).utf16.count
                offsets.append(offset)
            }
            for position in offsets {
                let expected = item.boundaries.contains(position)
                guard analysis.flags[position].contains(.graphemeStart) else {
                    insideClusters += expected ? 1 : 0
                    continue
                }
                compared += 1
                if analysis.flags[position].contains(.breakBefore) != expected {
                    failures.append("line \(item.line) at \(position): \(expected ? "÷" : "×") expected")
                }
            }
        }
        #expect(cases.count > 7_000 && compared > 12_000)
        #expect(failures.isEmpty, "\(failures.count) of \(compared) positions: \(failures.prefix(5))")
        // The tailoring's cases: a break the file allows inside a cluster, each counted.
        #expect(insideClusters < 1_000, "\(insideClusters)")
        print("LineBreakTest.txt: \(cases.count) cases, \(compared) positions compared, \(insideClusters) breaks inside a grapheme cluster skipped")
    }

    /// Runs a table generator with --check: it fails when the committed table is not what
    /// Debian's unicode-data gives.
    static func expectCurrent(generator: String) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../scripts/\(generator)").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, "--check"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "run scripts/\(generator)")
    }

    /// The line break table is what Debian's unicode-data gives (scripts/generate-line-break.py).
    @Test(.enabled(if: hasFiles("LineBreakTest.txt"), "needs Debian's unicode-data"))
    func lineBreakTableIsCurrent() throws {
        try Self.expectCurrent(generator: "generate-line-break.py")
    }

    /// The word break table is what Debian's unicode-data gives (scripts/generate-word-break.py).
    @Test(.enabled(if: hasFiles("WordBreakProperty.txt"), "needs Debian's unicode-data"))
    func theWordBreakTableIsCurrent() throws {
        try Self.expectCurrent(generator: "generate-word-break.py")
    }

    /// The script table is what Debian's unicode-data gives (scripts/generate-scripts.py).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "\(directory)/Scripts.txt"), "needs Debian's unicode-data"))
    func theScriptTableIsCurrent() throws {
        try Self.expectCurrent(generator: "generate-scripts.py")
    }

    /// BidiCharacterTest.txt: code points, a paragraph direction (0 left to right, 1 right to
    /// left, 2 auto), the paragraph's level, and each character's level (x where UAX #9 X9
    /// removes it: those are not compared).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "\(directory)/BidiCharacterTest.txt"), "needs Debian's unicode-data"))
    func bidiCharacterTest() throws {
        let text = try String(contentsOfFile: "\(Self.directory)/BidiCharacterTest.txt", encoding: .utf8)
        var failures: [String] = [], count = 0
        for (number, line) in text.split(separator: "\n").enumerated() where !line.hasPrefix("#") {
            let fields = line.split(separator: ";", omittingEmptySubsequences: false)
            guard fields.count >= 4 else { continue }
            let scalars = fields[0].split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            var units = ContiguousArray<UInt16>(), starts: [Int] = []
            for scalar in scalars {
                starts.append(units.count)
                units += String(Character(scalar)).utf16
            }
            let direction: BaseDirection = fields[1] == "0" ? .leftToRight : fields[1] == "1" ? .rightToLeft : .auto
            var paragraphs = [BidiParagraph(range: 0..<units.count, baseLevel: 0)]
            var levels = ContiguousArray<UInt8>()
            BidiResolver.resolve(units, paragraphs: &paragraphs, direction: direction, mayBeRTL: true, unicode: SystemUnicode.shared, into: &levels)
            let expected = fields[3].split(separator: " ").map { $0 == "x" ? nil : UInt8($0) }
            count += 1
            var wrong = paragraphs[0].baseLevel != UInt8(fields[2]) ?? 255
            for (index, level) in expected.enumerated() where level != nil && levels[starts[index]] != level { wrong = true }
            if wrong { failures.append("line \(number + 1): \(starts.map { levels[$0] }) against \(fields[3])") }
        }
        #expect(count > 90_000)
        #expect(failures.isEmpty, "\(failures.count) of \(count): \(failures.prefix(5))")
    }

    /// A character of each bidi class, for BidiTest.txt's cases (written as classes).
    static let representatives: [String: UInt16] = [
        "L": 0x61, "R": 0x5D0, "AL": 0x627, "EN": 0x30, "ES": 0x2B, "ET": 0x24, "AN": 0x660, "CS": 0x2C, "NSM": 0x300,
        "BN": 0xAD, "B": 0x2029, "S": 0x09, "WS": 0x20, "ON": 0x21, "LRE": 0x202A, "LRO": 0x202D, "RLE": 0x202B,
        "RLO": 0x202E, "PDF": 0x202C, "LRI": 0x2066, "RLI": 0x2067, "FSI": 0x2068, "PDI": 0x2069,
    ]

    /// BidiTest.txt: classes, a set of paragraph directions (1 auto, 2 left to right, 4 right to
    /// left), and the levels given by the last @Levels line (x: removed by X9, not compared).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "\(directory)/BidiTest.txt"), "needs Debian's unicode-data"))
    func bidiTest() throws {
        let text = try String(contentsOfFile: "\(Self.directory)/BidiTest.txt", encoding: .utf8)
        var expected: [UInt8?] = []
        var failures: [String] = [], count = 0
        for (number, line) in text.split(separator: "\n").enumerated() {
            if line.hasPrefix("@Levels:") {
                expected = line.dropFirst(8).split(separator: " ").map { $0 == "x" ? nil : UInt8($0) }
                continue
            }
            guard !line.hasPrefix("#"), !line.hasPrefix("@"), let semicolon = line.firstIndex(of: ";") else { continue }
            let units = ContiguousArray(line[..<semicolon].split(separator: " ").compactMap { Self.representatives[String($0)] })
            guard let set = Int(line[line.index(after: semicolon)...].trimmingCharacters(in: .whitespaces)) else { continue }
            for (bit, direction) in [(1, BaseDirection.auto), (2, .leftToRight), (4, .rightToLeft)] where set & bit != 0 {
                var paragraphs = [BidiParagraph(range: 0..<units.count, baseLevel: 0)]
                var levels = ContiguousArray<UInt8>()
                BidiResolver.resolve(units, paragraphs: &paragraphs, direction: direction, mayBeRTL: true, unicode: SystemUnicode.shared, into: &levels)
                count += 1
                if zip(levels, expected).contains(where: { $1 != nil && $0 != $1 }) {
                    failures.append("line \(number + 1) (\(direction)): \(Array(levels)) against \(expected)")
                }
            }
        }
        #expect(count > 700_000)
        #expect(failures.isEmpty, "\(failures.count) of \(count): \(failures.prefix(5))")
    }
}
