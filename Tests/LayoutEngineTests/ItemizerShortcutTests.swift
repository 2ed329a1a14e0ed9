import Testing
@testable import LayoutEngine
import LayoutUnicode

/// The itemizer takes runs of ASCII and of one-unit BMP clusters whole; the items must be those
/// the general cluster-by-cluster tests give.
@Suite struct ItemizerShortcutTests {
    struct Cut: Equatable, CustomStringConvertible {
        var range: Range<Int>, font: UInt32, style: Int, level: UInt8, script: UInt32
        var description: String { "\(range) font \(font) style \(style) level \(level) script \(script)" }
    }

    static func items(_ text: AttributedText, boxes: [InlineBox] = [], shortcuts: Bool) throws -> [Cut] {
        let analysis = TextAnalysis.analyze(text, direction: .auto, unicode: SystemUnicode.shared)
        let fallback = try FontFallback(registry: Fixtures.registry, styles: text.styles, user: nil)
        var items: [Item] = []
        var scalars: [UInt32] = []
        Itemizer.itemize(text, analysis: analysis, fallback: fallback, boxes: boxes, into: &items, scalars: &scalars,
                         shortcuts: shortcuts)
        return items.map { Cut(range: $0.range, font: $0.font.id, style: $0.style, level: $0.level, script: $0.script.tag) }
    }

    static func expectSame(_ text: AttributedText, _ label: String) throws {
        #expect(try items(text, shortcuts: true) == items(text, shortcuts: false), "\(label)")
    }

    static let texts = [
        "plain ASCII words, digits 123 and punctuation!",
        "café crème brûlée — naïve façade, Zürich",
        "Привет, мир! Это текст на русском языке.",
        "English then русский then English again",
        "مرحبا بالعالم، hello في النص 123",
        "हिन्दी पाठ के साथ English",
        "中文文本和English混合，還有日本語のかなカナ",
        "emoji 🙂 and ⌚ watch ✨ sparkles ☕ in text",
        "line\u{2028}separator and next\u{2029}paragraph",
        "ﬁ ligature, ½ fraction, ©®™ signs, ∑∫√ maths",
        "Ελληνικά κείμενο με English",
        // ASCII spaces, digits and punctuation inside items of other scripts: with a mark after
        // them (longer clusters, one of another script), a no-break space, and right-to-left
        // digits at their own level.
        "слово,\u{0301} слово 42; ещё\u{00A0}раз (да) — конец, мир.\u{094D} да",
        "第1章 2024年, 共3卷: 上/下",
        "שלום, עולם! 12 ספרים (חדשים).",
        // Letters with marks (clusters longer than a unit) taken whole: Devanagari conjuncts and
        // vowel signs, Hebrew points at their level, decomposed Cyrillic and Greek, a mark of
        // another script, a joiner inside a cluster, a lone mark after a soft hyphen (a control,
        // which ends its cluster), and after a fallback item
        // (ґ in the CJK face) letters with marks that the style's own face maps.
        "नमस्ते दुनिया, क्षत्रिय हिन्दी। abc नमस्ते",
        "שָׁלוֹם עֲלֵיכֶם 12 abc",
        "abc 12 שָׁלוֹם",
        "е\u{0301}лка и\u{0306}од α\u{0301}λφα и\u{094D} ка\u{00AD}\u{0301} क\u{200D}\u{094D}ष",
        "ґе\u{0301}ґи\u{0306}ґa\u{0301}ґе\u{034F}\u{0301}",
        // Arabic-Indic digits (level 2 after a Latin letter) and then a letter with its haraka
        // (level 1): one script, two levels.
        "a١٢بَاب",
        // Marks the item's face lacks (a fallback takes the cluster).
        "नमस्ते क\u{0301}ख क\u{1DC0}ख",
        // Ukrainian letters the CJK face lacks (ґ, є): a fallback item, then letters of the same
        // script that the style's own face maps, which go back to it.
        "Ґрунт єднає, ґанок",
        "soft\u{00AD}hyphen and zero\u{200B}width",
        // Words taken by the loop over letters of one script, ended by each thing it stops at:
        // a mark, a letter of another script (Latin, Hebrew after Arabic), a letter the face
        // lacks, a line separator, an emoji and a watch, Braille (a script of its own among the
        // emoji's range), a pair of surrogates, a digit at its own level, ASCII.
        "слово\u{0301}ещё словоé ещё словоԱ слово\u{2028}слово слово😀 слово⌚ слово⠁⠂ конец",
        "مرحباשלום עולם مرحبا١٢٣ مرحبا😀 αβγδ\u{0301}ε",
        // A mark the face may lack inside a word, after letters the loop took.
        "слово\u{1DC0}да слово\u{20DD}да словоꙮ\u{A66F}да",
        // Controls and ASCII letters between words the loop takes (a tab, a line feed, DEL, and
        // a carriage return and NUL, which Noto Sans's cmap maps).
        "слово слово\tслово слово\nслово слово\u{7F}слово слово abc слово, слово.",
        "слово слово\rслово слово\u{0}слово",
        "שלום שלום 12 שלום, שלום! שלום\tשלום",
        // Ideographs at the edges of the ranges taken whole, Yijing hexagrams (Common) beside
        // them, variation selectors and a mark making longer clusters, a line break among them.
        "㐀㐁䶵䷀䷁一中文鿿字\u{FE00}字\u{E0100}漢\u{0301}字，《书名》\n下一行𠀀字",
    ]

