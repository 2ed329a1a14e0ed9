/// What the pipeline asks of Unicode's data that the engine does not hold itself: UAX #9's
/// embedding levels, the words of the scripts written without spaces, and hyphenation patterns.
/// The Unicode adapter answers for a program that lays text out (`SystemUnicode` in
/// `LayoutUnicode`: FriBidi, ICU's and libthai's dictionaries, libhyphen), as Skia's paragraph
/// is given an `SkUnicode`; a layouter is made with one (`ParagraphLayouter.unicode`), and its
/// contexts hand it to the stages that ask.
///
/// Every method may be called from any thread at once.
public protocol UnicodeServices: AnyObject, Sendable {
    /// Writes the embedding level of every unit of `range` (one bidi paragraph of `units`, UAX
    /// #9 P1) into `levels` at the same offsets, and returns the paragraph's base level:
    /// `forcedBase` (0 or 1) when given, else from its first strong character (P2–P3).
    func resolveBidiParagraph(_ units: Span<UInt16>, range: Range<Int>, forcedBase: UInt8?,
                              into levels: inout MutableSpan<UInt8>) -> UInt8

    /// Word boundaries strictly inside `run` (Han, kana, Lao, Khmer or Burmese), as offsets in
    /// the run's base array, by dictionary; nil without one (UAX #29's cuts then stay).
    func dictionaryWords(in run: ArraySlice<UInt16>) -> [Int]?

    /// Word ends inside `run` (Thai letters), as offsets from the run's start, by dictionary;
    /// nil without one.
    func thaiWords(in run: ArraySlice<UInt16>) -> [Int]?

    /// The hyphenation patterns of a BCP 47 language ("en-US", "de", "fr-CA"), found and read
    /// once and kept; nil when none covers it.
    func hyphenation(forLanguage language: String) -> (any HyphenationDictionary)?
}

/// One language's hyphenation patterns: where they let a word break.
public protocol HyphenationDictionary: AnyObject, Sendable {
    /// The fewest letters before and after a hyphen the patterns ask for (LEFTHYPHENMIN, ...).
    var leftMinimum: Int { get }
    var rightMinimum: Int { get }
    /// Where the patterns break `word` (lowercase scalars): the counts of scalars before each
    /// hyphen, within the minimums; empty when the word has a character the patterns lack.
    func breaks(in word: [Unicode.Scalar]) -> [Int]
}
