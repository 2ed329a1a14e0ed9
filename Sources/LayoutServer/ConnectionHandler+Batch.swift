import LayoutEngine
import LayoutWire
import NIOCore
import NIOPosix

/// A batch in progress on a connection: where it stands, and what it runs with.
/// Touched on the connection's event loop only, but for `cursor` and `held`, which its lanes share.
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
    /// The first item not yet written (or dropped, its connection gone).
    var next = 0
    /// The first item no lane has taken.
    let cursor = BatchCursor()
    /// Bytes laid out and not yet written.
    let held = HeldBatchBytes()
    /// Lanes queued or running: chains of chunks, one worker each.
    var lanes = 0
    /// Pieces laid out ahead of `next` by one lane while another still lays out the items
    /// before them, by their first item.
    var ahead: [Int: RequestProcessor.BatchChunk.Piece] = [:]
    /// Waiting in `waitingBatches` for the client to read.
    var isWaiting = false
    /// Refused as a whole, or every item answered.
    var isDone = false
    /// Answered, and no longer in flight (`finish`).
    var isFinished = false

    init(requestID: UInt64, budget: WorkBudget, bytes: Int, processor: RequestProcessor, frame: ByteBuffer?, plan: BatchPlan?) {
        self.requestID = requestID
        self.budget = budget
        self.bytes = bytes
        self.processor = processor
        self.frame = frame
        self.plan = plan
    }
}

