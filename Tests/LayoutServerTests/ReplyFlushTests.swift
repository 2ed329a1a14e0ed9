import Foundation
import LayoutWire
import Logging
import NIOCore
import NIOEmbedded
import NIOPosix
import Testing
@testable import LayoutServer

/// Replies answered on the loop for frames read together go out in one flush (one write on a
/// socket); a lone request, or the last of those read, is flushed at once.
@Suite(.serialized) struct ReplyFlushTests {
    /// Counts the writes and flushes the handler passes towards the socket.
    final class FlushCounter: ChannelOutboundHandler, @unchecked Sendable {
        typealias OutboundIn = ByteBuffer
        var writes = 0
        var flushes = 0
        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            writes += 1
            context.write(data, promise: promise)
        }
        func flush(context: ChannelHandlerContext) {
            flushes += 1
            context.flush()
        }
    }

    static func counted() throws -> (ConnectionHandlerTests.Harness, FlushCounter) {
        let harness = try ConnectionHandlerTests.Harness()
        let counter = FlushCounter()
        try harness.channel.pipeline.syncOperations.addHandler(counter, position: .first)
        return (harness, counter)
    }

    static func layoutFrame(_ id: UInt64) throws -> [UInt8] {
        var layout = Layoutd_V1_LayoutRequest()
        layout.text = "Caption number \(id), answered on the loop"
        layout.width = 200
        return try Framing.encode(ConnectionHandlerTests.envelope(id, .layout(layout)))
    }

    @Test func eightPipelinedLayoutsAreFlushedOnce() throws {
        let (harness, counter) = try Self.counted()
        try harness.send((1...8).flatMap { try! Self.layoutFrame($0) })
        #expect(try harness.replies().map(\.requestID) == Array(1...8))
        #expect(counter.writes == 8)
        #expect(counter.flushes == 1)
    }

    @Test func aLoneRequestIsFlushedAtOnce() throws {
        let (harness, counter) = try Self.counted()
        for id in UInt64(1)...3 {
            try harness.send(try Self.layoutFrame(id))
            #expect(counter.flushes == Int(id), "request \(id) waits for a flush")
        }
        #expect(try harness.replies().map(\.requestID) == [1, 2, 3])
    }

    /// A whole frame read with the start of the next: its reply is not held for the rest.
    @Test func aReplyIsNotHeldForAFrameStillArriving() throws {
        let (harness, counter) = try Self.counted()
        let next = try Self.layoutFrame(2)
        try harness.send(try Self.layoutFrame(1) + next.prefix(5))
        #expect(counter.flushes == 1)
        #expect(try harness.replies().map(\.requestID) == [1])
        try harness.send(Array(next.dropFirst(5)))
        #expect(try harness.replies().map(\.requestID) == [2])
        #expect(counter.flushes == 2)
    }
}

/// Replies the worker pool finishes together go out in one flush: their hops to the loop run in
/// one pass, and the flush queued by the first runs after the last. Held on a real event loop
/// and socket: the pool is held until the eight requests wait on it, the loop until the eight
/// are done, so the order is fixed and nothing is timed.
@Suite(.serialized) struct WorkerReplyFlushTests {
    final class HandlerBox: @unchecked Sendable { var handler: ConnectionHandler? }

    static func poolFrame(_ id: UInt64) throws -> [UInt8] {
        var layout = Layoutd_V1_LayoutRequest()
        layout.text = "Caption number \(id), laid out by a worker"
        layout.width = 200
        // A background makes it work for the pool, not the loop (`isSmallLayoutWork`).
        var background = Layoutd_V1_BackgroundSpec()
        background.kind = .perLine
        layout.backgrounds = [background]
        return try Framing.encode(ConnectionHandlerTests.envelope(id, .layout(layout)))
    }

    @Test func repliesTheWorkersFinishTogetherAreFlushedOnce() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        defer { try? pool.syncShutdownGracefully() }
        let counter = ReplyFlushTests.FlushCounter()
        let box = HandlerBox()
        let path = "/tmp/layoutd-flush-\(getpid()).sock"
        unlink(path)
        let server = try ServerBootstrap(group: group).childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                let handler = ConnectionHandler(
                    processors: ProcessorSwitch(ConnectionHandlerTests.processor, loader: nil, timeoutSeconds: 60), pool: pool,
                    tracker: InFlightTracker(), limiter: ConnectionLimiter(maxTotal: 4, maxPerUser: 4),
                    configuration: ConnectionHandlerTests.configuration, logger: Logger(label: "test"))
                box.handler = handler
                try channel.pipeline.syncOperations.addHandler(counter)
                try channel.pipeline.syncOperations.addHandler(handler)
            }
        }.bind(unixDomainSocketPath: path).wait()
        defer {
            try? server.close().wait()
            unlink(path)
        }

        // The pool's one thread waits: the requests queue behind it. (Signalled again on the way
        // out, so a failed step never leaves the pool's shutdown waiting on it.)
        let poolGate = DispatchSemaphore(value: 0)
        pool.submit { _ in poolGate.wait() }
        defer { poolGate.signal() }
        let client = try RawConnection(path: path, timeout: 30)
        try #require(client.write(try (1...8).flatMap { try Self.poolFrame($0) }))
        // Until the loop has read all eight and handed them to the pool.
        var waited = 0
        while try loop.submit({ box.handler?.state.inFlight ?? 0 }).wait() < 8 {
            waited += 1
            try #require(waited < 10_000, "the requests never reached the pool")
            usleep(1_000)
        }
        // The loop waits while the pool answers all eight (a marker behind them says when).
        let loopGate = DispatchSemaphore(value: 0), poolDone = DispatchSemaphore(value: 0)
        loop.execute { loopGate.wait() }
        poolGate.signal()
        pool.submit { _ in poolDone.signal() }
        poolDone.wait()
        loopGate.signal()

        let replies = try client.replies(8)
        #expect(replies.map(\.requestID) == Array(1...8))
        #expect(replies.allSatisfy { if case .layoutReply = $0.body { true } else { false } }, "\(replies.map(\.body))")
        let (writes, flushes) = try loop.submit { (counter.writes, counter.flushes) }.wait()
        #expect(writes == 8)
        #expect(flushes == 1, "eight replies finished together were flushed \(flushes) times")
    }
}
