import LayoutEngine

/// Requests counted by type, and their latencies in histogram buckets, split by thread
/// (`ThreadShard`): every request of every core records here, so one lock (or one histogram's)
/// for all would be met by all of them (docs/performance.md, "Scaling"). A scrape adds the
/// shards up and writes the two families in Prometheus' text format, as the registry writes the
/// rest (`ServerMetrics.exposition`).
final class RequestMetrics: Sendable {
    /// Bucket bounds in seconds, from 50 µs (a warm caption) to 5 s (the request budget), with
    /// their labels as Prometheus clients print them.
    static let bounds: [Double] = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                   1, 2.5, 5]
    static let labels = ["0.00005", "0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1",
                         "0.25", "0.5", "1.0", "2.5", "5.0"]

    /// One request type's counts in one shard. Types are static strings from one switch, found
    /// by their address: a few compares, where hashing a String cost more than the rest.
    private struct Series {
        var key: UInt
        var type: String
        var count: UInt64 = 0
        var sum: Double = 0
        /// Observations per bucket (not cumulative); the last is past every bound.
        var buckets = [UInt64](repeating: 0, count: RequestMetrics.bounds.count + 1)
    }

    private let shards = Shards<[Series]>(count: 8) { [] }

    func record(type: StaticString, seconds: Double) {
        let key = UInt(bitPattern: type.utf8Start)
        var bucket = 0
        while bucket < Self.bounds.count && seconds > Self.bounds[bucket] { bucket += 1 }
        shards.withThreadShard { series in
            let index: Int
            if let found = series.firstIndex(where: { $0.key == key }) {
                index = found
            } else {
                series.append(Series(key: key, type: type.description))
                index = series.count - 1
            }
            series[index].count += 1
            series[index].sum += seconds
            series[index].buckets[bucket] += 1
        }
    }

    /// `layoutd_requests_total` and `layoutd_request_duration_seconds`, every shard added up.
    func exposition() -> String {
        var merged: [String: Series] = [:]
        var order: [String] = []
        for series in shards.map({ $0 }) {
            for one in series {
                if var known = merged[one.type] {
                    known.count += one.count
                    known.sum += one.sum
                    for bucket in known.buckets.indices { known.buckets[bucket] += one.buckets[bucket] }
                    merged[one.type] = known
                } else {
                    merged[one.type] = one
                    order.append(one.type)
                }
            }
        }
        guard !order.isEmpty else { return "" }
        var text = "# HELP layoutd_requests_total Requests the server worked on, by type.\n# TYPE layoutd_requests_total counter\n"
        for type in order { text += "layoutd_requests_total{type=\"\(type)\"} \(merged[type]!.count)\n" }
        text += "# HELP layoutd_request_duration_seconds Time from a decoded request to its encoded reply, by type.\n"
            + "# TYPE layoutd_request_duration_seconds histogram\n"
        for type in order {
            let series = merged[type]!
            var cumulative: UInt64 = 0
            for (bucket, label) in Self.labels.enumerated() {
                cumulative += series.buckets[bucket]
                text += "layoutd_request_duration_seconds_bucket{type=\"\(type)\",le=\"\(label)\"} \(cumulative)\n"
            }
            text += "layoutd_request_duration_seconds_bucket{type=\"\(type)\",le=\"+Inf\"} \(series.count)\n"
            text += "layoutd_request_duration_seconds_sum{type=\"\(type)\"} \(series.sum)\n"
            text += "layoutd_request_duration_seconds_count{type=\"\(type)\"} \(series.count)\n"
        }
        return text
    }
}
