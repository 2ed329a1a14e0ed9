import LayoutEngine
import LayoutWire
import NIOCore

/// A batch's items laid out on a worker, a chunk at a time, each under its own budget.
extension RequestProcessor {
    /// One chunk of a batch: its items' frames in the order they were taken, and which items
    /// each stretch of them answers.
    struct BatchChunk: Sendable {
        /// Consecutive items and their frames (a slice of `frames`). A chunk taken alone is one
        /// piece; beside other lanes, a piece ends where another lane took the next items.
        struct Piece: Sendable {
            let items: Range<Int>
            let frames: ByteBuffer
        }
        let frames: ByteBuffer
        let pieces: [Piece]
        /// Where the last piece ends: the next chunk's first item, for a chunk taken alone.
        let next: Int
    }

    /// This processor with the fonts every item of `plan` shares, added once for the batch.
    func scoped(for plan: BatchPlan) throws(WireError) -> RequestProcessor {
        try scoped(fonts: plan.sharedFonts, field: "batch_layout.layout.fonts")
    }

    /// The most items a chunk takes from its cursor at once: items taken are laid out whatever
    /// the time, so blocks stay small beside a slice.
    static let largestBlock = 16

    /// Lays out items of `plan` from `start` until `sliceEnd` (uptime in nanoseconds) or until
    /// `maxBytes` of frames are written, at least one item. Past the batch's deadline, after a
    /// cancel or with `refusal` set, items are answered with that error instead, quickly.
    func batchChunk(_ plan: BatchPlan, from start: Int, batch: WorkBudget, sliceEnd: UInt64, maxBytes: Int,
                    refusal: WireError? = nil, allocator: ByteBufferAllocator = ByteBufferAllocator()) -> BatchChunk {
        batchChunk(plan, taking: BatchCursor(from: start), batch: batch, sliceEnd: sliceEnd, maxBytes: maxBytes,
                   refusal: refusal, allocator: allocator)
    }

    /// The same, the items taken from `cursor`, which other workers may share: a block at a time,
    /// sized to what is left of the slice and the bytes at the pace of the items so far (one
    /// item first).
    func batchChunk(_ plan: BatchPlan, taking cursor: BatchCursor, batch: WorkBudget, sliceEnd: UInt64, maxBytes: Int,
                    refusal: WireError? = nil, allocator: ByteBufferAllocator = ByteBufferAllocator()) -> BatchChunk {
        // Room for the whole chunk at once (a chunk grown by doubling copies itself again each
        // time), in the buffer that goes to the socket: the frames are written there, not copied
        // there afterwards. Frames that outgrow it (an item's reply past the slack) are copied.
        let room = maxBytes < 1 << 20 ? maxBytes + (16 << 10) : 64 << 10
        var buffer = allocator.buffer(capacity: room)
        var stretches: [(items: Range<Int>, bytes: Range<Int>)] = []
        var outgrown: ByteBuffer?
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: room) { lent in
            var frames = BatchItemFrames(lent: lent)
            stretches = layOut(plan, taking: cursor, batch: batch, sliceEnd: sliceEnd, maxBytes: maxBytes, refusal: refusal,
                               into: &frames)
            guard frames.outgrewRoom else { return frames.byteCount }
            outgrown = frames.withBytes { bytes in
                var copy = allocator.buffer(capacity: bytes.count)
                copy.writeBytes(bytes)
                return copy
            }
            return 0
        }
        if let outgrown { buffer = outgrown }
        let pieces = stretches.map { stretch in
            BatchChunk.Piece(items: stretch.items, frames: buffer.getSlice(at: stretch.bytes.lowerBound, length: stretch.bytes.count)!)
        }
        return BatchChunk(frames: buffer, pieces: pieces, next: stretches.last?.items.upperBound ?? 0)
    }

    /// A chunk's items laid out into `frames`, a block at a time from `cursor`, until the slice
    /// ends or `maxBytes` are written: each stretch of consecutive items and its bytes.
    private func layOut(_ plan: BatchPlan, taking cursor: BatchCursor, batch: WorkBudget, sliceEnd: UInt64, maxBytes: Int,
                        refusal: WireError?, into frames: inout BatchItemFrames) -> [(items: Range<Int>, bytes: Range<Int>)] {
        var stretches: [(items: Range<Int>, bytes: Range<Int>)] = []
        let started = Uptime.nanoseconds
        var (now, done) = (started, 0)
        repeat {
            let items = cursor.take(Self.blockSize(done: done, started: started, now: now, sliceEnd: sliceEnd,
                                                   written: frames.byteCount, maxBytes: maxBytes), before: plan.count)
            guard !items.isEmpty else { break }
            let mark = frames.byteCount
            for index in items { now = batchItem(plan, index, batch: batch, refusal: refusal, into: &frames) }
            done += items.count
            if let last = stretches.last, last.items.upperBound == items.lowerBound {
                stretches[stretches.count - 1] = (last.items.lowerBound..<items.upperBound, last.bytes.lowerBound..<frames.byteCount)
            } else {
                stretches.append((items, mark..<frames.byteCount))
            }
        } while frames.byteCount < maxBytes && now < sliceEnd
        return stretches
    }

    /// How many items to take next: one to start; then as many as fit in the time and bytes left
    /// at the pace of the `done` so far, at least one, and at most as many as are done (a pace
    /// read from a few items may be far off) and `largestBlock`.
    static func blockSize(done: Int, started: UInt64, now: UInt64, sliceEnd: UInt64, written: Int, maxBytes: Int) -> Int {
        guard done > 0 else { return 1 }
        let pace = max(1, (now &- started) / UInt64(done))
        let byTime = (sliceEnd > now ? sliceEnd - now : 0) / pace
        let byBytes = max(0, maxBytes - written) / max(1, written / done)
        return max(1, Int(min(UInt64(min(largestBlock, done)), byTime, UInt64(byBytes))))
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
