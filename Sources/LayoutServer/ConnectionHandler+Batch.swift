import Dispatch
import LayoutEngine
import LayoutWire
import NIOCore
import NIOPosix

/// A batch in progress on a connection: where it stands, and what it runs with.
/// Touched on the connection's event loop only.
final class BatchRun {
    let plan: BatchPlan
    /// The batch's own budget: its deadline (the envelope's, none otherwise) and its cancel flag,
    /// which each item's budget reads through (`WorkBudget.parent`).
    let budget: WorkBudget
    /// The frame's bytes, counted in flight until the batch is answered.
    let bytes: Int
    /// The processor the batch was taken with; once its shared fonts are added, that one.
    var processor: RequestProcessor
    var fontsAdded = false
    /// The first item not yet answered.
    var next = 0

    init(plan: BatchPlan, budget: WorkBudget, bytes: Int, processor: RequestProcessor) {
        self.plan = plan
        self.budget = budget
        self.bytes = bytes
        self.processor = processor
    }
}

/// Batches: laid out a chunk at a time on the pool, each chunk's frames written in one write.
///
/// A chunk holds a worker for a slice of time (`ServerConfiguration.batchSliceMicroseconds`);
/// the next one is queued behind whatever other connections queued meanwhile, as the pool takes
/// work in order, so a batch of 100,000 items delays another client's request by at most a
/// slice. A batch waits while its client does not read its replies (the connection is not
/// writable), so its frames never pile up in memory.
extension ConnectionHandler {
    func runBatch(_ envelope: Layoutd_V1_Envelope, processor: RequestProcessor, bytes: Int, arrival: UInt64,
                  context: ChannelHandlerContext) {
        let id = envelope.requestID
        let plan: BatchPlan
        do {
            plan = try BatchPlan(envelope, maxItems: configuration.maxBatchItems)
        } catch {
            write(processor.errorReply(id, error), context: context)
            return
        }
        let budget = self.budget(arrival: arrival, deadlineMs: envelope.deadlineMs, serverBudget: false)
        state.accepted(id, budget: budget)
        begin(bytes: bytes)
        nextChunk(of: BatchRun(plan: plan, budget: budget, bytes: bytes, processor: processor), context: context)
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
        let (plan, budget, start, fontsAdded) = (run.plan, run.budget, run.next, run.fontsAdded)
        let processor = run.processor
        let refusal = tracker.isShuttingDown ? WireError(.unavailable, "the server is shutting down", field: "batch_layout") : nil
        let (slice, maxBytes) = (UInt64(configuration.batchSliceMicroseconds) * 1_000, configuration.batchChunkBytes)
        let allocator = context.channel.allocator
        pool.runIfActive(eventLoop: context.eventLoop) { () -> (RequestProcessor, ByteBuffer?, Int) in
            var scoped = processor
            if !fontsAdded {
                do throws(WireError) {
                    scoped = try processor.scoped(for: plan)
                } catch {
                    // Fonts that every item shares and that cannot be added refuse the whole batch.
                    let refusal = processor.errorReply(plan.requestID, error)
                    return (processor, try? Self.frame(refusal, allocator: allocator), plan.count)
                }
            }
            let chunk = CrashReport.serving("batch_layout") {
                scoped.batchChunk(plan, from: start, batch: budget, sliceEnd: DispatchTime.now().uptimeNanoseconds &+ slice,
                                  maxBytes: maxBytes, refusal: refusal)
            }
            return (scoped, Self.buffer(chunk.frames, allocator: allocator), chunk.next)
        }.assumeIsolated().whenComplete { result in
            switch result {
            case .success(let (scoped, frames, next)):
                run.processor = scoped
                run.fontsAdded = true
                run.next = next
                if let frames, context.channel.isActive {
                    context.writeAndFlush(self.wrapOutboundOut(frames)).assumeIsolated().whenComplete { _ in
                        self.state.replyWritten(now: self.clock())
                    }
                }
            case .failure:
                // The pool stopped: the daemon is going down. What is left is answered so.
                self.refuseRest(of: run, WireError(.unavailable, "the server is shutting down", field: "batch_layout"), context: context)
            }
            if run.next < run.plan.count { self.nextChunk(of: run, context: context) } else { self.finish(run, context: context) }
        }
    }

    /// Answers every item not yet answered with `error`, on the loop: a handful of bytes each.
    private func refuseRest(of run: BatchRun, _ error: WireError, context: ChannelHandlerContext) {
        guard run.next < run.plan.count else { return }
        let chunk = run.processor.batchChunk(run.plan, from: run.next, batch: run.budget, sliceEnd: .max, maxBytes: .max,
                                             refusal: error)
        run.next = chunk.next
        if context.channel.isActive {
            context.writeAndFlush(wrapOutboundOut(Self.buffer(chunk.frames, allocator: context.channel.allocator)), promise: nil)
        }
    }

    /// The batch is answered (or its connection gone): it is no longer in flight.
    private func finish(_ run: BatchRun, context: ChannelHandlerContext) {
        state.answered(run.plan.requestID, budget: run.budget)
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
