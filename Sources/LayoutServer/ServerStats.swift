import Foundation
import LayoutEngine
import Synchronization

/// Counters and recent latencies, shared by every connection.
///
/// Every request is counted here, from whichever thread answered it, so the counts are split by
/// thread (`ThreadShard`), each shard with its own lock, counters and ring of latencies; a
/// snapshot adds the shards up. The percentiles are over the latest `window` requests of all
/// shards together (each keeps its share).
public final class ServerStats: Sendable {
    private struct State {
        var served: UInt64 = 0
        var errors: UInt64 = 0
        var refused: UInt64 = 0
        var open: UInt64 = 0
        var total: UInt64 = 0
        /// The latest latencies, in microseconds, as a ring.
        var latencies: [Double] = []
        var next = 0
    }

    private static let window = 4096
    private static let shardCount = 8
    private let shards = Shards<State>(count: ServerStats.shardCount) { State() }
    let started = Date()
    /// Prometheus metrics, kept beside the counters (and across reloads with them).
    public let metrics = ServerMetrics()

    public init() {}

    private func withState(_ body: (inout State) -> Void) {
        shards.withThreadShard { body(&$0) }
    }

    // A connection opened on one thread may close on another: the shards' sums are right.
    func connectionOpened() { withState { $0.open &+= 1; $0.total += 1 } }
    func connectionClosed() { withState { $0.open &-= 1 } }

    func record(microseconds: Double, failed: Bool) {
        withState { s in
            s.served += 1
            if failed { s.errors += 1 }
            let share = Self.window / Self.shardCount
            if s.latencies.count < share { s.latencies.append(microseconds) } else { s.latencies[s.next] = microseconds }
            s.next = (s.next + 1) % share
        }
    }

    /// A request answered with an error before any work on it (cancelled, past its deadline,
    /// the server shutting down): a request and an error, but no latency, which would say
    /// nothing of how fast requests are served and pull the percentiles down under attack.
    func recordRejected() { withState { $0.served += 1; $0.errors += 1 } }

    /// An error reply that answered no request: a connection or frame refused, a body that is
    /// not an Envelope.
    func recordRefusal() { withState { $0.refused += 1 } }

    /// A request already counted as answered turned out to fail after all (its reply was too
    /// large to send): one more error, not one more request.
    func recordLateFailure() { withState { $0.errors += 1 } }

    struct Snapshot {
        var served, errors, refused, open, total: UInt64
        var p50, p90, p99: Double
    }

    func snapshot() -> Snapshot {
        var s = State()
        var all: [Double] = []
        for one in shards.map({ $0 }) {
            s.served += one.served
            s.errors += one.errors
            s.refused += one.refused
            s.open &+= one.open
            s.total += one.total
            all += one.latencies
        }
        let ordered = all.sorted()
        func percentile(_ p: Double) -> Double {
            ordered.isEmpty ? 0 : ordered[min(ordered.count - 1, Int(saturating: (Double(ordered.count - 1) * p).rounded()))]
        }
        return Snapshot(served: s.served, errors: s.errors, refused: s.refused, open: s.open, total: s.total,
                        p50: percentile(0.5), p90: percentile(0.9), p99: percentile(0.99))
    }
}
