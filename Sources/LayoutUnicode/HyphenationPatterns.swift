import CHyphen
import Glibc

/// One language's hyphenation patterns (the OpenOffice/TeX patterns of Debian's `hyphen-*`
/// packages) read by libhyphen, and where they let a word break. `HyphenationFiles`
/// finds and reads a language's file and keeps these; the engine sees them as a `HyphenationDictionary`.
///
/// Loaded patterns are only read: libhyphen's matching keeps its state on the caller's stack,
/// so one set serves every thread.
package final class HyphenationPatterns: @unchecked Sendable {
    private let dictionary: UnsafeMutablePointer<HyphenDict>
    /// Converts a word from UTF-8 to the dictionary's charset; nil for a UTF-8 dictionary.
    private let charset: String?
    /// The fewest letters before and after a hyphen the patterns ask for (LEFTHYPHENMIN, ...).
    package let leftMinimum: Int
    package let rightMinimum: Int

    /// The patterns in a `.dic` file's bytes; nil when libhyphen cannot read them.
    package convenience init?(bytes: [UInt8]) {
        var copy = bytes
        let loaded = copy.withUnsafeMutableBytes { buffer -> UnsafeMutablePointer<HyphenDict>? in
            guard let file = fmemopen(buffer.baseAddress, buffer.count, "r") else { return nil }
            defer { fclose(file) }
            return hnj_hyphen_load_file(file)
        }
        guard let loaded else { return nil }
        self.init(dictionary: loaded)
    }

    private init(dictionary: UnsafeMutablePointer<HyphenDict>) {
        self.dictionary = dictionary
        let cset = withUnsafeBytes(of: dictionary.pointee.cset) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        charset = dictionary.pointee.utf8 != 0 || cset.uppercased() == "UTF-8" ? nil : cset
        leftMinimum = max(Int(dictionary.pointee.lhmin), 2)
        rightMinimum = max(Int(dictionary.pointee.rhmin), 2)
    }

    deinit { hnj_hyphen_free(dictionary) }

    /// Where the patterns break `word` (lowercase scalars): the counts of scalars before each
    /// hyphen, within the dictionary's minimums; empty when the word has a character the
    /// dictionary's charset lacks. Only standard hyphenation: a break that changes the spelling
    /// (old German "ck" to "k-k", Hungarian's doubled consonants) is not taken.
    package func breaks(in word: [Unicode.Scalar]) -> [Int] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(word.count * 2)
        if let charset {
            for scalar in word {
                guard let encoded = Self.convert(Array(String(Character(scalar)).utf8), to: charset) else { return [] }
                bytes += encoded
            }
        } else {
            // UTF-8 straight from the scalars: no string made per letter.
            for scalar in word { UTF8.encode(scalar) { bytes.append($0) } }
        }
        guard bytes.count < 256 else { return [] }
        // libhyphen indexes its answers by character: a UTF-8 dictionary's matcher skips the
        // continuation bytes itself, and in a one-byte charset a byte is a character.
        var hyphens = [CChar](repeating: 0, count: bytes.count + 5)
        var rep: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var pos: UnsafeMutablePointer<Int32>?
        var cut: UnsafeMutablePointer<Int32>?
        // NUL-terminated: libhyphen searches the word with strstr (its NOHYPHEN list).
        let terminated = bytes + [0]
        let status = terminated.withUnsafeBufferPointer { word in
            word.withMemoryRebound(to: CChar.self) {
                hnj_hyphen_hyphenate2(dictionary, $0.baseAddress, Int32(bytes.count), &hyphens, nil, &rep, &pos, &cut)
            }
        }
        defer {
            if let rep {
                for i in 0..<bytes.count { free(rep[i]) }
                free(rep)
            }
            free(pos)
            free(cut)
        }
        guard status == 0 else { return [] }
        var breaks: [Int] = []
        for index in 0..<(word.count - 1) where hyphens[index] & 1 == 1 {
            if let rep, rep[index] != nil { continue }  // a spelling change
            let before = index + 1
            if before >= leftMinimum && word.count - before >= rightMinimum { breaks.append(before) }
        }
        return breaks
    }

    /// `utf8` in `charset` through iconv, or nil when the charset lacks it.
    private static func convert(_ utf8: [UInt8], to charset: String) -> [UInt8]? {
        let converter = iconv_open(charset, "UTF-8")
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var input = utf8.map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: 8)
        var inLeft = input.count, outLeft = output.count
        let done = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
                var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress
                return iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
            }
        }
        guard done != -1, inLeft == 0 else { return nil }
        return output.prefix(output.count - outLeft).map { UInt8(bitPattern: $0) }
    }
}
