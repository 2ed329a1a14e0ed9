import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// batch_layout through a real daemon: every item answered once, in order, each as a layout
/// would be, with its own error where it fails; the batch refused as a whole only for what
/// concerns every item; other connections served while it runs; cancel, deadline and a client
/// that stops reading or leaves.
@Suite(.serialized) struct BatchServerTests {
    static func texts(_ count: Int) -> [String] {
        (0..<count).map { "Caption \($0): a batch lays out many texts with one style" }
    }

    static func batch(_ texts: [String], width: Float = 220) -> Layoutd_V1_BatchLayoutRequest {
        var shared = layoutRequest("", width: width, size: 18)
        shared.text = ""
        return .with { $0.layout = shared; $0.texts = texts }
    }

    /// Every item of `batch` as it arrives.
    static func items(_ client: LayoutClient, _ batch: Layoutd_V1_BatchLayoutRequest,
                      deadlineMs: UInt32 = 0) throws -> [Layoutd_V1_BatchItemReply] {
        var items: [Layoutd_V1_BatchItemReply] = []
        try client.batch(batch, deadlineMs: deadlineMs) { items.append($0) }
        return items
    }

    @Test func everyItemIsAnsweredOnceInOrderAsALayoutWouldBe() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        let texts = Self.texts(40) + ["שלום עולם", "日本語のキャプション", ""]
        let items = try Self.items(client, Self.batch(texts))
        #expect(items.map(\.index) == (0..<UInt32(texts.count)).map { $0 })
        for (index, text) in texts.enumerated() {
            var single = layoutRequest(text, width: 220, size: 18)
            single.text = text
            let alone = try client.call(.layout(single)).layoutReply
            guard case .layout(let layout) = items[index].result else {
                Issue.record("item \(index) failed: \(items[index])")
                continue
            }
            #expect(layout == alone, "item \(index) differs from the same text laid out alone")
        }
    }

    /// Four workers and short slices: the batch runs in four lanes, whose chunks reach the loop
    /// out of the items' order (heavy and light items mixed, failures among them); the loop
    /// still writes every item once, in order, each as the same request answers alone. The
    /// same with the batch held to one worker (`--batch-workers 1`).
    @Test(arguments: [[], ["--batch-workers", "1"]])
    func aBatchOnEveryWorkerIsAnsweredInOrder(options: [String]) throws {
        let daemon = try Daemon(arguments: ["--threads", "4", "--batch-slice-us", "100"] + options)
        let client = try daemon.client()
        let requests = (0..<300).map { index in
            var request = index % 7 == 3
                ? layoutRequest(String(repeating: "a heavier item wraps over many lines ", count: 40), width: 140)
                : layoutRequest("Caption \(index) of a batch on every worker", width: 220)
            if index % 11 == 5 { request.width = -1 }
            return request
        }
        let items = try Self.items(client, .with { $0.requests = requests })
        #expect(items.map(\.index) == (0..<UInt32(requests.count)).map { $0 })
        for index in Array(0..<24) + [101, 150, 214, 299] {
            switch (items[index].result, try? client.call(.layout(requests[index])).layoutReply) {
            case (.layout(let layout), let alone?): #expect(layout == alone, "item \(index) differs from its request alone")
            case (.error(let error), nil): #expect(error.field == "batch_layout.requests[\(index)].width", "item \(index): \(error)")
            default: Issue.record("item \(index) was answered otherwise than alone: \(items[index])")
            }
        }
    }

    @Test func anItemFailsAloneAndIsNamedInTheBatch() throws {
        let daemon = try Daemon(arguments: ["--max-text", "100"])
        let client = try daemon.client()
        var requests = Self.texts(3).map { layoutRequest($0, width: 200) }
        requests[1].defaultStyle.family = "No Such Family Anywhere"
        requests[2].width = -4
        requests.append(layoutRequest(String(repeating: "long ", count: 30)))
        let items = try Self.items(client, .with { $0.requests = requests })
        #expect(items.map(\.index) == [0, 1, 2, 3])
        guard case .layout = items[0].result else { Issue.record("item 0 failed: \(items[0])"); return }
        for (index, field) in [(1, "batch_layout.requests[1]"), (2, "batch_layout.requests[2].width"), (3, "batch_layout.requests[3].text")] {
            guard case .error(let error) = items[index].result else { Issue.record("item \(index) was laid out"); continue }
            #expect(error.field.hasPrefix(field), "item \(index): \(error)")
        }
        // A text past the limit names its place among the texts.
        let texts = try Self.items(client, Self.batch(["short", String(repeating: "long ", count: 30)]))
        guard case .error(let error) = texts[1].result else { Issue.record("the long text was laid out"); return }
        #expect(error.field == "batch_layout.texts[1]")
        #expect(error.code == .resourceExhausted || error.code == .invalidArgument)
    }

    @Test func aBatchIsRefusedAsAWholeOnlyForWhatConcernsEveryItem() throws {
        let daemon = try Daemon(arguments: ["--max-batch-items", "10"])
        let client = try daemon.client()
        func refusal(_ batch: Layoutd_V1_BatchLayoutRequest) throws -> Layoutd_V1_Error? {
            do { try client.batch(batch) { _ in }; return nil } catch ClientError.server(let error) { return error }
        }
        #expect(try refusal(.init())?.field == "batch_layout.texts")
        #expect(try refusal(.with { $0.texts = ["a"]; $0.requests = [layoutRequest("b")] })?.field == "batch_layout.requests")
        let tooMany = try refusal(Self.batch(Self.texts(11)))
        #expect(tooMany?.code == .resourceExhausted)
        #expect(tooMany?.message.contains("at most 10") == true)
        var sharedText = Self.batch(["a"])
        sharedText.layout.text = "shared"
        #expect(try refusal(sharedText)?.field == "batch_layout.layout.text")
        #expect(try refusal(.with { $0.layout = layoutRequest(""); $0.requests = [layoutRequest("b")] })?.field == "batch_layout.layout")
        // The connection goes on.
        #expect(try Self.items(client, Self.batch(Self.texts(10))).count == 10)
        #expect(try client.greet().maxBatchItems == 10)
    }

    /// A batch of 10,000 on a daemon with one worker, and with two (the batch in a lane on
    /// each): another client's request, which needs the pool too, is answered while the batch
    /// still has items to go (its items are read all the while on another thread, so the batch
    /// never waits for its reader).
    @Test(arguments: ["1", "2"])
    func anotherConnectionIsServedWhileABatchOfTenThousandRuns(threads: String) throws {
        let daemon = try Daemon(arguments: ["--threads", threads])
        let batcher = try daemon.client()
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = 7
        envelope.body = .batchLayout(Self.batch(Self.texts(10_000)))
        try batcher.send(envelope)
        #expect(try batcher.receive(id: 7).batchItem?.index == 0)
        let reader = BatchReader(batcher, id: 7, from: 1, to: 10_000)
        // Highlights take a layout to the pool, where the batch's chunks run.
        var other = layoutRequest("Another client's caption", width: 200)
        other.backgrounds = [.with { $0.kind = .highlight; $0.range = .with { $0.start = 0; $0.length = 7 } }]
        let reply = try daemon.client(timeout: 30).call(.layout(other))
        let answeredBefore = reader.answered
        #expect(reply.layoutReply?.backgrounds.count == 1)
        let result = reader.finish()
        #expect(result.outOfOrder == nil, "item \(result.outOfOrder ?? 0) came out of order")
        #expect(result.failed == 0)
        #expect(answeredBefore < 9_000, "the other client was answered after \(answeredBefore) of the batch's items")
    }

    @Test func aCancelAnswersTheRestCancelledAndADeadlineTheRestExceeded() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = 9
        envelope.body = .batchLayout(Self.batch(Self.texts(20_000)))
        try client.send(envelope)
        #expect(try client.receive(id: 9).batchItem?.index == 0)
        try client.send(.with { $0.requestID = 10; $0.cancel.requestID = 9 })
        var codes: [Layoutd_V1_Error.Code] = []
        for index in 1..<20_000 {
            let item = try client.receive(id: 9).batchItem
            #expect(item?.index == UInt32(index))
            if case .error(let error) = item?.result { codes.append(error.code) }
        }
        #expect(!codes.isEmpty && Set(codes) == [.cancelled], "\(Set(codes))")
        // The batch is answered, so its id may be used again.
        #expect(try client.call(.layout(layoutRequest("after"))).layoutReply != nil)

        let timed = try Self.items(client, Self.batch(Self.texts(20_000)), deadlineMs: 100)
        #expect(timed.count == 20_000)
        guard case .error(let error) = timed.last?.result else { Issue.record("20,000 items within 100 ms"); return }
        #expect(error.code == .deadlineExceeded)
        #expect(error.field == "envelope.deadline_ms")
    }

    /// A client that sends a large batch and reads nothing: the daemon waits for it instead of
    /// holding every reply in memory, then gives it all of them once it reads.
    @Test func aBatchWaitsForAClientThatDoesNotRead() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        let before = residentBytes(daemon.process.processIdentifier)
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = 3
        envelope.body = .batchLayout(Self.batch(Self.texts(40_000)))
        try client.send(envelope)
        Thread.sleep(forTimeInterval: 3)
        let grown = residentBytes(daemon.process.processIdentifier) - before
        // Unbounded, 40,000 replies of about a kilobyte each would take 40 MB.
        #expect(grown < 24 << 20, "the daemon grew \(grown >> 20) MiB for a client that reads nothing")
        // Another client meanwhile is served.
        #expect(try daemon.client(timeout: 10).call(.layout(layoutRequest("meanwhile"))).layoutReply != nil)
        for index in 0..<40_000 {
            let item = try client.receive(id: 3).batchItem
            if item?.index != UInt32(index) { Issue.record("item \(index) came as \(String(describing: item?.index))"); return }
        }
    }

    /// SIGTERM mid-batch: the daemon answers the items not laid out UNAVAILABLE, every item
    /// once, then exits cleanly. (20,000 items: the daemon has laid out a chunk or two when the
    /// signal comes, and this debug client must read them all within the daemon's 30 s of
    /// shutdown even on a loaded machine; 60,000 once took it past that in CI.)
    @Test func aBatchIsAnsweredWhenTheDaemonStops() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = 6
        envelope.body = .batchLayout(Self.batch(Self.texts(20_000)))
        try client.send(envelope)
        #expect(try client.receive(id: 6).batchItem?.index == 0)
        kill(daemon.process.processIdentifier, SIGTERM)
        var codes: [Layoutd_V1_Error.Code] = []
        for index in 1..<20_000 {
            let item = try client.receive(id: 6).batchItem
            if item?.index != UInt32(index) { Issue.record("item \(index) came as \(String(describing: item?.index))"); return }
            if case .error(let error) = item?.result { codes.append(error.code) }
        }
        #expect(!codes.isEmpty && Set(codes) == [.unavailable], "\(Set(codes))")
        #expect(daemon.process.wait(within: 30) && daemon.process.terminationStatus == 0)
    }

    /// Hostile batches get a structured answer under their id, and the connection goes on:
    /// bad UTF-8 in a text, a body cut short, a message field merged many times, a reply sent
    /// as a request.
    @Test func hostileBatchesAreRefusedByName() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        func frame(_ body: [UInt8]) -> [UInt8] {
            let length = UInt32(body.count)
            return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
        }
        func batchBody(_ id: UInt8, _ batch: [UInt8]) -> [UInt8] {
            [0x08, id] + [0xC2, 0x02] + varint(batch.count) + batch  // field 40, length-delimited
        }
        func varint(_ value: Int) -> [UInt8] {
            var value = value, out: [UInt8] = []
            while value >= 0x80 { out.append(UInt8(value & 0x7F) | 0x80); value >>= 7 }
            return out + [UInt8(value)]
        }
        // A text that is not UTF-8.
        try client.sendRaw(frame(batchBody(21, [0x12, 0x03, 0x61, 0xFF, 0x62])))
        let badText = try client.receive(id: 21)
        #expect(badText.errorReply?.code == .malformed, "\(badText)")
        // The batch's body claims more bytes than the envelope holds.
        try client.sendRaw(frame([0x08, 22, 0xC2, 0x02, 0x40, 0x12, 0x01, 0x61]))
        let cut = try client.receive(id: 0)
        #expect(cut.errorReply?.code == .malformed, "\(cut)")
        // The shared layout request given 20 times (protobuf would merge them).
        let layout: [UInt8] = [0x0A, 0x05, 0x25, 0x00, 0x00, 0x48, 0x43]  // layout { width: 200 }
        try client.sendRaw(frame(batchBody(23, Array(repeating: layout, count: 20).flatMap { $0 } + [0x12, 0x01, 0x61])))
        let merged = try client.receive(id: 23)
        #expect(merged.errorReply?.code == .invalidArgument && merged.errorReply?.field.contains("layout") == true, "\(merged)")
        // A batch's reply sent as a request.
        let reply = try client.call(.batchItem(.with { $0.index = 3 }))
        #expect(reply.errorReply?.code == .invalidArgument, "\(reply)")
        #expect(try Self.items(client, Self.batch(["still served"])).count == 1)
    }

    /// Each item has the daemon's budget of its own: items past it fail alone, the others are
    /// laid out.
    @Test func eachItemKeepsItsOwnBudget() throws {
        let daemon = try Daemon(arguments: ["--request-budget-ms", "40"])
        let client = try daemon.client()
        var heavy = layoutRequest(String(repeating: "hyphenation everywhere extraordinarily ", count: 4_000), width: 90)
        heavy.breakStrategy = .optimal
        heavy.hyphenation = .init()
        let light = layoutRequest("a short caption", width: 200)
        let items = try Self.items(client, .with { $0.requests = [heavy, light, heavy, light] })
        #expect(items.map(\.index) == [0, 1, 2, 3])
        for index in [0, 2] {
            guard case .error(let error) = items[index].result else { Issue.record("item \(index) was laid out within 40 ms"); continue }
            #expect(error.code == .deadlineExceeded, "\(error)")
        }
        for index in [1, 3] {
            guard case .layout = items[index].result else { Issue.record("item \(index) failed: \(items[index])"); continue }
        }
    }

    /// A client that leaves mid-batch: the daemon stops laying its items out.
    @Test func aBatchStopsWhenItsClientLeaves() throws {
        let daemon = try Daemon()
        do {
            let client = try daemon.client()
            var envelope = Layoutd_V1_Envelope()
            envelope.requestID = 5
            envelope.body = .batchLayout(Self.batch(Self.texts(50_000)))
            try client.send(envelope)
            #expect(try client.receive(id: 5).batchItem?.index == 0)
        }
        let watcher = try daemon.client()
        let deadline = Date().addingTimeInterval(10)
        var inFlight: UInt64 = 1
        while Date() < deadline {
            guard case .statsReply(let stats) = try watcher.request(.stats(.init())) else { break }
            inFlight = stats.requestsInFlight
            if inFlight == 0 { break }
            usleep(20_000)
        }
        #expect(inFlight == 0, "the batch was still in flight 10 s after its client left")
        guard case .statsReply(let stats) = try watcher.request(.stats(.init())) else { return }
        #expect(stats.requestsServed < 50_000, "every item was laid out for a client that had left")
    }
}

