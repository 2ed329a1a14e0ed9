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
    /// Threads that lay text out; by default one per core.
    public var workerThreads: Int
    /// Requests one connection may have in flight before further ones are refused.
    public var maxInFlightPerConnection: Int
    /// Layouts of texts up to this many UTF-16 units run on the connection's event loop, saving
    /// two thread hops; longer ones go to the worker pool so they cannot stall a loop for long.
    public var inlineTextLimit: Int
    /// Font files and directories to load; the default set is used when empty.
    public var fontPaths: [String]
    public var loadDefaultFonts: Bool

    public init(socketPath: String = ServerConfiguration.defaultSocketPath,
                maxFrameBytes: Int = Framing.defaultMaxFrameBytes, maxReplyBytes: Int = 32 << 20, maxTextUnits: Int = 262_144,
                workerThreads: Int = ProcessInfo.processInfo.activeProcessorCount,
                maxInFlightPerConnection: Int = 1024, inlineTextLimit: Int = 2048, fontPaths: [String] = [], loadDefaultFonts: Bool = true) {
        self.socketPath = socketPath
        self.maxFrameBytes = maxFrameBytes
        self.maxReplyBytes = maxReplyBytes
        self.maxTextUnits = maxTextUnits
        self.workerThreads = workerThreads
        self.maxInFlightPerConnection = maxInFlightPerConnection
        self.inlineTextLimit = inlineTextLimit
        self.fontPaths = fontPaths
        self.loadDefaultFonts = loadDefaultFonts
    }

    /// The user default; the service unit passes `/run/layoutd/layoutd.sock` or an activated socket.
    public static var defaultSocketPath: String { SocketPaths.userDefault }

    public func validate() throws {
        guard maxFrameBytes >= 1024, maxFrameBytes <= Framing.maxConfigurableFrameBytes else {
            throw ConfigurationError("max frame bytes must be in 1024...\(Framing.maxConfigurableFrameBytes)")
        }
        guard maxReplyBytes >= 1024, maxReplyBytes <= 1 << 30 else {
            throw ConfigurationError("max reply bytes must be in 1024...\(1 << 30)")
        }
        guard maxTextUnits > 0, workerThreads > 0, maxInFlightPerConnection > 0 else {
            throw ConfigurationError("limits and thread counts must be positive")
        }
    }
}

public struct ConfigurationError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
