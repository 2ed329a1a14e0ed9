import Foundation
import LayoutdClient
import LayoutWire
import SwiftProtobuf
import Testing
import TestSupport

/// The rules for request ids (docs/protocol.md, "Request ids"): non-zero, unique among the
/// connection's requests in flight, free again once answered.
@Suite(.serialized) struct RequestIdTests {
    let daemon: Daemon

    init() throws { daemon = try Daemon() }

    /// A layout large enough for the pool, so that it is in flight while the next frame is read.
    static func slowLayout(_ id: UInt64) -> Layoutd_V1_Envelope {
        .with {
            $0.requestID = id
            $0.layout = .with { $0.text = String(repeating: "layout words go on ", count: 4_000); $0.width = 90 }
        }
    }

    @Test func idZeroIsRefusedNamingTheField() throws {
        let client = try daemon.client()
        for body in [Layoutd_V1_Envelope.OneOf_Body.hello(.init()), .layout(.with { $0.text = "x"; $0.width = 100 }),
                     .layout(Self.slowLayout(1).layout)] {
            try client.send(.with { $0.body = body })
            let reply = try client.receive()
            #expect(reply.requestID == 0)
            #expect(reply.errorReply?.code == .invalidArgument && reply.errorReply?.field == "envelope.request_id",
                    "\(reply)")
            #expect(reply.errorReply?.message.contains("start at 1") == true)
        }
        // The connection goes on.
        guard case .helloReply = try client.request(.hello(.init())) else { Issue.record("no hello after id 0"); return }
    }

    @Test func anIdInFlightIsRefusedAndTheFirstIsStillAnswered() throws {
        let client = try daemon.client()
        try client.sendRaw(try Framing.encode(Self.slowLayout(5)) + Framing.encode(Self.slowLayout(5)))
        let replies = [try client.receive(), try client.receive()]
        #expect(replies.map(\.requestID) == [5, 5])
        let refusals = replies.compactMap(\.errorReply)
        #expect(refusals.count == 1 && refusals.first?.code == .invalidArgument && refusals.first?.field == "envelope.request_id",
                "\(replies.map(\.body))")
        #expect(refusals.first?.message.contains("still in flight") == true)
        #expect(replies.contains { if case .layoutReply = $0.body { true } else { false } })
        // Answered, the id is free again.
        try client.send(Self.slowLayout(5))
        guard case .layoutReply = try client.receive(id: 5).body else { Issue.record("id 5 not usable after its reply"); return }
    }

    @Test func aCancelWithIdZeroStillCancels() throws {
        // A Cancel gets no reply, so its own envelope's id is not checked; the id it names is.
        let client = try daemon.client()
        try client.sendRaw(try Framing.encode(Self.slowLayout(9)) + Framing.encode(.with { $0.cancel = .with { $0.requestID = 9 } }))
        let reply = try client.receive(id: 9)
        #expect(reply.errorReply?.code == .cancelled || { if case .layoutReply = reply.body { true } else { false } }())
        guard case .helloReply = try client.request(.hello(.init())) else { Issue.record("no hello after the cancel"); return }
    }
}
