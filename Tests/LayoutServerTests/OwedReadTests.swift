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

        // The pool's one thread waits: the first two requests stay in flight.
        let poolGate = server.holdPool()
        defer { poolGate.signal() }
        let client = try RawConnection(path: server.path, timeout: 30)
        try #require(client.write(try (1...2).flatMap { try WorkerReplyFlushTests.poolFrame($0) }))
        try server.waitOnLoop(for: "the connection reaching its limit and owing its read") { $0.state.inFlight == 2 && $0.state.readOwed }
        // Sent while the connection is not read: only the owed read takes them in.
        try #require(client.write(try (3...4).flatMap { try WorkerReplyFlushTests.poolFrame($0) }))
        poolGate.signal()

        let replies = try client.replies(4)
        #expect(replies.map(\.requestID) == [1, 2, 3, 4])
        #expect(replies.allSatisfy { if case .layoutReply = $0.body { true } else { false } }, "\(replies.map(\.body))")
    }
}
