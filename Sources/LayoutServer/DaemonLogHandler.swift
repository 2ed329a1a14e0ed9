import Foundation
import Logging

/// The daemon's log lines on stderr. Under systemd (JOURNAL_STREAM names stderr's stream) a
/// line is `<N>message key=value …` with N the syslog priority and no timestamp, since the
/// journal stamps each line itself; elsewhere `2026-11-23T12:00:00Z warning message key=value`.
public struct DaemonLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let journal: Bool

    public init(journal: Bool = DaemonLogHandler.stderrIsJournal) {
        self.journal = journal
    }

    /// systemd sets JOURNAL_STREAM to stderr's device and inode when it is connected to the journal.
    public static var stderrIsJournal: Bool {
        guard let stream = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] else { return false }
        var info = stat()
        guard fstat(STDERR_FILENO, &info) == 0 else { return false }
        return stream == "\(info.st_dev):\(info.st_ino)"
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// syslog(3) priorities, as sd-daemon(3) prefixes read them.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    public func log(event: LogEvent) {
        let line = Self.line(event.level, "\(event.message)", metadata.merging(event.metadata ?? [:]) { $1 }, journal: journal)
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// One line: `<N>message k=v` for the journal, `time level message k=v` elsewhere.
    static func line(_ level: Logger.Level, _ message: String, _ metadata: Logger.Metadata, journal: Bool, at date: Date = Date()) -> String {
        let fields = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\(quoted("\($0.value)"))" }.joined(separator: " ")
        let text = fields.isEmpty ? message : "\(message) \(fields)"
        return journal ? "<\(priority(level))>\(text)\n" : "\(ISO8601DateFormatter().string(from: date)) \(level) \(text)\n"
    }

    /// A value with spaces or quotes in quotes, so a line splits back into its fields.
    static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0.isNewline }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }
}
