import ArgumentParser
import Dispatch
import Foundation
import LayoutEngine
import LayoutServer
import LayoutWire
import Logging

/// The daemon: loads fonts once, then serves layout requests on a Unix socket until SIGTERM.
@main
struct LayoutDaemon: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layoutd",
        abstract: "Text layout daemon: protobuf requests over a Unix socket, glyph positions back.",
        version: LayoutdVersion.current)

    @Option(help: "Unix socket to listen on (ignored under systemd socket activation).")
    var socket: String = ServerConfiguration.defaultSocketPath

    @Option(name: .customLong("font"), help: "A font file or a directory of fonts to load; repeatable.")
    var fonts: [String] = []

    @Flag(help: "Load only the fonts named with --font.")
    var noDefaultFonts = false

    @Option(help: "Family used when a request names none.")
    var defaultFamily = "Noto Sans"

    @Option(help: "Largest request frame in bytes (at most 16 MiB).")
    var maxFrameBytes = 4 << 20

    @Option(help: "Largest reply body in bytes; a larger reply becomes a RESOURCE_EXHAUSTED error.")
    var maxReplyBytes = 32 << 20

    @Option(help: "Longest text a request may carry, in UTF-16 code units.")
    var maxText = 262_144

    @Option(help: "Milliseconds one request may hold a worker before DEADLINE_EXCEEDED.")
    var requestBudgetMs = 5_000

    @Option(help: "Seconds an idle connection is kept open.")
    var idleTimeout: Double = 300

    @Option(help: "Seconds a frame may take to arrive, from its first byte to its last.")
    var frameTimeout: Double = 30

    @Option(help: "Connections open at once, from all users.")
    var maxConnections = 1_024

    @Option(help: "Connections open at once from one user.")
    var maxConnectionsPerUser = 256

    @Option(help: "Requests in flight on one connection before the daemon stops reading from it.")
    var maxInFlight = 64

    @Option(help: "Reply bytes waiting for a client that does not read before the daemon stops reading from it.")
    var maxUnsentBytes = 1 << 20

    @Option(help: "Layout worker threads (default: one per core).")
    var threads = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Image-tag styles in the JSON form of data/tag-styles.json, for requests that carry no table (default: the shipped table).")
    var tagStyles: String?

    @Option(help: "Serve Prometheus metrics over HTTP (GET /metrics) at HOST:PORT, a loopback address only (127.0.0.1:9464).")
    var metricsListen: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    func run() throws {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical; got \"\(logLevel)\"")
        }
        var logger = Logger(label: "layoutd") { _ in DaemonLogHandler() }
        logger.logLevel = level
        let started = Date()
        let (registry, tagTable) = try Self.loadFontsAndStyles(fonts: fonts, noDefaultFonts: noDefaultFonts, defaultFamily: defaultFamily,
                                                               tagStyles: tagStyles, logger: logger)
        logger.info("fonts loaded", metadata: ["faces": "\(registry.fonts.count)",
                                               "ms": "\(Int(saturating: Date().timeIntervalSince(started) * 1000))"])
        var configuration = ServerConfiguration(
            socketPath: socket, maxFrameBytes: maxFrameBytes, maxReplyBytes: maxReplyBytes, maxTextUnits: maxText,
            workerThreads: threads, maxInFlightPerConnection: maxInFlight, maxUnsentReplyBytes: maxUnsentBytes,
            requestBudgetMilliseconds: requestBudgetMs, idleTimeoutSeconds: idleTimeout, frameTimeoutSeconds: frameTimeout,
            maxConnections: maxConnections, maxConnectionsPerUser: maxConnectionsPerUser,
            fontPaths: fonts, loadDefaultFonts: !noDefaultFonts)
        configuration.tagStyles = tagTable
        configuration.maxConnections = DescriptorLimit.fit(connections: configuration.maxConnections, logger: logger)
        let layouter = ParagraphLayouter(fonts: registry, maxTextLength: maxText)
        // A reload reads the same font paths and style file again: files added, changed or
        // removed since start-up are what it picks up.
        let (fontArguments, noDefaults, family, styles, maxTextUnits) = (fonts, noDefaultFonts, defaultFamily, tagStyles, maxText)
        let reloadLogger = logger
        let server = try LayoutServer(configuration: configuration, layouter: layouter, logger: logger, loader: {
            let (registry, table) = try Self.loadFontsAndStyles(fonts: fontArguments, noDefaultFonts: noDefaults, defaultFamily: family,
                                                                tagStyles: styles, logger: reloadLogger)
            return (ParagraphLayouter(fonts: registry, maxTextLength: maxTextUnits), table)
        })
        // A write to a client that left must be an error on that connection, not a signal that
        // ends the process. SIGHUP reloads the fonts and tag styles (systemctl reload layoutd).
        signal(SIGPIPE, SIG_IGN)
        let hangup = Self.onHangup { server.reload() }
        let signals = Self.onTermination { server.shutdown() }
        let metricsAddress = try metricsListen.map { text in
            do { return try MetricsListener.parse(text) } catch { throw ValidationError("\(error)") }
        }
        try server.start()
        if let metricsAddress { try server.startMetrics(host: metricsAddress.host, port: metricsAddress.port) }
        server.wait()
        withExtendedLifetime((signals, hangup)) {}
        logger.info("layoutd stopped")
    }

    /// The fonts (the default set unless `noDefaultFonts`, then every `--font` path) and the tag
    /// styles (`--tag-styles`, else the shipped table), as start-up and every reload read them.
    static func loadFontsAndStyles(fonts: [String], noDefaultFonts: Bool, defaultFamily: String, tagStyles: String?,
                                   logger: Logger) throws -> (FontRegistry, TagStyleTable) {
        let paths = (noDefaultFonts ? [] : DefaultFonts.installedPaths) + (try fonts.flatMap(Self.fontFiles))
        let registry = try FontRegistry.load(paths: paths, defaultFamily: defaultFamily)
        for problem in registry.problems { logger.warning("font skipped", metadata: ["why": "\(problem)"]) }
        guard let tagStyles else { return (registry, .standard) }
        do {
            let table = try TagStyleTable(json: [UInt8](Data(contentsOf: URL(fileURLWithPath: tagStyles))))
            logger.info("tag styles loaded", metadata: ["file": "\(tagStyles)"])
            return (registry, table)
        } catch {
            throw ValidationError("--tag-styles \(tagStyles): \(error)")
        }
    }

    /// SIGTERM and SIGINT start a graceful shutdown on a background queue.
    static func onTermination(_ handler: @escaping @Sendable () -> Void) -> [DispatchSourceSignal] {
        [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    /// SIGHUP runs `handler` and nothing else: the default action would end the daemon.
    static func onHangup(_ handler: @escaping @Sendable () -> Void) -> DispatchSourceSignal {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        source.setEventHandler(handler: handler)
        source.resume()
        return source
    }

    /// A font file, or the font files (.ttf, .otf, .ttc) in a directory tree, sorted.
    static func fontFiles(_ path: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ValidationError("font path does not exist: \(path)")
        }
        guard isDirectory.boolValue else { return [path] }
        let names = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
        return names.filter { ["ttf", "otf", "ttc"].contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted().map { path + "/" + $0 }
    }
}
