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
    /// What a character is to the shortcut: strongly right to left (R or AL: taken, and it makes an
    /// unforced base right to left), taken, or refused (the whole paragraph goes to FriBidi).
    enum Role { case rightToLeft, taken, refuses }

    /// Characters of every class the shortcut takes or refuses, with their role.
    static let pool: [(text: String, role: Role)] = [
        ("ب", .rightToLeft), ("س", .rightToLeft), ("م", .rightToLeft), ("א", .rightToLeft), ("ש", .rightToLeft),  // AL, R
        ("\u{200F}", .rightToLeft),  // RLM (R)
        (" ", .taken), ("\t", .taken), ("\u{200C}", .taken), ("\u{200D}", .taken), ("\u{00AD}", .taken),  // WS, S, BN
        ("\u{064B}", .taken), ("\u{05B0}", .taken), ("\u{0651}", .taken),  // NSM
        ("!", .taken), ("?", .taken), ("«", .taken), ("»", .taken), ("(", .taken), (")", .taken), ("[", .taken), ("]", .taken),
        ("\"", .taken), ("-", .taken), ("+", .taken), ("%", .taken), ("$", .taken), ("#", .taken), (",", .taken), (".", .taken),
        (":", .taken), ("/", .taken), ("\u{060C}", .taken), ("\u{061F}", .taken), ("😀", .taken),  // ON, ES, ET, CS
        ("a", .refuses), ("Z", .refuses), ("\u{200E}", .refuses), ("1", .refuses), ("\u{0661}", .refuses),  // L, LRM, EN, AN
        ("\u{06F1}", .refuses),  // EN (Extended Arabic-Indic)
        ("\u{202B}", .refuses), ("\u{202C}", .refuses), ("\u{202E}", .refuses), ("\u{2067}", .refuses),  // RLE, PDF, RLO, RLI
        ("\u{2069}", .refuses),  // PDI
    ]

    /// Levels and base from both paths, for every base the engine asks for.
    static func bothWays(_ text: String) -> [(forced: UInt8?, shortcut: [UInt8], fribidi: [UInt8])] {
        bothWays(units: Array(text.utf16))
    }

    static func bothWays(units: [UInt16]) -> [(forced: UInt8?, shortcut: [UInt8], fribidi: [UInt8])] {
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
            let pool = generator.next() % 3 == 0 ? Self.pool : Self.pool.filter { $0.role != .refuses }
            let picked = (0..<length).map { _ in pool[Int(generator.next() % UInt64(pool.count))] }
            var text = picked.map(\.text).joined()
            if generator.next() % 4 == 0 { text += "\u{2029}" }  // a paragraph's own separator (B)
            if !picked.contains(where: { $0.role == .refuses }) && picked.contains(where: { $0.role == .rightToLeft }) { eligible += 1 }
            for answer in Self.bothWays(text) {
                #expect(answer.shortcut == answer.fribidi,
                        "\(text.unicodeScalars.map { String($0.value, radix: 16) }) base \(String(describing: answer.forced))")
            }
        }
        #expect(eligible > 1_000)  // the shortcut's own cases, not only FriBidi's
    }

    /// Every BMP unit between two Arabic letters, and alone: the shortcut's table of units below
    /// U+0800 and its questions to FriBidi above, each held to FriBidi's levels (a unit the
    /// shortcut took but should refuse, a letter or digit, gets another level from FriBidi).
    /// Lone surrogates included: both paths hand them to FriBidi as they are.
    @Test func everyBMPUnitGetsFriBidisLevels() {
        var wrong: [String] = []
        for value in UInt16(0)...0xFFFF {
            for units in [[0x0628, value, 0x0628], [value]] {
                for answer in Self.bothWays(units: units) where answer.shortcut != answer.fribidi {
                    wrong.append("\(String(value, radix: 16)) in \(units.count) base \(String(describing: answer.forced))")
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(20))")
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

