import Foundation
import LayoutEngine
import LayoutWire
import Testing
@testable import LayoutServer

/// A batch of texts with plain options (`PlainBatchRequest`) is read straight from its frame and
/// laid out from engine requests made from its units; every item frame is the one the general way
/// (the envelope decoded by swift-protobuf, each item converted) gives, byte for byte, refusals too.
@Suite struct PlainBatchTests {
    static var texts: [String] {
        PlainLayoutTests.texts + ["", "\u{FFFC} a box with nothing in it", "עברית and English", "🇯🇵🇫🇷 flags"]
            + (corpus ?? [])
    }

    static let corpus: [String]? = {
        guard let data = try? Data(contentsOf: repositoryRoot.appendingPathComponent("../shared/corpus/captions.jsonl")) else { return nil }
        struct Caption: Decodable { var text: String }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? JSONDecoder().decode(Caption.self, from: Data($0)).text }
    }()

    /// Every item's frames, one chunk, from the plan the frame gives.
    static func frames(_ plan: BatchPlan, _ processor: RequestProcessor) -> [UInt8] {
        Array(processor.batchChunk(plan, from: 0, batch: WorkBudget(), sliceEnd: .max, maxBytes: .max).frames.readableBytesView)
    }

    static let processor: RequestProcessor = {
        do { return try RequestProcessor.standalone() } catch { fatalError("default fonts missing (run scripts/setup.sh): \(error)") }
    }()

    @Test(arguments: [false, true])
    func everyItemIsTheGeneralWays(limited: Bool) throws {
        // Limited: texts past 64 units are refused, by name.
        let processor = limited ? PlainLayoutTests.processor : Self.processor
        let maxTextUnits = processor.configuration.maxTextUnits
        for (family, size, width) in [("", Float(0), Float(300)), ("Noto Sans", 24, 120), ("Nope", 24, 300), ("", 20, -3), ("Noto Sans", 9, 0)] {
            var plain = PlainBatchRequest()
            plain.requestID = 77
            plain.shared.hasDefaultStyle = !family.isEmpty || size != 0
            plain.shared.family = family
            plain.shared.size = size
            plain.shared.width = width
            plain.texts = (limited ? PlainLayoutTests.texts : Self.texts).map { ContiguousArray($0.utf16) }
            let frame = Array(try Framing.encode(plain.envelope).dropFirst(Framing.headerBytes))
            #expect(frame.withUnsafeBytes { PlainBatchRequest.read($0) } == plain, "the frame reads back as the plain batch")
            let fast = try frame.withUnsafeBytes { bytes throws(WireError) in
                try BatchPlan.of(frame: bytes, processor: processor, maxItems: 100_000)
            }
            let general = try BatchPlan(plain.envelope, maxItems: 100_000)
            #expect(fast.count == general.count)
            #expect(fast.engineRequest(1, maxTextUnits: maxTextUnits) != nil || family == "Nope" || width <= 0,
                    "the fast plan is the plain one")
            #expect(general.engineRequest(1, maxTextUnits: maxTextUnits) == nil)
            #expect(Self.frames(fast, processor) == Self.frames(general, processor), "\(family) \(size) \(width)")
        }
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent("../shared/corpus").path),
                   "no ../shared/corpus beside the repository"))
    func theCorpusIsRead() {
        #expect((Self.corpus?.count ?? 0) > 1_000)
    }

    /// A chunk's frames are written straight into the room its buffer lends; frames that outgrow
    /// it move to storage of their own and are copied from there: the same bytes and pieces.
    @Test func aChunkThatOutgrowsItsRoomKeepsEveryFrame() throws {
        let long = String(repeating: "word ", count: 600)
        let texts = PlainLayoutTests.texts + [long, long + "again", long + "and again"]
        let plan = try BatchPlan(.with { $0.requestID = 5; $0.batchLayout.texts = texts; $0.batchLayout.layout.width = 300 },
                                 maxItems: 100)
        // Past 1 MiB of chunk bytes a chunk's room is 64 KiB; below it, the bytes and 16 KiB more.
        let outgrown = Self.processor.batchChunk(plan, from: 0, batch: WorkBudget(), sliceEnd: .max, maxBytes: .max)
        let roomy = Self.processor.batchChunk(plan, from: 0, batch: WorkBudget(), sliceEnd: .max, maxBytes: (1 << 20) - 1)
        #expect(outgrown.frames.readableBytes > 64 << 10, "the frames outgrow a 64 KiB room")
        #expect(Array(outgrown.frames.readableBytesView) == Array(roomy.frames.readableBytesView))
        #expect(outgrown.pieces.map(\.items) == [0..<texts.count] && roomy.pieces.map(\.items) == [0..<texts.count])
        #expect(outgrown.next == texts.count && roomy.next == texts.count)
    }

    @Test func anythingButPlainOptionsGoesTheGeneralWay() throws {
        func plain(_ batch: Layoutd_V1_BatchLayoutRequest) throws -> PlainBatchRequest? {
            let frame = Array(try Framing.encode(.with { $0.requestID = 3; $0.batchLayout = batch }).dropFirst(Framing.headerBytes))
            return frame.withUnsafeBytes { PlainBatchRequest.read($0) }
        }
        #expect(try plain(.with { $0.texts = ["a"]; $0.layout.width = 100 })?.texts.count == 1)
        #expect(try plain(.with { $0.texts = ["a"] })?.texts.count == 1)
        #expect(try plain(.with { $0.texts = ["a"]; $0.layout.maxLines = 2 }) == nil)
        #expect(try plain(.with { $0.texts = ["a"]; $0.layout.text = "shared" }) == nil)
        #expect(try plain(.with { $0.texts = ["a"]; $0.layout.defaultStyle.weight = 700 }) == nil)
        #expect(try plain(.with { $0.requests = [.with { $0.text = "a" }] }) == nil)
        #expect(try plain(.init()) == nil)
    }

    @Test func fieldsAreNamedInTheBatch() throws {
        let texts = try BatchPlan(.with { $0.batchLayout.texts = ["a", "b"] }, maxItems: 10)
        #expect(texts.field("layout.text", item: 1) == "batch_layout.texts[1]")
        #expect(texts.field("layout.default_style.size", item: 1) == "batch_layout.layout.default_style.size")
        #expect(texts.field("envelope.deadline_ms", item: 1) == "envelope.deadline_ms")
        let requests = try BatchPlan(.with { $0.batchLayout.requests = [.init(), .init()] }, maxItems: 10)
        #expect(requests.field("layout.width", item: 1) == "batch_layout.requests[1].width")
        #expect(requests.field("layout", item: 0) == "batch_layout.requests[0]")
        #expect(throws: WireError.self) { try BatchPlan(.with { $0.batchLayout.texts = ["a", "b", "c"] }, maxItems: 2) }
    }
}

