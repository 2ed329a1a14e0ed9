import Foundation
import LayoutWire
import Testing
@testable import LayoutServer

/// A connection at its limit of requests in flight stops reading; once a reply takes it back
/// under the limit, it makes the read it owes, and what its client sent meanwhile is answered.
/// The daemon's connections do not read by themselves (`autoRead` off): without that read the
/// client would wait forever. Held on a real event loop and socket: the pool is held until the
/// loop owes the read and the client has sent the rest, so the order is fixed and nothing is timed.
@Suite(.serialized) struct OwedReadTests {
    @Test func aConnectionBackUnderItsLimitReadsWhatArrivedMeanwhile() throws {
        var configuration = ConnectionHandlerTests.configuration
        configuration.maxInFlightPerConnection = 2
        let server = try LoopServer(name: "owed-read", configuration: configuration)
        defer { server.shutdown() }
        let (loop, pool, box, path) = (server.loop, server.pool, server.box, server.path)

        // The pool's one thread waits: the first two requests stay in flight. (Signalled again on
        // the way out, so a failed step never leaves the pool's shutdown waiting on it.)
        let poolGate = DispatchSemaphore(value: 0)
        pool.submit { _ in poolGate.wait() }
        defer { poolGate.signal() }
        let client = try RawConnection(path: path, timeout: 30)
        try #require(client.write(try (1...2).flatMap { try WorkerReplyFlushTests.poolFrame($0) }))
        // Until the loop holds both and owes its next read.
        var waited = 0
        while try !loop.submit({ box.handler.map { $0.state.inFlight == 2 && $0.state.readOwed } ?? false }).wait() {
            waited += 1
            try #require(waited < 10_000, "the connection never reached its limit")
            usleep(1_000)
        }
        // Sent while the connection is not read: only the owed read takes them in.
        try #require(client.write(try (3...4).flatMap { try WorkerReplyFlushTests.poolFrame($0) }))
        poolGate.signal()

        let replies = try client.replies(4)
        #expect(replies.map(\.requestID) == [1, 2, 3, 4])
        #expect(replies.allSatisfy { if case .layoutReply = $0.body { true } else { false } }, "\(replies.map(\.body))")
    }
}
