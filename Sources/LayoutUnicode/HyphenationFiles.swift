import LayoutEngine

/// Each language's hyphenation patterns, found among Debian's `hyphen-*` packages by language,
/// read once and kept; libhyphen reads them (`HyphenationPatterns`).
package final class HyphenationFiles: Sendable {
    /// Where Debian's `hyphen-*` packages put their dictionaries.
    package let directory: String
    /// The largest dictionary read (German's, the largest Debian ships, is about 400 KB).
    static let maxBytes = 8 << 20

    private let loaded = Locked<[String: HyphenationPatterns?]>([:])

    package init(directory: String = "/usr/share/hyphen") { self.directory = directory }

    /// The patterns for a BCP 47 language ("en-US", "de", "fr-CA"), loaded on first use and
    /// kept; nil when no installed dictionary covers it.
    package func forLanguage(_ language: String) -> HyphenationPatterns? {
        let key = language.lowercased().replacingOccurrences(of: "_", with: "-")
        if let known = loaded.withLock({ $0[key] }) { return known }
        let found = candidates(key).lazy.compactMap(Self.load).first
        loaded.withLock { $0[key] = .some(found) }
        return found
    }

    /// The files that could hold `language`'s patterns, best first: language and region
    /// ("de_AT"), the language ("de"), the language in its own country ("es_ES", "ru_RU").
    func candidates(_ language: String) -> [String] {
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
    private static func load(_ path: String) -> HyphenationPatterns? {
        guard let bytes = try? RegularFile.read(path, maxBytes: maxBytes), !bytes.isEmpty else { return nil }
        return HyphenationPatterns(bytes: bytes)
    }
}
