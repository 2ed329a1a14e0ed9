import LayoutEngine
import LayoutWire
import NIOCore

/// A batch's items laid out on a worker, a chunk at a time, each under its own budget.
extension RequestProcessor {
    /// One chunk of a batch: its items' frames, one after another, and where the next chunk starts.
    struct BatchChunk: Sendable {
        let frames: ByteBuffer
        let next: Int
    }

    /// This processor with the fonts every item of `plan` shares, added once for the batch.
    func scoped(for plan: BatchPlan) throws(WireError) -> RequestProcessor {
        try scoped(fonts: plan.sharedFonts, field: "batch_layout.layout.fonts")
    }

    /// Lays out items of `plan` from `start` until `sliceEnd` (uptime in nanoseconds) or until
    /// `maxBytes` of frames are written, at least one item. Past the batch's deadline, after a
    /// cancel or with `refusal` set, items are answered with that error instead, quickly.
    func batchChunk(_ plan: BatchPlan, from start: Int, batch: WorkBudget, sliceEnd: UInt64, maxBytes: Int,
                    refusal: WireError? = nil, allocator: ByteBufferAllocator = ByteBufferAllocator()) -> BatchChunk {
        // Room for the whole chunk at once: a chunk grown by doubling copies itself again each time.
        var frames = BatchItemFrames(capacity: maxBytes < 1 << 20 ? maxBytes + (16 << 10) : 64 << 10)
        var index = start
        var now: UInt64
        repeat {
            now = batchItem(plan, index, batch: batch, refusal: refusal, into: &frames)
            index += 1
        } while index < plan.count && frames.byteCount < maxBytes && now < sliceEnd
        let buffer = frames.withBytes { bytes in
            var buffer = allocator.buffer(capacity: bytes.count)
            buffer.writeBytes(bytes)
            return buffer
        }
        return BatchChunk(frames: buffer, next: index)
    }

    /// A batch frame's body answered in process, chunk after chunk as a connection's worker
    /// answers it (the configuration's slice and chunk bytes, the fonts every item shares added
    /// once): the chunks' frames, in order, or the error that refuses the batch as a whole. What
    /// a batch costs without its connection, for the benchmark's `batch` pass.
    public func batchReplyChunks(toBody body: [UInt8]) throws -> [ByteBuffer] {
        let maxItems = configuration.maxBatchItems
        let plan = try body.withUnsafeBytes { bytes throws(WireError) in try BatchPlan.of(frame: bytes, processor: self, maxItems: maxItems) }
        let scoped = try self.scoped(for: plan)
        let batch = plan.deadlineMs > 0 ? WorkBudget(milliseconds: Int(plan.deadlineMs)) : WorkBudget()
        let slice = UInt64(configuration.batchSliceMicroseconds) * 1_000
        var chunks: [ByteBuffer] = []
        var next = 0
        while next < plan.count {
            let chunk = scoped.batchChunk(plan, from: next, batch: batch, sliceEnd: Uptime.nanoseconds &+ slice,
                                          maxBytes: configuration.batchChunkBytes)
            chunks.append(chunk.frames)
            next = chunk.next
        }
        return chunks
    }

    /// Item `index` answered into `frames`: its layout, or its error; counted as one request.
    /// Returns the uptime when it was done.
    private func batchItem(_ plan: BatchPlan, _ index: Int, batch: WorkBudget, refusal: WireError?,
                           into frames: inout BatchItemFrames) -> UInt64 {
        let (id, position) = (plan.requestID, UInt32(index))
        let start = Uptime.nanoseconds
        var failure: WireError?
        if let refusal {
            failure = refusal
        } else if batch.isCancelled {
            failure = WireError(.cancelled, "item \(index) of batch \(id) was cancelled before it started", field: "batch_layout")
        } else if batch.deadline != .max && start > batch.deadline {
            failure = WireError(.deadlineExceeded, "item \(index) of batch \(id) did not start within the batch's "
                                + "\(plan.deadlineMs) ms deadline", field: "envelope.deadline_ms")
        } else {
            let budget = WorkBudget(deadline: min(start &+ UInt64(configuration.requestBudgetMilliseconds) &* 1_000_000, batch.deadline),
                                    user: batch.user, parent: batch)
            do throws(WireError) {
                let mark = frames.byteCount
                let bytes: Int
                if let plain = plan.engineRequest(index, maxTextUnits: configuration.maxTextUnits) {
                    // Plain options: the engine's request made straight from them, as for a plain layout.
                    let layout = try work("layout") { try layouter.layout(plain, budget: budget) }
                    try checkBeforeWriting(budget, "layout")
                    bytes = frames.appendLayout(requestID: id, index: position, layout: layout)
                } else {
                    let request = plan.item(index)
                    let processor = try scoped(fonts: request.fonts, field: "layout.fonts")
                    let decorated = try processor.wireLayout(request.fonts.isEmpty ? request : request.withoutFonts, budget: budget)
                    try checkBeforeWriting(budget, "layout")
                    bytes = frames.appendLayout(requestID: id, index: position, layout: decorated.layout,
                                                backgrounds: decorated.backgrounds, ruleMatches: decorated.ruleMatches)
                }
                if bytes > configuration.maxReplyBytes {
                    frames.dropLast(from: mark)
                    throw WireError(.resourceExhausted, "the item's reply would be \(bytes) bytes; this server sends at most "
                                    + "\(configuration.maxReplyBytes) (ask for less text)", field: "layout")
                }
            } catch {
                failure = error
            }
        }
        if let failure {
            let named = WireError(failure.code, failure.message, field: plan.field(failure.field, item: index))
            frames.appendError(requestID: id, index: position, named.wireMessage)
        }
        let end = Uptime.nanoseconds
        account(RequestTag(id: id, kind: "batch_layout", deadlineMs: plan.deadlineMs), failure: failure?.wireMessage,
                microseconds: Double(end - start) / 1000)
        return end
    }
}
