import LayoutEngine
import LayoutWire
import NIOCore
import NIOPosix
import Synchronization

/// A batch in progress on a connection: where it stands, and what it runs with.
/// Touched on the connection's event loop only.
final class BatchRun {
    let requestID: UInt64
    /// The batch's own budget: its deadline (the envelope's, none otherwise) and its cancel flag,
    /// which each item's budget reads through (`WorkBudget.parent`).
    let budget: WorkBudget
    /// The frame's bytes, counted in flight until the batch is answered.
    let bytes: Int
    /// The frame, until the first chunk reads it (on the pool) into `plan`.
    var frame: ByteBuffer?
    var plan: BatchPlan?
    /// The processor the batch was taken with; once its shared fonts are added, that one.
    var processor: RequestProcessor
    var fontsAdded = false
    /// The first item not yet answered.
    var next = 0
    /// Refused as a whole, or every item answered.
    var isDone = false
    /// Chunks a worker handed to the loop and the loop has not written yet.
    let unwritten = UnwrittenChunks()

    init(requestID: UInt64, budget: WorkBudget, bytes: Int, processor: RequestProcessor, frame: ByteBuffer?, plan: BatchPlan?) {
        self.requestID = requestID
        self.budget = budget
        self.bytes = bytes
        self.processor = processor
        self.frame = frame
        self.plan = plan
    }
}

/// Chunks of a batch handed by a worker to the loop and not yet written: a worker goes on with
/// the next chunk itself only while the one it hands over is the only one (a loop kept busy
/// elsewhere never has a batch's chunks pile up behind it).
final class UnwrittenChunks: Sendable {
    private let count = Atomic<Int>(0)

    /// One more handed over; how many are now unwritten, this one included.
    func handedOver() -> Int { count.add(1, ordering: .acquiringAndReleasing).newValue }

    /// One written (or dropped, its connection gone).
    func written() { count.subtract(1, ordering: .acquiringAndReleasing) }
}

/// Batches: laid out a chunk at a time on the pool, each chunk's frames written in one write.
///
/// The frame is read on the pool by the first chunk, never on the event loop (a batch is large
/// by nature). A chunk holds a worker for a slice of time (`ServerConfiguration.batchSliceMicroseconds`);
/// the next one runs on that worker at once while nothing else waits for one, and is queued
/// behind whatever other connections queued meanwhile otherwise (`runChunk`), as the pool takes
/// work in order, so a batch of 100,000 items delays another client's request by at most a
/// slice. A batch waits while its client does not read its replies (the connection is not
/// writable), so its frames never pile up in memory.
extension ConnectionHandler {
    /// A batch frame (`FrameRoute.batch`), its id and deadline read, the batch not yet.
    func runBatch(frame: ByteBuffer, requestID: UInt64, deadlineMs: UInt32, processor: RequestProcessor, arrival: UInt64,
                  context: ChannelHandlerContext) {
        start(BatchRun(requestID: requestID, budget: budget(arrival: arrival, deadlineMs: deadlineMs, serverBudget: false),
                       bytes: frame.readableBytes, processor: processor, frame: frame, plan: nil), context: context)
    }

    /// A batch decoded with the other requests (`RequestRoute.batch`): checked here.
    func runBatch(_ envelope: Layoutd_V1_Envelope, processor: RequestProcessor, bytes: Int, arrival: UInt64,
                  context: ChannelHandlerContext) {
        let plan: BatchPlan
        do {
            plan = try BatchPlan(envelope, maxItems: configuration.maxBatchItems)
        } catch {
            write(processor.errorReply(envelope.requestID, error), context: context)
            return
        }
        start(BatchRun(requestID: envelope.requestID, budget: budget(arrival: arrival, deadlineMs: envelope.deadlineMs, serverBudget: false),
                       bytes: bytes, processor: processor, frame: nil, plan: plan), context: context)
    }

    private func start(_ run: BatchRun, context: ChannelHandlerContext) {
        state.accepted(run.requestID, budget: run.budget)
        begin(bytes: run.bytes)
        nextChunk(of: run, context: context)
    }

