import Foundation
import LayoutWire
import Testing
@testable import LayoutServer

/// A client that shuts its writing side after its last request (`nc -N`, a script fed from a
/// pipe) and reads on gets every reply, then the daemon closes: NIO tells the handler of the end
/// of the input instead of closing (`allowRemoteHalfClosure`). Work on the pool, frames waiting
/// past the connection's limits, a large frame decoded on the pool, a batch and a reload are all
/// answered first; a frame left unfinished is named. A client that closes outright is still seen
/// as gone (`CostlyRequestTests.queuedWorkOfAClosedConnectionIsCancelled`).
@Suite(.serialized) struct HalfCloseTests {
    /// Everything `connection` receives until the daemon closes it, as replies; throws if it
    /// stays open past `seconds`.
    static func repliesUntilClosed(_ connection: RawConnection, seconds: Double = 60) throws -> [Layoutd_V1_Envelope] {
        var received: [UInt8] = []
        guard connection.waitForClose(seconds: seconds, received: &received) else {
            throw HarnessError("the daemon did not close the connection within \(seconds) s (\(received.count) bytes came)")
        }
        let replies = try takeReplies(from: &received)
        guard received.isEmpty else { throw HarnessError("\(received.count) bytes of an unfinished reply before the close") }
        return replies
    }

    static func envelope(_ id: UInt64, _ body: Layoutd_V1_Envelope.OneOf_Body) throws -> [UInt8] {
        try Framing.encode(ConnectionHandlerTests.envelope(id, body))
    }

    static func isLayoutReply(_ reply: Layoutd_V1_Envelope) -> Bool {
        if case .layoutReply = reply.body { true } else { false }
    }

    @Test func everyRequestSentBeforeTheEndOfTheInputIsAnsweredThenTheConnectionCloses() throws {
        let daemon = try Daemon()
        let client = try RawConnection(path: daemon.socketPath, timeout: 30)
        // Odd ids are answered on the loop, even ones (with a background) on the pool.
        var requests: [UInt8] = []
        for id in UInt64(1)...16 {
            requests += id % 2 == 0 ? try WorkerReplyFlushTests.poolFrame(id)
                : try Self.envelope(id, .layout(layoutRequest("Caption \(id), answered on the loop")))
        }
        requests += try Self.envelope(17, .hello(.init()))
        try #require(client.write(requests))
        client.shutWritingSide()
        let replies = try Self.repliesUntilClosed(client)
        #expect(Set(replies.map(\.requestID)) == Set(1...17) && replies.count == 17, "\(replies.map(\.requestID))")
        #expect(replies.filter(Self.isLayoutReply).count == 16, "\(replies.map(\.body))")
        #expect(daemon.process.isRunning)
    }

    @Test func aLargeFrameDecodedOnThePoolIsAnsweredAfterTheEndOfTheInput() throws {
        let daemon = try Daemon()
        let client = try RawConnection(path: daemon.socketPath, timeout: 30)
        // Past 64 KiB: decoded on the pool, then handed on, one request from the decode to the layout.
        let text = String(repeating: "a frame too large for the loop to decode ", count: 2_000)
        let frame = try Self.envelope(1, .layout(layoutRequest(text, width: 2_000)))
        try #require(frame.count > ConnectionHandler.inlineDecodeBytes)
        try #require(client.write(frame))
        client.shutWritingSide()
        let replies = try Self.repliesUntilClosed(client)
        #expect(replies.map(\.requestID) == [1])
        #expect(replies.allSatisfy(Self.isLayoutReply), "\(replies.map(\.body))")
    }

    @Test func aBatchIsAnsweredWholeAfterTheEndOfTheInput() throws {
        let daemon = try Daemon()
        let client = try RawConnection(path: daemon.socketPath, timeout: 30)
        let texts = BatchServerTests.texts(3_000)
        try #require(client.write(try Self.envelope(1, .batchLayout(BatchServerTests.batch(texts)))))
        client.shutWritingSide()
        let replies = try Self.repliesUntilClosed(client)
        let items = replies.compactMap { reply -> Layoutd_V1_BatchItemReply? in
            if case .batchItem(let item) = reply.body { item } else { nil }
        }
        #expect(items.count == replies.count, "\(replies.map(\.body).filter { if case .batchItem = $0 { false } else { true } })")
        #expect(items.count == texts.count)
        #expect(items.enumerated().allSatisfy { $0.offset == Int($0.element.index) }, "every item once, in order")
    }

    @Test func aReloadIsAnsweredAfterTheEndOfTheInput() throws {
        let daemon = try Daemon()
        let client = try RawConnection(path: daemon.socketPath, timeout: 30)
        try #require(client.write(try Self.envelope(1, .reload(.init()))))
        client.shutWritingSide()
        let replies = try Self.repliesUntilClosed(client)
        #expect(replies.map(\.requestID) == [1])
        #expect(replies.allSatisfy { if case .reloadReply = $0.body { true } else { false } }, "\(replies.map(\.body))")
    }

    @Test func aFrameLeftUnfinishedIsNamedAfterTheWholeOnesAreAnswered() throws {
        let daemon = try Daemon()
        let client = try RawConnection(path: daemon.socketPath, timeout: 30)
        let whole = try WorkerReplyFlushTests.poolFrame(1)
        try #require(client.write(whole + whole.prefix(9)))
        client.shutWritingSide()
        let replies = try Self.repliesUntilClosed(client)
        #expect(replies.map(\.requestID) == [1, 0])
        #expect(replies.first.map(Self.isLayoutReply) == true, "\(replies.map(\.body))")
        let error = replies.last?.errorReply
        #expect(error?.code == .invalidArgument && error?.field == "frame", "\(String(describing: error))")
        #expect(error?.message.contains("9 bytes") == true, "\(String(describing: error))")
    }

    @Test func aClientThatSendsNothingIsClosedWithoutAWord() throws {
        let daemon = try Daemon(arguments: ["--idle-timeout", "300"])
        let client = try RawConnection(path: daemon.socketPath, timeout: 30)
        client.shutWritingSide()
        // Well within the idle timeout: the end of the input closes it.
        #expect(try Self.repliesUntilClosed(client, seconds: 20).isEmpty)
    }

    /// Frames that wait in the connection's buffer past its limit of requests in flight when the
    /// input ends are taken and answered as the requests before them finish. Held on a real
    /// event loop and socket: the pool is held until the input has ended.
    @Test func framesWaitingPastTheLimitWhenTheInputEndsAreAnswered() throws {
        var configuration = ConnectionHandlerTests.configuration
        configuration.maxInFlightPerConnection = 2
        configuration.idleTimeoutSeconds = 300
        let server = try LoopServer(name: "half-close", configuration: configuration)
        defer { server.shutdown() }
        let poolGate = server.holdPool()
        defer { poolGate.signal() }
        let client = try RawConnection(path: server.path, timeout: 30)
        try #require(client.write(try (1...5).flatMap { try WorkerReplyFlushTests.poolFrame($0) }))
        client.shutWritingSide()
        try server.waitOnLoop(for: "the end of the input with two requests in flight") { $0.state.inputEnded && $0.state.inFlight == 2 }
        poolGate.signal()
        let replies = try Self.repliesUntilClosed(client, seconds: 20)
        #expect(replies.map(\.requestID) == [1, 2, 3, 4, 5])
        #expect(replies.allSatisfy(Self.isLayoutReply), "\(replies.map(\.body))")
    }
}