extension Layoutd_V1_Envelope {
    var batchItem: Layoutd_V1_BatchItemReply? {
        if case .batchItem(let item) = body { return item }
        return nil
    }
}

/// Reads a batch's items on a thread of its own, counting them as they come.
final class BatchReader: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var firstOutOfOrder: Int?
    private var failures = 0
    private let done = DispatchSemaphore(value: 0)

    init(_ client: LayoutClient, id: UInt64, from start: Int, to end: Int) {
        // The client is read from this thread only until `finish`.
        nonisolated(unsafe) let client = client
        Thread.detachNewThread { [self] in
            for index in start..<end {
                let item = try? client.receive(id: id).batchItem
                lock.withLock {
                    count = index + 1
                    if item?.index != UInt32(index), firstOutOfOrder == nil { firstOutOfOrder = index }
                    if case .error = item?.result { failures += 1 }
                }
            }
            done.signal()
        }
    }

    /// Items answered so far.
    var answered: Int { lock.withLock { count } }

    func finish() -> (outOfOrder: Int?, failed: Int) {
        done.wait()
        return lock.withLock { (firstOutOfOrder, failures) }
    }
}

/// The async Swift client's batch: results in place, streamed items, and a stream left early.
@Suite struct AsyncClientBatchTests {
    @Test func resultsInPlaceAndAStreamLeftEarly() async throws {
        let daemon = try Daemon()
        let client = try await AsyncLayoutClient(socketPath: daemon.socketPath)
        var requests = (0..<5).map { layoutRequest("Async caption \($0)", width: 200) }
        requests[3].width = -1
        let results = try await client.layoutBatch(.with { $0.requests = requests })
        #expect(results.count == 5)
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let layout):
                #expect(index != 3)
                #expect(layout == (try await client.layout(requests[index])))
            case .failure(.server(let error)):
                #expect(index == 3 && error.field == "batch_layout.requests[3].width")
            case .failure(let other):
                Issue.record("item \(index): \(other)")
            }
        }
        var seen = 0
        for try await item in client.batchItems(BatchServerTests.batch(BatchServerTests.texts(5_000))) {
            #expect(item.index == UInt32(seen))
            seen += 1
            if seen == 20 { break }
        }
        #expect(seen == 20)
        // The connection goes on, the rest of that batch dropped as it comes.
        #expect(try await client.layout("after", width: 100).lines.count == 1)
        do {
            _ = try await client.layoutBatch(.init())
            Issue.record("an empty batch was answered")
        } catch ClientError.server(let error) {
            #expect(error.field == "batch_layout.texts")
        }
    }
}

