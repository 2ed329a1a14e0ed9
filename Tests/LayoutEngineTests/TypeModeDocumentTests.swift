import Testing
import TestSupport
@testable import LayoutEngine

/// Type Mode in an editing session: a document whose paragraphs are fitted as `justify` fits
/// text, kept between keystrokes; after every edit it equals Type Mode on the whole text.
@Suite struct TypeModeDocumentTests {
    static func fit(width: Double = 300, alignment: TextAlignment = .center, lastLineUnscaled: Bool = false) -> TypeModeRequest {
        TypeModeRequest(text: "", style: TextStyle(family: "Noto Sans"), width: width, minSize: 14, maxSize: 96, alignment: alignment,
                        lineHeightMultiple: 1.1, lastLineUnscaled: lastLineUnscaled)
    }

    static func document(_ text: String, fit: TypeModeRequest = fit(), rules: [CompiledRule] = []) throws -> TextDocument {
        try TextDocument(units: AttributedText.utf16(text), settings: DocumentSettings(typeMode: fit, rules: rules), layouter: Fixtures.layouter)
    }

    /// The document's text fitted afresh as one Type Mode request.
    static func freshFit(of document: TextDocument) throws -> TypeModeLayout {
        var request = document.settings.typeMode!
        let units = document.units
        // The tests' rules never cross a paragraph: matching the whole text finds the same.
        let ruled = try FormattingRules.apply(document.settings.rules, to: units)
        request.text = String(decoding: units, as: UTF16.self)
        request.units = units
        request.spans = ruled.spans + document.spans
        request.attachments = document.attachments
        return try Fixtures.layouter.justify(request)
    }

    /// Where the document differs from a fresh fit of its text: lines, glyphs, sizes, clamps.
    static func differences(_ document: TextDocument) throws -> [String] {
        let fresh = try freshFit(of: document)
        var found = TextDocumentTests.differences(kept: document.assembled(), fresh: fresh.paragraph)
        let sizes = document.paragraphs.flatMap { $0.fitted?.sizes ?? [] }
        let clamped = document.paragraphs.flatMap { $0.fitted?.clamped ?? [] }
        if sizes != fresh.lineSizes { found.append("sizes \(sizes) against \(fresh.lineSizes)") }
        if clamped != fresh.clamped { found.append("clamps \(clamped) against \(fresh.clamped)") }
        return found
    }

    @Test func eachParagraphIsFittedAsTheWholeTextIs() throws {
        let document = try Self.document("so\nHAPPY\nto see you all again this evening")
        #expect(document.paragraphs.count == 3)
        #expect(try Self.differences(document) == [])
        // "HAPPY" alone on its line fills the width at a size of its own, larger than "so"'s clamp.
        let sizes = document.paragraphs.map { $0.fitted!.sizes }
        #expect(sizes[0] == [96] && document.paragraphs[0].fitted!.clamped == [true])
        #expect(sizes[1].count == 1 && sizes[1][0] > 40 && sizes[1][0] < 96)
        #expect(sizes[2].count >= 1)
    }

    @Test func aKeystrokeRefitsOnlyItsLine() throws {
        let document = try Self.document("so\nHAPPY\nto see you")
        let kept = document.paragraphs[2]
        let before = document.paragraphs[1].fitted!.sizes[0]
        // Typing into "HAPPY" makes it longer: it fits at a smaller size; the others are kept.
        let change = try document.replace(8..<8, with: AttributedText.utf16("!!"))
        #expect(change.first == 1 && change.removed == 1 && change.inserted == 1)
        #expect(document.paragraphs[2] === kept)
        #expect(document.paragraphs[1].fitted!.sizes[0] < before)
        #expect(change.deltaY < 0, "a smaller line moves the text below it up")
        #expect(try Self.differences(document) == [])
        // A line break typed in the middle splits the line: two lines, each fitted anew.
        _ = try document.replace(6..<6, with: AttributedText.utf16("\n"))
        #expect(document.paragraphs.count == 4)
        #expect(try Self.differences(document) == [])
    }

