import Foundation
import LayoutdClient
import LayoutProtocol

/// Every client library against one daemon of this build: one caption's round trip (median of
/// 300 captions sent one at a time, after 20 unmeasured) and 1,000 captions pipelined (up to 64
/// in flight; the median of three batches after one unmeasured), in rounds that take each client
/// in turn, so the machine's noise falls on all alike. The C, Python and Go clients run as their own
/// programs (clients/c/bench, clients/python/bench.py, clients/go/bench); the Swift ones here; layoutctl as a
/// process per caption.
struct ClientBench {
    let captions: [Caption]
    let options: BenchOptions
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Figures {
        var roundTrips: [Double] = []
        var pipelined: [Double] = []
    }

    func run() async throws -> [Section] {
        let socket = "/tmp/layoutd-bench-clients-\(getpid()).sock"
        let build = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let daemon = Process()
        daemon.executableURL = build.appendingPathComponent("layoutd")
        daemon.arguments = ["--socket", socket, "--log-level", "warning", "--config", "/dev/null"]
        try daemon.run()
        defer { daemon.terminate(); daemon.waitUntilExit() }
        for _ in 0..<300 where (try? LayoutClient(socketPath: socket)) == nil { usleep(20_000) }

        let texts = captions.map(\.text)
        let textsFile = "/tmp/layoutd-bench-texts-\(getpid())"
        try Data(texts.joined(separator: "\0").utf8).write(to: URL(fileURLWithPath: textsFile))
        defer { unlink(textsFile) }
        let make = try Self.run("/usr/bin/make", ["-s", "-C", Self.root.appendingPathComponent("clients/c").path, "bench"])
        guard make.status == 0 else { throw ClientError.io("clients/c: make bench failed: \(make.err)") }
        let cBench = Self.root.appendingPathComponent("clients/c/build/client-bench").path
        let goBench = "/tmp/layoutd-bench-go-\(getpid())"
        let goBuild = try Self.run(Self.root.appendingPathComponent("clients/go/build.sh").path,
                                   [Self.root.appendingPathComponent("clients/go/bench").path, goBench])
        guard goBuild.status == 0 else { throw ClientError.io("clients/go: build.sh failed: \(goBuild.err)") }
        defer { unlink(goBench) }
        let pythonBench = Self.root.appendingPathComponent("clients/python/bench.py").path
        let layoutctl = build.appendingPathComponent("layoutctl").path

        var figures: [String: Figures] = [:]
        let names = ["C (liblayoutd-client)", "Python, blocking", "Python, asyncio", "Swift, blocking (LayoutClient)",
                     "Swift, async (AsyncLayoutClient)", "Go (layoutd/clients/go)", "layoutctl (a process per caption)"]
        // The C and Python clients again with the CPUs fixed: left free, the scheduler puts the C
        // client on the daemon's CPU in some runs (a round trip then wakes no other CPU, which on
        // a virtual machine costs 15-25 µs a wake-up) and not in others, so the free rows compare
        // different placements as much as different clients.
        let placements = Self.cpuCount >= 2 ? [Placement(name: "one CPU", daemon: "0", client: "0"),
                                                Placement(name: "two CPUs", daemon: "0", client: "1")] : []
        for round in 0..<options.repeats {
            FileHandle.standardError.write(Data("clients: round \(round + 1) of \(options.repeats)\n".utf8))
            try Self.pin(daemon.processIdentifier, to: nil)
            for name in names {
                let result: (Double, Double?)
                switch name {
                case names[0]: result = try Self.external(cBench, [socket, textsFile])
                case names[1]: result = try Self.external("/usr/bin/python3", [pythonBench, socket, textsFile])
                case names[2]: result = try Self.external("/usr/bin/python3", [pythonBench, socket, textsFile, "--async"])
                case names[3]: result = try blocking(socket, texts)
                case names[4]: result = try await asynchronous(socket, texts)
                case names[5]: result = try Self.external(goBench, [socket, textsFile])
                default: result = (try layoutctlRoundTrip(layoutctl, socket, texts), nil)
                }
                figures[name, default: Figures()].roundTrips.append(result.0)
                if let pipelined = result.1 { figures[name, default: Figures()].pipelined.append(pipelined) }
            }
            for placement in placements {
                try Self.pin(daemon.processIdentifier, to: placement.daemon)
                let pinned = ["/usr/bin/taskset", "-c", placement.client]
                for (name, program) in [(names[0], [cBench]), (names[1], ["/usr/bin/python3", pythonBench])] {
                    let result = try Self.external(pinned[0], Array(pinned.dropFirst()) + program + [socket, textsFile])
                    figures[placement.name + ": " + name, default: Figures()].roundTrips.append(result.0)
                    if let pipelined = result.1 { figures[placement.name + ": " + name, default: Figures()].pipelined.append(pipelined) }
                }
            }
        }
        var lines = ["Round trip: median µs of one caption sent and its reply read (300 captions, one at a time). "
                     + "Pipelined: 1,000 captions with up to 64 in flight, wall time. Medians over \(options.repeats) rounds; "
                     + "ratios against the C client in the same run and placement.", "",
                     "| client | round trip µs | × C | 1,000 pipelined, ms | captions/s | × C's time |", "|---|---|---|---|---|---|"]
        lines += table(names, figures)
        for placement in placements {
            lines += ["", "CPUs fixed, \(placement.name): the daemon's threads on CPU \(placement.daemon), the client on CPU \(placement.client).", "",
                      "| client | round trip µs | × C | 1,000 pipelined, ms | captions/s | × C's time |", "|---|---|---|---|---|---|"]
            lines += table([names[0], names[1]].map { placement.name + ": " + $0 }, figures)
        }
        return [Section(title: "Clients: one caption's round trip and 1,000 pipelined", lines: lines)]
    }

