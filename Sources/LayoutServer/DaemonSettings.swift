import Foundation
import LayoutEngine
import LayoutRender
import Logging
import LayoutUnicode

/// Everything `layoutd` is told at start-up, from its defaults, then its configuration file, then
/// its command line (each later one wins; a list given on the command line replaces the file's).
/// Every command-line option has a key of the same name in the file, and the other way round.
public struct DaemonSettings: Sendable, Equatable {
    public var socket = ServerConfiguration.defaultSocketPath
    /// Font files and directories to load.
    public var fonts: [String] = []
    /// Families (or fontconfig aliases such as `sans-serif`) whose files fontconfig finds.
    public var fontFamilies: [String] = []
    public var noDefaultFonts = false
    /// The family for styles that name none; nil when nobody chose it, and then a set without
    /// Noto Sans quietly uses its first family instead of refusing to start.
    public var defaultFamily: String?
    /// Families tried in order for text the requested family cannot draw; nil: the built-in order.
    public var fallback: [String]?
    public var maxFrameBytes = 4 << 20
    public var maxReplyBytes = 32 << 20
    public var maxText = 262_144
    public var requestBudgetMs = 5_000
    public var idleTimeout: Double = 300
    public var frameTimeout: Double = 30
    public var reloadTimeout: Double = 60
    /// Documents (editing sessions) one connection may keep open, and how long one may sit unused.
    public var maxDocuments = DocumentLimits().maxPerConnection
    public var documentIdleTimeout = DocumentLimits().idleSeconds
    /// Documents of every connection together; past it, each user up to its fair share.
    public var maxServerDocuments = DocumentLimits().maxTotal
    /// Client fonts and their bytes, and bytes of frames still arriving, on every connection
    /// together; past them each user up to its fair share.
    public var maxServerFonts = ServerConfiguration.defaultMaxServerFonts
    public var maxServerFontBytes = ServerConfiguration.defaultMaxServerFontBytes
    public var maxPartialFrameBytes = ServerConfiguration.defaultMaxPartialFrameBytes
    /// Variable font instances all users' requests may make together; past it each user up to
    /// its fair share (`FontInstances`).
    public var maxServerFontInstances = FontRegistry.defaultInstanceCapacity
    public var maxPicturePixels = Renderer.defaultMaxPixels
    /// Shaped words and runs kept per generation (at most twice as many are held); 0: no cache.
    public var shapingCacheEntries = 20_000
    public var maxConnections = 1_024
    public var maxConnectionsPerUser = 256
    public var maxInFlight = 64
    public var maxUnsentBytes = 1 << 20
    public var maxBatchItems = ServerConfiguration.defaultMaxBatchItems
    public var batchSliceMicroseconds = ServerConfiguration.defaultBatchSliceMicroseconds
    public var batchWorkers = 0
    public var threads = UsableCores.count
    public var tagStyles: String?
    public var metricsListen: String?
    public var logLevel: Logger.Level = .info

    public init() {}

    /// The largest configuration file read: a few kilobytes is a long one.
    public static let maxConfigBytes = 1 << 20

    /// The layouter these settings make: on `fonts`, with the text limit and the shaping cache.
    public func layouter(fonts: FontRegistry) throws(ConfigurationError) -> ParagraphLayouter {
        guard (0...10_000_000).contains(shapingCacheEntries) else {
            throw ConfigurationError("shaping-cache-entries must be in 0...10000000")
        }
        return ParagraphLayouter(fonts: fonts, cache: shapingCacheEntries == 0 ? nil : ShapingCache(capacity: shapingCacheEntries),
                                 maxTextLength: maxText)
    }

    /// The file a service reads when `--config` names none; a missing file there is no error.
    public static let defaultConfigPath = "/etc/layoutd/layoutd.conf"

