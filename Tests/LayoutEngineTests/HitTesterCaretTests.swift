import Testing
@testable import LayoutEngine

/// The caret shortcut (`HitTester(layout:units:caretsIn:)`, which cuts only the lines that can
/// hold the offset) against the general tester: the same rects and line at every offset, every
/// affinity, in every script and with hard breaks, attachments and empty lines.
@Suite struct HitTesterCaretTests {
    static let fixtures = [
        "The quick brown fox jumps over the lazy dog, again and again.",
        "Say مرحبا to the world and שלום עולם too, in one paragraph that wraps.",
        "👩‍👩‍👧 family 🇯🇵 flags e\u{301} accents and ZWJ 👨‍💻 sequences wrap here",
        "first line\nsecond line that is long enough to wrap twice over\n\nafter an empty line\n",
        "縦書きではなく、横書きの日本語の文章が折り返されるかどうか。",
        "नमस्ते दुनिया, यह एक लंबा वाक्य है जो कई पंक्तियों में लपेटा जाता है।",
    ]

    static func mismatches(_ text: String, width: Double) throws -> [String] {
        let layout = try Fixtures.layout(text, width: width, size: 20)
        let units = AttributedText.utf16(text)
        let general = HitTester(layout: layout, units: units)
        var failures: [String] = []
        for offset in 0...units.count {
            guard let sparse = HitTester(layout: layout, units: units, caretsIn: offset...offset) else {
                failures.append("\(offset): no line-local tester")
                continue
            }
            for affinity in [Affinity.downstream, .upstream] {
                let position = TextPosition(offset: offset, affinity: affinity)
                let (a, b) = (general.caret(position), sparse.caret(position))
                if a?.primary != b?.primary || a?.secondary != b?.secondary || a?.line != b?.line {
                    failures.append("\(position): \(String(describing: a)) against \(String(describing: b))")
                }
            }
            // The simple caret, where it answers, is the general downstream one, with no second place.
            if let simple = HitTester.simpleCaret(layout: layout, units: units, offset: offset) {
                let a = general.caret(TextPosition(offset: offset))
                if a?.primary != simple.primary || a?.secondary != nil || a?.line != simple.line {
                    failures.append("simple \(offset): \(String(describing: a)) against \(simple)")
                }
            }
        }
        return failures
    }

    @Test func theLineLocalCaretIsTheGeneralOne() throws {
        for text in Self.fixtures {
            for width in [90.0, 200, 1_000] {
                #expect(try Self.mismatches(text, width: width) == [], "\(text.prefix(20)) at \(width)")
            }
        }
    }

    @Test(.enabled(if: Fixtures.corpus != nil, "no ../shared/corpus beside the repository"))
    func overTheCorpus() throws {
        let corpus = try #require(Fixtures.corpus)
        var compared = 0
        for caption in corpus.prefix(300) {
            let failures = try Self.mismatches(caption.text, width: 160)
            #expect(failures.isEmpty, "\(caption.text.prefix(30)): \(failures.prefix(3))")
            compared += 1
        }
        #expect(compared == min(300, corpus.count))
    }

    @Test func overOwnCaptions() throws {
        for caption in Fixtures.ownCaptions {
            let failures = try Self.mismatches(caption.text, width: 160)
            #expect(failures.isEmpty, "\(caption.text.prefix(30)): \(failures.prefix(3))")
        }
    }

    /// The simple caret answers inside plain lines, left to right and right to left (else it
    /// would be held equal to nothing), and leaves line ends, bidi boundaries and clusters of
    /// several units to the general tester.
    @Test func theSimpleCaretAnswersInsidePlainLines() throws {
        let text = "The quick brown fox jumps over the lazy dog, again and again."
        let layout = try Fixtures.layout(text, width: 200, size: 20)
        let units = AttributedText.utf16(text)
        let answered = (0...units.count).filter { HitTester.simpleCaret(layout: layout, units: units, offset: $0) != nil }
        #expect(answered.count > units.count / 2)
        for line in layout.lines { #expect(!answered.contains(line.range.lowerBound)) }
        // Bidi boundaries (the Arabic word's ends) are the general tester's; inside the
        // right-to-left run the simple caret answers, at the general tester's place.
        let bidi = "Say مرحبا to the world"
        let bidiLayout = try Fixtures.layout(bidi, width: 1_000, size: 20)
        let bidiUnits = AttributedText.utf16(bidi)
        let general = HitTester(layout: bidiLayout, units: bidiUnits)
        #expect([4, 9].allSatisfy { HitTester.simpleCaret(layout: bidiLayout, units: bidiUnits, offset: $0) == nil })
        for offset in 5...8 {
            let simple = try #require(HitTester.simpleCaret(layout: bidiLayout, units: bidiUnits, offset: offset), "offset \(offset)")
            #expect(general.caret(TextPosition(offset: offset))?.primary == simple.primary && simple.primary.x > 0, "offset \(offset)")
        }
        // Where the font changes inside one direction (Han in Noto Sans CJK between Latin in
        // Noto Sans): the runs' shared ends are the simple caret's too.
        let mixed = "Type 漢字 here"
        let mixedLayout = try Fixtures.layout(mixed, width: 1_000, size: 20)
        let mixedUnits = AttributedText.utf16(mixed)
        let mixedGeneral = HitTester(layout: mixedLayout, units: mixedUnits)
        let fontChanges = mixedLayout.runs.dropFirst().map(\.range.lowerBound)
        #expect(fontChanges == [5, 8])
        for offset in fontChanges {
            let simple = try #require(HitTester.simpleCaret(layout: mixedLayout, units: mixedUnits, offset: offset), "offset \(offset)")
            #expect(mixedGeneral.caret(TextPosition(offset: offset))?.primary == simple.primary, "offset \(offset)")
        }
        // A right-to-left paragraph, too.
        let arabic = "مرحبا بالعالم، هذا نص قصير"
        let arabicLayout = try Fixtures.layout(arabic, width: 1_000, size: 20)
        let arabicUnits = AttributedText.utf16(arabic)
        #expect((0...arabicUnits.count).filter { HitTester.simpleCaret(layout: arabicLayout, units: arabicUnits, offset: $0) != nil }.count
                > arabicUnits.count / 2)
        #expect(try Self.mismatches(arabic, width: 1_000) == [])
    }

    /// Truncated text has offsets past its lines: the general tester answers those.
    @Test func offsetsPastTheLinesTakeTheGeneralTester() throws {
        let text = "a long caption cut after its first line, with more text hidden"
        let layout = try Fixtures.layout(text, width: 120, size: 20) { $0.maxLines = 1 }
        let end = layout.lines[0].range.upperBound
        #expect(HitTester(layout: layout, units: AttributedText.utf16(text), caretsIn: end + 5...end + 5) == nil)
    }
}
