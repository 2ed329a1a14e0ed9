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

    @Option(help: "Configuration file of key = value lines, keys named as these options (default: \(DaemonSettings.defaultConfigPath) when it exists).")
    var config: String?

    @Option(help: "Unix socket to listen on (ignored under systemd socket activation; default: the user's runtime directory).")
    var socket: String?

    @Option(name: .customLong("font"), help: "A font file or a directory of fonts to load; repeatable.")
    var fonts: [String] = []

    @Option(name: .customLong("font-family"), help: "A family or fontconfig alias (sans-serif, serif, monospace, emoji) whose files fontconfig finds; repeatable.")
    var fontFamilies: [String] = []

    @Flag(inversion: .prefixedNo, help: "Load the default Noto and DejaVu set besides the fonts named (default: yes).")
    var defaultFonts: Bool?

    @Option(help: "Family used when a request names none; a family that is not loaded is an error (default: Noto Sans).")
    var defaultFamily: String?

    @Option(help: "Families tried in order for text the requested one cannot draw, separated by commas; repeatable (default: Noto Sans, Noto Naskh Arabic, Noto Sans Devanagari, Noto Sans CJK SC, Noto Color Emoji, Noto Sans Thai, DejaVu Sans).")
    var fallback: [String] = []

    @Option(help: "Largest request frame in bytes, at most 16 MiB (default: 4194304).")
    var maxFrameBytes: Int?

    @Option(help: "Largest reply body in bytes; a larger reply becomes a RESOURCE_EXHAUSTED error (default: 33554432).")
    var maxReplyBytes: Int?

    @Option(help: "Most pixels a rendered picture may have, width x height at its scale (default: 16777216, a 4096 x 4096 PNG).")
    var maxPicturePixels: Int?

    @Option(help: "Shaped words and runs cached per generation, at most twice as many held; 0 turns the cache off (default: 20000).")
    var shapingCacheEntries: Int?

    @Option(help: "Longest text a request may carry, in UTF-16 code units (default: 262144).")
    var maxText: Int?

    @Option(help: "Milliseconds one request may hold a worker before DEADLINE_EXCEEDED (default: 5000).")
    var requestBudgetMs: Int?

    @Option(help: "Seconds an idle connection is kept open (default: 300).")
    var idleTimeout: Double?

    @Option(help: "Seconds a frame may take to arrive, from its first byte to its last (default: 30).")
    var frameTimeout: Double?

    @Option(help: "Documents (editing sessions) one connection may keep open; 0 refuses them (default: 16).")
    var maxDocuments: Int?

    @Option(help: "Documents all connections may keep open together; past it each user is served up to its fair share (default: 1024).")
    var maxServerDocuments: Int?

    @Option(help: "Client fonts all connections may register together; past it each user is served up to its fair share (default: 256).")
    var maxServerFonts: Int?

    @Option(help: "Bytes of client fonts all connections may register together, shared as fonts are (default: 536870912).")
    var maxServerFontBytes: Int?

    @Option(help: "Variable font instances all users' requests may make together, shared as fonts are; a reload clears them (default: 8192).")
    var maxServerFontInstances: Int?

    @Option(help: "Bytes of frames still arriving on all connections together; past it each user up to its fair share (default: 268435456).")
    var maxPartialFrameBytes: Int?

    @Option(help: "Seconds an open document may sit unused before it is closed (default: 600).")
    var documentIdleTimeout: Double?

    @Option(help: "Seconds a reload may take to read its files; past them it fails and the old set stays (default: 60).")
    var reloadTimeout: Double?

    @Option(help: "Connections open at once, from all users (default: 1024).")
    var maxConnections: Int?

    @Option(help: "Connections open at once from one user (default: 256).")
    var maxConnectionsPerUser: Int?

    @Option(help: "Requests in flight on one connection before the daemon stops reading from it (default: 64).")
    var maxInFlight: Int?

    @Option(help: "Reply bytes waiting for a client that does not read before the daemon stops reading from it (default: 1048576).")
    var maxUnsentBytes: Int?

    @Option(help: "Items one batch_layout request may carry, 1...1000000 (default: 100000).")
    var maxBatchItems: Int?

    @Option(name: .customLong("batch-slice-us"), help: "Microseconds a batch holds a worker before queued requests get their turn, 100...1000000 (default: 2000).")
    var batchSliceMicroseconds: Int?

    @Option(help: "The most workers one batch runs on at once, 0...256: 0 for every worker (default: 0).")
    var batchWorkers: Int?

    @Option(help: "Event-loop and layout worker threads, each, at most 256 (default: one per processor the daemon may run on: its affinity and cgroup counted).")
    var threads: Int?

    @Option(help: "Image-tag styles in the JSON form of data/tag-styles.json, for requests that carry no table (default: the shipped table).")
    var tagStyles: String?

    @Option(help: "Serve Prometheus metrics over HTTP (GET /metrics) at HOST:PORT, a loopback address only (127.0.0.1:9464).")
    var metricsListen: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical (default: info).")
    var logLevel: String?

    @Flag(help: "Read the configuration and load the fonts and styles, report, and exit: 0 when the daemon would start.")
    var checkConfig = false

    func run() throws {
        do {
            try serve()
        } catch let problem as ConfigProblem {
            FileHandle.standardError.write(Data("layoutd: \(problem)\n".utf8))
            throw ExitCode(78)
        }
    }

    func serve() throws {
        // First: a crash anywhere after this leaves a line naming the signal (and the request).
        CrashReport.install(journal: DaemonLogHandler.stderrIsJournal)
        let settings = try self.settings()
        var logger = Logger(label: "layoutd") { _ in DaemonLogHandler() }
        logger.logLevel = settings.logLevel
        if let folded = UserNamespace.partialMapping() { logger.warning("per-user limits cannot tell users apart", metadata: ["why": "\(folded)"]) }
        // Limits and addresses first: a mistake there is said before the fonts take their time.
        var configuration = settings.serverConfiguration
        do { try configuration.validate() } catch { throw ConfigProblem("\(error)") }
        let metricsAddress = try settings.metricsListen.map { text in
            do { return try MetricsListener.parse(text) } catch { throw ConfigProblem("metrics-listen: \(error)") }
        }
        let started = Date()
        let fonts = try DaemonFonts.load(settings, logger: logger)
        logger.info("fonts loaded", metadata: ["faces": "\(fonts.registry.fonts.count)",
                                               "ms": "\(Int(saturating: Date().timeIntervalSince(started) * 1000))",
                                               "allocator": "\(Allocator.name)"])
        configuration.tagStyles = fonts.tagStyles
        configuration.maxConnections = try DescriptorLimit.fit(connections: configuration.maxConnections,
                                                               threads: configuration.workerThreads, metrics: metricsAddress != nil,
                                                               logger: logger)
        let layouter: ParagraphLayouter
        do { layouter = try settings.layouter(fonts: fonts.registry) } catch { throw ConfigProblem("\(error)") }
        if checkConfig {
            print("configuration ok: \(fonts.registry.fonts.count) faces, default family \(fonts.registry.defaultFamily), "
                + "fallback \(fonts.registry.fallbackFamilies.joined(separator: ", "))")
            return
        }
        // A reload reads the configuration file, the font paths and the style file again: what
        // was added, changed or removed since start-up is what it picks up; the command line
        // still wins over the file. Limits and the socket stay as they started.
        let reloadLogger = logger
        let command = self
        let server = try LayoutServer(configuration: configuration, layouter: layouter, logger: logger, loader: {
            let fresh = try command.settings()
            let loaded = try DaemonFonts.load(fresh, logger: reloadLogger)
            return (try settings.layouter(fonts: loaded.registry), loaded.tagStyles)
        })
        // A write to a client that left must be an error on that connection, not a signal that
        // ends the process. SIGHUP reloads the fonts and tag styles (systemctl reload layoutd).
        signal(SIGPIPE, SIG_IGN)
        let hangup = Self.onHangup { server.reload() }
        let signals = Self.onTermination { server.shutdown() }
        try server.start()
        if let metricsAddress { try server.startMetrics(host: metricsAddress.host, port: metricsAddress.port) }
        server.wait()
        withExtendedLifetime((signals, hangup)) {}
        logger.info("layoutd stopped")
    }

    /// Defaults, then the configuration file, then this command line.
    func settings() throws -> DaemonSettings {
        var settings = DaemonSettings()
        let path = config ?? DaemonSettings.defaultConfigPath
        if config != nil || FileManager.default.fileExists(atPath: path) {
            // A regular file (or /dev/null) under a cap: a FIFO or a link to /dev/zero is refused at once.
            let bytes: [UInt8]
            do { bytes = try RegularFile.read(path, maxBytes: DaemonSettings.maxConfigBytes) } catch {
                throw ConfigProblem("cannot read the configuration file \(path): \(error.message)")
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw ConfigProblem("the configuration file \(path) is not UTF-8 text")
            }
            do { try settings.apply(ConfigFile(path: path, text: text)) } catch { throw ConfigProblem("\(error)") }
        }
        if let socket { settings.socket = socket }
        if !fonts.isEmpty { settings.fonts = fonts }
        if !fontFamilies.isEmpty { settings.fontFamilies = fontFamilies }
        if let defaultFonts { settings.noDefaultFonts = !defaultFonts }
        if let defaultFamily { settings.defaultFamily = defaultFamily }
        if !fallback.isEmpty {
            do { settings.fallback = try fallback.flatMap(DaemonSettings.families) } catch { throw ValidationError("--fallback: \(error)") }
        }
        if let maxFrameBytes { settings.maxFrameBytes = maxFrameBytes }
        if let maxReplyBytes { settings.maxReplyBytes = maxReplyBytes }
        if let maxText { settings.maxText = maxText }
        if let maxPicturePixels { settings.maxPicturePixels = maxPicturePixels }
        if let shapingCacheEntries { settings.shapingCacheEntries = shapingCacheEntries }
        if let requestBudgetMs { settings.requestBudgetMs = requestBudgetMs }
        if let idleTimeout { settings.idleTimeout = idleTimeout }
        if let frameTimeout { settings.frameTimeout = frameTimeout }
        if let maxDocuments { settings.maxDocuments = maxDocuments }
        if let maxServerDocuments { settings.maxServerDocuments = maxServerDocuments }
        if let maxServerFonts { settings.maxServerFonts = maxServerFonts }
        if let maxServerFontBytes { settings.maxServerFontBytes = maxServerFontBytes }
        if let maxServerFontInstances { settings.maxServerFontInstances = maxServerFontInstances }
        if let maxPartialFrameBytes { settings.maxPartialFrameBytes = maxPartialFrameBytes }
        if let documentIdleTimeout { settings.documentIdleTimeout = documentIdleTimeout }
        if let reloadTimeout { settings.reloadTimeout = reloadTimeout }
        if let maxConnections { settings.maxConnections = maxConnections }
        if let maxConnectionsPerUser { settings.maxConnectionsPerUser = maxConnectionsPerUser }
        if let maxInFlight { settings.maxInFlight = maxInFlight }
        if let maxUnsentBytes { settings.maxUnsentBytes = maxUnsentBytes }
        if let maxBatchItems { settings.maxBatchItems = maxBatchItems }
        if let batchSliceMicroseconds { settings.batchSliceMicroseconds = batchSliceMicroseconds }
        if let batchWorkers { settings.batchWorkers = batchWorkers }
        if let threads { settings.threads = threads }
        if let tagStyles { settings.tagStyles = tagStyles }
        if let metricsListen { settings.metricsListen = metricsListen }
        if let logLevel {
            do { settings.logLevel = try DaemonSettings.logLevel(logLevel) } catch { throw ValidationError("--log-level \(error)") }
        }
        return settings
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
}
