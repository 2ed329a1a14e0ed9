import LayoutEngine
import LayoutWire
import NIOCore

/// What the fuzzer feeds: bytes as one frame body, and the same bytes as a stream of frames,
/// through the frame decoder, the envelope readers, validation, the engine and the reply
/// encoders, in process, as a worker answers them.
public enum FuzzEntry {
    /// Answers `bytes` both ways; returns how many replies were made (a crash is the failure).
    @discardableResult
    public static func answer(_ bytes: UnsafeRawBufferPointer, processor: RequestProcessor) -> Int {
        var replies = 0
        replies += answerBody(bytes, processor: processor)
        var decoder = FrameDecoder(maxFrameBytes: processor.configuration.maxFrameBytes)
        var stream = ByteBuffer(bytes: bytes)
        decoder.append(&stream)
        while let frame = try? decoder.next() {
            replies += frame.withUnsafeReadableBytes { answerBody($0, processor: processor) }
        }
        return replies
    }

    private static func answerBody(_ body: UnsafeRawBufferPointer, processor: RequestProcessor) -> Int {
        // The daemon's budget, so a slow input shows as a slow run, not a hung fuzzer.
        let budget = WorkBudget(milliseconds: processor.configuration.requestBudgetMilliseconds)
        if case .batch = FrameRoute.of(body) {
            // A batch as a connection's first chunk answers it: read, checked, its items laid
            // out (at most a few, within one slice).
            guard let plan = try? BatchPlan.of(frame: body, processor: processor, maxItems: processor.configuration.maxBatchItems),
                  let scoped = try? processor.scoped(for: plan) else { return 1 }
            let chunk = scoped.batchChunk(plan, from: 0, batch: budget, sliceEnd: Uptime.nanoseconds &+ 2_000_000,
                                          maxBytes: processor.configuration.batchChunkBytes)
            return chunk.next
        }
        // No reply for a Cancel (nil) or a failed encoding (a thrown error, flattened to nil).
        let reply = try? processor.replyFrame(toBody: body, budget: budget)
        return reply == nil ? 0 : 1
    }
}
