/// The word, sentence, line and paragraph around an offset, as a double or triple tap selects them:
/// SkParagraph's `getWordBoundary`, TextKit's `doubleClick(at:)`.
///
/// Words are UAX #29's (`WordBreak`). The scripts written without spaces between words need a
/// dictionary, which the Unicode services hold: Thai is cut by libthai's; Chinese, Japanese, Lao,
/// Khmer and Burmese by ICU's (its word break iterator), where UAX #29 alone makes every
/// ideograph a word and a run of Lao or Khmer one word.
public struct TextBoundaries: Sendable {
    /// Every offset a word starts or ends at, ascending, 0 and the text's length included.
    public let wordBoundaries: [Int]
    /// Every offset a paragraph starts at (after a hard break), ascending, 0 first.
    private let paragraphStarts: [Int]
    /// Every offset a sentence starts or ends at (UAX #29), ascending, 0 and the length included.
    public let sentenceBoundaries: [Int]
    private let length: Int

    /// Words are UAX #29's rules as written, with no tailoring by language; the dictionary cuts
    /// go by script, by the dictionaries of `unicode`.
    public init(text: String, unicode: any UnicodeServices) {
        let units = Array(text.utf16)
        length = units.count
        var boundaries = Set(WordBreak.boundaries(units))
        Self.cutThai(units, dictionary: unicode, into: &boundaries)
        Self.cutByDictionary(units, dictionary: unicode, into: &boundaries)
        wordBoundaries = boundaries.sorted()
        var starts = [0]
        for (index, unit) in units.enumerated() where UnitClass.isHardBreak(unit) {
            // CR LF is one break: the paragraph starts after the LF.
            if unit == 0x0D, index + 1 < units.count, units[index + 1] == 0x0A { continue }
            starts.append(index + 1)
        }
        paragraphStarts = starts
        sentenceBoundaries = SentenceBreak.boundaries(units)
    }

    /// The word around `offset`: the segment between the word boundaries before and after it
    /// (at the text's end, the last one). Spaces and punctuation between words are segments of
    /// their own, as a double tap on them selects them.
    public func word(around offset: Int) -> Range<Int> {
        segment(around: offset, in: wordBoundaries)
    }

    /// The sentence around `offset` (UAX #29: its terminator, closing punctuation and the spaces
    /// after them included; at the text's end, the last one).
    public func sentence(around offset: Int) -> Range<Int> {
        segment(around: offset, in: sentenceBoundaries)
    }

    /// The paragraph around `offset`, its hard break included.
    public func paragraph(around offset: Int) -> Range<Int> {
        segment(around: offset, in: paragraphStarts + [length])
    }

    private func segment(around offset: Int, in bounds: [Int]) -> Range<Int> {
        guard length > 0 else { return 0..<0 }
        let o = min(max(0, offset), length - 1)
        var low = 0, high = bounds.count - 1
        while low < high {  // the last bound <= o
            let middle = (low + high + 1) / 2
            if bounds[middle] <= o { low = middle } else { high = middle - 1 }
        }
        var end = low + 1
        while end < bounds.count && bounds[end] <= bounds[low] { end += 1 }
        return bounds[low]..<(end < bounds.count ? bounds[end] : length)
    }

    /// Units of the scripts ICU's dictionaries cut: Han (with its iteration marks and the
    /// ideographs past the BMP, as surrogates), kana, Lao, Khmer and Burmese.
    static func needsDictionary(_ u: UInt16) -> Bool {
        switch u {
        case 0x0E80...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x19E0...0x19FF: return true  // Lao, Myanmar, Khmer
        case 0x3005...0x3007, 0x3021...0x3029, 0x303B: return true  // 々〆〇, Hangzhou numerals, 〻
        case 0x3041...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return true  // kana, small and half-width
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF: return true  // ideographs
        case 0xD840...0xD8BF: return true  // the lead of an ideograph in planes 2 and 3
        default: return false
        }
    }

    /// Inside each run of those scripts, ICU's word ends replace UAX #29's. Without ICU's data
    /// UAX #29's cuts stay.
    private static func cutByDictionary(_ units: [UInt16], dictionary: any UnicodeServices, into boundaries: inout Set<Int>) {
        var start = 0
        while start < units.count {
            guard needsDictionary(units[start]) else { start += 1; continue }
            var end = start + 1
            while end < units.count && (needsDictionary(units[end]) || UTF16.isTrailSurrogate(units[end])) { end += 1 }
            if let found = dictionary.dictionaryWords(in: units[start..<end]) {
                for offset in (start + 1)..<end { boundaries.remove(offset) }
                for boundary in found { boundaries.insert(boundary) }
            }
            start = end
        }
    }

    /// Inside each run of Thai letters, libthai's word ends replace UAX #29's, which cut
    /// between every letter (without its dictionary, UAX #29's cuts stay).
    private static func cutThai(_ units: [UInt16], dictionary: any UnicodeServices, into boundaries: inout Set<Int>) {
        func isThai(_ u: UInt16) -> Bool { u >= 0x0E01 && u <= 0x0E5B }
        var start = 0
        while start < units.count {
            guard isThai(units[start]) else { start += 1; continue }
            var end = start
            while end < units.count && isThai(units[end]) { end += 1 }
            if let breaks = dictionary.thaiWords(in: units[start..<end]) {
                for offset in (start + 1)..<max(start + 1, end) { boundaries.remove(offset) }
                for position in breaks { boundaries.insert(start + position) }
            }
            start = end
        }
    }
}