    @Test func lastLinesStayAtTheMinimumWhereAsked() throws {
        let document = try Self.document("one two three four five six seven eight nine ten eleven\nend",
                                         fit: Self.fit(width: 200, lastLineUnscaled: true))
        #expect(document.paragraphs.allSatisfy { $0.fitted!.sizes.last == 14 })
        _ = try document.replace(0..<0, with: AttributedText.utf16("zero "))
        #expect(try Self.differences(document) == [])
    }

    @Test func styleEditsKeepSizesToTheFit() throws {
        let document = try Self.document("so\nHAPPY")
        _ = try document.style(3..<8, patch: StylePatch(weight: 900))
        #expect(try Self.differences(document) == [])
        #expect(throws: LayoutError.self) { try document.style(0..<2, patch: StylePatch(size: 30)) }
        #expect(try Self.differences(document) == [])
    }

    @Test func whatTiesEveryLineToTheWholeTextIsRefused() throws {
        var uniform = Self.fit()
        uniform.sizing = .uniform
        var tall = Self.fit()
        tall.maxHeight = 300
        for (fit, field) in [(uniform, "sizing"), (tall, "max_height")] {
            do {
                _ = try Self.document("a\nb", fit: fit)
                Issue.record("\(field) was not refused")
            } catch let error as LayoutError {
                #expect(error.field == field)
            }
        }
    }

    @Test func anEmptyDocumentTakesTextAndGivesItBack() throws {
        let document = try Self.document("")
        #expect(try Self.differences(document) == [])
        _ = try document.replace(0..<0, with: AttributedText.utf16("hello\nworld"))
        #expect(try Self.differences(document) == [])
        _ = try document.replace(0..<11, with: [])
        #expect(try Self.differences(document) == [])
    }

    /// Seeded sessions of typing, deleting, line breaks and styles, each edit checked against a
    /// fresh fit of the whole text.
    @Test func randomEditsEqualFreshFits() throws {
        var checked = 0
        for seed in UInt64(1)...12 {
            var random = SeededGenerator(seed: seed)
            func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
            let own = ["so", "HAPPY", "to see you", "Привет, как дела?", "今天天气很好", "مرحبا بالعالم", "*bold* words here",
                       "Emoji 😀 and 👩‍👩‍👧", "a longer caption that wraps over more than one line at the smallest size"]
            let text = (0..<(2 + Int(random.next() % 4))).map { _ in pick(own) }.joined(separator: "\n")
            let fit = Self.fit(width: Double(160 + random.next() % 240), alignment: pick([.left, .center, .right, .natural]),
                               lastLineUnscaled: random.next() % 4 == 0)
            let document = try Self.document(text, fit: fit, rules: random.next() % 2 == 0 ? [TextDocumentTests.boldRule] : [])
            for step in 0..<40 {
                let string = String(decoding: document.units, as: UTF16.self)
                let bounds = HitTesterTests.boundaries(string)
                let a = pick(bounds), b = pick(bounds)
                let range = min(a, b)..<max(a, b)
                switch random.next() % 8 {
                case 0...3: _ = try document.replace(range.lowerBound..<range.lowerBound, with: AttributedText.utf16(pick(["a", " ", "\n", "HI ", "漢", "😀", "*x*"])))
                case 4...5: _ = try document.replace(range.count > 20 ? range.lowerBound..<range.lowerBound : range, with: [])
                default:
                    _ = try document.style(range, patch: pick([StylePatch(weight: 700), StylePatch(italic: true),
                                                               StylePatch(color: Color(red: 1, green: 0, blue: 0))]))
                }
                let differences = try Self.differences(document)
                #expect(differences == [], "seed \(seed), edit \(step): \(differences.prefix(3))")
                if !differences.isEmpty { break }
                checked += 1
            }
        }
        #expect(checked == 12 * 40)
    }
}
