import Foundation
import Synchronization

/// Counters and recent latencies, shared by every connection.
public final class ServerStats: Sendable {
    private struct State {
        var served: UInt64 = 0
        var errors: UInt64 = 0
        var refused: UInt64 = 0
        var open: UInt64 = 0
        var total: UInt64 = 0
        /// The latest `window` latencies, in microseconds, as a ring.
        var latencies: [Double] = []
        var next = 0
    }

    private static let window = 4096
    private let state = Mutex(State())
    let started = Date()
    /// Prometheus metrics, kept beside the counters (and across reloads with them).
    public let metrics = ServerMetrics()

    public init() {}

    func connectionOpened() { state.withLock { $0.open += 1; $0.total += 1 } }
    func connectionClosed() { state.withLock { $0.open -= 1 } }

    func record(microseconds: Double, failed: Bool) {
        state.withLock { s in
            s.served += 1
            if failed { s.errors += 1 }
            if s.latencies.count < Self.window { s.latencies.append(microseconds) } else { s.latencies[s.next] = microseconds }
            s.next = (s.next + 1) % Self.window
        }
    }

    /// A request answered with an error before any work on it (cancelled, past its deadline,
    /// the server shutting down): a request and an error, but no latency, which would say
    /// nothing of how fast requests are served and pull the percentiles down under attack.
    func recordRejected() { state.withLock { $0.served += 1; $0.errors += 1 } }

    /// An error reply that answered no request: a connection or frame refused, a body that is
    /// not an Envelope.
    func recordRefusal() { state.withLock { $0.refused += 1 } }

    /// A request already counted as answered turned out to fail after all (its reply was too
    /// large to send): one more error, not one more request.
    func recordLateFailure() { state.withLock { $0.errors += 1 } }

    struct Snapshot {
        var served, errors, refused, open, total: UInt64
        var p50, p90, p99: Double
    }

    func snapshot() -> Snapshot {
        let (s, sorted) = state.withLock { ($0, $0.latencies) }
        let ordered = sorted.sorted()
        func percentile(_ p: Double) -> Double {
            ordered.isEmpty ? 0 : ordered[min(ordered.count - 1, Int(saturating: (Double(ordered.count - 1) * p).rounded()))]
        }
        return Snapshot(served: s.served, errors: s.errors, refused: s.refused, open: s.open, total: s.total,
                        p50: percentile(0.5), p90: percentile(0.9), p99: percentile(0.99))
    }
}
