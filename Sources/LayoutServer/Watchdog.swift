import Foundation
import LayoutEngine
import NIOCore

/// Pings systemd's watchdog while every event loop turns. Each loop stamps the time on a
/// repeated task; the first loop sends WATCHDOG=1 only when every stamp is recent, so a loop
/// stuck in a handler (or a dead one) stops the pings and systemd restarts the daemon.
final class Watchdog: Sendable {
    private let stamps: Locked<[UInt64]>
    private let interval: TimeAmount
    private let tasks = Locked<[RepeatedTask]>([])
    private let ping: @Sendable () -> Void

    /// Pings at half of systemd's interval, as sd_watchdog_enabled(3) advises.
    init(loops: Int, systemdInterval: TimeInterval, ping: @escaping @Sendable () -> Void = { Systemd.notify("WATCHDOG=1") }) {
        stamps = Locked([UInt64](repeating: Uptime.nanoseconds, count: loops))
        interval = .nanoseconds(Int64(saturating: systemdInterval * 1e9 / 2))
        self.ping = ping
    }

    func start(on loops: [EventLoop]) {
        let interval = self.interval
        var started: [RepeatedTask] = []
        for (index, loop) in loops.enumerated() {
            started.append(loop.scheduleRepeatedTask(initialDelay: .zero, delay: interval) { [self] _ in
                stamps.withLock { $0[index] = Uptime.nanoseconds }
                if index == 0 { pingIfAllTurn() }
            })
        }
        tasks.withLock { $0 = started }
    }

    func stop() {
        for task in tasks.withLock({ $0 }) { task.cancel() }
    }

    private func pingIfAllTurn() {
        let now = Uptime.nanoseconds
        // A loop whose stamp is older than two periods has missed its turn.
        let limit = UInt64(interval.nanoseconds) * 2
        if stamps.withLock({ $0.allSatisfy { now &- $0 <= limit } }) {
            ping()
        }
    }
}
