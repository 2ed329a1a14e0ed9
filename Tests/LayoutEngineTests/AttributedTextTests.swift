import Testing
import TestSupport
@testable import LayoutEngine

@Suite struct AttributedTextTests {
    /// The transcoder against the standard library: the corpus, and seeded strings of scalars
    /// from every UTF-8 length (ASCII, two, three and four bytes, surrogate-range neighbours).
    @Test func unitsEqualTheStringsUTF16() {
        var texts = (Fixtures.corpus ?? []).map(\.text)
        let samples: [ClosedRange<UInt32>] = [0x00...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF, 0x10000...0x10FFFF]
        var generator = SeededGenerator(seed: 0x0_7F_16)
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                let range = samples.randomElement(using: &generator)!
                text.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: range, using: &generator))!)
            }
            texts.append(text)
        }
        texts += ["", "a", "\u{10FFFF}", "\u{FFFF}\u{10000}", "é😀\u{D7FF}\u{E000}"]
        let wrong = texts.filter { AttributedText.utf16($0) != ContiguousArray($0.utf16) }
        #expect(wrong.isEmpty, "\(wrong.prefix(3))")
    }

    /// `unitCount`, read past the `_read` accessors, is `units.count`; and a shaped paragraph's,
    /// which line streams read, is its text's.
    @Test func unitCountIsTheUnitsCount() throws {
        for string in ["", "a", "é😀", "مرحبا بالعالم", "我爱Swift编程"] {
            let text = AttributedText(string, style: TextStyle(family: "Noto Sans", size: 17))
            #expect(text.unitCount == text.units.count)
            #expect(text.unitCount == string.utf16.count)
            guard !string.isEmpty else { continue }
            let context = LayoutContext(layouter: Fixtures.layouter)
            let shaped = try ShapedParagraph(text: text, direction: .auto, fonts: Fixtures.registry, context: context)
            #expect(shaped.unitCount == shaped.text.units.count)
        }
    }

    /// The sweep over span edges resolves every piece as applying each covering span in order
    /// does (the old quadratic way, kept here as the reference), on seeded overlapping spans.
    /// `init(plainUnits:style:)`, a plain request's text, is the general init with no paint and
    /// no spans, part by part: empty, one unit, a caption with a surrogate pair.
    @Test func plainUnitsEqualTheGeneralInit() {
        let style = TextStyle(family: "Noto Sans", size: 24)
        for string in ["", "a", "Caption with an emoji 🙂 and more"] {
            let units = AttributedText.utf16(string)
            let plain = AttributedText(plainUnits: units, style: style)
            let general = AttributedText("", units: units, style: style)
            #expect(plain.string == general.string && plain.units == general.units, "\(string)")
            #expect(plain.styles == general.styles && plain.paints == general.paints, "\(string)")
            #expect(plain.runs.map(\.range) == general.runs.map(\.range) && plain.runs.map(\.style) == general.runs.map(\.style), "\(string)")
            #expect(plain.paintRuns.map(\.range) == general.paintRuns.map(\.range) && plain.paintRuns.map(\.paint) == general.paintRuns.map(\.paint))
            #expect(plain.hidden == general.hidden && plain.hasEmphasis == general.hasEmphasis && plain.ruby.isEmpty && general.ruby.isEmpty)
            #expect(plain.isPlain && general.isPlain)
        }
    }

    /// A document's paragraph without spans takes its settings' kept `[style]`
    /// (`init(_:units:styles:paint:)`): the same text as the general init makes, for a plain and a
    /// painted paint, and the plain request's `init(plainUnits:styles:)` the same as its style's.
    @Test func keptStylesEqualTheGeneralInit() {
        let style = TextStyle(family: "Noto Sans", size: 24)
        var painted = TextPaint(color: Color(red: 1, green: 0, blue: 0))
        painted.emphasis = EmphasisMarks(.dot)
        for string in ["", "a", "Caption with an emoji 🙂 and more"] {
            let units = AttributedText.utf16(string)
            for paint in [TextPaint(), painted] {
                let kept = AttributedText("", units: units, styles: [style], paint: paint)
                let general = AttributedText("", units: units, style: style, paint: paint)
                #expect(kept.units == general.units && kept.styles == general.styles && kept.paints == general.paints, "\(string)")
                #expect(kept.runs.map(\.range) == general.runs.map(\.range) && kept.runs.map(\.style) == general.runs.map(\.style))
                #expect(kept.paintRuns.map(\.range) == general.paintRuns.map(\.range) && kept.hidden == general.hidden)
                #expect(kept.hasEmphasis == general.hasEmphasis && kept.isPlain == general.isPlain, "\(string)")
            }
            let plain = AttributedText(plainUnits: units, styles: [style]), made = AttributedText(plainUnits: units, style: style)
            #expect(plain.styles == made.styles && plain.runs.map(\.range) == made.runs.map(\.range) && plain.paints == made.paints)
        }
    }

    /// The settings' kept `[style]` follows the style when it is set.
    @Test func documentSettingsKeepTheirStyleInAnArray() {
        var settings = DocumentSettings(request: ParagraphRequest(text: AttributedText("", style: TextStyle(family: "Noto Sans", size: 17)),
                                                                  width: 200), style: TextStyle(family: "Noto Sans", size: 17))
        #expect(settings.styles == [settings.style])
        settings.style = TextStyle(family: "Noto Serif", size: 30)
        #expect(settings.styles == [TextStyle(family: "Noto Serif", size: 30)])
        settings.style.size = 12
        #expect(settings.styles == [settings.style] && settings.styles[0].size == 12)
    }

    @Test func sweepResolvesSpansAsApplyingThemInOrder() {
        var generator = SeededGenerator(seed: 0x5A_A5)
        let base = TextStyle(family: "Noto Sans", size: 17)
        for _ in 0..<300 {
            let count = Int.random(in: 0...60, using: &generator)
            let spans = (0..<Int.random(in: 0...25, using: &generator)).map { _ -> AttributedText.Span in
                let start = Int.random(in: -2...count + 2, using: &generator)
                let end = Int.random(in: start...count + 3, using: &generator)
                var patch = StylePatch()
                if Bool.random(using: &generator) { patch.weight = Int.random(in: 1...9, using: &generator) * 100 }
                if Bool.random(using: &generator) { patch.size = Double(Int.random(in: 8...40, using: &generator)) }
                if Bool.random(using: &generator) { patch.italic = Bool.random(using: &generator) }
                if Bool.random(using: &generator) { patch.letterSpacing = Double(Int.random(in: -2...2, using: &generator)) }
                if Bool.random(using: &generator) { patch.language = ["ar", "ja", ""].randomElement(using: &generator)! }
                return AttributedText.Span(range: start..<end, patch: patch)
            }
            let text = AttributedText(String(repeating: "x", count: count), style: base, spans: spans)
            for unit in 0..<count {
                var expected = base
                for span in spans where span.range.lowerBound <= unit && span.range.upperBound > unit {
                    expected = span.patch.applied(to: expected)
                }
                let run = text.runs.first { $0.range.contains(unit) }
                #expect(run.map { text.styles[$0.style] } == expected, "unit \(unit) of \(count)")
            }
            // Runs are sorted, gap-free and neighbours differ.
            #expect(text.runs.map(\.range.lowerBound) == [0] + text.runs.dropLast().map(\.range.upperBound) || count == 0)
            #expect(zip(text.runs, text.runs.dropFirst()).allSatisfy { $0.style != $1.style })
        }
    }
}
