import Foundation
import Logging
import NIOCore
import NIOPosix
@testable import LayoutServer

/// A connection handler served on a real event loop and Unix socket, with one worker thread and
/// a counter of the writes and flushes that pass through NIO's pipeline: for tests that need the
/// socket's own behaviour (a full buffer, frames read together) where an embedded channel has none.
final class LoopServer {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let pool = NIOThreadPool(numberOfThreads: 1)
    let counter = ReplyFlushTests.FlushCounter()
    let box = WorkerReplyFlushTests.HandlerBox()
    let path: String
    private var channel: Channel?
    var loop: EventLoop { group.next() }

    /// `sendBuffer`: the connection socket's SO_SNDBUF (the kernel doubles it); nil for the
    /// system's default.
    init(name: String, configuration: ServerConfiguration, sendBuffer: Int? = nil) throws {
        path = "/tmp/layoutd-\(name)-\(getpid()).sock"
        pool.start()
        unlink(path)
        let (counter, box, pool) = (self.counter, self.box, self.pool)
        // As the daemon's connections: the handler asks for each read (`ConnectionHandler.askToRead`),
        // and a client that shuts its writing side is answered first (`userInboundEventTriggered`).
        var bootstrap = ServerBootstrap(group: group).childChannelOption(ChannelOptions.autoRead, value: false)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
        if let sendBuffer { bootstrap = bootstrap.childChannelOption(ChannelOptions.socketOption(.so_sndbuf), value: sendBuffer) }
        channel = try bootstrap.childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                let handler = ConnectionHandler(
                    processors: ProcessorSwitch(ConnectionHandlerTests.processor, loader: nil, timeoutSeconds: 60), pool: pool,
                    tracker: InFlightTracker(), limiter: ConnectionLimiter(maxTotal: 4, maxPerUser: 4),
                    configuration: configuration, logger: Logger(label: "test"))
                box.handler = handler
                try channel.pipeline.syncOperations.addHandler(counter)
                try channel.pipeline.syncOperations.addHandler(handler)
            }
        }.bind(unixDomainSocketPath: path).wait()
    }

    /// Closes the listener and stops the pool and the loop; called by the test's `defer` (after
    /// anything it holds the pool with is let go), and again, to no effect, at deinit.
    func shutdown() {
        guard let channel else { return }
        self.channel = nil
        try? channel.close().wait()
        unlink(path)
        try? pool.syncShutdownGracefully()
        try? group.syncShutdownGracefully()
    }

    deinit { shutdown() }
}

extension LoopServer {
    /// Holds the pool's one thread until the semaphore returned is signalled: requests handed to
    /// the pool meanwhile wait behind it. Signal it again in the test's `defer` (before
    /// `shutdown`), so a failed step never leaves the pool's shutdown waiting on it.
    func holdPool() -> DispatchSemaphore {
        let gate = DispatchSemaphore(value: 0)
        pool.submit { _ in gate.wait() }
        return gate
    }

    /// Waits until `condition` holds of the connection's handler, read on its loop: so a test
    /// orders its steps by what the handler has done, not by time. Throws, naming `what`, after
    /// 10 s.
    func waitOnLoop(for what: String, until condition: @escaping @Sendable (ConnectionHandler) -> Bool) throws {
        let box = self.box
        for _ in 0..<10_000 {
            if try loop.submit({ box.handler.map(condition) ?? false }).wait() { return }
            usleep(1_000)
        }
        throw HarnessError("\(what) never happened")
    }
}
