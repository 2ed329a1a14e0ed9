import Dispatch

/// When a connection last saw bytes and since when it has held part of a frame: the frame
/// decoder writes it, the connection's timer reads it (both on the connection's event loop).
final class ConnectionClock {
    /// Uptime in nanoseconds of the last bytes read or reply written.
    var lastActivity = ConnectionClock.now
    /// Uptime in nanoseconds at which the frame now partly read began; nil between frames.
    var partialFrameSince: UInt64?

    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    func sawBytes() { lastActivity = Self.now }
}
