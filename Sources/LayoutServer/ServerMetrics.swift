import Foundation
import Prometheus
import LayoutEngine

/// The daemon's metrics, on a Prometheus registry of its own (not a process-wide bootstrap, so
/// processors in tests and the fuzzer stay separate): requests and errors by type and code,
/// latency histograms per request type, counters of the shaping cache, and gauges read when
/// scraped (in flight, connections, fonts, uptime). Every metric has a `# HELP` line. Exposed by
/// `StatsRequest.prometheus` (`layoutctl stats --prometheus`) and the optional loopback listener
/// (`--metrics-listen`).
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    /// Requests and their latencies by type, split by thread (written out beside the registry's).
    private let requests = RequestMetrics()
    /// Error counters by code: making one looks it up in the registry; this keeps that off the
    /// path of each failure.
    private let errors = Locked<[String: Counter]>([:])
    private let cacheHits: Counter
    private let cacheMisses: Counter
    private let twinShapes: Counter
    /// The counts the counters follow when last scraped (the cache's, and the process's twin
    /// shapes): the counters grow by the difference. A reload brings a new cache whose counts
    /// start again at 0; the counters never go down.
    private let seen = Locked<(hits: UInt64, misses: UInt64, twins: UInt64)>((0, 0, 0))

    public init() {
        cacheHits = registry.makeCounter(descriptor: Self.named("layoutd_shaping_cache_hits_total",
                                                                     "Words and runs found in the shaping cache."))
        cacheMisses = registry.makeCounter(descriptor: Self.named("layoutd_shaping_cache_misses_total",
                                                                       "Words and runs shaped because the cache did not hold them."))
        twinShapes = registry.makeCounter(descriptor: Self.named("layoutd_shaping_twin_shapes_total",
                                                                 "Shaping calls for a language and features past those HarfBuzz keeps plans for, each on a face made for the call."))
    }

    /// A metric's whole name with its `# HELP` text.
    private static func named(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    /// One request of `type` ("layout", "tags", …) answered in `microseconds`, failed with `code` or not.
    func record(type: StaticString, code: String?, microseconds: Double) {
        requests.record(type: type, seconds: microseconds / 1e6)
        if let code { recordError(code: code) }
    }

    /// One error reply with `code`: a failed request, or a frame or connection refused before
    /// any request was read (those count in no request type).
    func recordError(code: String) {
        errors.withLock { handles in
            if let existing = handles[code] { return existing }
            let made = registry.makeCounter(
                descriptor: Self.named("layoutd_errors_total", "Error replies by code, refusals of connections and frames included."),
                labels: [("code", code)])
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
        /// Languages and feature lists HarfBuzz keeps shape plans for (`ShapingSettings`).
        public var shapingSettingsKept = 0
        /// Shaping calls past them, each on a twin face, since the process started.
        public var twinShapes: UInt64 = 0
    }

    /// Every metric in Prometheus' text format, the gauges and cache counters brought up to date first.
    public func exposition(_ reading: Reading) -> String {
        let gauges: [(name: String, help: String, value: Double)] = [
            ("layoutd_requests_in_flight", "Requests accepted and not yet answered.", Double(reading.inFlight)),
            ("layoutd_connections_open", "Client connections open now.", Double(reading.connectionsOpen)),
            ("layoutd_fonts_loaded", "Font faces the server serves with.", Double(reading.fontsLoaded)),
            ("layoutd_uptime_seconds", "Seconds since the server started.", reading.uptimeSeconds),
            ("layoutd_shaping_settings_kept", "Languages and feature lists HarfBuzz keeps shape plans for; past the limit they are shaped on a face made per call.",
             Double(reading.shapingSettingsKept)),
        ]
        for gauge in gauges { registry.makeGauge(descriptor: Self.named(gauge.name, gauge.help)).set(gauge.value) }
        // A count lower than last time comes from a new cache (a reload): all of it is new.
        func grown(_ count: UInt64, since last: UInt64) -> UInt64 { count >= last ? count - last : count }
        let (hits, misses, twins) = seen.withLock { seen in
            defer { seen = (reading.cacheHits, reading.cacheMisses, reading.twinShapes) }
            return (grown(reading.cacheHits, since: seen.hits), grown(reading.cacheMisses, since: seen.misses),
                    grown(reading.twinShapes, since: seen.twins))
        }
        twinShapes.increment(by: Int64(clamping: twins))
        cacheHits.increment(by: Int64(clamping: hits))
        cacheMisses.increment(by: Int64(clamping: misses))
        return requests.exposition() + registry.emitToString()
    }
}
