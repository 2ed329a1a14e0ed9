/// UAX #29 word boundaries: the word a double tap selects. libunibreak 1.1 (Debian 12's) predates
/// the emoji and regional-indicator rules and the Hebrew quote rules, so the rules are here, over
/// the Word_Break property and Extended_Pictographic from Debian's unicode-data
/// (`WordBreak+Table`, `scripts/generate-word-break.py`), and held to Unicode's own
/// WordBreakTest.txt, every case (`UnicodeConformanceTests`). Dictionary scripts are cut further
/// by `TextBoundaries` (a tailoring: docs/unicode.md).
enum WordBreak: UInt8 {
    case other, cr, lf, newline, extend, zwj, regionalIndicator, format, katakana, hebrewLetter, aLetter
    case singleQuote, doubleQuote, midNumLet, midLetter, midNum, numeric, extendNumLet, wSegSpace

    init(_ scalar: UInt32) {
        self = WordBreak(rawValue: PropertyRanges.value(of: scalar, in: Self.ranges)) ?? .other
    }

    /// Extended_Pictographic (emoji-data.txt): what a ZWJ joins (WB3c, GB11).
    static func isPictographic(_ scalar: UInt32) -> Bool { PropertyRanges.value(of: scalar, in: pictographic) != 0 }

    var isAHLetter: Bool { self == .aLetter || self == .hebrewLetter }
    var isMidLetterQ: Bool { self == .midLetter || self == .midNumLet || self == .singleQuote }
    var isMidNumQ: Bool { self == .midNum || self == .midNumLet || self == .singleQuote }
    var isNewlineClass: Bool { self == .newline || self == .cr || self == .lf }
    /// WB4: ignored after the first character of a word (attached to what precedes).
    var isIgnored: Bool { self == .extend || self == .format || self == .zwj }

    /// Every UTF-16 offset a word boundary falls at, ascending, 0 and the text's length included.
    static func boundaries(_ units: some Collection<UInt16>) -> [Int] {
        var offsets: [Int] = [], classes: [WordBreak] = [], scalars: [UInt32] = []
        var offset = 0
        for scalar in Unicode.UTF16.decode(units) {
            offsets.append(offset)
            classes.append(WordBreak(scalar))
            scalars.append(scalar)
            offset += scalar.utf16Length
        }
        var result = [0]
        // Regional indicators since the last non-RI (WB15/16 pair them).
        var riRun = 0
        for index in classes.indices.dropFirst() {
            if classes[index - 1] == .regionalIndicator { riRun += 1 } else if !classes[index - 1].isIgnored { riRun = 0 }
            if breaks(before: index, classes, scalars, regionalIndicatorsBefore: riRun) { result.append(offsets[index]) }
        }
        if offset > 0 { result.append(offset) }
        return result
    }

    /// Whether a boundary falls before scalar `index` (> 0), by WB3 to WB999.
    static func breaks(before index: Int, _ classes: [WordBreak], _ scalars: [UInt32], regionalIndicatorsBefore riRun: Int) -> Bool {
        let previous = classes[index - 1], current = classes[index]
        if previous == .cr && current == .lf { return false }                                   // WB3
        if previous.isNewlineClass || current.isNewlineClass { return true }                    // WB3a, WB3b
        if previous == .zwj && isPictographic(scalars[index]) { return false }                  // WB3c
        if previous == .wSegSpace && current == .wSegSpace { return false }                     // WB3d
        if current.isIgnored { return false }                                                   // WB4
        // WB4: the characters around are those before the ignored ones.
        func before(_ k: Int) -> Int? {
            var k = k
            while k >= 0 && classes[k].isIgnored { k -= 1 }
            return k >= 0 ? k : nil
        }
        func after(_ k: Int) -> Int? {
            var k = k
            while k < classes.count && classes[k].isIgnored { k += 1 }
            return k < classes.count ? k : nil
        }
        guard let left = before(index - 1) else { return true }
        let l = classes[left], r = current
        let leftLeft = before(left - 1).map { classes[$0] }
        let rightRight = after(index + 1).map { classes[$0] }
        if l.isAHLetter && r.isAHLetter { return false }                                        // WB5
        if l.isAHLetter && r.isMidLetterQ && rightRight?.isAHLetter == true { return false }    // WB6
        if leftLeft?.isAHLetter == true && l.isMidLetterQ && r.isAHLetter { return false }      // WB7
        if l == .hebrewLetter && r == .singleQuote { return false }                             // WB7a
        if l == .hebrewLetter && r == .doubleQuote && rightRight == .hebrewLetter { return false }  // WB7b
        if leftLeft == .hebrewLetter && l == .doubleQuote && r == .hebrewLetter { return false }    // WB7c
        if l == .numeric && r == .numeric { return false }                                      // WB8
        if l.isAHLetter && r == .numeric { return false }                                       // WB9
        if l == .numeric && r.isAHLetter { return false }                                       // WB10
        if leftLeft == .numeric && l.isMidNumQ && r == .numeric { return false }                // WB11
        if l == .numeric && r.isMidNumQ && rightRight == .numeric { return false }              // WB12
        if l == .katakana && r == .katakana { return false }                                    // WB13
        if (l.isAHLetter || l == .numeric || l == .katakana || l == .extendNumLet) && r == .extendNumLet { return false }  // WB13a
        if l == .extendNumLet && (r.isAHLetter || r == .numeric || r == .katakana) { return false }  // WB13b
        if l == .regionalIndicator && r == .regionalIndicator { return riRun % 2 == 0 }         // WB15, WB16
        return true                                                                             // WB999
    }
}
