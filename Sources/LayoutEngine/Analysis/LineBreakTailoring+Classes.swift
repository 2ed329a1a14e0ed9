
/// The classes a tailoring changes, as ICU's `line_normal_cj` and `line_loose_cj` rules read CSS
/// Text's `line-break` for Chinese and Japanese, and as CSS reads `word-break: break-all`. Each
/// changed character becomes an ideograph (ID): a line may break before and after it.
extension LineBreakTailoring {
    /// Class CJ (Unicode 15.0's LineBreak.txt): small kana and the prolonged sound marks, which
    /// the default table reads as non-starters (NS).
    static let conditionalStarters: [ClosedRange<UInt32>] = [
        0x3041...0x3041, 0x3043...0x3043, 0x3045...0x3045, 0x3047...0x3047, 0x3049...0x3049, 0x3063...0x3063,
        0x3083...0x3083, 0x3085...0x3085, 0x3087...0x3087, 0x308E...0x308E, 0x3095...0x3096,
        0x30A1...0x30A1, 0x30A3...0x30A3, 0x30A5...0x30A5, 0x30A7...0x30A7, 0x30A9...0x30A9, 0x30C3...0x30C3,
        0x30E3...0x30E3, 0x30E5...0x30E5, 0x30E7...0x30E7, 0x30EE...0x30EE, 0x30F5...0x30F6, 0x30FC...0x30FC,
        0x31F0...0x31FF, 0xFF67...0xFF70, 0x1B132...0x1B132, 0x1B150...0x1B152, 0x1B155...0x1B155, 0x1B164...0x1B167,
    ]
    /// Hyphens a line may start with in Chinese and Japanese under `normal` and `loose`:
    /// ‐ – (BA) and 〜 ゠ (NS).
    static let hyphens: [UInt32] = [0x2010, 0x2013, 0x301C, 0x30A0]
    /// Iteration marks (NS), which `loose` lets start a line: 々 〻 ゝ ゞ ヽ ヾ.
    static let iterationMarks: [UInt32] = [0x3005, 0x303B, 0x309D, 0x309E, 0x30FD, 0x30FE]
    /// Centred punctuation `loose` lets start a line: ‼ ⁇ ⁈ ⁉ ・ ： ； ･ (NS) and ！ ？ (EX).
    static let centredPunctuation: [UInt32] = [0x203C, 0x2047, 0x2048, 0x2049, 0x30FB, 0xFF1A, 0xFF1B, 0xFF65, 0xFF01, 0xFF1F]
    /// Suffixes (PO) East Asian ambiguous, fullwidth or wide, which `loose` lets start a line.
    static let wideSuffixes: [UInt32] = [0x00B0, 0x2030, 0x2032, 0x2033, 0x2035, 0x2103, 0x2109, 0xFE6A, 0xFF05, 0xFFE0]
    /// Prefixes (PR) East Asian ambiguous, fullwidth or wide, after which `loose` lets a line end.
    static let widePrefixes: [UInt32] = [0x00A4, 0x00B1, 0x20AC, 0x2116, 0xFE69, 0xFF04, 0xFFE1, 0xFFE5, 0xFFE6]
    /// Inseparable characters (IN), which `loose` lets break between: ․ ‥ … ⋯ ︙ (and U+10AF6).
    static func isInseparable(_ scalar: UInt32) -> Bool {
        scalar == 0x2024 || scalar == 0x2025 || scalar == 0x2026 || scalar == 0x22EF || scalar == 0xFE19 || scalar == 0x10AF6
    }

    /// What the table's tailoring depends on: tailorings that differ only elsewhere share a table.
    struct TableKey: Hashable {
        let startersAsIdeographs: Bool
        let chineseOrJapanese: Bool
        let loose: Bool
        let breakAll: Bool
    }

    var tableKey: TableKey {
        let relaxed = strictness == .normal || strictness == .loose
        return TableKey(startersAsIdeographs: relaxed, chineseOrJapanese: relaxed && language != .other,
                        loose: strictness == .loose && language != .other, breakAll: wordBreak == .breakAll)
    }

    /// The planes-0-and-1 table for this tailoring, made the first time a text asks for it (at
    /// most eight, 128 KiB each) and kept for the process.
    var classTable: [LineBreakClass] {
        let key = tableKey
        return Self.tables.withLock { tables in
            if let table = tables[key] { return table }
            let table = Self.makeTable(key)
            tables[key] = table
            return table
        }
    }

    private static let tables = Locked<[TableKey: [LineBreakClass]]>([:])

    private static func makeTable(_ key: TableKey) -> [LineBreakClass] {
        var table = LineBreakClass.lowPlanes
        func ideograph(_ scalars: [UInt32]) { for scalar in scalars where scalar < 0x20000 { table[Int(scalar)] = .ID } }
        if key.startersAsIdeographs {
            for range in conditionalStarters where range.upperBound < 0x20000 { ideograph(Array(range)) }
        }
        if key.chineseOrJapanese { ideograph(hyphens) }
        if key.loose { ideograph(iterationMarks + centredPunctuation + wideSuffixes + widePrefixes) }
        if key.breakAll {
            // Letters and digits of every script break as ideographs (CSS: "treated as ID").
            for index in table.indices where table[index].isAlphanumeric { table[index] = .ID }
        }
        return table
    }

    /// True for letters of the kinds CSS's keep-all keeps together: letters, digits, ideographs
    /// and Hangul, and the letters the default table reads as non-starters (small kana, ー and
    /// the iteration marks, which are letters by general category).
    static func isWordLetter(_ lineBreakClass: LineBreakClass, scalar: UInt32) -> Bool {
        switch lineBreakClass {
        case .AL, .HL, .NU, .ID, .IDX, .JL, .JV, .JT, .H2, .H3: return true
        case .NS: return iterationMarks.contains(scalar) || conditionalStarters.contains { $0.contains(scalar) }
        default: return false
        }
    }
}
