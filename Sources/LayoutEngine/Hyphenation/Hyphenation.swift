/// Breaking words with a hyphen at line ends, by each span's language (CSS `hyphens: auto`,
/// Android's `hyphenationFrequency`), with the Unicode services' patterns (Debian's, through
/// libhyphen, in the Unicode adapter).
public struct Hyphenation: Equatable, Sendable {
    /// Words shorter than this many characters are never broken (CSS `hyphenate-limit-chars`).
    public var minWordLength: Int
    /// The fewest characters before and after a hyphen; 0 takes the patterns' own (2 and 2 or 3).
    public var minBefore: Int
    public var minAfter: Int
    /// Hyphenated lines in a row at most (CSS `hyphenate-limit-lines`); 0 is no limit.
    public var maxConsecutiveLines: Int

    public init(minWordLength: Int = 5, minBefore: Int = 0, minAfter: Int = 0, maxConsecutiveLines: Int = 2) {
        self.minWordLength = minWordLength
        self.minBefore = minBefore
        self.minAfter = minAfter
        self.maxConsecutiveLines = maxConsecutiveLines
    }

    /// The language a style without one is hyphenated in.
    public static let defaultLanguage = "en-US"

    /// Where the words of `units` may break with a hyphen: the offsets a line may end before.
    /// `language(offset)` is the language of the text at an offset; a word takes its first
    /// letter's. A word is a run of letters (and the marks on them); words with a character
    /// the dictionary lacks, or a letter whose lowercase is not one character, are left whole.
    /// Offsets are grapheme boundaries where no other break is (`flags`).
    /// `range` limits the search to part of the text (one word, as greedy breaking asks).
    func points(in units: Span<UInt16>, range: Range<Int>? = nil, flags: ContiguousArray<UnitFlags>,
                dictionaries: any UnicodeServices, language: (Int) -> String) -> [Int] {
        var points: [Int] = []
        var word: [Unicode.Scalar] = []
        var offsets: [Int] = []
        var lastTag: String?
        var lastDictionary: (any HyphenationDictionary)?
        func flush() {
            defer { word.removeAll(keepingCapacity: true); offsets.removeAll(keepingCapacity: true) }
            guard word.count >= max(minWordLength, 2), let first = offsets.first else { return }
            let tag = language(first)
            // A paragraph's words are nearly always in one language: its dictionary is looked up once.
            if tag != lastTag {
                lastTag = tag
                lastDictionary = dictionaries.hyphenation(forLanguage: tag.isEmpty ? Self.defaultLanguage : tag)
            }
            guard let dictionary = lastDictionary else { return }
            var lowered: [Unicode.Scalar] = []
            lowered.reserveCapacity(word.count)
            for scalar in word {
                // ASCII by arithmetic; the rest by Unicode's mapping, which makes a string.
                if scalar.value < 0x80 {
                    lowered.append(scalar.value >= 0x41 && scalar.value <= 0x5A ? Unicode.Scalar(UInt8(scalar.value + 0x20)) : scalar)
                    continue
                }
                let lower = scalar.properties.lowercaseMapping.unicodeScalars
                guard lower.count == 1, let only = lower.first else { return }
                lowered.append(only)
            }
            for before in dictionary.breaks(in: lowered) {
                guard before >= max(minBefore, 1), word.count - before >= max(minAfter, 1) else { continue }
                let offset = offsets[before]
                guard flags[offset].contains(.graphemeStart), !flags[offset].contains(.breakBefore) else { continue }
                points.append(offset)
            }
        }
        var index = range?.lowerBound ?? 0
        let end = range?.upperBound ?? units.count
        while index < end {
            let start = index
            var scalar = Unicode.Scalar(units[index]) ?? "\u{FFFD}"
            index += 1
            if UTF16.isLeadSurrogate(units[start]), index < end, UTF16.isTrailSurrogate(units[index]) {
                scalar = Unicode.Scalar(SurrogatePair.codePoint(lead: units[start], trail: units[index])) ?? scalar
                index += 1
            }
            if Self.isLetter(scalar) || (!word.isEmpty && scalar.value >= 0x300 && scalar.properties.generalCategory == .nonspacingMark) {
                word.append(scalar)
                offsets.append(start)
            } else {
                flush()
            }
        }
        flush()
        return points
    }
}

extension Hyphenation {
    /// A letter, for finding words: ASCII by range, the rest by Unicode's Alphabetic property.
    @inline(__always)
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x80 { return UnitClass.isASCIILetter(value) }
        return scalar.properties.isAlphabetic
    }
}

/// The hyphen points of one word, found when greedy breaking reaches it: a line's break is only
/// ever inside the word that overflows it, so most words are never looked up.
struct WordHyphens {
    /// The points inside the word spanning a range, ascending, each with its hyphen's width.
    let points: (Range<Int>) -> [(offset: Int, width: Double)]
    /// Hyphenated lines in a row at most; 0 is no limit.
    let maxConsecutive: Int
}

/// Where a line may end inside a word with a hyphen added: the hyphenation points and the soft
/// hyphens (U+00AD) of a paragraph, with the hyphen's width at each.
struct HyphenPoints {
    /// Unit offsets, ascending: a line may end before each, and a hyphen is then drawn.
    var offsets: [Int] = []
    /// The hyphen's width at each offset, points.
    var widths: [Double] = []
    /// Hyphenated lines in a row at most; 0 is no limit.
    var maxConsecutive = 0

    var isEmpty: Bool { offsets.isEmpty }

    /// The first point at or after `offset`.
    func index(atOrAfter offset: Int) -> Int {
        ShapedParagraph.firstIndex(offsets.count) { offsets[$0] >= offset }
    }
}
