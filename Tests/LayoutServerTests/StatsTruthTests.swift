import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// Stats count what happened: error replies that answered no request (garbage bodies, refused
/// frames) are refusals, not requests served in 0 µs, and only requests the server worked on
/// have latencies, so an attack cannot pull the percentiles down (issue 17).
@Suite struct StatsTruthTests {
    static func stats(_ client: LayoutClient) throws -> Layoutd_V1_StatsReply {
        guard case .statsReply(let stats) = try client.request(.stats(.init())) else { throw HarnessError("no stats") }
        return stats
    }

    @Test func garbageAndCancelledRequestsDoNotMoveTheLatencies() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        for k in 0..<20 { _ = try client.call(.layout(layoutRequest("a caption of some length, number \(k)"))) }
        let before = try Self.stats(client)
        #expect(before.latencyP50Us > 0 && before.latencyP90Us > 0)

        // 200 bodies that are no Envelope: each gets MALFORMED, and counts as a refusal.
        let garbage = try daemon.client()
        for _ in 0..<200 { try garbage.sendRaw([0, 0, 0, 3, 0xFF, 0xFF, 0xFF]) }
        for _ in 0..<200 { #expect(try garbage.receive().errorReply?.code == .malformed) }
        // A frame over the limit: refused, and the connection closed.
        let large = try daemon.client()
        try large.sendRaw([0x7F, 0xFF, 0xFF, 0xFF])
        #expect(try large.receive().errorReply?.code == .resourceExhausted)

        let after = try Self.stats(client)
        #expect(after.refused - before.refused == 201, "\(after.refused - before.refused) refusals")
        // The stats request itself is the only request in between (answered after its snapshot).
        #expect(after.requestsServed - before.requestsServed <= 1, "\(before.requestsServed) → \(after.requestsServed)")
        #expect(after.errors == before.errors, "\(before.errors) → \(after.errors)")
        #expect(after.latencyP50Us >= before.latencyP50Us * 0.5 && after.latencyP90Us > 0,
                "p50 \(before.latencyP50Us) → \(after.latencyP50Us), p90 \(before.latencyP90Us) → \(after.latencyP90Us)")
    }
}
