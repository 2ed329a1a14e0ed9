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

    /// A batch of 10,000 on a daemon with one worker: another client's request, which needs the
    /// pool too, is answered while the batch still has items to go (its items are read all the
    /// while on another thread, so the batch never waits for its reader).
    @Test func anotherConnectionIsServedWhileABatchOfTenThousandRuns() throws {
        let daemon = try Daemon(arguments: ["--threads", "1"])
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
