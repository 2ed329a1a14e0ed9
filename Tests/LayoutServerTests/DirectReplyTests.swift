import Foundation
import LayoutWire
import Testing
@testable import LayoutServer

/// A lone reply made on the event loop goes straight to the socket (`sendDirectly`), past NIO's
/// write path, and so do the replies of a pass over pipelined frames, joined in one write; what
/// the socket will not take goes through NIO, and so does every reply after it until NIO holds
/// none of its bytes. Held on a real event loop and socket, with a counter of
/// what passes through NIO's pipeline: the client reads one stream of whole frames, in order,
/// each the processor's reply to its request, whichever way each went.
@Suite(.serialized) struct DirectReplyTests {
    /// Replies written straight, those cut short, and writes passed to NIO, read on the loop.
    static func ways(_ server: LoopServer) throws -> (direct: Int, cutShort: Int, throughNIO: Int) {
        try server.loop.submit { [box = server.box, counter = server.counter] in
            (box.handler?.directReplies ?? 0, box.handler?.directRepliesCutShort ?? 0, counter.writes)
        }.wait()
    }

    /// Waits until `count` replies in all have left the handler, either way.
    static func waitForReplies(_ count: Int, _ server: LoopServer) throws {
        var waited = 0
        while true {
            // A reply cut short is one direct reply and one write through NIO.
            let (direct, cut, nio) = try ways(server)
            if direct + nio - cut >= count { return }
            waited += 1
            try #require(waited < 10_000, "\(direct + nio - cut) of \(count) replies left the handler")
            usleep(1_000)
        }
    }

    /// The tests' limits, with frames up to a megabyte and no idle timeout in the way.
    static let configuration = ServerConfiguration(maxFrameBytes: 1 << 20, idleTimeoutSeconds: 60, frameTimeoutSeconds: 30)

    /// A layout request of under a kilobyte (answered on the loop) whose reply is about 15 KB.
    static func longLayout(_ id: UInt64) -> Layoutd_V1_Envelope {
        var layout = Layoutd_V1_LayoutRequest()
        layout.text = String(repeating: "Reply \(id % 10) spills past the socket. ", count: 25)
        layout.width = 320
        return ConnectionHandlerTests.envelope(id, .layout(layout))
    }

    /// What the processor answers to `envelope`, decoded as the client decodes it.
    static func expected(_ envelope: Layoutd_V1_Envelope) throws -> Layoutd_V1_Envelope {
        let frame = try ConnectionHandlerTests.processor.replyFrame(to: envelope)
        return try Layoutd_V1_Envelope(serializedBytes: Array(frame.dropFirst(Framing.headerBytes)))
    }

    @Test func aLoneReplyGoesStraightToTheSocket() throws {
        let server = try LoopServer(name: "direct", configuration: Self.configuration)
        defer { server.shutdown() }
        let client = try RawConnection(path: server.path, timeout: 30)
        for id in UInt64(1)...3 {
            let request = Self.longLayout(id)
            try #require(client.write(try Framing.encode(request)))
            #expect(try client.replies(1) == [try Self.expected(request)], "reply \(id)")
        }
        let ways = try Self.ways(server)
        #expect(ways.direct == 3 && ways.throughNIO == 0, "\(ways)")

        // Two read together: joined at the end of their pass, one write straight to the socket.
        let pair = [Self.longLayout(4), Self.longLayout(5)]
        try #require(client.write(try pair.flatMap { try Framing.encode($0) }))
        #expect(try client.replies(2) == (try pair.map(Self.expected)))
        let lone = Self.longLayout(6)
        try #require(client.write(try Framing.encode(lone)))
        #expect(try client.replies(1) == [try Self.expected(lone)])
        let after = try Self.ways(server)
        #expect(after.direct == 5 && after.throughNIO == 0, "\(after)")
    }

    /// A client that sends lone requests and reads nothing, on a socket whose buffer holds less
    /// than a reply: the reply the socket cuts short is finished through NIO, and the replies
    /// after it queue there behind it. Read at last, every frame is whole and in order; once NIO
    /// has written everything, replies go straight again.
    @Test func whatTheSocketWillNotTakeFollowsThroughNIOInOrder() throws {
        let server = try LoopServer(name: "direct", configuration: Self.configuration, sendBuffer: 4_096)
        defer { server.shutdown() }
        let client = try RawConnection(path: server.path, timeout: 30)
        var requests: [Layoutd_V1_Envelope] = []
        func send() throws {
            requests.append(Self.longLayout(UInt64(requests.count + 1)))
            try #require(client.write(try Framing.encode(requests.last!)))
            try Self.waitForReplies(requests.count, server)
        }
        // Until a reply goes through NIO, then two more behind it (under NIO's high-water mark,
        // past which the connection would stop taking frames until the client reads).
        while try Self.ways(server).throughNIO == 0 {
            try send()
            let ways = try Self.ways(server)
            try #require(requests.count < 40, "40 replies went whole into a socket of a few kilobytes: \(ways)")
        }
        try send()
        try send()
        let filled = try Self.ways(server)
        #expect(filled.direct >= 1 && filled.cutShort >= 1 && filled.throughNIO >= 3, "\(filled)")
        #expect(try client.replies(requests.count) == (try requests.map(Self.expected)))

        let next = Self.longLayout(UInt64(requests.count + 1))
        try #require(client.write(try Framing.encode(next)))
        #expect(try client.replies(1) == [try Self.expected(next)])
        let drained = try Self.ways(server)
        #expect(drained.direct == filled.direct + 1, "\(filled) then \(drained)")
    }
}
