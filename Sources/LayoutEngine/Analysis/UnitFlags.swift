/// Per-UTF-16-unit facts that analysis finds and every later stage reads.
struct UnitFlags: OptionSet {
    let rawValue: UInt8
    /// A grapheme cluster starts here (UAX #29, by Swift's `Character`).
    static let graphemeStart = UnitFlags(rawValue: 1 << 0)
    /// A line may break before this unit (UAX #14, never inside a grapheme cluster).
    static let breakBefore = UnitFlags(rawValue: 1 << 1)
    /// A line must break before this unit: the previous unit ends a hard line.
    static let mustBreakBefore = UnitFlags(rawValue: 1 << 2)
    /// Whitespace that hangs at a line's end and is not counted in its width (CSS Text §4.1.3).
    static let hangingSpace = UnitFlags(rawValue: 1 << 3)
    /// A word separator that justification stretches (CSS Text §7.1).
    static let justifiable = UnitFlags(rawValue: 1 << 4)
    /// A hard line break character (LF, CR, VT, FF, NEL, LS, PS): no glyph, no width.
    static let hardBreak = UnitFlags(rawValue: 1 << 5)
}

enum UnitClass {
    /// UAX #14 classes BK, CR, LF and NL.
    @inline(__always)
    static func isHardBreak(_ u: UInt16) -> Bool {
        // Most units are letters past U+0085 and short of U+2028, or past U+2029: one test each.
        if u > 0x0085 { return u == 0x2028 || u == 0x2029 }
        return (u >= 0x0A && u <= 0x0D) || u == 0x85
    }

    @inline(__always)
    static func isHangingSpace(_ u: UInt16) -> Bool {
        if u < 0x1680 { return u == 0x20 || u == 0x09 }
        return u == 0x3000 || u == 0x1680 || (u >= 0x2000 && u <= 0x200A && u != 0x2007) || u == 0x205F
    }

    /// The C0 and C1 controls (general category Cc): fonts have no glyph for them, and a grapheme
    /// cluster ends after each (UAX #29 GB4, with the other Control characters).
    @inline(__always)
    static func isControl(_ u: UInt16) -> Bool { u < 0x20 || (u >= 0x7F && u < 0xA0) }

    @inline(__always)
    static func isJustifiable(_ u: UInt16) -> Bool { u == 0x20 || u == 0xA0 || u == 0x3000 }

    /// A–Z or a–z (bit 5 folds capitals onto small letters); false for every other value.
    @inline(__always)
    static func isASCIILetter(_ u: UInt32) -> Bool { (u | 0x20) >= 0x61 && (u | 0x20) <= 0x7A }

    /// A space, digit or punctuation of ASCII: printable (U+0020–U+007E) and no letter. What the
    /// itemizer takes between the words of an item of any script.
    @inline(__always)
    static func isASCIIBetweenWords(_ u: UInt16) -> Bool { u >= 0x20 && u < 0x7F && !isASCIILetter(UInt32(u)) }

    /// Units past ASCII that analysis's first pass has nothing to note for: no control, soft
    /// hyphen, separator, hard break, space, right-to-left character or regional indicator's
    /// lead. Letters of Latin-1 to Cyrillic, Devanagari to Ethiopic and CJK to Hangul pass in
    /// two or three comparisons; `UnitClassTests` checks every BMP unit.
    @inline(__always)
    static func isInertBeyondASCII(_ u: UInt16) -> Bool {
        if u < 0x0590 { return u > 0xAD }
        if u < 0x3001 { return u >= 0x0900 && u < 0x1680 }
        return u < 0xD800
    }

    /// Units of the right-to-left scripts' blocks, Hebrew to Arabic Extended-A (U+0590–U+08FF):
    /// analysis's first pass notes only that the text may be right to left for them (no control,
    /// separator, space or hard break is among them). `UnitClassTests` checks every one.
    @inline(__always)
    static func isInRightToLeftBlocks(_ u: UInt16) -> Bool { u &- 0x0590 < 0x0900 - 0x0590 }

    /// Characters that can only appear in right-to-left text, or that force it (bidi controls).
    /// Text without them needs no bidi resolution when its direction is left-to-right or auto.
    @inline(__always)
    static func mayBeRTL(_ u: UInt16) -> Bool {
        // Below Hebrew (Latin, Greek, Cyrillic) and between Arabic's blocks and the controls
        // (Devanagari and the rest of the Indic scripts): one test or two.
        if u < 0x0590 { return false }
        if u <= 0x08FF { return true }  // Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic
        if u < 0x200F { return false }
        return u == 0x200F || u == 0x202B || u == 0x202E || u == 0x2067
            || (u >= 0xFB1D && u <= 0xFDFF) || (u >= 0xFE70 && u <= 0xFEFF)
            || (u >= 0xD802 && u <= 0xD803) || (u >= 0xD83A && u <= 0xD83B)
    }
}

extension ContiguousArray where Element == UnitFlags {
    /// `end` moved back over the whitespace that hangs before it, not past `start`: where the
    /// content of `start..<end` ends.
    func contentEnd(_ end: Int, from start: Int) -> Int {
        var end = end
        while end > start && self[end - 1].contains(.hangingSpace) { end -= 1 }
        return end
    }

    /// `start` moved forward over hanging whitespace, not past `end`: where content resumes.
    func contentStart(_ start: Int, to end: Int) -> Int {
        var start = start
        while start < end && self[start].contains(.hangingSpace) { start += 1 }
        return start
    }
}