    /// Applies every entry of `file` in order; the first unknown key or bad value is an error
    /// naming the file, the line and the key.
    public mutating func apply(_ file: ConfigFile) throws(ConfigurationError) {
        var listsSeen: Set<String> = []
        for entry in file.entries {
            guard let key = Self.keys.first(where: { $0.name == entry.key }) else {
                let hint = Self.closestKey(to: entry.key).map { " (did you mean \($0)?)" } ?? ""
                throw ConfigurationError("\(file.path):\(entry.line): unknown key \"\(entry.key)\"\(hint); "
                    + "the keys are layoutd's long options: \(Self.keys.map(\.name).joined(separator: ", "))")
            }
            // A list key's first line in the file replaces the default; later lines add to it.
            let first = listsSeen.insert(key.name).inserted
            do {
                try key.apply(&self, entry.value, first)
            } catch {
                throw ConfigurationError("\(file.path):\(entry.line): \(key.name): \(error)")
            }
        }
    }

    /// What the server runs with; ranges are checked by `ServerConfiguration.validate`.
    public var serverConfiguration: ServerConfiguration {
        var configuration = ServerConfiguration(
            socketPath: socket, maxFrameBytes: maxFrameBytes, maxReplyBytes: maxReplyBytes, maxTextUnits: maxText,
            workerThreads: threads, maxInFlightPerConnection: maxInFlight, maxUnsentReplyBytes: maxUnsentBytes,
            requestBudgetMilliseconds: requestBudgetMs, idleTimeoutSeconds: idleTimeout, frameTimeoutSeconds: frameTimeout,
            maxConnections: maxConnections, maxConnectionsPerUser: maxConnectionsPerUser,
            fontPaths: fonts, loadDefaultFonts: !noDefaultFonts)
        configuration.reloadTimeoutSeconds = reloadTimeout
        configuration.maxPicturePixels = maxPicturePixels
        configuration.documentLimits.maxPerConnection = maxDocuments
        configuration.documentLimits.idleSeconds = documentIdleTimeout
        configuration.documentLimits.maxTotal = maxServerDocuments
        configuration.maxServerFonts = maxServerFonts
        configuration.maxServerFontBytes = maxServerFontBytes
        configuration.maxPartialFrameBytes = maxPartialFrameBytes
        configuration.maxServerFontInstances = maxServerFontInstances
        configuration.maxBatchItems = maxBatchItems
        configuration.batchSliceMicroseconds = batchSliceMicroseconds
        configuration.batchWorkers = batchWorkers
        return configuration
    }

    /// A key of the file: its name (the long option's) and how a value sets it. `first` is
    /// whether this is the key's first line, so a list starts afresh rather than adding to the default.
    struct Key: Sendable {
        let name: String
        let apply: @Sendable (inout DaemonSettings, String, _ first: Bool) throws -> Void
    }

