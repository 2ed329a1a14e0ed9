import LayoutEngine
import LayoutWire
import NIOCore
import NIOPosix

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

    init(requestID: UInt64, budget: WorkBudget, bytes: Int, processor: RequestProcessor, frame: ByteBuffer?, plan: BatchPlan?) {
        self.requestID = requestID
        self.budget = budget
        self.bytes = bytes
        self.processor = processor
        self.frame = frame
        self.plan = plan
    }
}

/// Batches: laid out a chunk at a time on the pool, each chunk's frames written in one write.
///
/// The frame is read on the pool by the first chunk, never on the event loop (a batch is large
/// by nature). A chunk holds a worker for a slice of time (`ServerConfiguration.batchSliceMicroseconds`);
/// the next one is queued behind whatever other connections queued meanwhile, as the pool takes
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

    /// What a chunk on the pool gives back to the loop.
    private struct Chunk {
        var plan: BatchPlan?
        var processor: RequestProcessor
        var frames: ByteBuffer?
        var next: Int
        /// The batch was refused as a whole (`frames` says why).
        var refused = false
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
        let (budget, start, fontsAdded, frame, known) = (run.budget, run.next, run.fontsAdded, run.frame, run.plan)
        let (id, processor, maxItems) = (run.requestID, run.processor, configuration.maxBatchItems)
        let refusal = tracker.isShuttingDown ? WireError(.unavailable, "the server is shutting down", field: "batch_layout") : nil
        let (slice, maxBytes) = (UInt64(configuration.batchSliceMicroseconds) * 1_000, configuration.batchChunkBytes)
        let allocator = context.channel.allocator
        run.frame = nil
        pool.runIfActive(eventLoop: context.eventLoop) { () -> Chunk in
            func refused(_ error: WireError) -> Chunk {
                Chunk(processor: processor, frames: try? Self.frame(processor.errorReply(id, error), allocator: allocator), next: 0,
                      refused: true)
            }
            var plan: BatchPlan
            if let known {
                plan = known
            } else {
                do {
                    plan = try frame?.withUnsafeReadableBytes { bytes throws(WireError) in
                        try BatchPlan.of(frame: bytes, processor: processor, maxItems: maxItems)
                    } ?? { throw WireError(.internal, "a batch without its frame", field: "batch_layout") }()
                } catch let error as WireError {
                    return refused(error)
                } catch {
                    return refused(WireError(.internal, "\(error)", field: "batch_layout"))
                }
            }
            var scoped = processor
            if !fontsAdded {
                // Fonts every item shares that cannot be added refuse the whole batch.
                do throws(WireError) { scoped = try processor.scoped(for: plan) } catch { return refused(error) }
            }
            let chunk = CrashReport.serving("batch_layout") {
                scoped.batchChunk(plan, from: start, batch: budget, sliceEnd: Uptime.nanoseconds &+ slice,
                                  maxBytes: maxBytes, refusal: refusal, allocator: allocator)
            }
            return Chunk(plan: plan, processor: scoped, frames: chunk.frames, next: chunk.next)
        }.assumeIsolated().whenComplete { result in
            switch result {
            case .success(let chunk):
                run.plan = chunk.plan
                run.processor = chunk.processor
                run.fontsAdded = true
                run.next = chunk.next
                run.isDone = chunk.refused || chunk.next >= (chunk.plan?.count ?? 0)
                // The next chunk is queued before this one is written, so a worker lays it out
                // while the loop writes (the one after waits if this write leaves the client
                // behind: at most one chunk more is held).
                if !run.isDone { self.nextChunk(of: run, context: context) }
                if let frames = chunk.frames, context.channel.isActive {
                    self.beforeChannelWrite(context)
                    context.writeAndFlush(self.wrapOutboundOut(frames)).assumeIsolated().whenComplete { _ in
                        self.state.replyWritten(now: self.clock())
                    }
                }
                if run.isDone { self.finish(run, context: context) }
            case .failure:
                // The pool stopped: the daemon is going down. What is left is answered so.
                self.refuseRest(of: run, WireError(.unavailable, "the server is shutting down", field: "batch_layout"), context: context)
                self.finish(run, context: context)
            }
        }
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
