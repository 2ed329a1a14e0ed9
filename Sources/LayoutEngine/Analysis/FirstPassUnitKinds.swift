/// What analysis's first pass does with each unit below U+0800 (UTF-8's one- and two-byte
/// units: Latin-1 to Cyrillic, Hebrew and Arabic to NKo), looked up rather than decided by the
/// range tests of `UnitClass.isInertBeyondASCII`, `isInRightToLeftBlocks` and
/// `GraphemeFastPath.isSimple` one after the other (a dozen comparisons a Cyrillic letter).
/// (A table reaching on to Devanagari cost Han's captions, whose units all pass its end's test,
/// more than it saved Devanagari's.)
///
/// The table is made from those same tests, once, at start-up (`ParagraphLayouter.init`): the
/// branches of the first pass that take units past U+07FF stay the tests themselves (printable
/// ASCII is taken before the table). `UnitClassTests` holds the pass with the table to the pass
/// as those branches decide it, for every unit of the range.
enum FirstPassUnitKind: UInt8 {
    /// Nothing here decides: the pass's general notes (ASCII, the C1 controls, the no-break
    /// space, the soft hyphen and the rest of U+0080–U+00AD).
    case general = 0
    /// Inert (`isInertBeyondASCII`) and simple to grapheme breaking: it starts a cluster.
    case simple
    /// Inert, but a grapheme pass must decide its cluster (a combining mark).
    case joining
    /// Of the right-to-left blocks, and simple (or Arabic punctuation): it starts a cluster.
    case rightToLeftSimple
    /// Of the right-to-left blocks, a mark that may join the unit before it.
    case rightToLeftJoining

    /// The first unit past the table.
    static let end: UInt16 = 0x0800

    /// The kind of `unit`, from the first pass's own tests.
    static func of(_ unit: UInt16) -> FirstPassUnitKind {
        if unit < 0x80 { return .general }
        if UnitClass.isInertBeyondASCII(unit) { return GraphemeFastPath.isSimple(unit) ? .simple : .joining }
        if UnitClass.isInRightToLeftBlocks(unit) {
            return GraphemeFastPath.isSimple(unit) || GraphemeFastPath.isArabicPunctuation(unit) ? .rightToLeftSimple : .rightToLeftJoining
        }
        return .general
    }

    /// The kinds of U+0000 to U+07FF, a unit's at its value (the first pass reads it through a
    /// buffer, in `UnitWalks.swift`).
    static let table: [FirstPassUnitKind] = (0..<end).map(of)
}
