import NIOCore
import NIOPosix
import Synchronization

/// The work connections queued on the worker pool that no worker has started yet: what a batch's
/// worker reads at the end of a chunk to know whether anything waits for a worker. Nothing
/// waiting, it goes on with the batch's next chunk itself; otherwise that chunk queues behind
/// the rest (`ConnectionHandler.runLane`). One per server, shared by its connections.
final class QueuedPoolWork: Sendable {
    private let count = Atomic<Int>(0)

    init() {}

    /// True when every piece of work queued so far has started.
    var isEmpty: Bool { count.load(ordering: .relaxed) == 0 }

    /// `body` on `pool`, counted as waiting until a worker starts it (or the stopped pool
    /// refuses it): `NIOThreadPool.submit`, counted.
    func submit(on pool: NIOThreadPool, _ body: @escaping @Sendable (NIOThreadPool.WorkItemState) -> Void) {
        count.add(1, ordering: .relaxed)
        pool.submit { state in
            self.count.subtract(1, ordering: .relaxed)
            body(state)
        }
    }

    /// `body`'s result on `eventLoop`, run on `pool` if it is running: `NIOThreadPool.runIfActive`, counted.
    func run<T: Sendable>(on pool: NIOThreadPool, eventLoop: EventLoop, _ body: @escaping @Sendable () throws -> T) -> EventLoopFuture<T> {
        let promise = eventLoop.makePromise(of: T.self)
        submit(on: pool) { state in
            guard state == .active else {
                promise.fail(NIOThreadPoolError.ThreadPoolInactive())
                return
            }
            promise.completeWith(Result { try body() })
        }
        return promise.futureResult
    }
}
