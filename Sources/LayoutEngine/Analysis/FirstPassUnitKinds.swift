/// What analysis's first pass does with each UTF-16 unit past printable ASCII, looked up rather
/// than decided by the range tests of `UnitClass.isInertBeyondASCII`, `isInRightToLeftBlocks`
/// and `GraphemeFastPath.isSimple` one after the other (a dozen comparisons a Cyrillic letter,
/// more an ideograph). The table holds a byte for every unit, as the line-break classes and
/// the itemizer's scripts do for every code point, so that no unit pays a test of where the
/// table ends: one that stopped at U+0800 left Han and Devanagari units to the tests, and
/// reaching further cost Han's captions that end's test.
///
/// The table is made from `of(_:)`, once, at start-up (`ParagraphLayouter.init`), so that each
/// decision is written once. `UnitClassTests` holds the pass to the flags and facts the tests
/// themselves give, for every unit past ASCII.
enum FirstPassUnitKind: UInt8 {
    /// Nothing here decides: the pass's general notes (ASCII, the C1 controls, the no-break
    /// space, the soft hyphen, the separators and the other units no other kind takes).
    case general = 0
    /// Inert (`isInertBeyondASCII`) and simple to grapheme breaking: it starts a cluster.
    case simple
    /// None of the notes, but a grapheme pass must decide its cluster: an inert combining mark,
    /// or half of a surrogate pair.
    case joining
    /// Of the right-to-left blocks, and simple (or Arabic punctuation): it starts a cluster.
    case rightToLeftSimple
    /// Of the right-to-left blocks, a mark that may join the unit before it; or the lead of a
    /// pair in a right-to-left plane's blocks, which joins nothing.
    case rightToLeftJoining

    /// The kind of `unit`, from the first pass's own tests.
    static func of(_ unit: UInt16) -> FirstPassUnitKind {
        if unit < 0x80 { return .general }
        if UnitClass.isInertBeyondASCII(unit) { return GraphemeFastPath.isSimple(unit) ? .simple : .joining }
        if UnitClass.isInRightToLeftBlocks(unit) {
            return GraphemeFastPath.isSimple(unit) || GraphemeFastPath.isArabicPunctuation(unit) ? .rightToLeftSimple : .rightToLeftJoining
        }
        // Half of a pair (an emoji's two units among them): the general notes would find nothing
        // but that it is not simple, and for the leads of the right-to-left planes' blocks that
        // the text may be right to left.
        if UTF16.isSurrogate(unit) { return UnitClass.mayBeRTL(unit) ? .rightToLeftJoining : .joining }
        return .general
    }

    /// The kind of every UTF-16 unit, at its value (the first pass reads it through a buffer, in
    /// `UnitWalks.swift`).
    static let table: [FirstPassUnitKind] = (UInt16.min...UInt16.max).map(of)
}
