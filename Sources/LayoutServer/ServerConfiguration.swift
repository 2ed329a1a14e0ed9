import LayoutEngine
import LayoutRender
import Foundation
import LayoutWire

/// What a daemon is told at start-up.
public struct ServerConfiguration: Sendable {
    /// Where to listen; ignored when systemd hands over a socket.
    public var socketPath: String
    /// Largest frame body read; larger frames are refused after their header.
    public var maxFrameBytes: Int
    /// Largest reply body sent; a larger one is replaced by a RESOURCE_EXHAUSTED error.
    public var maxReplyBytes: Int
    /// Longest text a layout request may carry, in UTF-16 units.
    public var maxTextUnits: Int
    /// Threads that lay text out; by default one per processor the daemon may run on (`UsableCores`).
    public var workerThreads: Int
    /// Requests one connection may have in flight; at this many the daemon stops reading from
    /// it until one is answered (a frame already read past it is refused).
    public var maxInFlightPerConnection: Int
    /// Request bytes one connection may have in flight before the daemon stops reading from it.
    public var maxInFlightBytesPerConnection: Int
    /// Reply bytes waiting for a client that does not read; past this the daemon stops reading
    /// from it until the client catches up (NIO's high water mark; the low one is a quarter).
    public var maxUnsentReplyBytes: Int
    /// Time one request may hold a worker, in milliseconds; past it: DEADLINE_EXCEEDED.
    public var requestBudgetMilliseconds: Int
    /// Seconds a connection may sit with no request in flight and no bytes arriving.
    public var idleTimeoutSeconds: Double
    /// Seconds a frame may take from its first byte to its last.
    public var frameTimeoutSeconds: Double
    /// Connections open at once, from everyone; LimitNOFILE in the unit leaves room for them.
    public var maxConnections: Int
    /// Connections open at once from one user (by the peer's uid, SO_PEERCRED).
    public var maxConnectionsPerUser: Int
    /// Font files and directories to load; the default set is used when empty.
    public var fontPaths: [String]
    public var loadDefaultFonts: Bool
    /// The most pixels a rendered picture may have (`max-picture-pixels`).
    public var maxPicturePixels: Int = Renderer.defaultMaxPixels
    /// Seconds a reload may take to read its files before it fails and the old set stays.
    public var reloadTimeoutSeconds: Double = 60
    /// How many documents (editing sessions) connections may keep, and for how long unused.
    public var documentLimits = DocumentLimits()
    /// Client fonts registered on every connection together, and their bytes; past them each
    /// user is served up to its fair share (`FairShare`). A connection holds at most 16 and 64 MiB.
    public var maxServerFonts = Self.defaultMaxServerFonts
    public var maxServerFontBytes = Self.defaultMaxServerFontBytes
    public static let defaultMaxServerFonts = 256
    /// Variable font instances all users' requests make together; the fonts' registry holds the
    /// share (`FontInstances`), this is checked with the rest.
    public var maxServerFontInstances = FontRegistry.defaultInstanceCapacity
    public static let defaultMaxServerFontBytes = 512 << 20
    /// Bytes of frames still arriving, on every connection together; past them each user up to
    /// its fair share. Beyond that a connection's unfinished frame closes it.
    public var maxPartialFrameBytes = Self.defaultMaxPartialFrameBytes
    public static let defaultMaxPartialFrameBytes = 256 << 20
    /// The most items one batch_layout may carry; the frame limit bounds its bytes.
    public var maxBatchItems = Self.defaultMaxBatchItems
    public static let defaultMaxBatchItems = 100_000
    /// How long one chunk of a batch holds a worker before the other requests queued get their
    /// turn, and the most reply bytes a chunk writes at once (`ConnectionHandler.runBatch`).
    public var batchSliceMicroseconds = Self.defaultBatchSliceMicroseconds
    public static let defaultBatchSliceMicroseconds = 2_000
    public var batchChunkBytes = 256 << 10
    /// The most workers one batch runs on at once (its lanes, `ConnectionHandler+Batch.swift`);
    /// 0 for every worker.
    public var batchWorkers = 0
    /// The lanes a batch runs in: `batchWorkers`, at most one a worker.
    var batchLanes: Int { batchWorkers == 0 ? workerThreads : min(batchWorkers, workerThreads) }
    /// Image-tag styles for requests that carry no table of their own (`--tag-styles FILE`).
    public var tagStyles: TagStyleTable = .standard

