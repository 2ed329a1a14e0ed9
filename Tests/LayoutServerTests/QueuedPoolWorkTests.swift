import Foundation
import NIOCore
import NIOPosix
import Testing
@testable import LayoutServer

/// The count a batch's worker reads to know whether anything waits for a worker: up while work
/// is queued, down when a worker starts it, or when a stopped pool refuses it.
@Suite struct QueuedPoolWorkTests {
    @Test func workWaitsUntilAWorkerStartsIt() throws {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        defer { try? pool.syncShutdownGracefully() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let queued = QueuedPoolWork()
        #expect(queued.isEmpty)
        let (started, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let busy = queued.run(on: pool, eventLoop: group.next()) {
            started.signal()
            release.wait()
            return 1
        }
        started.wait()
        #expect(queued.isEmpty, "the one worker started the first piece of work")
        let waiting = queued.run(on: pool, eventLoop: group.next()) { 2 }
        #expect(!queued.isEmpty, "the second waits behind it")
        release.signal()
        #expect(try busy.wait() == 1)
        #expect(try waiting.wait() == 2)
        #expect(queued.isEmpty)
    }

    @Test func aStoppedPoolRefusesAndCountsNothing() throws {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        try pool.syncShutdownGracefully()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let queued = QueuedPoolWork()
        let refused = queued.run(on: pool, eventLoop: group.next()) { 3 }
        #expect(throws: NIOThreadPoolError.ThreadPoolInactive.self) { try refused.wait() }
        #expect(queued.isEmpty)
    }
}