    /// What a chunk's work reads: taken from the run on the loop when the loop queues a chunk,
    /// carried forward by the worker when it goes on with the next one itself.
    private struct ChunkJob: Sendable {
        let requestID: UInt64
        let budget: WorkBudget
        let allocator: ByteBufferAllocator
        let unwritten: UnwrittenChunks
        var start: Int
        var fontsAdded: Bool
        var frame: ByteBuffer?
        var plan: BatchPlan?
        var processor: RequestProcessor
    }

    /// What a chunk on the pool gives back to the loop.
    private struct Chunk: Sendable {
        var plan: BatchPlan?
        var processor: RequestProcessor
        var frames: ByteBuffer?
        var next: Int
        /// The batch was refused as a whole (`frames` says why).
        var refused = false
        /// The worker went on with the next chunk itself (`runChunk`).
        var continued = false
    }

    /// Queues the batch's next chunk, or waits for the client to read (`resumeBatches`).
    private func nextChunk(of run: BatchRun, context: ChannelHandlerContext) {
        guard context.channel.isActive else {
            finish(run, context: context)
            return
        }
        guard context.channel.isWritable else {
            waitingBatches.append(run)
            return
        }
        let job = ChunkJob(requestID: run.requestID, budget: run.budget, allocator: context.channel.allocator, unwritten: run.unwritten,
                           start: run.next, fontsAdded: run.fontsAdded, frame: run.frame, plan: run.plan, processor: run.processor)
        run.frame = nil
        queue(job, channel: context.channel, bound: NIOLoopBound((run, context), eventLoop: context.eventLoop))
    }

    /// Queues `job` on the pool, behind whatever other connections queued: the pool takes work in
    /// order, so a batch holds a worker a slice at a time. Called on the loop, or on the worker
    /// that ran the chunk before.
    private func queue(_ job: ChunkJob, channel: Channel, bound: NIOLoopBound<(BatchRun, ChannelHandlerContext)>) {
        let loop = bound.eventLoop
        queued.submit(on: pool) { state in
            guard state == .active else {
                // The pool stopped: the daemon is going down. What is left is answered so.
                loop.execute {
                    let (run, context) = bound.value
                    self.refuseRest(of: run, WireError(.unavailable, "the server is shutting down", field: "batch_layout"), context: context)
                    self.finish(run, context: context)
                }
                return
            }
            self.runChunk(job, channel: channel, bound: bound)
        }
    }

    /// On a worker: lays `job`'s chunk out and hands its frames to the loop; then, where the loop
    /// would queue the next chunk (the connection open and writable, no earlier chunk of the batch
    /// still unwritten), goes on with it here: at once while no other work waits for a worker,
    /// else queued behind that work, as the loop would queue it. Either way the batch holds a
    /// worker a slice at a time while others wait; but the next chunk does not wait for a hop
    /// through the loop, nor go to another worker that must be woken and meets the batch's code,
    /// tables and fonts with cold caches (docs/design.md, "Batches and sharing the cores").
    private func runChunk(_ job: ChunkJob, channel: Channel, bound: NIOLoopBound<(BatchRun, ChannelHandlerContext)>) {
        var job = job
        while true {
            var chunk = laidOut(job)
            let done = chunk.refused || chunk.next >= (chunk.plan?.count ?? 0)
            // This chunk is handed over now; the loop counts it written once it is written or dropped.
            let unwritten = job.unwritten.handedOver()
            chunk.continued = !done && unwritten <= 1 && channel.isActive && channel.isWritable
            let handed = chunk
            bound.eventLoop.execute {
                let (run, context) = bound.value
                self.chunkDone(handed, of: run, context: context)
            }
            guard handed.continued else { return }
            job.start = handed.next
            job.fontsAdded = true
            job.frame = nil
            job.plan = handed.plan
            job.processor = handed.processor
            guard queued.isEmpty else {
                queue(job, channel: channel, bound: bound)
                return
            }
        }
    }

