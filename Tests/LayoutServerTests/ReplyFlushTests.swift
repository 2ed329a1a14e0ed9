import LayoutWire
import NIOCore
import NIOEmbedded
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