/// A batch answered in process (`RequestProcessor.batchReplyChunks`, the benchmark's batch pass)
/// is the batch a connection's workers answer: chunk after chunk, the same frames as one chunk.
@Suite struct InProcessBatchTests {
    static func body(_ texts: [String], requests: Int = 0) throws -> [UInt8] {
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = 9
        envelope.batchLayout.texts = texts
        envelope.batchLayout.layout.width = 200
        envelope.batchLayout.requests = Array(repeating: Layoutd_V1_LayoutRequest(), count: requests)
        return try envelope.serializedBytes()
    }

    @Test func chunksJoinedAreTheWholeBatch() throws {
        // One item a chunk (a chunk ends once it holds a byte), and a budget no loaded machine
        // runs past, so both sides lay every item out.
        var configuration = ServerConfiguration()
        configuration.batchChunkBytes = 1
        configuration.requestBudgetMilliseconds = 600_000
        let processor = try RequestProcessor.standalone(configuration: configuration)
        let texts = PlainLayoutTests.texts + PlainLayoutTests.texts
        let body = try Self.body(texts)
        let chunks = try processor.batchReplyChunks(toBody: body)
        #expect(chunks.count == texts.count, "a chunk an item")
        let plan = try body.withUnsafeBytes { bytes throws(WireError) in try BatchPlan.of(frame: bytes, processor: processor, maxItems: 100) }
        let (joined, whole) = (chunks.flatMap { Array($0.readableBytesView) }, PlainBatchTests.frames(plan, processor))
        let same = joined == whole  // a Bool: the byte arrays themselves would fill the log
        #expect(same, "the chunks' \(joined.count) bytes are the whole batch's \(whole.count)")
    }

    @Test func aBatchRefusedAsAWholeThrows() throws {
        let body = try Self.body(["a"], requests: 1)
        #expect(throws: WireError.self) {
            _ = try PlainBatchTests.processor.batchReplyChunks(toBody: body)
        }
    }
}