    struct Placement {
        let name: String
        let daemon: String
        let client: String
    }

    static let cpuCount = sysconf(Int32(_SC_NPROCESSORS_ONLN))

    /// Every thread of the daemon onto `cpus` (nil: all of them).
    private static func pin(_ pid: Int32, to cpus: String?) throws {
        let done = try run("/usr/bin/taskset", ["-a", "-p", "-c", cpus ?? "0-\(cpuCount - 1)", "\(pid)"])
        guard done.status == 0 else { throw ClientError.io("taskset failed: \(done.err)") }
    }

    /// The rows of `names`, each against the first (the C client).
    private func table(_ names: [String], _ figures: [String: Figures]) -> [String] {
        let c = figures[names[0]]!
        let cRound = Distribution(values: c.roundTrips).median, cPipelined = Distribution(values: c.pipelined).median
        var lines: [String] = []
        for name in names {
            let f = figures[name]!
            let round = Distribution(values: f.roundTrips).median
            if f.pipelined.isEmpty {
                lines.append(String(format: "| %@ | %.1f | %.2f× | — | — | — |", name, round, round / cRound))
            } else {
                let pipelined = Distribution(values: f.pipelined).median
                lines.append(String(format: "| %@ | %.1f | %.2f× | %.1f | %.0f | %.2f× |", name, round, round / cRound,
                                    pipelined / 1000, 1000 / (pipelined / 1e6), pipelined / cPipelined))
            }
        }
        return lines
    }

    private func request(_ text: String) -> Layoutd_V1_LayoutRequest {
        var request = Layoutd_V1_LayoutRequest()
        request.text = text
        request.width = 300
        request.defaultStyle.size = 24
        return request
    }

    private func blocking(_ socket: String, _ texts: [String]) throws -> (Double, Double?) {
        let client = try LayoutClient(socketPath: socket)
        try client.greet()
        var times: [Double] = []
        for (index, text) in texts.prefix(320).enumerated() {
            let start = nanoseconds()
            _ = try client.request(.layout(request(text)))
            if index >= 20 { times.append(Double(nanoseconds() - start) / 1000) }
        }
        var totals: [Double] = []
        for _ in 0..<Self.pipelinedBatches {
            let start = nanoseconds()
            var ids: [UInt64] = []
            var received = 0
            for index in 0..<1000 {
                if ids.count - received >= 64 { _ = try client.receive(id: ids[received]); received += 1 }
                var envelope = Layoutd_V1_Envelope()
                envelope.requestID = client.makeID()
                envelope.body = .layout(request(texts[index % texts.count]))
                try client.send(envelope)
                ids.append(envelope.requestID)
            }
            while received < ids.count { _ = try client.receive(id: ids[received]); received += 1 }
            totals.append(Double(nanoseconds() - start) / 1000)
        }
        return (Distribution(values: times).median, Distribution(values: Array(totals.dropFirst())).median)
    }

    /// The pipelined batch is run this many times by every client, the first unmeasured (first
    /// use in a fresh process: Python's interpreter warms its code, allocators grow) and the
    /// median of the rest reported, as the round trip leaves its first 20 calls out.
    static let pipelinedBatches = 4

    private func asynchronous(_ socket: String, _ texts: [String]) async throws -> (Double, Double?) {
        let client = try await AsyncLayoutClient(socketPath: socket)
        defer { client.close() }
        var times: [Double] = []
        for (index, text) in texts.prefix(320).enumerated() {
            let start = nanoseconds()
            _ = try await client.layout(request(text))
            if index >= 20 { times.append(Double(nanoseconds() - start) / 1000) }
        }
        let batch = (0..<1000).map { request(texts[$0 % texts.count]) }
        var totals: [Double] = []
        for _ in 0..<Self.pipelinedBatches {
            let start = nanoseconds()
            _ = try await client.layoutMany(batch, window: 64)
            totals.append(Double(nanoseconds() - start) / 1000)
        }
        return (Distribution(values: times).median, Distribution(values: Array(totals.dropFirst())).median)
    }

    /// A shell script's cost per caption: process start, connect, greeting, layout, table.
    private func layoutctlRoundTrip(_ layoutctl: String, _ socket: String, _ texts: [String]) throws -> Double {
        var times: [Double] = []
        for text in texts.prefix(30) {
            let start = nanoseconds()
            let done = try Self.run(layoutctl, ["layout", "--socket", socket, "--width", "300", "--size", "24", "--", text])
            guard done.status == 0 else { throw ClientError.io("layoutctl failed: \(done.err)") }
            times.append(Double(nanoseconds() - start) / 1000)
        }
        return Distribution(values: times).median
    }

    /// A client program's two figures ("roundtrip_us X", "pipelined_us Y").
    private static func external(_ program: String, _ arguments: [String]) throws -> (Double, Double?) {
        let done = try run(program, arguments)
        guard done.status == 0 else { throw ClientError.io("\(program) failed: \(done.err)") }
        var values: [String: Double] = [:]
        for line in done.out.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
        }
        guard let round = values["roundtrip_us"], let pipelined = values["pipelined_us"] else {
            throw ClientError.io("\(program) printed no figures: \(done.out)")
        }
        return (round, pipelined)
    }

    private static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }
}
