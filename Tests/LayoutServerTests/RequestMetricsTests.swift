import Dispatch
import Testing
@testable import LayoutServer

/// Request counts and latencies kept in shards by thread add up to what was recorded, from any
/// number of threads, with Prometheus' inclusive bucket bounds.
@Suite struct RequestMetricsTests {
    static func sample(_ text: String, _ series: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test func everyThreadsRecordsAddUp() {
        let metrics = RequestMetrics()
        DispatchQueue.concurrentPerform(iterations: 16) { thread in
            for k in 0..<1_000 { metrics.record(type: thread % 2 == 0 ? "layout" : "justify", seconds: k % 2 == 0 ? 0.0001 : 0.003) }
        }
        let text = metrics.exposition()
        #expect(Self.sample(text, #"layoutd_requests_total{type="layout"}"#) == 8_000)
        #expect(Self.sample(text, #"layoutd_requests_total{type="justify"}"#) == 8_000)
        // 0.0001 s sits on a bound: in its bucket (le is inclusive), not the next.
        #expect(Self.sample(text, #"layoutd_request_duration_seconds_bucket{type="layout",le="0.00005"}"#) == 0)
        #expect(Self.sample(text, #"layoutd_request_duration_seconds_bucket{type="layout",le="0.0001"}"#) == 4_000)
        #expect(Self.sample(text, #"layoutd_request_duration_seconds_bucket{type="layout",le="0.0025"}"#) == 4_000)
        #expect(Self.sample(text, #"layoutd_request_duration_seconds_bucket{type="layout",le="0.005"}"#) == 8_000)
        #expect(Self.sample(text, #"layoutd_request_duration_seconds_bucket{type="layout",le="+Inf"}"#) == 8_000)
        #expect(Self.sample(text, #"layoutd_request_duration_seconds_count{type="layout"}"#) == 8_000)
        let sum = Self.sample(text, #"layoutd_request_duration_seconds_sum{type="layout"}"#) ?? 0
        #expect(abs(sum - 4_000 * 0.0031) < 1e-6)
        #expect(text.components(separatedBy: "# TYPE layoutd_request_duration_seconds histogram").count == 2)
    }

    @Test func nothingRecordedWritesNothing() {
        #expect(RequestMetrics().exposition().isEmpty)
    }
}
