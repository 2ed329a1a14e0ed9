import Foundation
import Metrics
import Prometheus
import Synchronization

/// The daemon's metrics, kept with swift-metrics types on a Prometheus registry of its own
/// (not the process-wide bootstrap, so processors in tests and the fuzzer stay separate):
/// requests and errors by type and code, latency histograms per request type, and gauges read
/// when scraped (in flight, connections, fonts, cache). Exposed by `StatsRequest.prometheus`
/// (`layoutctl stats --prometheus`) and the optional loopback listener (`--metrics-listen`).
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Handles by type or code: making one looks it up in the registry; this keeps that off
    /// the per-request path.
    private let requests = Mutex<[String: (Metrics.Counter, Metrics.Timer)]>([:])
    private let errors = Mutex<[String: Metrics.Counter]>([:])

    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // From 50 µs (a warm caption) to 5 s (the request budget).
        factory.defaultDurationHistogramBuckets = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1), .milliseconds(2_500), .seconds(5),
        ]
        self.factory = factory
    }

    /// One request of `type` ("layout", "tags", …) answered in `microseconds`, failed with `code` or not.
    func record(type: String, code: String?, microseconds: Double) {
        let (counter, timer) = requests.withLock { handles in
            if let existing = handles[type] { return existing }
            let made = (Metrics.Counter(label: "layoutd_requests_total", dimensions: [("type", type)], factory: factory),
                        Metrics.Timer(label: "layoutd_request_duration_seconds", dimensions: [("type", type)], factory: factory))
            handles[type] = made
            return made
        }
        counter.increment()
        timer.recordNanoseconds(Int64(saturating: microseconds * 1_000))
        if let code { recordError(code: code) }
    }

    /// One error reply with `code`: a failed request, or a frame or connection refused before
    /// any request was read (those count in no request type).
    func recordError(code: String) {
        errors.withLock { handles in
            if let existing = handles[code] { return existing }
            let made = Metrics.Counter(label: "layoutd_errors_total", dimensions: [("code", code)], factory: factory)
            handles[code] = made
            return made
        }.increment()
    }

    /// The gauges read at a scrape.
    public struct Reading: Sendable {
        public var inFlight: Int
        public var connectionsOpen: Int
        public var fontsLoaded: Int
        public var cacheHits: UInt64
        public var cacheMisses: UInt64
        public var uptimeSeconds: Double
    }

    /// Every metric in Prometheus' text format, the gauges set from `reading` first.
    public func exposition(_ reading: Reading) -> String {
        let gauges: [(String, Double)] = [
            ("layoutd_requests_in_flight", Double(reading.inFlight)), ("layoutd_connections_open", Double(reading.connectionsOpen)),
            ("layoutd_fonts_loaded", Double(reading.fontsLoaded)), ("layoutd_shaping_cache_hits", Double(reading.cacheHits)),
            ("layoutd_shaping_cache_misses", Double(reading.cacheMisses)), ("layoutd_uptime_seconds", reading.uptimeSeconds),
        ]
        for (name, value) in gauges { Metrics.Gauge(label: name, factory: factory).record(value) }
        return registry.emitToString()
    }
}
