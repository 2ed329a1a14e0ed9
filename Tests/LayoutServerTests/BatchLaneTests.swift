import Foundation
import LayoutEngine
import LayoutWire
import NIOCore
import Testing
@testable import LayoutServer

/// A batch's lanes share its items through one cursor (`BatchCursor`): chunks taken in turn, or
/// on threads at once, answer every item once, and their pieces put in the items' order are the
/// frames of the batch answered in one chunk, byte for byte.
@Suite struct BatchLaneTests {
    static func plan(_ texts: [String]) throws -> BatchPlan {
        let body = try InProcessBatchTests.body(texts)
        return try body.withUnsafeBytes { bytes throws(WireError) in
            try BatchPlan.of(frame: bytes, processor: PlainBatchTests.processor, maxItems: 100_000)
        }
    }

    /// Pieces keyed by their first item, joined in the items' order; nil where an item is missing
    /// or answered twice.
    static func joined(_ pieces: [RequestProcessor.BatchChunk.Piece], count: Int) -> [UInt8]? {
        let byStart = Dictionary(pieces.map { ($0.items.lowerBound, $0) }, uniquingKeysWith: { first, _ in first })
        guard byStart.count == pieces.count else { return nil }
        var (next, bytes) = (0, [UInt8]())
        while let piece = byStart[next] {
            bytes += piece.frames.readableBytesView
            next = piece.items.upperBound
        }
        return next == count && bytes.count == pieces.reduce(0, { $0 + $1.frames.readableBytes }) ? bytes : nil
    }

    static let texts = PlainLayoutTests.texts + PlainLayoutTests.texts + PlainLayoutTests.texts

    @Test func lanesTakingChunksInTurnAnswerEveryItemOnce() throws {
        let plan = try Self.plan(Self.texts)
        let processor = PlainBatchTests.processor
        let whole = PlainBatchTests.frames(plan, processor)
        // Three lanes, a chunk each in turn; chunks of about two items, so the lanes' pieces interleave.
        let cursor = BatchCursor()
        var pieces: [RequestProcessor.BatchChunk.Piece] = []
        var lane = 0
        while !cursor.isExhausted(before: plan.count) {
            let chunk = processor.batchChunk(plan, taking: cursor, batch: WorkBudget(), sliceEnd: .max, maxBytes: 700)
            #expect(!chunk.pieces.isEmpty, "lane \(lane) took nothing though items were left")
            pieces += chunk.pieces
            lane = (lane + 1) % 3
        }
        #expect(pieces.count > 3, "the items were split between chunks")
        let same = Self.joined(pieces, count: plan.count) == whole  // a Bool: the bytes themselves would fill the log
        #expect(same, "the pieces in order are the batch answered whole")
        // Every item taken: one more chunk takes nothing.
        #expect(processor.batchChunk(plan, taking: cursor, batch: WorkBudget(), sliceEnd: .max, maxBytes: .max).pieces.isEmpty)
    }

