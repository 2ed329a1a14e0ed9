import Foundation
import LayoutClient
import LayoutWire

/// Round trips through a real daemon started from the same build, with 1 and 8 clients.
struct DaemonBench {
    let captions: [Caption]
    let options: BenchOptions

    func run() throws -> [Section] {
        let socket = "/tmp/layoutd-bench-\(getpid()).sock"
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("layoutd")
        daemon.arguments = ["--socket", socket, "--log-level", "warning"]
        try daemon.run()
        defer { daemon.terminate(); daemon.waitUntilExit() }
        var client: LayoutClient?
        for _ in 0..<300 where client == nil {
            client = try? LayoutClient(socketPath: socket)
            if client == nil { usleep(20_000) }
        }
        guard let client else { throw ClientError.connect(path: socket, reason: "daemon did not start") }
        let requests = captions.map { caption -> Layoutd_V1_Envelope.OneOf_Body in
            var request = Layoutd_V1_LayoutRequest()
            request.text = caption.text
            request.width = options.width
            request.defaultStyle.family = "Noto Sans"
            request.defaultStyle.size = options.size
            return .layout(request)
        }
        FileHandle.standardError.write(Data("daemon: warming up\n".utf8))
        _ = try roundTrips(client, requests)  // fills the daemon's cache and pages
        FileHandle.standardError.write(Data("daemon: 1 client\n".utf8))
        let single = Distribution(values: try (0..<options.repeats).flatMap { _ in try roundTrips(client, requests) })
        let hello = Distribution(values: try (0..<2000).map { _ in
            let start = nanoseconds()
            _ = try client.call(.hello(.init()))
            return Double(nanoseconds() - start) / 1000
        })
        let codec = codecCost(requests)
        FileHandle.standardError.write(Data("daemon: 8 clients\n".utf8))
        let (eight, seconds) = try concurrent(socket: socket, requests: requests, clients: 8)
        var lines = ["| clients | median µs/round trip | p99 µs/round trip | requests/s |", "|---|---|---|---|"]
        lines.append(String(format: "| 1 | %.1f | %.1f | %.0f |", single.median, single.p99,
                            Double(single.values.count) / (single.values.reduce(0, +) / 1e6)))
        lines.append(String(format: "| 8 | %.1f | %.1f | %.0f |", eight.median, eight.p99, Double(eight.values.count) / seconds))
        lines.append(String(format: "| 1, hello only (transport floor) | %.1f | %.1f | %.0f |", hello.median, hello.p99,
                            Double(hello.values.count) / (hello.values.reduce(0, +) / 1e6)))
        lines.append("")
        lines.append(String(format: "Protobuf cost per caption, in process (median): encode request %.1f µs, decode request %.1f µs, encode reply %.1f µs, decode reply %.1f µs.",
                            codec.0, codec.1, codec.2, codec.3))
        lines.append("")
        lines.append("Each round trip: encode, frame, send over the Unix socket, validate, lay out (warm cache), encode the reply, receive, decode. The daemon runs one worker per core.")
        return [Section(title: "Round trip through layoutd (same captions, warm daemon)", lines: lines)]
    }

    /// What encoding and decoding cost, measured on the replies the daemon sends.
    private func codecCost(_ requests: [Layoutd_V1_Envelope.OneOf_Body]) -> (Double, Double, Double, Double) {
        guard let client = try? LayoutClient(socketPath: "/tmp/layoutd-bench-\(getpid()).sock") else { return (.nan, .nan, .nan, .nan) }
        var encodeRequest: [Double] = [], decodeRequest: [Double] = [], encodeReply: [Double] = [], decodeReply: [Double] = []
        for body in requests {
            var envelope = Layoutd_V1_Envelope()
            envelope.body = body
            var start = nanoseconds()
            let bytes: [UInt8] = (try? envelope.serializedBytes()) ?? []
            encodeRequest.append(Double(nanoseconds() - start) / 1000)
            start = nanoseconds()
            _ = try? Layoutd_V1_Envelope(serializedBytes: bytes)
            decodeRequest.append(Double(nanoseconds() - start) / 1000)
            guard let reply = try? client.call(body) else { continue }
            start = nanoseconds()
            let replyBytes: [UInt8] = (try? reply.serializedBytes()) ?? []
            encodeReply.append(Double(nanoseconds() - start) / 1000)
            start = nanoseconds()
            _ = try? Layoutd_V1_Envelope(serializedBytes: replyBytes)
            decodeReply.append(Double(nanoseconds() - start) / 1000)
        }
        return (Distribution(values: encodeRequest).median, Distribution(values: decodeRequest).median,
                Distribution(values: encodeReply).median, Distribution(values: decodeReply).median)
    }

    private func roundTrips(_ client: LayoutClient, _ requests: [Layoutd_V1_Envelope.OneOf_Body]) throws -> [Double] {
        try requests.map { body in
            let start = nanoseconds()
            let reply = try client.call(body)
            let elapsed = Double(nanoseconds() - start) / 1000
            guard case .layoutReply = reply.body else { throw ClientError.protocolViolation("\(reply)") }
            return elapsed
        }
    }

    private func concurrent(socket: String, requests: [Layoutd_V1_Envelope.OneOf_Body], clients: Int) throws -> (Distribution, Double) {
        let results = LockedResults()
        let group = DispatchGroup()
        let start = nanoseconds()
        for index in 0..<clients {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let client = try LayoutClient(socketPath: socket)
                    // Each client walks the corpus from its own starting point.
                    let rotated = Array(requests[(index * requests.count / clients)...] + requests[..<(index * requests.count / clients)])
                    results.append(try roundTrips(client, rotated))
                } catch {
                    results.fail("\(error)")
                }
            }
        }
        group.wait()
        let seconds = Double(nanoseconds() - start) / 1e9
        if let failure = results.failure { throw ClientError.io(failure) }
        return (Distribution(values: results.values), seconds)
    }
}

final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var values: [Double] = []
    private(set) var failure: String?
    func append(_ more: [Double]) { lock.lock(); values += more; lock.unlock() }
    func fail(_ message: String) { lock.lock(); failure = message; lock.unlock() }
}
