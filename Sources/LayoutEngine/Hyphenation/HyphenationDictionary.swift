import LayoutUnicode
import Synchronization

/// One language's hyphenation patterns, found among Debian's `hyphen-*` packages by language,
/// read once and kept; libhyphen reads them in the Unicode adapter (`HyphenationPatterns`).
final class HyphenationDictionary: Sendable {
    private let patterns: HyphenationPatterns
    /// The fewest letters before and after a hyphen the patterns ask for (LEFTHYPHENMIN, ...).
    var leftMinimum: Int { patterns.leftMinimum }
    var rightMinimum: Int { patterns.rightMinimum }

    private init(patterns: HyphenationPatterns) { self.patterns = patterns }

    /// Where the patterns break `word` (lowercase scalars): see `HyphenationPatterns.breaks`.
    func breaks(in word: [Unicode.Scalar]) -> [Int] { patterns.breaks(in: word) }

    // MARK: Finding a language's dictionary

    /// Where Debian's `hyphen-*` packages put their dictionaries.
    static let directory = "/usr/share/hyphen"
    /// The largest dictionary read (German's, the largest Debian ships, is about 400 KB).
    static let maxBytes = 8 << 20

    private static let loaded = Mutex<[String: HyphenationDictionary?]>([:])

    /// The dictionary for a BCP 47 language ("en-US", "de", "fr-CA"), loaded on first use and
    /// kept; nil when no installed dictionary covers it.
    static func forLanguage(_ language: String) -> HyphenationDictionary? {
        let key = language.lowercased().replacingOccurrences(of: "_", with: "-")
        if let known = loaded.withLock({ $0[key] }) { return known }
        let found = candidates(key).lazy.compactMap(load).first
        loaded.withLock { $0[key] = .some(found) }
        return found
    }

    /// The files that could hold `language`'s patterns, best first: language and region
    /// ("de_AT"), the language ("de"), the language in its own country ("es_ES", "ru_RU").
    static func candidates(_ language: String) -> [String] {
        let parts = language.split(separator: "-").map(String.init)
        guard let primary = parts.first, !primary.isEmpty, primary.allSatisfy({ $0.isLetter && $0.isASCII }) else { return [] }
        var names: [String] = []
        if let region = parts.dropFirst().first(where: { $0.count == 2 && $0.allSatisfy(\.isLetter) }) {
            names.append("\(primary)_\(region.uppercased())")
        }
        names += [primary, "\(primary)_\(primary.uppercased())"]
        if primary == "en" { names.append("en_US") }
        return names.map { "\(directory)/hyph_\($0).dic" }
    }

    /// Reads a dictionary as the daemon reads every file (regular, under a size cap, never a
    /// FIFO), then hands libhyphen the bytes.
    private static func load(_ path: String) -> HyphenationDictionary? {
        guard let bytes = try? RegularFile.read(path, maxBytes: maxBytes), !bytes.isEmpty,
              let patterns = HyphenationPatterns(bytes: bytes) else { return nil }
        return HyphenationDictionary(patterns: patterns)
    }
}
