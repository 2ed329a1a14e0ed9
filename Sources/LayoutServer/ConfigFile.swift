import Foundation

/// The daemon's configuration file (`/etc/layoutd/layoutd.conf`): one `key = value` per line,
/// `#` starts a comment line, blank lines are ignored. The keys are the long options of `layoutd`
/// without their dashes; a key that takes a list (`font`, `font-family`, `fallback`) may repeat.
///
/// Hand-written rather than swift-configuration's providers: an operator's typo must stop the
/// daemon with the file, the line and the key named (swift-configuration ignores keys nobody
/// reads), and the format stays the one a Debian conffile and `systemd` users already know.
public struct ConfigFile: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var value: String
        public var line: Int
    }

    /// Where the file came from, for error messages.
    public var path: String
    public var entries: [Entry]

    public init(path: String, text: String) throws(ConfigurationError) {
        self.path = path
        var entries: [Entry] = []
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigurationError("\(path):\(offset + 1): expected key = value, got \"\(line)\"")
            }
            let key = line[..<equals].trimmingSpaces
            guard !key.isEmpty else { throw ConfigurationError("\(path):\(offset + 1): a value with no key") }
            var value = line[line.index(after: equals)...].trimmingSpaces
            // A value may be quoted to keep its outer spaces or a leading '#'.
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            entries.append(Entry(key: key, value: value, line: offset + 1))
        }
        self.entries = entries
    }
}

extension StringProtocol {
    /// Without the spaces, tabs and carriage returns (a file written on Windows) around it.
    var trimmingSpaces: String { trimmingCharacters(in: CharacterSet(charactersIn: " \t\r")) }
}