    public init(socketPath: String = ServerConfiguration.defaultSocketPath,
                maxFrameBytes: Int = Framing.defaultMaxFrameBytes, maxReplyBytes: Int = 32 << 20, maxTextUnits: Int = 262_144,
                workerThreads: Int = UsableCores.count,
                maxInFlightPerConnection: Int = 64, maxInFlightBytesPerConnection: Int = 8 << 20,
                maxUnsentReplyBytes: Int = 1 << 20, requestBudgetMilliseconds: Int = 5_000,
                idleTimeoutSeconds: Double = 300, frameTimeoutSeconds: Double = 30,
                maxConnections: Int = 1_024, maxConnectionsPerUser: Int = 256,
                fontPaths: [String] = [], loadDefaultFonts: Bool = true) {
        self.socketPath = socketPath
        self.maxFrameBytes = maxFrameBytes
        self.maxReplyBytes = maxReplyBytes
        self.maxTextUnits = maxTextUnits
        self.workerThreads = workerThreads
        self.maxInFlightPerConnection = maxInFlightPerConnection
        self.maxInFlightBytesPerConnection = maxInFlightBytesPerConnection
        self.maxUnsentReplyBytes = maxUnsentReplyBytes
        self.requestBudgetMilliseconds = requestBudgetMilliseconds
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.frameTimeoutSeconds = frameTimeoutSeconds
        self.maxConnections = maxConnections
        self.maxConnectionsPerUser = maxConnectionsPerUser
        self.fontPaths = fontPaths
        self.loadDefaultFonts = loadDefaultFonts
    }

    /// The user default; the service unit passes `/run/layoutd/layoutd.sock` or an activated socket.
    public static var defaultSocketPath: String { SocketPaths.userDefault }

    /// The most threads: far past what a layout daemon's cores can use, well inside its descriptors.
    public static let maxWorkerThreads = 256

    public func validate() throws {
        guard maxFrameBytes >= 1024, maxFrameBytes <= Framing.maxConfigurableFrameBytes else {
            throw ConfigurationError("max-frame-bytes must be in 1024...\(Framing.maxConfigurableFrameBytes)")
        }
        guard maxReplyBytes >= 1024, maxReplyBytes <= 1 << 30 else {
            throw ConfigurationError("max-reply-bytes must be in 1024...\(1 << 30)")
        }
        guard maxTextUnits > 0, workerThreads > 0, maxInFlightPerConnection > 0, maxInFlightBytesPerConnection > 0,
              maxUnsentReplyBytes >= 4096, maxConnections > 0, maxConnectionsPerUser > 0 else {
            throw ConfigurationError("max-text, threads, max-in-flight, max-connections and max-connections-per-user must be positive, "
                + "max-unsent-bytes at least 4096")
        }
        guard (1...1_000_000).contains(maxBatchItems) else {
            throw ConfigurationError("max-batch-items must be in 1...1000000")
        }
        guard (100...1_000_000).contains(batchSliceMicroseconds) else {
            throw ConfigurationError("batch-slice-us must be in 100...1000000")
        }
        guard (0...Self.maxWorkerThreads).contains(batchWorkers) else {
            throw ConfigurationError("batch-workers must be in 0...\(Self.maxWorkerThreads)")
        }
        // Each thread is an event loop and a worker; a loop holds three descriptors (epoll, an
        // eventfd, a timerfd). 100,000 passed once and the daemon died at start.
        guard workerThreads <= Self.maxWorkerThreads else {
            throw ConfigurationError("threads must be in 1...\(Self.maxWorkerThreads)")
        }
        guard maxPicturePixels >= 1, maxPicturePixels <= 1 << 28 else {
            throw ConfigurationError("max-picture-pixels must be in 1...\(1 << 28)")
        }
        guard requestBudgetMilliseconds > 0, requestBudgetMilliseconds <= 3_600_000 else {
            throw ConfigurationError("request-budget-ms must be in 1...3600000")
        }
        guard (0...4_096).contains(documentLimits.maxPerConnection) else {
            throw ConfigurationError("max-documents must be in 0...4096 (0: no editing sessions)")
        }
        guard (1...65_536).contains(documentLimits.maxTotal) else {
            throw ConfigurationError("max-server-documents must be in 1...65536")
        }
        guard (1...65_536).contains(maxServerFonts) else { throw ConfigurationError("max-server-fonts must be in 1...65536") }
        guard (1...1_048_576).contains(maxServerFontInstances) else {
            throw ConfigurationError("max-server-font-instances must be in 1...1048576")
        }
        guard (1...(1 << 40)).contains(maxServerFontBytes) else { throw ConfigurationError("max-server-font-bytes must be in 1...2^40") }
        // At least one frame of the largest size, so one client alone can always send one.
        guard (maxFrameBytes + Framing.headerBytes...(1 << 40)).contains(maxPartialFrameBytes) else {
            throw ConfigurationError("max-partial-frame-bytes must be in max-frame-bytes + 4...2^40")
        }
        for (value, name) in [(idleTimeoutSeconds, "idle-timeout"), (frameTimeoutSeconds, "frame-timeout"),
                              (reloadTimeoutSeconds, "reload-timeout"), (documentLimits.idleSeconds, "document-idle-timeout")]
        where !(value.isFinite && value > 0 && value <= 86_400) {
            throw ConfigurationError("\(name) must be in (0, 86400] seconds")
        }
    }
}

public struct ConfigurationError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
