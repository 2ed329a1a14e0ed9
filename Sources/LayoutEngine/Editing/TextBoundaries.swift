import CThai
import CUnibreak
import Synchronization

/// The word, sentence, line and paragraph around an offset, as a double or triple tap selects them:
/// SkParagraph's `getWordBoundary`, TextKit's `doubleClick(at:)`.
///
/// Words are UAX #29's (libunibreak), with Thai, which has no spaces between words, cut by
/// libthai's dictionary. Chinese and Japanese words would need a dictionary too (ICU's break
/// iterator has one, but Debian's ICU cannot be linked beside Foundation's): there every
/// ideograph is a word of its own, as UAX #29 alone has it.
public struct TextBoundaries: Sendable {
    /// Every offset a word starts or ends at, ascending, 0 and the text's length included.
    public let wordBoundaries: [Int]
    /// Every offset a paragraph starts at (after a hard break), ascending, 0 first.
    private let paragraphStarts: [Int]
    /// Every offset a sentence starts or ends at (UAX #29), ascending, 0 and the length included.
    public let sentenceBoundaries: [Int]
    private let length: Int

    public init(text: String, language: String = "") {
        let units = Array(text.utf16)
        length = units.count
        var breaks = [CChar](repeating: 0, count: units.count)
        if !units.isEmpty {
            units.withUnsafeBufferPointer { u in
                breaks.withUnsafeMutableBufferPointer { b in
                    set_wordbreaks_utf16(u.baseAddress, units.count, language, b.baseAddress)
                }
            }
        }
        var boundaries = Set([0, units.count])
        for (index, value) in breaks.enumerated() where value == CChar(WORDBREAK_BREAK) { boundaries.insert(index + 1) }
        Self.cutThai(units, into: &boundaries)
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

    /// libthai's dictionary is one object for the process: loading it costs far more than a
    /// word, and it is used under a lock (its thread safety is not documented).
    nonisolated(unsafe) private static let thai = th_brk_new(nil)
    private static let thaiLock = Mutex(())

    /// Inside each run of Thai letters, the dictionary's word ends replace UAX #29's, which
    /// cut between every letter.
    private static func cutThai(_ units: [UInt16], into boundaries: inout Set<Int>) {
        func isThai(_ u: UInt16) -> Bool { u >= 0x0E01 && u <= 0x0E5B }
        var start = 0
        while start < units.count {
            guard isThai(units[start]) else { start += 1; continue }
            var end = start
            while end < units.count && isThai(units[end]) { end += 1 }
            for offset in (start + 1)..<max(start + 1, end) { boundaries.remove(offset) }
            var wide = units[start..<end].map { wchar_t(Int32($0)) } + [0]
            var positions = [Int32](repeating: 0, count: end - start + 1)
            let found = thaiLock.withLock { _ in
                guard let thai else { return Int32(0) }
                return th_brk_wc_find_breaks(thai, &wide, &positions, positions.count)
            }
            if found <= 0 && thai == nil {
                // No dictionary: UAX #29's cuts stay.
                for offset in (start + 1)..<max(start + 1, end) { boundaries.insert(offset) }
            }
            for position in positions.prefix(Int(max(0, found))) { boundaries.insert(start + Int(position)) }
            start = end
        }
    }
}
