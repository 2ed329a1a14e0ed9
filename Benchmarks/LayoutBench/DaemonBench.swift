import Foundation
import LayoutdClient
import LayoutEngine
import LayoutWire
import LayoutUnicode

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
        let tagRequests = captions.indices.map { Layoutd_V1_Envelope.OneOf_Body.tags(TagCorpus.wireRequest(captions[$0], index: $0)) }
        _ = try roundTrips(client, tagRequests)
        let tags = Distribution(values: try (0..<options.repeats).flatMap { _ in try roundTrips(client, tagRequests) })
        let codec = try codecCost(requests)
        FileHandle.standardError.write(Data("daemon: 8 clients\n".utf8))
        let (eight, seconds) = try concurrent(socket: socket, requests: requests, clients: 8)
        var lines = ["| clients | median µs/round trip | p99 µs/round trip | requests/s |", "|---|---|---|---|"]
        lines.append(String(format: "| 1 | %.1f | %.1f | %.0f |", single.median, single.p99,
                            Double(single.values.count) / (single.values.reduce(0, +) / 1e6)))
        lines.append(String(format: "| 8 | %.1f | %.1f | %.0f |", eight.median, eight.p99, Double(eight.values.count) / seconds))
        lines.append(String(format: "| 1, a tag of three labels (tags request) | %.1f | %.1f | %.0f |", tags.median, tags.p99,
                            Double(tags.values.count) / (tags.values.reduce(0, +) / 1e6)))
        lines.append(String(format: "| 1, hello only (transport floor) | %.1f | %.1f | %.0f |", hello.median, hello.p99,
                            Double(hello.values.count) / (hello.values.reduce(0, +) / 1e6)))
        lines.append("")
        lines.append("Protobuf cost per caption, in process (median µs), swift-protobuf beside the hand-written codecs the client and daemon use:")
        lines.append("")
        lines.append("| message | swift-protobuf | layoutd's codec |")
        lines.append("|---|---|---|")
        lines.append(String(format: "| request, encode (client) | %.1f | (swift-protobuf) |", codec.encodeRequest))
        lines.append(String(format: "| request, decode (daemon) | %.1f | %.1f (LayoutRequestReader) |", codec.decodeRequest, codec.decodeRequestFast))
        lines.append(String(format: "| reply, build and encode (daemon) | %.1f | %.1f (LayoutReplyFrame) |", codec.encodeReplyMessage, codec.encodeReplyDirect))
        lines.append(String(format: "| reply, decode (client) | %.1f | %.1f (LayoutReplyReader) |", codec.decodeReplyGeneric, codec.decodeReplyFast))
        lines.append("")
        lines.append("Each round trip: encode, frame, send over the Unix socket, validate, lay out (warm cache), encode the reply, receive, decode. The daemon runs one worker per core.")
        return [Section(title: "Round trip through layoutd (same captions, warm daemon)", lines: lines)]
    }

    struct CodecCost {
        var encodeRequest = 0.0, decodeRequest = 0.0, decodeRequestFast = 0.0
        var encodeReplyMessage = 0.0, encodeReplyDirect = 0.0, decodeReplyGeneric = 0.0, decodeReplyFast = 0.0
    }

    /// What encoding and decoding cost in process, per caption (medians): the request through
    /// swift-protobuf; the reply both ways, through swift-protobuf's structs and serializer and
    /// through the direct writer and reader the daemon and client use.
    private func codecCost(_ requests: [Layoutd_V1_Envelope.OneOf_Body]) throws -> CodecCost {
        let layouter = ParagraphLayouter(fonts: try FontRegistry.load(paths: DefaultFonts.paths))
        var samples = [[Double]](repeating: [], count: 7)
        func timed(_ slot: Int, _ body: () throws -> Void) rethrows {
            let start = nanoseconds()
            try body()
            samples[slot].append(Double(nanoseconds() - start) / 1000)
        }
        for (index, body) in requests.enumerated() {
            guard case .layout(let request) = body else { continue }
            var envelope = Layoutd_V1_Envelope()
            envelope.body = body
            var bytes: [UInt8] = []
            try timed(0) { bytes = try envelope.serializedBytes() }
            try timed(1) { _ = try Layoutd_V1_Envelope(serializedBytes: bytes) }
            timed(6) { _ = bytes.withUnsafeBytes { LayoutRequestReader.envelope($0) } }
            let layout = try layouter.layout(try request.paragraphRequest(fonts: layouter.fonts))
            var replyBytes: [UInt8] = []
            try timed(2) {
                var reply = Layoutd_V1_Envelope()
                reply.requestID = UInt64(index)
                reply.body = .layoutReply(Layoutd_V1_LayoutReply(layout))
                replyBytes = try reply.serializedBytes()
            }
            var frame: [UInt8] = []
            timed(3) { frame = LayoutReplyFrame.encode(requestID: UInt64(index), layout: layout) }
            try timed(4) { _ = try Layoutd_V1_Envelope(serializedBytes: replyBytes) }
            let body = Array(frame.dropFirst(Framing.headerBytes))
            timed(5) { _ = LayoutReplyReader.envelope(body) }
        }
        let medians = samples.map { Distribution(values: $0).median }
        return CodecCost(encodeRequest: medians[0], decodeRequest: medians[1], decodeRequestFast: medians[6], encodeReplyMessage: medians[2], encodeReplyDirect: medians[3],
                         decodeReplyGeneric: medians[4], decodeReplyFast: medians[5])
    }

    private func roundTrips(_ client: LayoutClient, _ requests: [Layoutd_V1_Envelope.OneOf_Body]) throws -> [Double] {
        try requests.map { body in
            let start = nanoseconds()
            let reply = try client.call(body)
            let elapsed = Double(nanoseconds() - start) / 1000
            switch reply.body {
            case .layoutReply, .tagsReply: break
            default: throw ClientError.protocolViolation("\(reply)")
            }
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

final class LockedResults: Sendable {
    private let state = Locked<(values: [Double], failure: String?)>(([], nil))
    var values: [Double] { state.withLock { $0.values } }
    var failure: String? { state.withLock { $0.failure } }
    func append(_ more: [Double]) { state.withLock { $0.values += more } }
    func fail(_ message: String) { state.withLock { $0.failure = message } }
}
