import CThai
import CWordDictionary
import LayoutEngine

/// Words of the scripts written without spaces, by dictionary: ICU's (Chinese, Japanese, Lao,
/// Khmer, Burmese, behind `CWordDictionary`'s header that names no ICU type) and libthai's.
package enum DictionaryWords {
    /// ICU's word boundaries strictly inside `run`, as offsets in the run's base array; nil
    /// without ICU's data.
    package static func boundaries(in run: ArraySlice<UInt16>) -> [Int]? {
        var found = [Int32](repeating: 0, count: run.count)
        let count = run.withUnsafeBufferPointer { text in
            found.withUnsafeMutableBufferPointer { found in
                layoutd_dictionary_word_boundaries(text.baseAddress, Int32(text.count), found.baseAddress, Int32(found.count))
            }
        }
        guard count >= 0 else { return nil }
        return found.prefix(Int(count)).map { run.startIndex + Int($0) }
    }

    /// libthai's dictionary is one object for the process: loading it costs far more than a
    /// word, and it is used under a lock (its thread safety is not documented).
    nonisolated(unsafe) private static let thai = th_brk_new(nil)
    private static let thaiLock = Locked(())

    /// libthai's word ends inside `run` (Thai letters), as offsets from the run's start; nil
    /// without its dictionary.
    package static func thaiBreaks(in run: ArraySlice<UInt16>) -> [Int]? {
        var wide = run.map { wchar_t(Int32($0)) } + [0]
        var positions = [Int32](repeating: 0, count: run.count + 1)
        let found = thaiLock.withLock { _ -> Int32? in
            guard let thai else { return nil }
            return th_brk_wc_find_breaks(thai, &wide, &positions, positions.count)
        }
        guard let found else { return nil }
        return positions.prefix(Int(max(0, found))).map(Int.init)
    }
}
