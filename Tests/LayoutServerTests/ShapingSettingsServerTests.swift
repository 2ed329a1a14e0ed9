import Foundation
import LayoutProtocol
import LayoutdClient
import Testing

/// A daemon sent hundreds of distinct feature values and languages keeps what HarfBuzz holds of
/// them bounded (`ShapingSettings`): past 256 settings, each is shaped on a face made for the
/// call. Every request is still answered as a fresh daemon answers it, and the metrics say how
/// many settings are kept and how many calls went past them.
@Suite(.serialized) struct ShapingSettingsServerTests {
    static func request(_ index: Int) -> Layoutd_V1_LayoutRequest {
        var request = layoutRequest("office affluent \(index)")
        var feature = Layoutd_V1_Feature()
        (feature.tag, feature.value) = (index % 2 == 0 ? "salt" : "liga", UInt32(index / 2))
        request.defaultStyle.features = [feature]
        // A private-use tag: no OpenType language system, so the primary subtag a setting past
        // the limit is shaped with (none) shapes as the whole tag does.
        request.defaultStyle.language = "x-client\(index)"
        return request
    }

    static func prometheus(_ client: LayoutClient) throws -> String {
        var stats = Layoutd_V1_StatsRequest()
        stats.prometheus = true
        guard case .statsReply(let reply) = try client.call(.stats(stats)).body else { throw HarnessError("no stats reply") }
        return reply.prometheusText
    }

    @Test func settingsPastTheLimitAreShapedOnTwinsAndAnsweredAlike() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        let count = 320
        var replies: [Layoutd_V1_LayoutReply] = []
        for index in 0..<count {
            let reply = try client.call(.layout(Self.request(index)))
            replies.append(try #require(reply.layoutReply, "\(reply)"))
        }
        let text = try Self.prometheus(client)
        #expect(MetricsTests.sample(text, "layoutd_shaping_settings_kept") == 256, "\(text)")
        // Each request past the 256th made one twin at least (one shaping call per run).
        #expect((MetricsTests.sample(text, "layoutd_shaping_twin_shapes_total") ?? 0) >= Double(count - 256), "\(text)")
        // The plain request still shapes with the plan the face keeps, as before.
        #expect(try client.call(.layout(layoutRequest("plain"))).layoutReply != nil)

        // A fresh daemon keeps the last 64 settings (the first daemon shaped them on twins):
        // the same glyphs, positions and advances.
        let fresh = try Daemon()
        let freshClient = try fresh.client()
        for index in 256..<count {
            let reply = try #require(try freshClient.call(.layout(Self.request(index))).layoutReply)
            #expect(reply == replies[index], "request \(index)")
        }
        let freshText = try Self.prometheus(freshClient)
        #expect(MetricsTests.sample(freshText, "layoutd_shaping_settings_kept") == Double(count - 256))
        #expect(MetricsTests.sample(freshText, "layoutd_shaping_twin_shapes_total") == 0)
    }
}
