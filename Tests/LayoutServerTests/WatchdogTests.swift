import Foundation
@testable import LayoutServer
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// The watchdog pings while every event loop turns, and stops while one is stuck.
@Suite struct WatchdogTests {
    final class Counter: Sendable {
        let value = Mutex(0)
        func bump() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    @Test func aStuckLoopStopsThePings() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        defer { try? group.syncShutdownGracefully() }
        let loops = Array(group.makeIterator())
        let pings = Counter()
        // systemd's interval 0.2 s: a ping every 0.1 s while both loops turn.
        let watchdog = Watchdog(loops: loops.count, systemdInterval: 0.2, ping: { pings.bump() })
        watchdog.start(on: loops)
        defer { watchdog.stop() }
        usleep(600_000)
        let turning = pings.count
        #expect(turning >= 3, "pings while every loop turns: \(turning)")
        // The second loop is stuck for a second: after two missed turns the pings stop.
        loops[1].execute { usleep(1_000_000) }
        usleep(300_000)
        let atStall = pings.count
        usleep(600_000)
        #expect(pings.count == atStall, "no ping while a loop is stuck (\(atStall) then \(pings.count))")
        usleep(500_000)
        #expect(pings.count > atStall, "pings again once it turns")
    }
}
