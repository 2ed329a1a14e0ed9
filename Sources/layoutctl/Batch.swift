import ArgumentParser
import Foundation
import LayoutdClient
import LayoutProtocol

extension LayoutCtl {
    /// Many texts laid out with one set of options: a file of captions for a feed, a story
    /// renderer or a data set. Texts go to the daemon in batch_layout requests (one round trip
    /// for thousands), and each item's answer is written as it arrives.
    struct Batch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "batch",
            abstract: "Lay out every text of a file with the same options: JSON lines, or a picture each.",
            discussion: """
                Reads one text per line (a line's \\n is a line break, \\\\ a backslash), or with --jsonl one
                JSON value per line: a string, or an object whose "text" is the text. Takes every option of
                `layout`. Writes one JSON object per text on standard output, in order: {"index": N, "layout":
                {...}} or {"index": N, "error": {...}}; with --pictures DIR, a picture per text instead
                (DIR/000001.png, ...). Shows progress on standard error when it is a terminal. Exits 65 when
                any text failed, after writing every answer.

                Examples:
                  layoutctl batch --width 300 --size 24 --input captions.txt > layouts.jsonl
                  layoutctl batch --width 300 --jsonl --input captions.jsonl --pictures out/
                """)

        @Option(help: "The file of texts; - or none: standard input.") var input: String?
        @Flag(help: "The input is JSON lines: each a string, or an object with a \"text\".") var jsonl = false
        @Option(help: "Write a picture per text into this directory (created if missing), in --format (default png).")
        var pictures: String?
        @Option(parsing: .unconditional, help: "Texts per batch request (default: as many as the daemon takes, within its frame limit).")
        var batchSize: Int?
        @OptionGroup var options: LayoutOptions
        @OptionGroup(title: "Connection") var connection: Connection

        func validate() throws {
            if let batchSize, batchSize < 1 { throw ValidationError("--batch-size must be at least 1") }
            if pictures == nil, options.output != nil { throw ValidationError("batch writes pictures with --pictures DIR, not -o") }
        }

        func run() throws {
            let texts = try connection.reportingFailures { try BatchInput.read(path: input, jsonLines: jsonl) }
            let shared = try options.makeRequest(text: "")
            let failed = try connection.reportingFailures { () -> Int in
                let client = try connection.client()
                var progress = BatchProgress(total: texts.count)
                defer { progress.finish() }
                if let pictures {
                    return try BatchPictures(directory: pictures, format: options.format ?? "png", scale: options.scale)
                        .write(texts, shared: shared, client: client, progress: &progress)
                }
                return try layOut(texts, shared: shared, client: client, progress: &progress)
            }
            if failed > 0 {
                FileHandle.standardError.write(Data("layoutctl: \(failed) of \(texts.count) texts failed\n".utf8))
                throw ExitCode(ExitStatus.rejected)
            }
        }

        /// Every text in batches, each item's answer printed as a JSON line as it comes; the count failed.
        private func layOut(_ texts: [String], shared: Layoutd_V1_LayoutRequest, client: LayoutClient,
                            progress: inout BatchProgress) throws -> Int {
            var failed = 0
            var output = BufferedOutput()
            for range in BatchInput.chunks(texts, daemon: client.daemon, size: batchSize) {
                let offset = UInt32(range.lowerBound)
                let batch = Layoutd_V1_BatchLayoutRequest.with { $0.layout = shared; $0.texts = Array(texts[range]) }
                try client.batch(batch) { item in
                    var item = item
                    item.index += offset
                    if case .error = item.result { failed += 1 }
                    output.write(try StableJSON.encode(item) + "\n")
                    progress.advance()
                }
            }
            output.flush()
            return failed
        }
    }
}

/// Reading a batch's texts, and cutting them into requests the daemon takes.
enum BatchInput {
    static func read(path: String?, jsonLines: Bool) throws -> [String] {
        let data: Data
        if let path, path != "-" {
            guard let read = FileManager.default.contents(atPath: path) else { throw ClientError.io("cannot read --input \(path)") }
            data = read
        } else {
            guard isatty(STDIN_FILENO) == 0 else { throw ValidationError("give the texts with --input FILE or on standard input") }
            data = FileHandle.standardInput.readDataToEndOfFile()
        }
        guard let text = String(data: data, encoding: .utf8) else { throw ClientError.io("the input is not UTF-8") }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        if lines.last?.isEmpty == true { lines.removeLast() }  // the file's final line break
        guard jsonLines else { return lines.map { TextInput.unescaped(String($0)) } }
        return try lines.enumerated().map { number, line in
            let value = try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
            if let string = value as? String { return string }
            if let object = value as? [String: Any], let string = object["text"] as? String { return string }
            throw ClientError.io("line \(number + 1) of the input is neither a JSON string nor an object with a \"text\"")
        }
    }