/// Batches: laid out a chunk at a time on the pool, on every worker (`batch-workers`: up to that
/// many), and written in order.
///
/// The frame is read on the pool by the first chunk, never on the event loop (a batch is large
/// by nature). Then the batch runs in lanes, one a worker: each lane is a chain of chunks, and
/// each chunk takes its items from the batch's cursor a few at a time, so the lanes share the
/// items and the loop writes their frames in the items' order (`BatchRun.ahead` holds what came
/// early). A chunk holds a worker for a slice of time (`ServerConfiguration.batchSliceMicroseconds`);
/// its lane goes on at once while nothing else waits for a worker, and is queued behind whatever
/// other connections queued meanwhile otherwise (`runLane`), as the pool takes work in order, so
/// a batch of 100,000 items delays another client's request by at most a slice. A batch waits
/// while its client does not read its replies (the connection is not writable), and a lane
/// stops while its batch holds more than a few chunks' bytes unwritten, so frames never pile up
/// in memory.
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
        fillLanes(of: run, context: context)
    }

    /// What the items not laid out are answered once the daemon is told to stop.
    private static let shuttingDown = WireError(.unavailable, "the server is shutting down", field: "batch_layout")

    /// The most bytes a batch holds laid out and unwritten before its lanes stop: a few chunks
    /// a lane, so a lane hands one chunk over while it lays out the next.
    private var heldBytesBound: Int { 2 * configuration.batchLanes * configuration.batchChunkBytes }

    /// What a chunk's work reads: taken from the run on the loop when the loop starts a lane,
    /// carried forward by the worker from chunk to chunk of its lane.
    private struct ChunkJob: Sendable {
        let requestID: UInt64
        let budget: WorkBudget
        let allocator: ByteBufferAllocator
        let cursor: BatchCursor
        let held: HeldBatchBytes
        var fontsAdded: Bool
        var frame: ByteBuffer?
        var plan: BatchPlan?
        /// `plan` is this lane's own (`BatchPlan.forLane`), made by the lane's first chunk.
        var laneOwnsPlan = false
        var processor: RequestProcessor
    }

    /// What a chunk on the pool gives back to the loop.
    private struct Chunk: Sendable {
        var plan: BatchPlan?
        var processor: RequestProcessor
        var pieces: [RequestProcessor.BatchChunk.Piece]
        /// The batch was refused as a whole: these frames say why.
        var refusal: ByteBuffer?
        /// Its lane goes on with another chunk (`runLane`); else the lane ends with this one.
        var continued = false
    }

    /// Starts lanes up to one a worker while items are left to take, or waits for the client to
    /// read (`resumeBatches`); finishes the batch once it is answered and no lane runs. The
    /// frame is read, and the fonts every item shares added, by one lane alone.
    private func fillLanes(of run: BatchRun, context: ChannelHandlerContext) {
        guard !run.isFinished else { return }
        let count = run.plan?.count ?? Int.max
        guard !run.isDone, run.next < count, context.channel.isActive else {
            if run.lanes == 0 { finish(run, context: context) }
            return
        }
        guard context.channel.isWritable else {
            if !run.isWaiting {
                run.isWaiting = true
                waitingBatches.append(run)
            }
            return
        }
        let lanes = run.plan != nil && run.fontsAdded ? configuration.batchLanes : 1
        while run.lanes < lanes && !run.cursor.isExhausted(before: count) && run.held.count < heldBytesBound {
            run.lanes += 1
            let job = ChunkJob(requestID: run.requestID, budget: run.budget, allocator: context.channel.allocator, cursor: run.cursor,
                               held: run.held, fontsAdded: run.fontsAdded, frame: run.frame, plan: run.plan, processor: run.processor)
            run.frame = nil
            queue(job, channel: context.channel, bound: NIOLoopBound((run, context), eventLoop: context.eventLoop))
        }
    }

    /// Queues `job`'s lane on the pool, behind whatever other connections queued: the pool takes
    /// work in order, so a batch holds a worker a slice at a time. Called on the loop, or on the
    /// worker that ran the lane's chunk before.
    private func queue(_ job: ChunkJob, channel: Channel, bound: NIOLoopBound<(BatchRun, ChannelHandlerContext)>) {
        let loop = bound.eventLoop
        queued.submit(on: pool) { state in
            guard state == .active else {
                // The pool stopped: the daemon is going down. What is left is answered so, once
                // no lane runs.
                loop.execute {
                    let (run, context) = bound.value
                    run.lanes -= 1
                    guard run.lanes == 0, !run.isFinished else { return }
                    self.refuseRest(of: run, Self.shuttingDown, context: context)
                    self.finish(run, context: context)
                }
                return
            }
            self.runLane(job, channel: channel, bound: bound)
        }
    }

    /// On a worker: lays `job`'s chunk out and hands its frames to the loop; then, while items
    /// are left, the connection is open and writable and the batch holds few bytes unwritten,
    /// goes on with the next chunk here: at once while no other work waits for a worker, else
    /// queued behind that work. Either way the batch holds a worker a slice at a time while
    /// others wait; but the next chunk does not wait for a hop through the loop, nor go to a
    /// worker that must be woken and meets the batch's code, tables and fonts with cold caches
    /// (docs/design.md, "Batches and sharing the cores").
    private func runLane(_ job: ChunkJob, channel: Channel, bound: NIOLoopBound<(BatchRun, ChannelHandlerContext)>) {
        var job = job
        while true {
            var chunk = laidOut(job)
            let bytes = chunk.pieces.reduce(0) { $0 + $1.frames.readableBytes }
            // Held until the loop writes it or drops it.
            let held = job.held.hold(bytes)
            let exhausted = chunk.refusal != nil || job.cursor.isExhausted(before: chunk.plan?.count ?? 0)
            chunk.continued = !exhausted && held <= heldBytesBound && channel.isActive && channel.isWritable
            let handed = chunk
            bound.eventLoop.execute {
                let (run, context) = bound.value
                self.chunkDone(handed, of: run, context: context)
            }
            guard handed.continued else { return }
            job.fontsAdded = true
            job.frame = nil
            job.plan = handed.plan
            job.laneOwnsPlan = true
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
            Chunk(processor: processor, pieces: [], refusal: (try? Self.frame(processor.errorReply(id, error), allocator: allocator)) ?? allocator.buffer(capacity: 0))
        }
        var plan: BatchPlan
        if let known = job.plan {
            plan = job.laneOwnsPlan ? known : known.forLane()
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
        let refusal = tracker.isShuttingDown ? Self.shuttingDown : nil
        let (slice, maxBytes) = (UInt64(configuration.batchSliceMicroseconds) * 1_000, configuration.batchChunkBytes)
        let chunk = CrashReport.serving("batch_layout") {
            scoped.batchChunk(plan, taking: job.cursor, batch: job.budget, sliceEnd: Uptime.nanoseconds &+ slice,
                              maxBytes: maxBytes, refusal: refusal, allocator: allocator)
        }
        return Chunk(plan: plan, processor: scoped, pieces: chunk.pieces)
    }

    /// On the loop: a chunk's pieces written in the items' order (held back where another
    /// lane still lays out the items before them), the run brought up to date, lanes started
    /// where this one ended and items are left.
    private func chunkDone(_ chunk: Chunk, of run: BatchRun, context: ChannelHandlerContext) {
        if !chunk.continued { run.lanes -= 1 }
        if let refusal = chunk.refusal {
            // Only the first lane reads the batch: nothing else runs.
            run.isDone = true
            if context.channel.isActive {
                beforeChannelWrite(context)
                context.writeAndFlush(wrapOutboundOut(refusal), promise: nil)
            }
            fillLanes(of: run, context: context)
            return
        }
        run.plan = chunk.plan
        run.processor = chunk.processor
        run.fontsAdded = true
        for piece in chunk.pieces { run.ahead[piece.items.lowerBound] = piece }
        var ready: [ByteBuffer] = []
        while let piece = run.ahead.removeValue(forKey: run.next) {
            ready.append(piece.frames)
            run.next = piece.items.upperBound
        }
        run.held.release(ready.reduce(0) { $0 + $1.readableBytes })
        // Lanes are started (this one's ended, or another's that stopped for the bytes the batch
        // held) before these frames are written, so a worker lays out while the loop writes;
        // the batch is finished after its last frames are written.
        let answered = run.next >= (run.plan?.count ?? 0)
        if !answered { fillLanes(of: run, context: context) }
        if !ready.isEmpty && context.channel.isActive {
            beforeChannelWrite(context)
            for frames in ready.dropLast() { context.write(wrapOutboundOut(frames), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(ready[ready.count - 1])).assumeIsolated().whenComplete { _ in
                self.state.replyWritten(now: self.clock())
            }
        }
        if answered { fillLanes(of: run, context: context) }
    }

    /// Answers every item not yet answered with `error`, on the loop: a handful of bytes each.
    /// No lane runs, so every item taken is written.
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
        guard !run.isFinished else { return }
        run.isFinished = true
        state.answered(run.requestID, budget: run.budget)
        end(bytes: run.bytes, context: context)
    }

    /// The client reads again: batches that waited for it go on.
    func resumeBatches(context: ChannelHandlerContext) {
        guard !waitingBatches.isEmpty, context.channel.isWritable || !context.channel.isActive else { return }
        let waiting = waitingBatches
        waitingBatches = []
        for run in waiting {
            run.isWaiting = false
            fillLanes(of: run, context: context)
        }
    }
}
