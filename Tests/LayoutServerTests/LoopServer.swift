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
        // As the daemon's connections: the handler asks for each read (`ConnectionHandler.askToRead`).
        var bootstrap = ServerBootstrap(group: group).childChannelOption(ChannelOptions.autoRead, value: false)
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
