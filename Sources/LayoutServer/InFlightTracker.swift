import NIOCore
import LayoutEngine

/// Counts requests in flight across connections, so shutdown can wait for them, and keeps
/// the open channels so shutdown can close them afterwards.
final class InFlightTracker: Sendable {
    private struct State {
        var inFlight = 0
        var shuttingDown = false
        var channels: [ObjectIdentifier: Channel] = [:]
    }
    private let state = Locked(State())

    var isShuttingDown: Bool { state.withLock { $0.shuttingDown } }
    var count: Int { state.withLock { $0.inFlight } }

    func begin() { state.withLock { $0.inFlight += 1 } }
    func end() { state.withLock { $0.inFlight -= 1 } }
    func beginShutdown() { state.withLock { $0.shuttingDown = true } }
    func register(_ channel: Channel) { state.withLock { $0.channels[ObjectIdentifier(channel)] = channel } }
    func unregister(_ channel: Channel) { state.withLock { _ = $0.channels.removeValue(forKey: ObjectIdentifier(channel)) } }
    var openChannels: [Channel] { state.withLock { Array($0.channels.values) } }
}
