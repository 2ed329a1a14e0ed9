/// UAX #29 sentence boundaries: the sentence a triple tap (or TextKit's sentence granularity)
/// selects. libunibreak before version 6 has no sentence breaking, Foundation on Linux does not
/// enumerate sentences, and Debian's ICU cannot be linked beside Foundation's, so the rules are
/// here, over the Sentence_Break property from Debian's unicode-data (`SentenceBreak+Table`),
/// and checked against Unicode's own SentenceBreakTest.txt.
enum SentenceBreak: UInt8 {
    case other, cr, lf, extend, sep, format, sp, lower, upper, oLetter, numeric, aTerm, sContinue, sTerm, close

    init(_ scalar: UInt32) {
        self = SentenceBreak(rawValue: PropertyRanges.value(of: scalar, in: Self.ranges)) ?? .other
    }

    var isParagraphSeparator: Bool { self == .sep || self == .cr || self == .lf }
    var isTerminator: Bool { self == .aTerm || self == .sTerm }
    /// Extend and Format attach to the character before them (SB5).
    var isIgnored: Bool { self == .extend || self == .format }

    /// Every UTF-16 offset a sentence starts or ends at, ascending, 0 and the text's length
    /// included.
    static func boundaries(_ units: some Collection<UInt16>) -> [Int] {
        var offsets: [Int] = []
        var classes: [SentenceBreak] = []
        var offset = 0
        for scalar in Unicode.UTF16.decode(units) {
            offsets.append(offset)
            classes.append(SentenceBreak(scalar))
            offset += scalar.utf16Length
        }
        var result = [0]
        for index in classes.indices.dropFirst() where breaks(before: index, classes) { result.append(offsets[index]) }
        if offset > 0 { result.append(offset) }
        return result
    }

    /// Whether a sentence ends before scalar `index` (rules SB3 to SB11).
    private static func breaks(before index: Int, _ c: [SentenceBreak]) -> Bool {
        let previous = c[index - 1], current = c[index]
        if previous == .cr && current == .lf { return false }            // SB3
        if previous.isParagraphSeparator { return true }                // SB4
        if current.isIgnored { return false }                           // SB5
        // The characters before, Extend and Format skipped (never past a paragraph separator).
        func before(_ i: Int) -> Int? {
            var j = i - 1
            while j >= 0 && c[j].isIgnored {
                if j == 0 || c[j - 1].isParagraphSeparator { return j }
                j -= 1
            }
            return j >= 0 ? j : nil
        }
        guard let last = before(index) else { return false }
        if c[last] == .aTerm && current == .numeric { return false }    // SB6
        if c[last] == .aTerm && current == .upper, let first = before(last), c[first] == .upper || c[first] == .lower {
            return false                                                // SB7
        }
        // SATerm Close* Sp* before the position?
        var k: Int? = last
        var spaces = false
        while let j = k, c[j] == .sp { spaces = true; k = before(j) }
        while let j = k, c[j] == .close { k = before(j) }
        guard let termIndex = k, c[termIndex].isTerminator else { return false }  // SB998
        if c[termIndex] == .aTerm {                                      // SB8
            var j = index
            while j < c.count && !(c[j] == .oLetter || c[j] == .upper || c[j] == .lower || c[j].isParagraphSeparator || c[j].isTerminator) {
                j += 1
            }
            if j < c.count && c[j] == .lower { return false }
        }
        if current == .sContinue || current.isTerminator { return false }                               // SB8a
        if !spaces && (current == .close || current == .sp || current.isParagraphSeparator) { return false }  // SB9
        if current == .sp || current.isParagraphSeparator { return false }                              // SB10
        return true                                                                                      // SB11
    }
}

extension Unicode.UTF16 {
    /// The scalars of UTF-16 units (a lone surrogate read as U+FFFD, one unit long).
    static func decode(_ units: some Collection<UInt16>) -> [UInt32] {
        var scalars: [UInt32] = []
        var iterator = units.makeIterator()
        var decoder = Unicode.UTF16()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar.value)
            case .emptyInput: break loop
            case .error: scalars.append(0xFFFD)
            }
        }
        return scalars
    }
}

extension UInt32 {
    /// A scalar's length in UTF-16 units.
    var utf16Length: Int { self > 0xFFFF ? 2 : 1 }
}
