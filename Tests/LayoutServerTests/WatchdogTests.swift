import Foundation
@testable import LayoutServer
import NIOCore
import NIOPosix
import LayoutEngine
import Testing

/// The watchdog pings while every event loop turns, and stops while one is stuck.
@Suite struct WatchdogTests {
    final class Counter: Sendable {
        let value = Locked(0)
        func bump() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    /// Polls `condition` until it holds or `seconds` pass: under the suite's load a loop's turn
    /// can come late, so the test waits for pings rather than counting them in a fixed time.
    static func eventually(within seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
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
        #expect(Self.eventually { pings.count >= 3 }, "pings while every loop turns: \(pings.count)")
        // The second loop is stuck until released: once its stamp is two periods old (0.2 s)
        // no ping can pass, however loaded the machine is.
        let stuck = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        loops[1].execute {
            stuck.signal()
            release.wait()
        }
        #expect(stuck.wait(timeout: .now() + 10) == .success, "the second loop took the stuck task")
        usleep(500_000)
        let atStall = pings.count
        usleep(600_000)
        #expect(pings.count == atStall, "no ping while a loop is stuck (\(atStall) then \(pings.count))")
        release.signal()
        #expect(Self.eventually { pings.count > atStall }, "pings again once it turns")
    }
}
