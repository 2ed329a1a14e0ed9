import Testing
import TestSupport
import LayoutUnicode

/// `UnicodeBidi.resolveParagraph`'s shortcut (a paragraph with no left-to-right letter, number or
/// explicit formatting is level 1 throughout) held to FriBidi's own answer, unit by unit, on
/// random paragraphs drawn from characters of every class the shortcut takes or refuses, and on
/// a few written ones. The Unicode conformance file (`UnicodeConformanceTests.bidiTest`) checks
/// both paths against the standard, but leaves the levels of BN characters (ZWNJ, ZWJ) open:
/// these tests hold them to FriBidi's too.
@Suite struct UnicodeBidiShortcutTests {
    /// A character, and whether the shortcut refuses a paragraph holding it.
    static let pool: [(text: String, refuses: Bool)] = [
        ("ب", false), ("س", false), ("م", false), ("א", false), ("ש", false),  // AL, R
        (" ", false), ("\t", false), ("\u{200C}", false), ("\u{200D}", false), ("\u{00AD}", false),  // WS, S, BN
        ("\u{064B}", false), ("\u{05B0}", false), ("\u{0651}", false),  // NSM
        ("!", false), ("?", false), ("«", false), ("»", false), ("(", false), (")", false), ("[", false), ("]", false),
        ("\"", false), ("-", false), ("+", false), ("%", false), ("$", false), ("#", false), (",", false), (".", false),
        (":", false), ("/", false), ("\u{060C}", false), ("\u{061F}", false), ("😀", false), ("\u{200F}", false),  // ON, ES, ET, CS, RLM
        ("a", true), ("Z", true), ("\u{200E}", true), ("1", true), ("\u{0661}", true), ("\u{06F1}", true),  // L, LRM, EN, AN
        ("\u{202B}", true), ("\u{202C}", true), ("\u{202E}", true), ("\u{2067}", true), ("\u{2069}", true),  // RLE, PDF, RLO, RLI, PDI
    ]

    /// Levels and base from both paths, for every base the engine asks for.
    static func bothWays(_ text: String) -> [(forced: UInt8?, shortcut: [UInt8], fribidi: [UInt8])] {
        let units = Array(text.utf16)
        return [nil, 1, 0].map { (forced: UInt8?) in
            var fast = [UInt8](repeating: 9, count: units.count), slow = fast
            let (fastBase, slowBase) = units.withUnsafeBufferPointer { buffer in
                (fast.withUnsafeMutableBufferPointer {
                    UnicodeBidi.resolveParagraph(buffer, range: 0..<units.count, forcedBase: forced, into: $0)
                },
                 slow.withUnsafeMutableBufferPointer {
                    UnicodeBidi.resolveParagraph(buffer, range: 0..<units.count, forcedBase: forced, into: $0, shortcut: false)
                })
            }
            return (forced, fast + [fastBase], slow + [slowBase])
        }
    }

    @Test func randomParagraphsGetFriBidisLevels() {
        var generator = SeededGenerator(seed: 0x5EED_B1D1)
        var eligible = 0
        for _ in 0..<3_000 {
            let length = Int(generator.next() % 24) + 1
            // Two paragraphs in three from characters the shortcut takes, so that it is tried often.
            let pool = generator.next() % 3 == 0 ? Self.pool : Self.pool.filter { !$0.refuses }
            let picked = (0..<length).map { _ in pool[Int(generator.next() % UInt64(pool.count))] }
            var text = picked.map(\.text).joined()
            if generator.next() % 4 == 0 { text += "\u{2029}" }  // a paragraph's own separator (B)
            let hasRightToLeft = picked.contains { ["ب", "س", "م", "א", "ש", "\u{200F}"].contains($0.text) }
            if !picked.contains(where: \.refuses) && hasRightToLeft { eligible += 1 }
            for answer in Self.bothWays(text) {
                #expect(answer.shortcut == answer.fribidi,
                        "\(text.unicodeScalars.map { String($0.value, radix: 16) }) base \(String(describing: answer.forced))")
            }
        }
        #expect(eligible > 1_000)  // the shortcut's own cases, not only FriBidi's
    }

    @Test func writtenParagraphsGetFriBidisLevels() {
        let texts = [
            "می‌خواهم به خانه بروم، اما باران می‌بارد!",  // Persian with ZWNJ
            "שָׁלוֹם עוֹלָם (בְּרֵאשִׁית) «ציטוט»",  // Hebrew with points and brackets
            "مرحبا بالعالم 😀 — كيف حالك؟",  // Arabic, an emoji, a dash
            "\u{200C}\u{200D} ب\t؟ ",  // BN first, a tab, trailing space
            "ب 3 م", "ب a م", "مرحبا ٣",  // refused: a digit, a Latin letter, an Arabic-Indic digit
        ]
        for text in texts {
            for answer in Self.bothWays(text) {
                #expect(answer.shortcut == answer.fribidi, "\(text) base \(String(describing: answer.forced))")
            }
        }
    }
}