/// `layoutctl batch`: a file of texts in, a JSON line (or a picture) per text out, in order,
/// each what `layoutctl layout --json` gives for that text; progress only on a terminal.
@Suite struct LayoutctlBatchTests {
    static func file(_ lines: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("layoutctl-batch-\(getpid())-\(UUID().uuidString.prefix(6))").path
        try lines.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func writesAJSONLinePerTextInOrder() throws {
        let daemon = try Daemon()
        let ctl = Daemon.binary("layoutctl")
        let texts = (0..<30).map { "Caption \($0) of a file" } + ["two\\nlines", "مرحبا بالعالم"]
        let path = try Self.file(texts.joined(separator: "\n") + "\n")
        defer { unlink(path) }
        // Batches of 7 texts: the indexes run on across requests.
        let result = try run(ctl, ["batch", "--socket", daemon.socketPath, "--width", "200", "--size", "20", "--input", path,
                                   "--batch-size", "7"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.isEmpty, "progress on a pipe: \(result.err)")
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == texts.count)
        for (index, line) in lines.enumerated() {
            let item = try Layoutd_V1_BatchItemReply(jsonString: String(line))
            #expect(item.index == UInt32(index))
            guard case .layout(let layout) = item.result else { Issue.record("text \(index) failed: \(line)"); continue }
            let alone = try run(ctl, ["layout", "--socket", daemon.socketPath, "--width", "200", "--size", "20", "--json", texts[index]])
            #expect(layout == (try Layoutd_V1_LayoutReply(jsonString: alone.out)), "text \(index)")
            if index == texts.count - 2 { #expect(layout.lines.count == 2, "\\n is a line break") }
        }
    }

    @Test func readsJSONLinesAndExitsRejectedWhenATextFails() throws {
        let daemon = try Daemon(arguments: ["--max-text", "20"])
        let path = try Self.file(#"{"text": "short one", "script": "Latn"}"# + "\n" + #""a string""# + "\n"
                                 + #"{"text": "far too long for this daemon's limit"}"# + "\n")
        defer { unlink(path) }
        let result = try run(Daemon.binary("layoutctl"), ["batch", "--socket", daemon.socketPath, "--width", "200", "--jsonl", "--input", path])
        #expect(result.status == 65, "\(result.err)")
        #expect(result.err.contains("1 of 3 texts failed"))
        let items = try result.out.split(separator: "\n").map { try Layoutd_V1_BatchItemReply(jsonString: String($0)) }
        #expect(items.map(\.index) == [0, 1, 2])
        guard case .error(let error) = items[2].result else { Issue.record("the long text was laid out"); return }
        #expect(error.field == "batch_layout.texts[2]")

        let bad = try Self.file("{\"no\": 1}\n")
        defer { unlink(bad) }
        let refused = try run(Daemon.binary("layoutctl"), ["batch", "--socket", daemon.socketPath, "--width", "200", "--jsonl", "--input", bad])
        #expect(refused.status == 74 && refused.err.contains("line 1"), "\(refused.err)")
    }

    @Test func writesAPicturePerText() throws {
        let daemon = try Daemon()
        let path = try Self.file("first\nsecond\nthird\n")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layoutctl-pictures-\(getpid())").path
        defer { unlink(path); try? FileManager.default.removeItem(atPath: directory) }
        let result = try run(Daemon.binary("layoutctl"), ["batch", "--socket", daemon.socketPath, "--width", "200", "--input", path,
                                                          "--pictures", directory, "--format", "svg"])
        #expect(result.status == 0, "\(result.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["000000.svg", "000001.svg", "000002.svg"])
        let svg = try String(contentsOfFile: directory + "/000001.svg", encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") || svg.hasPrefix("<svg"))
    }

    /// On a terminal (a pseudo-terminal from script(1)), standard error shows the count, the rate
    /// and the time left; the JSON lines still go to standard output.
    @Test func progressShowsOnATerminal() throws {
        let daemon = try Daemon()
        let path = try Self.file((0..<300).map { "caption \($0)" }.joined(separator: "\n"))
        let out = path + ".jsonl"
        defer { unlink(path); unlink(out) }
        let command = "\(Daemon.binary("layoutctl")) batch --socket \(daemon.socketPath) --width 200 --input \(path) > \(out)"
        let result = try run("/usr/bin/script", ["-qec", command, "/dev/null"])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains("300/300 texts"), "\(result.out)")
        #expect(result.out.contains("/s"))
        #expect(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").count == 300)
    }
}