    static let keys: [Key] = [
        Key(name: "socket") { s, v, _ in s.socket = try nonEmpty(v) },
        Key(name: "font") { s, v, first in s.fonts = (first ? [] : s.fonts) + [try nonEmpty(v)] },
        Key(name: "font-family") { s, v, first in s.fontFamilies = (first ? [] : s.fontFamilies) + [try nonEmpty(v)] },
        Key(name: "default-fonts") { s, v, _ in s.noDefaultFonts = !(try bool(v)) },
        Key(name: "no-default-fonts") { s, v, _ in s.noDefaultFonts = try bool(v) },
        Key(name: "default-family") { s, v, _ in s.defaultFamily = try nonEmpty(v) },
        // One family per line, or several on one line separated by commas.
        Key(name: "fallback") { s, v, first in s.fallback = (first ? [] : s.fallback ?? []) + (try families(v)) },
        Key(name: "max-frame-bytes") { s, v, _ in s.maxFrameBytes = try int(v) },
        Key(name: "max-reply-bytes") { s, v, _ in s.maxReplyBytes = try int(v) },
        Key(name: "max-picture-pixels") { s, v, _ in s.maxPicturePixels = try int(v) },
        Key(name: "shaping-cache-entries") { s, v, _ in s.shapingCacheEntries = try int(v) },
        Key(name: "max-text") { s, v, _ in s.maxText = try int(v) },
        Key(name: "request-budget-ms") { s, v, _ in s.requestBudgetMs = try int(v) },
        Key(name: "idle-timeout") { s, v, _ in s.idleTimeout = try seconds(v) },
        Key(name: "frame-timeout") { s, v, _ in s.frameTimeout = try seconds(v) },
        Key(name: "reload-timeout") { s, v, _ in s.reloadTimeout = try seconds(v) },
        Key(name: "max-documents") { s, v, _ in s.maxDocuments = try int(v) },
        Key(name: "max-server-documents") { s, v, _ in s.maxServerDocuments = try int(v) },
        Key(name: "max-server-fonts") { s, v, _ in s.maxServerFonts = try int(v) },
        Key(name: "max-server-font-bytes") { s, v, _ in s.maxServerFontBytes = try int(v) },
        Key(name: "max-partial-frame-bytes") { s, v, _ in s.maxPartialFrameBytes = try int(v) },
        Key(name: "max-server-font-instances") { s, v, _ in s.maxServerFontInstances = try int(v) },
        Key(name: "document-idle-timeout") { s, v, _ in s.documentIdleTimeout = try seconds(v) },
        Key(name: "max-connections") { s, v, _ in s.maxConnections = try int(v) },
        Key(name: "max-connections-per-user") { s, v, _ in s.maxConnectionsPerUser = try int(v) },
        Key(name: "max-in-flight") { s, v, _ in s.maxInFlight = try int(v) },
        Key(name: "max-unsent-bytes") { s, v, _ in s.maxUnsentBytes = try int(v) },
        Key(name: "max-batch-items") { s, v, _ in s.maxBatchItems = try int(v) },
        Key(name: "batch-slice-us") { s, v, _ in s.batchSliceMicroseconds = try int(v) },
        Key(name: "batch-workers") { s, v, _ in s.batchWorkers = try int(v) },
        Key(name: "threads") { s, v, _ in s.threads = try int(v) },
        Key(name: "tag-styles") { s, v, _ in s.tagStyles = try nonEmpty(v) },
        Key(name: "metrics-listen") { s, v, _ in s.metricsListen = try nonEmpty(v) },
        Key(name: "log-level") { s, v, _ in s.logLevel = try logLevel(v) },
    ]

    public static var keyNames: [String] { keys.map(\.name) }

    public static func logLevel(_ text: String) throws(ConfigurationError) -> Logger.Level {
        guard let level = Logger.Level(rawValue: text) else {
            throw ConfigurationError("must be one of trace, debug, info, notice, warning, error, critical; got \"\(text)\"")
        }
        return level
    }

    /// Family names separated by commas, as `fallback` takes them.
    public static func families(_ text: String) throws(ConfigurationError) -> [String] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map(\.trimmingSpaces)
        guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
            throw ConfigurationError("expected family names separated by commas, got \"\(text)\"")
        }
        return names
    }

    private static func nonEmpty(_ text: String) throws(ConfigurationError) -> String {
        guard !text.isEmpty else { throw ConfigurationError("the value is empty") }
        return text
    }

    private static func int(_ text: String) throws(ConfigurationError) -> Int {
        guard let value = Int(text.replacingOccurrences(of: "_", with: "")) else {
            throw ConfigurationError("\"\(text)\" is not a whole number")
        }
        return value
    }

    private static func seconds(_ text: String) throws(ConfigurationError) -> Double {
        guard let value = Double(text), value.isFinite else { throw ConfigurationError("\"\(text)\" is not a number of seconds") }
        return value
    }

    private static func bool(_ text: String) throws(ConfigurationError) -> Bool {
        switch text.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw ConfigurationError("\"\(text)\" is not true or false")
        }
    }

    /// The known key nearest to a misspelt one, if it is near enough to be what was meant.
    static func closestKey(to key: String) -> String? {
        if let longer = keys.first(where: { $0.name.hasPrefix(key) && key.count >= 3 }) { return longer.name }
        let scored = keys.map { ($0.name, editDistance(key, $0.name)) }.min { $0.1 < $1.1 }
        guard let (name, distance) = scored, distance <= max(2, key.count / 4) else { return nil }
        return name
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        // One row of the Levenshtein table at a time: row i holds the distances from a's first i.
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1]
            for j in b.indices {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