    @Test func shortcutsGiveTheGeneralItems() throws {
        for text in Self.texts {
            try Self.expectSame(AttributedText(text, style: TextStyle(family: "Noto Sans")), text)
            // A face that lacks most scripts: fallback everywhere.
            try Self.expectSame(AttributedText(text, style: TextStyle(family: "Noto Sans Devanagari")), "Devanagari face: \(text)")
            // A face of ideographs: Han continues the style's own face, not a fallback.
            try Self.expectSame(AttributedText(text, style: TextStyle(family: "Noto Sans CJK SC")), "CJK face: \(text)")
        }
        // Styles changing mid-word.
        let spans = [AttributedText.Span(range: 3..<9, patch: StylePatch(weight: 700)),
                     AttributedText.Span(range: 12..<20, patch: StylePatch(family: "Noto Naskh Arabic"))]
        try Self.expectSame(AttributedText("abcdéfghijкlmnopqrstuvwxyz", style: TextStyle(family: "Noto Sans"), spans: spans), "spans")
        // A style run ending inside a cluster (before the vowel sign of स्ते).
        try Self.expectSame(AttributedText("ab नमस्ते", style: TextStyle(family: "Noto Sans"),
                                           spans: [AttributedText.Span(range: 8..<9, patch: StylePatch(weight: 700))]), "cluster split")

    }

    /// `Itemizer.letters` leaves out three of the one-unit tests for a unit of a script other
    /// than Common: it must be no surrogate, no hard break and without emoji presentation.
    @Test func aUnitOfAScriptIsNoSurrogateHardBreakOrEmoji() {
        let scripts = Itemizer.ScriptTable.shared
        for unit in UInt16(0x80)...UInt16.max where scripts.script(of: UInt32(unit)) != Script.common {
            let label = "U+\(String(unit, radix: 16))"
            #expect(!UTF16.isSurrogate(unit), "\(label)")
            #expect(!UnitClass.isHardBreak(unit), "\(label)")
            #expect(!(Unicode.Scalar(unit)?.properties.isEmojiPresentation ?? false), "\(label)")
        }
    }

    @Test(.enabled(if: Fixtures.corpus != nil, "no ../shared/corpus beside the repository"))
    func shortcutsGiveTheGeneralItemsOnTheCorpus() throws {
        for caption in Fixtures.corpus ?? [] {
            try Self.expectSame(AttributedText(caption.text, style: TextStyle(family: "Noto Sans", size: 24)), caption.id)
        }
    }

    @Test func shortcutsGiveTheGeneralItemsOnOwnCaptions() throws {
        for caption in Fixtures.ownCaptions {
            try Self.expectSame(AttributedText(caption.text, style: TextStyle(family: "Noto Sans", size: 24)), caption.id)
        }
    }
}

/// The itemizer's four-units-at-a-time test of printable ASCII agrees with the test of each unit.
@Suite struct PrintableASCIIWordTests {
    @Test func everyUnitInEveryLaneAgrees() {
        let fillers: [UInt16] = [0x41, 0x20, 0x7E]
        for unit in UInt16(0)...UInt16.max where unit < 0x200 || unit % 61 == 0 || (0x7F00...0x8100).contains(unit) {
            for lane in 0..<4 {
                for filler in fillers {
                    var word = [UInt16](repeating: filler, count: 4)
                    word[lane] = unit
                    let expected = word.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
                    let got = word.withUnsafeBytes { Itemizer.arePrintableASCII($0.baseAddress!) }
                    #expect(got == expected, "U+\(String(unit, radix: 16)) in lane \(lane)")
                }
            }
        }
    }
}
