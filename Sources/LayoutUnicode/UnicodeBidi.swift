import CFriBidi
import LayoutEngine

/// UAX #9 embedding levels by FriBidi: the Unicode adapter's bidi. The engine's `BidiResolver`
/// splits the text into paragraphs and asks here for each one's levels.
package enum UnicodeBidi {
    private static let parLTR = FriBidiParType(rawValue: 0x110)
    private static let parRTL = FriBidiParType(rawValue: 0x111)
    private static let parOn = FriBidiParType(rawValue: 0x40)

    /// Writes the level of every unit of `range` (one bidi paragraph of `units`) into `levels`
    /// at the same offsets, and returns the paragraph's base level: `forcedBase` (0 or 1) when
    /// given, else from its first strong character (UAX #9 P2–P3). `shortcut: false` always asks
    /// FriBidi (the tests hold the shortcut to it).
    package static func resolveParagraph(_ units: UnsafeBufferPointer<UInt16>, range: Range<Int>, forcedBase: UInt8?,
                                         into levels: UnsafeMutableBufferPointer<UInt8>, shortcut: Bool = true) -> UInt8 {
        if shortcut && isRightToLeftOnly(units, range: range, forcedBase: forcedBase) {
            // Every unit at level 1 (see `isRightToLeftOnly`): FriBidi's types, runs and the
            // allocations it makes for them are not needed.
            for unit in range { levels[unit] = 1 }
            return 1
        }
        var base: FriBidiParType = forcedBase == 0 ? parLTR : forcedBase == 1 ? parRTL : parOn
        let capacity = range.count
        // FriBidi works on code points. Its four arrays share one scratch allocation (on the
        // stack for a caption), so a paragraph costs no heap allocation.
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: capacity * 3) { scratch in
            withUnsafeTemporaryAllocation(of: FriBidiLevel.self, capacity: capacity) { scalarLevels in
                let scalars = scratch.baseAddress!
                let types = scalars + capacity
                let brackets = types + capacity
                var count = 0
                var i = range.lowerBound
                while i < range.upperBound {
                    let (scalar, width) = scalar(at: i, of: units, before: range.upperBound)
                    scalars[count] = scalar
                    i += width
                    count += 1
                }
                let typePointer = UnsafeMutableRawPointer(types).bindMemory(to: FriBidiCharType.self, capacity: capacity)
                fribidi_get_bidi_types(scalars, FriBidiStrIndex(count), typePointer)
                fribidi_get_bracket_types(scalars, FriBidiStrIndex(count), typePointer, brackets)
                let ok = fribidi_get_par_embedding_levels_ex(typePointer, brackets, FriBidiStrIndex(count), &base,
                                                             scalarLevels.baseAddress) != 0
                let baseLevel: UInt8 = (base.rawValue & 1) == 1 ? 1 : 0
                // Back to units: a surrogate pair takes its scalar's level twice. (Written as a
                // loop over the scalar's width, each scalar became a call to memset.)
                var unit = range.lowerBound
                for k in 0..<count {
                    let level = ok ? UInt8(max(0, scalarLevels[k])) : baseLevel
                    levels[unit] = level
                    unit += 1
                    if scalars[k] >= 0x10000 {
                        levels[unit] = level
                        unit += 1
                    }
                }
                return baseLevel
            }
        }
    }

    /// True when a paragraph of these units resolves to level 1 throughout: its base is right to
    /// left (forced, or its first strong letter is R or AL), and it holds no left-to-right letter,
    /// number or explicit embedding, override or isolate. Then every strong character is R (W3),
    /// NSM takes R (W1), separators and terminators with no number beside them are neutral
    /// (W4–W6), every neutral and bracket lies between R and R or the paragraph's R edges
    /// (N0–N2), and I2 leaves R at level 1; L1 puts whitespace and separators at the paragraph's
    /// level, 1. Most Arabic, Persian and Hebrew captions are such paragraphs. Tested on the units
    /// themselves, before FriBidi's types are asked for, so that such a paragraph needs none.
    private static func isRightToLeftOnly(_ units: UnsafeBufferPointer<UInt16>, range: Range<Int>, forcedBase: UInt8?) -> Bool {
        guard forcedBase != 0 else { return false }
        var sawRightToLeft = forcedBase == 1
        return rolesBelowU0800.withUnsafeBufferPointer { table in
            var i = range.lowerBound
            while i < range.upperBound {
                let u = units[i]
                let role: ShortcutRole
                if u < 0x800 {
                    role = table[Int(u)]
                    i += 1
                } else {
                    let (scalar, width) = scalar(at: i, of: units, before: range.upperBound)
                    role = shortcutRole(fribidi_get_bidi_type(scalar))
                    i += width
                }
                switch role {
                case .refuses: return false
                case .rightToLeft: sawRightToLeft = true
                case .taken: break
                }
            }
            return sawRightToLeft
        }
    }

    /// The code point at `i` and its width in units: a surrogate pair is one scalar, a lone
    /// surrogate stands for itself (as FriBidi is given the text).
    @inline(__always)
    private static func scalar(at i: Int, of units: UnsafeBufferPointer<UInt16>, before end: Int) -> (FriBidiChar, width: Int) {
        let u = units[i]
        if u >= 0xD800 && u < 0xDC00 && i + 1 < end && units[i + 1] >= 0xDC00 && units[i + 1] < 0xE000 {
            return (FriBidiChar(SurrogatePair.codePoint(lead: u, trail: units[i + 1])), 2)
        }
        return (FriBidiChar(u), 1)
    }

    /// What a character is to `isRightToLeftOnly`: strongly right to left (R or AL, among them RLM;
    /// RLE and RLO are explicit), taken (a neutral, separator, terminator, NSM or BN), or refusing
    /// the shortcut (L, a number, an explicit embedding, override or isolate).
    private enum ShortcutRole: UInt8 { case refuses, taken, rightToLeft }

    private static func shortcutRole(_ type: FriBidiCharType) -> ShortcutRole {
        let refused = UInt32(FRIBIDI_MASK_NUMBER | FRIBIDI_MASK_EXPLICIT | FRIBIDI_MASK_ISOLATE)
        let strong = UInt32(FRIBIDI_MASK_STRONG), rtl = UInt32(FRIBIDI_MASK_RTL)
        let type = type.rawValue
        if type & refused != 0 { return .refuses }
        if type & strong != 0 { return type & rtl != 0 ? .rightToLeft : .refuses }
        return .taken
    }

    /// `shortcutRole` of every unit below U+0800 (ASCII to Thaana: the letters, marks and
    /// punctuation of Arabic, Persian and Hebrew), from FriBidi's own types, read instead of
    /// asking FriBidi for each.
    private static let rolesBelowU0800: [ShortcutRole] = (0..<0x800).map { shortcutRole(fribidi_get_bidi_type(FriBidiChar($0))) }
}