    @Test func lanesOnThreadsAtOnceAnswerEveryItemOnce() throws {
        let plan = try Self.plan(Self.texts + Self.texts)
        let processor = PlainBatchTests.processor
        let whole = PlainBatchTests.frames(plan, processor)
        let cursor = BatchCursor()
        let lock = NSLock()
        nonisolated(unsafe) var pieces: [RequestProcessor.BatchChunk.Piece] = []
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            // As the daemon's lanes do: each with a template of its own.
            let plan = plan.forLane()
            while !cursor.isExhausted(before: plan.count) {
                let chunk = processor.batchChunk(plan, taking: cursor, batch: WorkBudget(), sliceEnd: .max, maxBytes: 1_500)
                lock.withLock { pieces += chunk.pieces }
            }
        }
        let same = Self.joined(pieces, count: plan.count) == whole
        #expect(same, "the pieces of four lanes at once, in order, are the batch answered whole")
    }

    /// A lane's plan (`BatchPlan.forLane`) has a template equal to the batch's but made apart,
    /// so the lanes' workers never count references on the same objects; it answers the same.
    @Test func aLanesOwnTemplateAnswersAsTheBatchsDoes() throws {
        let plan = try Self.plan(Self.texts)
        let lane = plan.forLane()
        let units = PlainBatchTests.processor.configuration.maxTextUnits
        let (ours, theirs) = (try #require(lane.engineRequest(0, maxTextUnits: units)), try #require(plan.engineRequest(0, maxTextUnits: units)))
        #expect(ours.text.styles == theirs.text.styles)
        let apart = ours.text.styles.withUnsafeBufferPointer { a in theirs.text.styles.withUnsafeBufferPointer { a.baseAddress != $0.baseAddress } }
        #expect(apart, "the lane's items share a styles array of the lane's own")
        // Two items of one lane share its array: the engine's style caches find it at once.
        let second = try #require(lane.engineRequest(1, maxTextUnits: units))
        let shared = ours.text.styles.withUnsafeBufferPointer { a in second.text.styles.withUnsafeBufferPointer { a.baseAddress == $0.baseAddress } }
        #expect(shared)
        let same = PlainBatchTests.frames(lane, PlainBatchTests.processor) == PlainBatchTests.frames(plan, PlainBatchTests.processor)
        #expect(same, "the lane's frames are the batch's, byte for byte")
    }

    /// Each item's budget is part of the batch's: cancelling the batch, or its deadline passing,
    /// answers every item of a chunk so.
    @Test(arguments: [false, true])
    func aChunksItemsAnswerTheBatchsCancelAndDeadline(cancelled: Bool) throws {
        let plan = try Self.plan(Self.texts)
        let batch = cancelled ? WorkBudget() : WorkBudget(deadline: 1)
        if cancelled { batch.cancel() }
        let chunk = PlainBatchTests.processor.batchChunk(plan, from: 0, batch: batch, sliceEnd: .max, maxBytes: .max)
        var bytes = Array(chunk.frames.readableBytesView)
        let replies = try takeReplies(from: &bytes)
        let codes = replies.map { envelope -> Layoutd_V1_Error.Code? in
            if case .error(let error) = envelope.batchItem?.result { return error.code }
            return nil
        }
        #expect(codes.count == plan.count)
        let expected: Layoutd_V1_Error.Code = cancelled ? .cancelled : .deadlineExceeded
        #expect(Set(codes) == [expected])
    }

    @Test func aCursorGivesEachItemOnce() {
        let cursor = BatchCursor(from: 2)
        #expect(cursor.take(3, before: 10) == 2..<5)
        #expect(cursor.take(16, before: 10) == 5..<10)
        #expect(cursor.take(1, before: 10).isEmpty)
        #expect(cursor.isExhausted(before: 10))
        #expect(!BatchCursor().isExhausted(before: 1))
    }

    @Test func blocksFitWhatIsLeftOfTheSliceAndTheBytes() {
        typealias P = RequestProcessor
        // One item to start, whatever is left.
        #expect(P.blockSize(done: 0, started: 0, now: 0, sliceEnd: .max, written: 0, maxBytes: .max) == 1)
        // Ten items in 1 ms: 100 µs each; 450 µs left → 4.
        #expect(P.blockSize(done: 10, started: 0, now: 1_000_000, sliceEnd: 1_450_000, written: 1_000, maxBytes: .max) == 4)
        // 100 bytes an item, 350 bytes left → 3.
        #expect(P.blockSize(done: 10, started: 0, now: 1_000_000, sliceEnd: .max, written: 1_000, maxBytes: 1_350) == 3)
        // Never more than are done, nor than the largest block; never fewer than one.
        #expect(P.blockSize(done: 3, started: 0, now: 3, sliceEnd: .max, written: 3, maxBytes: .max) == 3)
        #expect(P.blockSize(done: 100, started: 0, now: 100, sliceEnd: .max, written: 100, maxBytes: .max) == P.largestBlock)
        #expect(P.blockSize(done: 10, started: 0, now: 2_000_000, sliceEnd: 1_000_000, written: 5_000, maxBytes: 10) == 1)
    }

    @Test func aBatchRunsOnEveryWorkerOrOnAsManyAsAllowed() {
        var configuration = ServerConfiguration()
        configuration.workerThreads = 4
        #expect(configuration.batchLanes == 4)
        configuration.batchWorkers = 1
        #expect(configuration.batchLanes == 1)
        configuration.batchWorkers = 9
        #expect(configuration.batchLanes == 4)
    }
}