    /// On a worker: the chunk of `job`, its frames or the error that refuses the whole batch.
    private func laidOut(_ job: ChunkJob) -> Chunk {
        let (id, processor) = (job.requestID, job.processor)
        let allocator = job.allocator
        func refused(_ error: WireError) -> Chunk {
            Chunk(processor: processor, frames: try? Self.frame(processor.errorReply(id, error), allocator: allocator), next: 0, refused: true)
        }
        var plan: BatchPlan
        if let known = job.plan {
            plan = known
        } else {
            do {
                plan = try job.frame?.withUnsafeReadableBytes { bytes throws(WireError) in
                    try BatchPlan.of(frame: bytes, processor: processor, maxItems: configuration.maxBatchItems)
                } ?? { throw WireError(.internal, "a batch without its frame", field: "batch_layout") }()
            } catch let error as WireError {
                return refused(error)
            } catch {
                return refused(WireError(.internal, "\(error)", field: "batch_layout"))
            }
        }
        var scoped = processor
        if !job.fontsAdded {
            // Fonts every item shares that cannot be added refuse the whole batch.
            do throws(WireError) { scoped = try processor.scoped(for: plan) } catch { return refused(error) }
        }
        let refusal = tracker.isShuttingDown ? WireError(.unavailable, "the server is shutting down", field: "batch_layout") : nil
        let (slice, maxBytes) = (UInt64(configuration.batchSliceMicroseconds) * 1_000, configuration.batchChunkBytes)
        let chunk = CrashReport.serving("batch_layout") {
            scoped.batchChunk(plan, from: job.start, batch: job.budget, sliceEnd: Uptime.nanoseconds &+ slice,
                              maxBytes: maxBytes, refusal: refusal, allocator: allocator)
        }
        return Chunk(plan: plan, processor: scoped, frames: chunk.frames, next: chunk.next)
    }

    /// On the loop: a chunk's frames written, the run brought up to date; the next chunk queued
    /// here where the worker did not queue it.
    private func chunkDone(_ chunk: Chunk, of run: BatchRun, context: ChannelHandlerContext) {
        run.plan = chunk.plan
        run.processor = chunk.processor
        run.fontsAdded = true
        run.next = chunk.next
        run.isDone = chunk.refused || chunk.next >= (chunk.plan?.count ?? 0)
        // The next chunk is queued before this one is written, so a worker lays it out while the
        // loop writes (the one after waits if this write leaves the client behind: at most one
        // chunk more is held).
        if !run.isDone && !chunk.continued { nextChunk(of: run, context: context) }
        if let frames = chunk.frames, context.channel.isActive {
            beforeChannelWrite(context)
            context.writeAndFlush(wrapOutboundOut(frames)).assumeIsolated().whenComplete { _ in
                self.state.replyWritten(now: self.clock())
            }
        }
        run.unwritten.written()
        if run.isDone { finish(run, context: context) }
    }

    /// Answers every item not yet answered with `error`, on the loop: a handful of bytes each.
    private func refuseRest(of run: BatchRun, _ error: WireError, context: ChannelHandlerContext) {
        run.isDone = true
        let reply: ByteBuffer?
        if let plan = run.plan {
            guard run.next < plan.count else { return }
            let chunk = run.processor.batchChunk(plan, from: run.next, batch: run.budget, sliceEnd: .max, maxBytes: .max, refusal: error,
                                                 allocator: context.channel.allocator)
            run.next = chunk.next
            reply = chunk.frames
        } else {
            // Not read yet: nothing was answered, so the batch is refused as a whole.
            reply = try? Self.frame(run.processor.errorReply(run.requestID, error), allocator: context.channel.allocator)
        }
        if let reply, context.channel.isActive {
            beforeChannelWrite(context)
            context.writeAndFlush(wrapOutboundOut(reply), promise: nil)
        }
    }

    /// The batch is answered (or its connection gone): it is no longer in flight.
    private func finish(_ run: BatchRun, context: ChannelHandlerContext) {
        state.answered(run.requestID, budget: run.budget)
        end(bytes: run.bytes, context: context)
    }

    /// The client reads again: batches that waited for it go on.
    func resumeBatches(context: ChannelHandlerContext) {
        guard !waitingBatches.isEmpty, context.channel.isWritable || !context.channel.isActive else { return }
        let waiting = waitingBatches
        waitingBatches = []
        for run in waiting { nextChunk(of: run, context: context) }
    }
}
