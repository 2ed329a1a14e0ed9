import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// Prometheus metrics: scraped over the loopback listener and read with layoutctl.
@Suite struct MetricsTests {
    /// The value of the sample `name{labels}` in an exposition.
    static func sample(_ text: String, _ series: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test func aScrapeCountsRequestsErrorsAndLatency() throws {
        let daemon = try Daemon(arguments: ["--metrics-listen", "127.0.0.1:0", "--log-level", "info"])
        let client = try daemon.client()
        for _ in 0..<3 { _ = try client.call(.layout(layoutRequest("counted"))) }
        var bad = layoutRequest("x")
        bad.width = -1
        _ = try client.call(.layout(bad))
        _ = try client.call(.tagStyle(.with { $0.labelCount = 1; $0.toggleFrom = 0 }))
        // A frame that is no Envelope is answered before any request type is known.
        try client.sendRaw([0, 0, 0, 5, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(try client.receive().errorReply?.code == .malformed)
        // The listener's port is in the log.
        let deadline = Date().addingTimeInterval(10)
        var port: String?
        while port == nil && Date() < deadline {
            port = daemon.stderr.text.split(separator: "\n").first { $0.contains("metrics listening") }?
                .split(separator: ":").last.map(String.init)
            if port == nil { usleep(20_000) }
        }
        let address = "http://127.0.0.1:\(try #require(port))/metrics"
        let scrape = try run("/usr/bin/python3", ["-c", "import sys, urllib.request; r = urllib.request.urlopen(sys.argv[1]); "
                                                  + "print(r.headers['Content-Type']); print(r.read().decode())", address])
        #expect(scrape.status == 0, "\(scrape.err)")
        let text = scrape.out
        #expect(text.hasPrefix("text/plain; version=0.0.4"))
        #expect(Self.sample(text, #"layoutd_requests_total{type="layout"}"#) == 4, "\(text)")
        #expect(Self.sample(text, #"layoutd_requests_total{type="tag_style"}"#) == 1)
        #expect(Self.sample(text, #"layoutd_errors_total{code="INVALID_ARGUMENT"}"#) == 1)
        #expect(Self.sample(text, #"layoutd_errors_total{code="MALFORMED"}"#) == 1)
        #expect(Self.sample(text, #"layoutd_request_duration_seconds_count{type="layout"}"#) == 4)
        #expect(text.contains(#"layoutd_request_duration_seconds_bucket{type="layout",le="0.005"}"#))
        #expect((Self.sample(text, "layoutd_fonts_loaded") ?? 0) > 10)
        #expect(Self.sample(text, "layoutd_connections_open") == 1)
        // Every metric says what it is, and the cache's counts are counters, not gauges.
        let typed = text.split(separator: "\n").compactMap { $0.hasPrefix("# TYPE ") ? $0.split(separator: " ")[2] : nil }
        let helped = Set(text.split(separator: "\n").compactMap { $0.hasPrefix("# HELP ") ? $0.split(separator: " ")[2] : nil })
        #expect(typed.count >= 9 && typed.allSatisfy(helped.contains), "without # HELP: \(typed.filter { !helped.contains($0) })")
        #expect(text.contains("# TYPE layoutd_shaping_cache_hits_total counter"), "\(text)")
        #expect(text.contains("# TYPE layoutd_shaping_cache_misses_total counter"))
        #expect((Self.sample(text, "layoutd_shaping_cache_misses_total") ?? 0) > 0)
        let missing = try run("/usr/bin/python3", ["-c", "import sys, urllib.request, urllib.error\ntry:\n urllib.request.urlopen(sys.argv[1])\n"
                                                   + "except urllib.error.HTTPError as e:\n print(e.code)", address.replacingOccurrences(of: "/metrics", with: "/other")])
        #expect(missing.out.hasPrefix("404"))

        let ctl = try run(Daemon.binary("layoutctl"), ["stats", "--prometheus", "--socket", daemon.socketPath])
        #expect(ctl.status == 0 && Self.sample(ctl.out, #"layoutd_requests_total{type="layout"}"#) == 4, "\(ctl.out)")
    }

    @Test func theListenerIsLoopbackOnly() throws {
        let result = try run(Daemon.binary("layoutd"), ["--metrics-listen", "0.0.0.0:9464", "--socket", Daemon.temporarySocketPath()])
        #expect(result.status != 0 && result.err.contains("loopback only"), "\(result.err)")
    }

    /// The listener's port, from the daemon's log.
    static func metricsPort(_ daemon: Daemon) throws -> Int {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let port = daemon.stderr.text.split(separator: "\n").first(where: { $0.contains("metrics listening") })?
                .split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) { return port }
            usleep(20_000)
        }
        throw HarnessError("no metrics port in the log")
    }

    /// 600 TCP connections that each send half a request head and stop, under a descriptor limit
    /// of 256: they took every descriptor, and every Unix-socket client timed out. The listener
    /// keeps at most its cap open, closes each after its lifetime, and socket clients are served.
    @Test func aFloodOfHalfHeadsLeavesSocketClientsServed() throws {
        let daemon = try Daemon(arguments: ["--metrics-listen", "127.0.0.1:0", "--log-level", "info"],
                                launcher: ["/usr/bin/prlimit", "--nofile=256:256"])
        let port = try Self.metricsPort(daemon)
        let flood = """
        import socket, sys, time
        port, count, hold = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
        held, refused = [], 0
        for _ in range(count):
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=2)
                s.sendall(b"GET /metr")
                held.append(s)
            except OSError:
                refused += 1
        time.sleep(hold)
        still = 0
        for s in held:
            s.setblocking(False)
            try:
                still += s.recv(1) != b""
            except BlockingIOError:
                still += 1
            except OSError:
                pass
        print(len(held), refused, still)
        """
        let output = CapturedOutput()
        let flooding = try ChildProcess("/usr/bin/python3", ["-c", flood, "\(port)", "600", "7"], output: output.handle)
        usleep(1_500_000)
        // Socket clients, while the flood holds its connections.
        for _ in 0..<3 {
            let started = Date()
            let reply = try daemon.client(timeout: 5).call(.layout(layoutRequest("served during a flood")))
            #expect(reply.layoutReply != nil)
            #expect(Date().timeIntervalSince(started) < 2)
        }
        let ping = try run(Daemon.binary("layoutctl"), ["ping", "--socket", daemon.socketPath, "--timeout", "5"], within: 20)
        #expect(ping.status == 0, "\(ping.err)")
        #expect(flooding.wait(within: 30))
        let counts = output.text.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(counts.count == 3 && counts[2] == 0, "connections made, refused, still open after 7 s: \(output.text)")
        // A scrape after the flood.
        let scrape = try run("/usr/bin/python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).status)",
                                                  "http://127.0.0.1:\(port)/metrics"], within: 20)
        #expect(scrape.out.hasPrefix("200"), "\(scrape.err)")
    }
}
