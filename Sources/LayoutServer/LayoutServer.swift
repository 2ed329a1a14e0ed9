import Foundation
import LayoutEngine
import LayoutWire
import Logging
import NIOCore
import NIOPosix

/// The daemon's server: listens on a Unix socket (its own or one systemd passed), serves
/// connections on NIO event loops and lays text out on a worker pool.
// @unchecked Sendable: the vars below are set by `start` before the first connection is accepted
// and read by `shutdown` after accepting stops; signal handlers call only `shutdown` and `reload`,
// which go through the tracker's and the switch's own locks.
public final class LayoutServer: @unchecked Sendable {
    public let configuration: ServerConfiguration
    /// The processor new requests go to; a reload swaps it.
    public let processors: ProcessorSwitch
    public var processor: RequestProcessor { processors.current }
    private let logger: Logger
    private let group: MultiThreadedEventLoopGroup
    private let pool: NIOThreadPool
    private let tracker = InFlightTracker()
    private let limiter: ConnectionLimiter
    /// Every connection's documents, counted against the server's limits.
    private let shares: ServerShares
    private var serverChannel: Channel?
    private var ownsSocketFile = false
    private let finished = DispatchSemaphore(value: 0)
    private var watchdog: Watchdog?
    private var metricsListener: MetricsListener?

    /// `loader` makes the fonts and tag styles a reload (SIGHUP, or a reload request) swaps in;
    /// without one a reload is refused.
    public init(configuration: ServerConfiguration, layouter: ParagraphLayouter, logger: Logger,
                loader: ProcessorSwitch.Loader? = nil) throws {
        try configuration.validate()
        self.configuration = configuration
        self.processors = ProcessorSwitch(RequestProcessor(layouter: layouter, configuration: configuration, logger: logger),
                                          loader: loader, timeoutSeconds: configuration.reloadTimeoutSeconds)
        self.logger = logger
        self.limiter = ConnectionLimiter(maxTotal: configuration.maxConnections, maxPerUser: configuration.maxConnectionsPerUser)
        self.shares = ServerShares(configuration)
        // One event loop per worker: loops read, decode and write; the pool lays text out.
        self.group = MultiThreadedEventLoopGroup(numberOfThreads: configuration.workerThreads)
        self.pool = NIOThreadPool(numberOfThreads: configuration.workerThreads)
    }

    /// Where the server listens, for logs: the path, or the activated descriptor.
    public private(set) var listeningOn = ""

    /// Binds (or adopts the activated socket) and starts accepting. Returns once listening.
    public func start() throws {
        pool.start()
        let processors = self.processors
        let logger = self.logger
        let pool = self.pool
        let tracker = self.tracker
        let limiter = self.limiter
        let shares = self.shares
        let queued = QueuedPoolWork()
        let configuration = self.configuration
        let unsent = configuration.maxUnsentReplyBytes
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            // When descriptors run out, accept waits a second instead of spinning on EMFILE
            // (NIO adds this handler only in its async bootstrap).
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptBackoffHandler())
                }
            }
            .childChannelOption(ChannelOptions.writeBufferWaterMark, value: .init(low: unsent / 4, high: unsent))
            // Each connection's handler asks for its reads (`ConnectionHandler.askToRead`).
            .childChannelOption(ChannelOptions.autoRead, value: false)
            // A client that shuts its writing side is answered before the connection closes
            // (`ConnectionHandler.userInboundEventTriggered`).
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ConnectionHandler(
                        processors: processors, pool: pool, tracker: tracker, limiter: limiter, configuration: configuration,
                        logger: logger, shares: shares, queued: queued))
                }
            }
        if let fd = Systemd.activatedSocket() {
            serverChannel = try bootstrap.withBoundSocket(fd).wait()
            listeningOn = "socket-activated fd \(fd)"
        } else {
            let path = configuration.socketPath
            try UnixSocketPath.prepare(path)
            // Created 0660 from the start: no window in which others could connect.
            let oldMask = umask(0o117)
            defer { umask(oldMask) }
            serverChannel = try bootstrap.bind(unixDomainSocketPath: path).wait()
            ownsSocketFile = true
            listeningOn = path
        }
        Systemd.notify("READY=1\nSTATUS=serving on \(listeningOn)")
        if let interval = Systemd.watchdogInterval() {
            let loops = Array(group.makeIterator())
            let watchdog = Watchdog(loops: loops.count, systemdInterval: interval)
            watchdog.start(on: loops)
            self.watchdog = watchdog
            logger.info("watchdog on", metadata: ["interval_s": "\(interval)"])
        }
        logger.info("layoutd listening", metadata: ["socket": "\(listeningOn)",
                                                 "fonts": "\(processor.layouter.fonts.fonts.count)"])
    }

    /// Stops accepting, answers every request in flight, then closes connections and exits `wait`.
    /// Requests that arrive meanwhile get UNAVAILABLE.
    public func shutdown(timeout: TimeInterval = 30) {
        guard !tracker.isShuttingDown else { return }
        tracker.beginShutdown()
        Systemd.notify("STOPPING=1")
        watchdog?.stop()
        metricsListener?.close()
        logger.info("layoutd shutting down", metadata: ["in_flight": "\(tracker.count)"])
        try? serverChannel?.close().wait()
        if ownsSocketFile { unlink(configuration.socketPath) }
        let deadline = Date().addingTimeInterval(timeout)
        while tracker.count > 0 && Date() < deadline { usleep(5_000) }
        for channel in tracker.openChannels { try? channel.close().wait() }
        try? pool.syncShutdownGracefully()
        try? group.syncShutdownGracefully()
        finished.signal()
    }

    /// Serves `GET /metrics` on a loopback address; returns the port (chosen for port 0).
    @discardableResult
    public func startMetrics(host: String, port: Int) throws -> Int {
        let processors = self.processors, tracker = self.tracker
        let listener = try MetricsListener(host: host, port: port, group: group) {
            processors.current.prometheusText(inFlight: tracker.count)
        }
        metricsListener = listener
        logger.info("metrics listening", metadata: ["address": "\(host):\(listener.port)"])
        return listener.port
    }

    /// Re-reads the fonts and configuration and swaps them in (SIGHUP), on the reload's own
    /// thread; logs what happened. On failure, or past `reload-timeout`, the old set stays.
    public func reload() {
        let started = Date()
        let logger = self.logger
        // systemd's reload protocol (sd_notify(3)): RELOADING=1, then READY=1 once done.
        Systemd.notify("RELOADING=1")
        processors.reload { result in
            switch result {
            case .success(let fresh):
                logger.notice("reloaded", metadata: ["fonts": "\(fresh.layouter.fonts.fonts.count)",
                                                     "ms": "\(Int(saturating: Date().timeIntervalSince(started) * 1000))"])
            case .failure(let error):
                logger.error("reload failed; the old fonts and configuration stay", metadata: ["why": "\(error)"])
            }
            Systemd.notify("READY=1")
        }
    }

    /// Blocks until `shutdown` has finished.
    public func wait() { finished.wait() }
}
