import Testing
import TestSupport
@testable import LayoutEngine
import LayoutUnicode

/// Line breaking's rules (`LineBreakRules`): the quick answers held to the rules' own on every
/// sequence of up to four classes, and what the class table and the analysis give for a few
/// texts the conformance file (`UnicodeConformanceTests.lineBreakTest`) does not spell out.
@Suite struct LineBreakRulesTests {
    static let classes = (0...UInt8.max).compactMap(LineBreakClass.init(rawValue:))

    /// The state after `prefix`, or nil for an empty one.
    static func state(after prefix: [LineBreakClass]) -> LineBreakRules? {
        guard let first = prefix.first else { return nil }
        var rules = LineBreakRules(first: first)
        for next in prefix.dropFirst() { _ = rules.advance(to: next, digitFollows: false) }
        return rules
    }

    @Test func quickAnswersAreTheRulesAnswers() {
        var prefixes: [[LineBreakClass]] = Self.classes.map { [$0] }
        prefixes += Self.classes.flatMap { a in Self.classes.map { b in [a, b] } }
        prefixes += Self.classes.flatMap { a in [[a, .SP, .SP], [a, .CM, .SP], [a, .ZWJ]] }
        var quick = 0
        for prefix in prefixes {
            let state = Self.state(after: prefix)!
            for next in Self.classes {
                var fast = state, general = state
                guard let answer = fast.quickly(next) else { continue }
                quick += 1
                for digit in [false, true] {
                    var slow = general
                    #expect(slow.advance(to: next, digitFollows: digit) == answer, "\(prefix) then \(next)")
                }
                _ = general.advance(to: next, digitFollows: false)
                // The state moves on alike: the next answer agrees for every class after.
                for after in Self.classes {
                    var a = fast, b = general
                    #expect(a.advance(to: after, digitFollows: false) == b.advance(to: after, digitFollows: false),
                            "\(prefix) then \(next) then \(after)")
                }
            }
        }
        #expect(quick > 2_000)
    }

    /// The rules alone, one character at a time (no quick answers, no runs passed at once).
    static func slowly(_ units: [UInt16]) -> [Int] {
        let scalars = String(decoding: units, as: UTF16.self).unicodeScalars
        var offset = scalars.first.map { String($0).utf16.count } ?? 0
        guard let first = scalars.first else { return [] }
        var rules = LineBreakRules(first: LineBreakClass.of(first.value))
        var found: [Int] = []
        let classes = scalars.map { LineBreakClass.of($0.value) }
        for index in classes.indices.dropFirst() {
            let digit = classes[(index + 1)...].first { $0 != .CM && $0 != .ZWJ } == .NU
            if rules.advance(to: classes[index], digitFollows: digit) != .no { found.append(offset) }
            offset += String(scalars[scalars.index(scalars.startIndex, offsetBy: index)]).utf16.count
        }
        return found
    }

    /// What `mark` finds, every grapheme start allowed to break.
    static func marked(_ units: [UInt16]) -> [Int] {
        var flags = ContiguousArray<UnitFlags>(repeating: .graphemeStart, count: units.count)
        TextAnalysis.markLineBreaks(ContiguousArray(units), language: "", into: &flags)
        return flags.indices.filter { flags[$0].contains(.breakBefore) }
    }

    @Test func theShortcutsGiveTheRulesAnswersOnRandomTextsAndTheCorpus() {
        var generator = SeededGenerator(seed: 0x14B)
        // One character of each class, strung at random: every class after every other.
        let samples: [LineBreakClass: UInt16] = Dictionary(Self.classes.compactMap { c in
            (0x20...0xFFFD).lazy.map(UInt16.init).first { !(0xD800..<0xE000).contains($0) && LineBreakClass.of(UInt32($0)) == c }.map { (c, $0) }
        }) { a, _ in a }
        let pool = Array(samples.values) + Array("Letters and 123 digits".utf16)
        for _ in 0..<3_000 {
            let units = (0..<Int.random(in: 1...24, using: &generator)).map { _ in pool.randomElement(using: &generator)! }
            #expect(Self.marked(units) == Self.slowly(units), "\(units.map { String($0, radix: 16) })")
        }
        for caption in (Fixtures.corpus ?? []).prefix(400) {
            let units = Array(caption.text.utf16)
            #expect(Self.marked(units) == Self.slowly(units), "\(caption.text.prefix(30))")
        }
    }

    static func breaks(_ text: String, language: String = "") -> [Int] {
        let analysis = TextAnalysis.analyze(AttributedText(text, style: TextStyle(language: language)), direction: .leftToRight, unicode: SystemUnicode.shared)
        return analysis.flags.indices.filter { analysis.flags[$0].contains(.breakBefore) }
    }

    @Test func everydayTexts() {
        #expect(Self.breaks("Hello, world!") == [7])
        // A number keeps its sign, separators and percent; a closing bracket after one keeps it too.
        #expect(Self.breaks("up 12,5% (3)% now") == [3, 9, 14])
        // Small kana and the prolonged sound mark do not start a line (LB1: CJ as NS).
        #expect(Self.breaks("チョコレート") == [2, 3, 5])
        // An emoji modifier stays with its base; a flag's two indicators stay together.
        #expect(Self.breaks("a 👍🏽 🇯🇵🇫🇷") == [2, 7, 11])
        // A wide opening bracket may follow a letter directly (LB30 leaves it out).
        #expect(Self.breaks("a〈b〉") == [1])
    }

    @Test func aLanguageTailorsItsQuotationMarks() {
        // German opens with „ and closes with “: no break after the opening one.
        #expect(Self.breaks("ja „gut“ nein", language: "de") == [3, 9])
        #expect(Self.breaks("yes “good” no", language: "en") == [4, 11])
    }
}