    /// The texts' ranges, each a batch within the daemon's item and frame limits (a quarter of
    /// the frame kept for the shared options and the encoding), or `size` texts.
    static func chunks(_ texts: [String], daemon: Layoutd_V1_HelloReply?, size: Int?) -> [Range<Int>] {
        let maxItems = min(size ?? Int.max, Int(daemon?.maxBatchItems ?? 0) > 0 ? Int(daemon!.maxBatchItems) : 10_000)
        let maxBytes = Int(daemon?.maxFrameBytes ?? UInt32(Framing.defaultMaxFrameBytes)) / 4 * 3
        var ranges: [Range<Int>] = []
        var start = 0, bytes = 0
        for (index, text) in texts.enumerated() {
            let cost = text.utf8.count + 8
            if index > start && (index - start >= maxItems || bytes + cost > maxBytes) {
                ranges.append(start..<index)
                (start, bytes) = (index, 0)
            }
            bytes += cost
        }
        if start < texts.count { ranges.append(start..<texts.count) }
        return ranges
    }
}

/// Each text drawn by a render request, several in flight, each written as DIR/NNNNNN.EXT.
struct BatchPictures {
    let directory: String
    let format: String
    let scale: Float
    /// Render requests in flight at once: a picture costs far more than its round trip.
    static let window = 8

    func write(_ texts: [String], shared: Layoutd_V1_LayoutRequest, client: LayoutClient, progress: inout BatchProgress) throws -> Int {
        let formats: [String: Layoutd_V1_RenderRequest.Format] = ["png": .png, "svg": .svg, "pdf": .pdf]
        guard let kind = formats[format.lowercased()] else { throw ValidationError("--format must be png, svg or pdf") }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ClientError.io("cannot create \(directory): \(error.localizedDescription)")
        }
        let digits = max(6, String(texts.count).count)
        var failed = 0
        var sent: [(index: Int, id: UInt64)] = []
        var next = 0
        while next < texts.count || !sent.isEmpty {
            while next < texts.count && sent.count < Self.window {
                var render = Layoutd_V1_RenderRequest()
                render.layout = shared
                render.layout.text = texts[next]
                render.format = kind
                render.scale = scale
                let id = client.makeID()
                try client.send(.with { $0.requestID = id; $0.render = render })
                sent.append((next, id))
                next += 1
            }
            let (index, id) = sent.removeFirst()
            let reply = try client.receive(id: id)
            switch reply.body {
            case .renderReply(let picture):
                let name = String(repeating: "0", count: max(0, digits - String(index).count)) + "\(index).\(format.lowercased())"
                let path = (directory as NSString).appendingPathComponent(name)
                do { try picture.image.write(to: URL(fileURLWithPath: path)) } catch {
                    throw ClientError.io("cannot write \(path): \(error.localizedDescription)")
                }
            case .error(let error):
                failed += 1
                FileHandle.standardError.write(Data("layoutctl: text \(index): \(error)\n".utf8))
            default:
                throw ClientError.protocolViolation("expected a render reply")
            }
            progress.advance()
        }
        return failed
    }
}

/// Standard output written in large pieces: a line per item would be a write per item.
struct BufferedOutput {
    private var pending = ""

    mutating func write(_ text: String) {
        pending += text
        if pending.utf8.count >= 64 << 10 { flush() }
    }

    mutating func flush() {
        guard !pending.isEmpty else { return }
        FileHandle.standardOutput.write(Data(pending.utf8))
        pending = ""
    }
}

/// Count, rate and time left on standard error, redrawn at most ten times a second, and only
/// when standard error is a terminal (a log or a pipe gets nothing).
struct BatchProgress {
    let total: Int
    private let shown = isatty(STDERR_FILENO) != 0
    private let start = Date()
    private var done = 0
    private var lastDrawn = Date.distantPast

    init(total: Int) { self.total = total }

    mutating func advance() {
        done += 1
        guard shown else { return }
        let now = Date()
        if now.timeIntervalSince(lastDrawn) >= 0.1 || done == total {
            lastDrawn = now
            FileHandle.standardError.write(Data(("\r" + Self.line(done: done, total: total, seconds: now.timeIntervalSince(start))).utf8))
        }
    }

    func finish() {
        if shown && done > 0 { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    /// "1,234/10,000 texts  5,432/s  1.6 s left"
    static func line(done: Int, total: Int, seconds: Double) -> String {
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let left = rate > 0 ? Double(total - done) / rate : 0
        let number = NumberFormatter()
        number.numberStyle = .decimal
        func grouped(_ value: Int) -> String { number.string(from: NSNumber(value: value)) ?? "\(value)" }
        return "\(grouped(done))/\(grouped(total)) texts  \(grouped(Int(saturating: rate.rounded())))/s  "
            + (done == total ? String(format: "%.1f s", seconds) : String(format: "%.1f s left", left)) + "   "
    }
}
