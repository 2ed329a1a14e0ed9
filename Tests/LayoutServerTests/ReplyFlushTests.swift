import Foundation
import LayoutWire
import Logging
import NIOCore
import NIOEmbedded
import NIOPosix
import Testing
@testable import LayoutServer

/// Replies answered on the loop for frames read together are joined and go out in one write and
/// one flush at the end of their pass; a lone request is flushed at once.
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

    @Test func eightPipelinedLayoutsAreWrittenAndFlushedOnce() throws {
        let (harness, counter) = try Self.counted()
        try harness.send((1...8).flatMap { try! Self.layoutFrame($0) })
        #expect(try harness.replies().map(\.requestID) == Array(1...8))
        #expect(counter.writes == 1)
        #expect(counter.flushes == 1)
    }

    /// A pass whose replies pass `HeldReplies.handOverBytes` hands them to the channel as they
    /// reach it (NIO's watermarks see them), still flushed once; the bytes on the wire are the
    /// processor's frames, in order, whichever buffer carried them.
    @Test func aLongPassHandsItsRepliesOverAsTheyGrow() throws {
        let (harness, counter) = try Self.counted()
        let requests = (UInt64(1)...60).map { id in
            var layout = Layoutd_V1_LayoutRequest()
            layout.text = "Caption \(id) of a long pipeline, laid out on the loop and held for the end of its pass."
            layout.width = 160
            return ConnectionHandlerTests.envelope(id, .layout(layout))
        }
        let expected = try requests.flatMap { try ConnectionHandlerTests.processor.replyFrame(to: $0) }
        try #require(expected.count > 2 * ConnectionHandler.keptReplyBytes, "the replies fill more than two held buffers")
        try harness.send(try requests.flatMap { try Framing.encode($0) })
        var wire: [UInt8] = []
        while let buffer = try harness.channel.readOutbound(as: ByteBuffer.self) { wire += buffer.readableBytesView }
        #expect(wire == expected)
        #expect(counter.writes >= 2 && counter.writes <= expected.count / ConnectionHandler.keptReplyBytes + 1, "\(counter.writes) writes")
        #expect(counter.flushes == 1)
    }

    /// A framing error behind pipelined frames: the replies held for the pass go out before the
    /// farewell, and the connection closes after both.
    @Test func heldRepliesLeaveBeforeAFarewell() throws {
        let (harness, counter) = try Self.counted()
        try harness.send((1...3).flatMap { try! Self.layoutFrame($0) } + [0x7F, 0xFF, 0xFF, 0xFF, 1, 2, 3])
        let replies = try harness.replies()
        #expect(replies.map(\.requestID) == [1, 2, 3, 0])
        guard case .error(let error) = replies.last?.body else {
            Issue.record("no farewell: \(replies)")
            return
        }
        #expect(error.code == .resourceExhausted && error.field == "frame")
        #expect(counter.writes == 2, "the held replies, then the farewell")
        #expect(!harness.channel.isActive)
    }

    /// The held buffer's rules on their own: replies join in order, the buffer is full at its
    /// limit, storage written straight is kept unless it grew past the limit, and storage handed
    /// to the channel is not written over by the next reply.
    @Test func heldRepliesJoinAndKeepOnlyWhatIsTheirs() {
        let allocator = ByteBufferAllocator()
        func bytes(_ held: HeldReplies) -> [UInt8]? { held.withBuffer { Array($0.readableBytesView) } }
        func address(_ held: HeldReplies) -> UnsafeRawPointer? {
            held.withBuffer { $0.withUnsafeReadableBytes { UnsafeRawPointer($0.baseAddress) } } ?? nil
        }
        var held = HeldReplies(handOverBytes: 8)
        #expect(held.isEmpty && !held.isFull && held.take() == nil && bytes(held) == nil)
        held.append([1, 2, 3], allocator: allocator)
        held.append([4, 5], allocator: allocator)
        #expect(bytes(held) == [1, 2, 3, 4, 5] && held.count == 5 && !held.isFull)
        // Written straight: emptied; its storage (past 8 bytes: 4,096) is not kept.
        held.written()
        #expect(held.isEmpty && bytes(held) == nil)
        held.append([UInt8](repeating: 9, count: 8), allocator: allocator)
        #expect(held.isFull)
        let handed = held.take()
        #expect(handed.map { Array($0.readableBytesView) } == [UInt8](repeating: 9, count: 8) && held.isEmpty)
        held.append([7], allocator: allocator)
        #expect(handed.map { Array($0.readableBytesView) } == [UInt8](repeating: 9, count: 8))
        #expect(bytes(held) == [7])

        // Storage within the limit, written straight, takes the next pass's replies.
        var kept = HeldReplies(handOverBytes: 1 << 16)
        kept.append([1, 2], allocator: allocator)
        let first = address(kept)
        kept.written()
        #expect(kept.isEmpty && bytes(kept) == [])
        kept.append(ByteBuffer(bytes: [3]).readableBytesView, allocator: allocator)
        #expect(address(kept) == first && bytes(kept) == [3])
    }

    @Test func aLoneRequestIsFlushedAtOnce() throws {
        let (harness, counter) = try Self.counted()
        for id in UInt64(1)...3 {
            try harness.send(try Self.layoutFrame(id))
            #expect(counter.flushes == Int(id), "request \(id) waits for a flush")
        }
        #expect(try harness.replies().map(\.requestID) == [1, 2, 3])
    }

    /// Replies made on the loop go through one buffer the connection keeps: a reply not yet
    /// written (the embedded channel holds it until read) is never overwritten by the next, and
    /// every reply's bytes equal the processor's frame for its request.
    @Test func aKeptReplyBufferNeverOverwritesAQueuedReply() throws {
        let harness = try ConnectionHandlerTests.Harness()
        func layout(_ id: UInt64, _ text: String) -> Layoutd_V1_Envelope {
            var layout = Layoutd_V1_LayoutRequest()
            layout.text = text
            layout.width = 200
            return ConnectionHandlerTests.envelope(id, .layout(layout))
        }
        func outbound() throws -> [[UInt8]] {
            var frames: [[UInt8]] = []
            while let buffer = try harness.channel.readOutbound(as: ByteBuffer.self) { frames.append(Array(buffer.readableBytesView)) }
            return frames
        }
        let texts = ["first", "second, sent while the first is still queued", "third", "a fourth, longer than the others, read at once",
                     "fifth"]
        let expected = try texts.indices.map { try ConnectionHandlerTests.processor.replyFrame(to: layout(UInt64($0 + 1), texts[$0])) }
        // Two queued together, then one at a time, each read at once.
        try harness.send(layout(1, texts[0]))
        try harness.send(layout(2, texts[1]))
        #expect(try outbound() == Array(expected[0..<2]))
        for index in 2..<texts.count {
            try harness.send(layout(UInt64(index + 1), texts[index]))
            #expect(try outbound() == [expected[index]], "request \(index + 1)")
        }
    }

    /// The kept buffer's rules on their own: storage no one else holds is used again, storage
    /// a queued reply holds is not written over, and storage past the limit is not kept.
    @Test func aReplyBufferIsReusedOnlyWhenNoOneElseHoldsIt() {
        let allocator = ByteBufferAllocator()
        var kept: ByteBuffer?
        func address(_ buffer: ByteBuffer) -> UnsafeRawPointer? { buffer.withUnsafeReadableBytes { UnsafeRawPointer($0.baseAddress) } }
        var first: ByteBuffer? = ConnectionHandler.reply([1, 2, 3], reusing: &kept, allocator: allocator, keepingAtMost: 256)
        let firstAddress = address(first!)
        // Still held (queued): the next reply goes elsewhere and the first keeps its bytes.
        let second = ConnectionHandler.reply([4, 5], reusing: &kept, allocator: allocator, keepingAtMost: 256)
        #expect(Array(first!.readableBytesView) == [1, 2, 3])
        #expect(Array(second.readableBytesView) == [4, 5])
        #expect(address(second) != firstAddress)
        #expect(kept.map(address) == address(second))
        first = nil
        // The second let go too: its storage takes the third.
        let secondAddress = address(second)
        _ = consume second
        let third = ConnectionHandler.reply([6, 7, 8, 9], reusing: &kept, allocator: allocator, keepingAtMost: 256)
        #expect(Array(third.readableBytesView) == [6, 7, 8, 9])
        #expect(address(third) == secondAddress)
        _ = consume third
        // Past the limit: answered, not kept.
        let large = ConnectionHandler.reply([UInt8](repeating: 7, count: 1_000), reusing: &kept, allocator: allocator, keepingAtMost: 256)
        #expect(large.readableBytes == 1_000 && kept == nil)
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
        let server = try LoopServer(name: "flush", configuration: ConnectionHandlerTests.configuration)
        defer { server.shutdown() }
        let (loop, pool, counter) = (server.loop, server.pool, server.counter)

        // The pool's one thread waits: the requests queue behind it.
        let poolGate = server.holdPool()
        defer { poolGate.signal() }
        let client = try RawConnection(path: server.path, timeout: 30)
        try #require(client.write(try (1...8).flatMap { try Self.poolFrame($0) }))
        try server.waitOnLoop(for: "all eight requests reaching the pool") { $0.state.inFlight == 8 }
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
