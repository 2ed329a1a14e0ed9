import Foundation
import LayoutEngine
import Testing
@testable import LayoutServer

/// A reload that hangs fails at its deadline and leaves the old set serving; while its thread is
/// stuck, another reload is refused at once instead of queueing; what it loads late is dropped.
@Suite struct ProcessorSwitchTests {
    @Test func aStuckReloadFailsByItsDeadlineAndIsNotQueuedBehind() throws {
        let original = try RequestProcessor.standalone()
        let gate = DispatchSemaphore(value: 0)
        let calls = Locked(0)
        let switcher = ProcessorSwitch(original, loader: {
            let call = calls.withLock { count in count += 1; return count }
            if call == 1 { gate.wait() }  // the first load hangs, as on a FIFO, until released
            return (original.layouter, .standard)
        }, timeoutSeconds: 0.3)

        let started = Date()
        guard case .failure(let stuck) = switcher.reload() else { Issue.record("a hung reload succeeded"); return }
        #expect(stuck.timedOut && stuck.description.contains("did not finish within 0.3 s"), "\(stuck)")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(switcher.current === original)

        guard case .failure(let refused) = switcher.reload() else { Issue.record("a reload ran beside a stuck one"); return }
        #expect(refused.description.contains("still stuck reading its files"), "\(refused)")
        #expect(calls.withLock { $0 } == 1, "the second reload did not start a second load")

        gate.signal()  // the stuck load returns late: dropped, and the next reload runs
        let deadline = Date().addingTimeInterval(5)
        var next = switcher.reload()
        while case .failure = next, Date() < deadline {
            usleep(20_000)
            next = switcher.reload()
        }
        guard case .success(let fresh) = next else { Issue.record("no reload after the stuck one returned: \(next)"); return }
        #expect(fresh !== original && switcher.current === fresh)
    }

    /// The generation connections read per request moves with every swap, and only then: the
    /// failed and stuck reloads above left it, a successful one moves it, after the processor.
    @Test func theGenerationMovesWithEverySwapOnly() throws {
        let original = try RequestProcessor.standalone()
        let fails = Locked(true)
        let switcher = ProcessorSwitch(original, loader: {
            if fails.withLock({ $0 }) { throw ReloadError("no fonts") }
            return (original.layouter, .standard)
        }, timeoutSeconds: 5)
        let start = switcher.generation
        guard case .failure = switcher.reload() else { Issue.record("a failing load swapped"); return }
        #expect(switcher.generation == start && switcher.current === original)
        fails.withLock { $0 = false }
        guard case .success(let fresh) = switcher.reload() else { Issue.record("the reload failed"); return }
        #expect(switcher.generation == start &+ 1 && switcher.current === fresh)
    }
}
