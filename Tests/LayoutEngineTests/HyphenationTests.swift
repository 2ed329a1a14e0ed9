import Foundation
import Testing
import TestSupport
@testable import LayoutEngine
import LayoutUnicode

/// Hyphenation with Debian's patterns: the points match libhyphen's own (a C program over the
/// same dictionaries, scripts/reference/hyphenate.c), lines break there with a hyphen glyph that
/// fits, soft hyphens show one, the limits hold, and total fit weighs hyphens too.
@Suite struct HyphenationTests {
    static let words: [(language: String, dictionary: String, words: [String])] = [
        ("en-US", "hyph_en_US.dic", ["hyphenation", "typography", "internationalization", "paragraph", "dictionary", "algorithm",
                                      "beautiful", "responsibility", "extraordinary", "communication"]),
        ("de", "hyph_de_DE.dic", ["silbentrennung", "donaudampfschifffahrt", "größenordnung", "straßenbahn", "übermäßig",
                                  "rechtschreibung"]),
        ("fr", "hyph_fr.dic", ["anticonstitutionnellement", "développement", "extraordinaire", "bibliothèque", "typographie"]),
    ]

    /// libhyphen's own hyphenation of `words`, "hy=phen=ation", from the reference program.
    static func reference(_ dictionary: String, _ words: [String]) throws -> [String]? {
        let source = repositoryRoot.appendingPathComponent("scripts/reference/hyphenate.c").path
        // A name of its own: the languages' cases run side by side in one process, and with the
        // process id alone they built and read each other's files (a French list for German).
        let binary = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-hyphenate-\(UUID().uuidString)").path
        let built = try runToCompletion("/usr/bin/gcc", ["-o", binary, source, "-lhyphen"], within: 60)
        guard built.status == 0 else { Issue.record("gcc: \(built.err)"); return nil }
        let input = binary + ".words"
        try (words.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        defer { for file in [binary, input] { try? FileManager.default.removeItem(atPath: file) } }
        let out = try runToCompletion("/bin/sh", ["-c", "\"$0\" \"$1\" < \"$2\"", binary, "/usr/share/hyphen/\(dictionary)", input], within: 30)
        return out.out.split(separator: "\n").map(String.init)
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: words.map(\.language))
    func pointsMatchLibhyphensOwn(_ language: String) throws {
        let entry = try #require(Self.words.first { $0.language == language })
        let dictionary = try #require(SystemUnicode.shared.hyphenation(forLanguage: language), "hyphen-* packages missing: scripts/setup.sh installs them")
        guard let expected = try Self.reference(entry.dictionary, entry.words) else { return }
        let ours = entry.words.map { word -> String in
            let scalars = Array(word.unicodeScalars)
            let breaks = Set(dictionary.breaks(in: scalars))
            var out = ""
            for (index, scalar) in scalars.enumerated() {
                if breaks.contains(index) { out += "=" }
                out.unicodeScalars.append(scalar)
            }
            return out
        }
        #expect(ours == expected)
        #expect(ours.filter { $0.contains("=") }.count >= entry.words.count - 1)
    }

    static let text = "Internationalization requires extraordinary responsibility: typography, hyphenation and communication."

    static func layout(_ text: String = text, width: Double = 150, hyphenation: Hyphenation? = Hyphenation(),
                       strategy: BreakStrategy = .greedy, language: String = "en") throws -> ParagraphLayout {
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 16, language: language)),
                                       width: width)
        request.hyphenation = hyphenation
        request.breakStrategy = strategy
        return try Fixtures.layouter.layout(request)
    }

    @Test func linesBreakAtPointsWithAHyphenThatFits() throws {
        let layout = try Self.layout()
        let units = Array(Self.text.utf16)
        let hyphens = layout.runs.filter { $0.isHyphen }
        #expect(!hyphens.isEmpty)
        let points = Set(try #require(SystemUnicode.shared.hyphenation(forLanguage: "en")).breaks(in: Array("internationalization".unicodeScalars)))
        for run in hyphens {
            let line = layout.lines[run.lineIndex]
            #expect(run.range.isEmpty && run.range.lowerBound == line.range.upperBound)
            #expect(run.glyphs.count == 1 && !run.isTruncationToken)
            // The line ends inside a word: letters on both sides.
            let before = Character(Unicode.Scalar(units[line.range.upperBound - 1])!), after = Character(Unicode.Scalar(units[line.range.upperBound])!)
            #expect(before.isLetter && after.isLetter)
            // With its hyphen the line stays in the width.
            let right = run.glyphs.last!.position.x + run.glyphs.last!.advance
            #expect(right <= 150 + 1e-6)
        }
        // The first word breaks where the patterns allow.
        if layout.lines[0].range.upperBound < 20 { #expect(points.contains(layout.lines[0].range.upperBound)) }
        let plain = try Self.layout(hyphenation: nil)
        #expect(plain.runs.allSatisfy { !$0.isHyphen })
        #expect(layout.lines.count <= plain.lines.count)
    }

    @Test func softHyphensShowAHyphenOnlyWhereALineEnds() throws {
        let text = "super\u{AD}cali\u{AD}fragilistic\u{AD}expiali\u{AD}docious"
        let layout = try Self.layout(text, width: 120, hyphenation: nil)
        #expect(layout.lines.count > 1)
        let hyphenated = layout.runs.filter { $0.isHyphen }
        #expect(hyphenated.count == layout.lines.count - 1)
        for run in hyphenated { #expect(Array(text.utf16)[run.range.lowerBound - 1] == 0xAD) }
        let wide = try Self.layout(text, width: 1000, hyphenation: nil)
        #expect(wide.lines.count == 1 && wide.runs.allSatisfy { !$0.isHyphen })
    }

    @Test func consecutiveHyphenatedLinesStayWithinTheLimit() throws {
        let text = String(repeating: "Internationalization responsibility extraordinary ", count: 6)
        for limit in [1, 2] {
            let layout = try Self.layout(text, width: 110, hyphenation: Hyphenation(maxConsecutiveLines: limit))
            let flags = layout.lines.indices.map { index in layout.runs.contains { $0.isHyphen && $0.lineIndex == index } }
            var inRow = 0, most = 0
            for flag in flags { inRow = flag ? inRow + 1 : 0; most = max(most, inRow) }
            #expect(most <= limit && flags.contains(true), "limit \(limit): \(flags)")
        }
    }

    @Test func shortWordsAndLanguagesWithoutPatternsStayWhole() throws {
        let short = try Self.layout("tiny words only here and there, never broken at all", width: 40, hyphenation: Hyphenation(minWordLength: 7))
        #expect(short.runs.allSatisfy { !$0.isHyphen })
        // No installed patterns for Welsh: its words stay whole.
        let welsh = try Self.layout(width: 110, language: "cy")
        #expect(welsh.runs.allSatisfy { !$0.isHyphen })
        // German takes its own patterns: the points are German ones.
        let german = try Self.layout("Donaudampfschifffahrtsgesellschaft", width: 120, language: "de")
        #expect(german.runs.contains { $0.isHyphen })
    }

    @Test func totalFitWeighsHyphensAndNeverDoesWorseThanGreedy() throws {
        var compared = 0, hyphenatedLines = 0
        for text in (Fixtures.corpus?.filter { $0.script == "Latn" }.map(\.text) ?? []) + [Self.text] where !text.contains("\n") {
            var (breaker, count) = try BreakStrategyTests.breaker(text, size: 16)
            let points = breaker.flags.withUnsafeBufferPointer { _ in
                Hyphenation().points(in: Array(text.utf16).span, flags: breaker.flags, dictionaries: SystemUnicode.shared) { _ in "en" }
            }
            guard !points.isEmpty else { continue }
            breaker.hyphens = HyphenPoints(offsets: points, widths: points.map { _ in 5.4 }, maxConsecutive: 2)
            let slot = LineSlot(start: 0, width: 150)
            let greedy = try breaker.breakLines(in: 0..<count, slot: slot, strategy: .greedy)
            let optimal = try breaker.breakLines(in: 0..<count, slot: slot, strategy: .optimal)
            let (g, o) = (breaker.badness(of: greedy, width: 150), breaker.badness(of: optimal, width: 150))
            #expect(o <= g + 1e-6, "\(text.prefix(40)): optimal \(o), greedy \(g)")
            // Within the limit on hyphenated lines in a row.
            var inRow = 0
            for line in optimal {
                inRow = line.hyphenated ? inRow + 1 : 0
                #expect(inRow <= 2)
                if line.hyphenated { #expect(points.contains(line.range.upperBound)); hyphenatedLines += 1 }
            }
            compared += 1
            if compared == 300 { break }
        }
        #expect(compared >= 1 && hyphenatedLines >= 1, "compared \(compared), hyphenated lines \(hyphenatedLines)")
    }

    /// Greedy breaking looks hyphen points up word by word, when a word overflows: the lines are
    /// those it makes with every point known at once.
    @Test func wordByWordEqualsAllAtOnce() throws {
        var compared = 0
        for text in (Fixtures.corpus?.filter { $0.script == "Latn" }.map(\.text) ?? []).prefix(200) + [Self.text]
        where !text.contains("\n") {
            let (plain, count) = try BreakStrategyTests.breaker(text, size: 16)
            let units = Array(text.utf16)
            let points = Hyphenation().points(in: units.span, flags: plain.flags, dictionaries: SystemUnicode.shared) { _ in "en" }
            var eager = plain, lazy = plain
            eager.hyphens = HyphenPoints(offsets: points, widths: points.map { _ in 5.4 }, maxConsecutive: 2)
            lazy.wordHyphens = WordHyphens(points: { range in points.filter(range.contains).map { ($0, 5.4) } }, maxConsecutive: 2)
            for width in [90.0, 150, 240] {
                #expect(lazy.breakLines(in: 0..<count, width: width) == eager.breakLines(in: 0..<count, width: width), "\(text.prefix(30)) at \(width)")
            }
            compared += 1
        }
        #expect(compared >= 1)
    }
}
