import Foundation
import Logging
import LayoutEngine
import LayoutWire
import NIOCore
import NIOPosix

/// Serves one client connection: admits it, decodes envelopes, runs each request on the worker
/// pool, and writes replies as they finish, so a pipelining client may see them out of order.
///
/// What one client can hold is bounded: it is read from only while its unsent replies, its
/// requests in flight and their bytes are under their limits (back-pressure: NIO's `read` is
/// held back, so the kernel's socket buffer fills and the client's writes block); a frame must
/// complete within a timeout; an idle connection is closed; and work of a connection that
/// closed, or of a request cancelled, stops at its next checkpoint (`WorkBudget`).
/// Everything here runs on the connection's event loop, which lays out only small requests
/// whose cost is bounded by their size. What to do on each event is decided by a value,
/// `ConnectionState`; this class carries its actions out.
// @unchecked Sendable: NIO calls a handler on its channel's event loop only, and the closures the
// pool completes run `whenComplete` on that loop too; no state is touched from another thread.
final class ConnectionHandler: ChannelDuplexHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let processors: ProcessorSwitch
    /// The current processor, with the fonts the client registered; a request keeps the one it
    /// was taken with (see `take`).
    private var processor: RequestProcessor { clientFonts.processor(over: base) }
    /// The switch's processor as this connection last read it, with the switch's generation then:
    /// read again only after a reload (`ProcessorSwitch.generation`).
    private var cachedBase: (processor: RequestProcessor, generation: UInt64)?
    private var base: RequestProcessor {
        let generation = processors.generation
        if let cachedBase, cachedBase.generation == generation { return cachedBase.processor }
        let current = processors.current
        cachedBase = (current, generation)
        return current
    }
    private let clientFonts: ConnectionFonts
    /// What the server holds for its users, shared fairly; this connection's part counted there.
    private let shares: ServerShares
    private let logger: Logger
    let pool: NIOThreadPool
    /// The server's count of work queued on `pool` and not started (`QueuedPoolWork`).
    let queued: QueuedPoolWork
    let tracker: InFlightTracker
    private let limiter: ConnectionLimiter
    let configuration: ServerConfiguration
    /// Uptime in nanoseconds; the tests give their own.
    let clock: @Sendable () -> UInt64
    /// The clock is the system's uptime, which a request's budget is checked against (a test
    /// may inject another: then a budget's deadline is the time its clock leaves, from now).
    private let clockIsUptime: Bool
    var state: ConnectionState
    /// Bytes read and not yet taken as frames; frames are taken only while under the limits.
    private var decoder: FrameDecoder
    private var timer: RepeatedTask?
    /// True while the frame being answered has more bytes read behind it: a reply made on the
    /// loop then waits in `heldReplies` for the end of the pass (`drain`), so pipelined requests
    /// answered together go out in one write. A lone request's reply is written at once.
    private var holdsFlush = false
    /// The replies of the pass held so far, joined to reach the channel as one write.
    private var heldReplies = HeldReplies(handOverBytes: ConnectionHandler.keptReplyBytes)
    /// True while a reply made now joins the held ones: more bytes wait behind its frame, or
    /// replies of this pass are held already (the last of a pipeline joins them too).
    private var holdsReplies: Bool { holdsFlush || !heldReplies.isEmpty }
    /// True while bytes handed to the channel wait for the flush at the end of the pass.
    private var unflushed = false
    /// True once a reply was handed to NIO and until NIO is seen holding none of its bytes: a
    /// reply written straight to the socket (`sendDirectly`) would then pass them. Every write
    /// through the channel sets it (`beforeChannelWrite`).
    private var channelMayHoldBytes = false
    /// The channel's core, asked for each read (`askToRead`) from the connection's start until it
    /// closes (it holds the channel: a cycle until then).
    private var readCore: (any ChannelCore)?
    /// The same core, through which `sendDirectly` reaches its socket: looked up with `readCore`
    /// (a conformance look-up, paid once a connection, not every reply).
    private var socketCore: (any NIOTransportAccessibleChannelCore)?
    /// Writes straight to the socket (a lone reply, or a pass's held replies joined), and those
    /// of them the socket took only part of (the rest went through NIO): what the tests read to
    /// see which way replies went.
    private(set) var directReplies = 0
    private(set) var directRepliesCutShort = 0
    /// True while a flush of replies made on the worker pool waits on the loop
    /// (`queueFlushOfWorkersReplies`).
    private var workersFlushQueued = false
    /// The connection's open documents, and the end of the chain its document requests run on.
    private let documents: DocumentStore
    private var documentTail: EventLoopFuture<Void>?
    /// Document requests handed to the pool and not answered yet: while any is, the next one
    /// queues behind them (never on the loop), so they stay in order.
    private var documentRequestsQueued = 0
    /// The buffer replies made on the loop are written into, kept for the next one
    /// (`reusedBuffer`); nil until the first, and after one too large to keep.
    private var keptReplyBuffer: ByteBuffer?
    /// The largest reply buffer a connection keeps between replies: past every reply to a small
    /// request (the loop's work), a bound on what an idle connection holds.
    static let keptReplyBytes = 32 << 10
    /// True while a check of a connection whose input ended waits on the loop (`queueEndOfInputCheck`).
    private var endOfInputCheckQueued = false
    /// Batches waiting for the client to read their replies (`resumeBatches`).
    var waitingBatches: [BatchRun] = []

    /// Frames larger than this are decoded on the pool, not the event loop.
    static let inlineDecodeBytes = 64 << 10

    init(processors: ProcessorSwitch, pool: NIOThreadPool, tracker: InFlightTracker, limiter: ConnectionLimiter,
         configuration: ServerConfiguration, logger: Logger, shares: ServerShares? = nil, queued: QueuedPoolWork? = nil,
         clock injected: (@Sendable () -> UInt64)? = nil) {
        let clock = injected ?? { Uptime.nanoseconds }
        let shares = shares ?? ServerShares(configuration)
        self.shares = shares
        self.documents = DocumentStore(ledger: shares.documents)
        self.clientFonts = ConnectionFonts(shares: shares)
        self.decoder = FrameDecoder(maxFrameBytes: configuration.maxFrameBytes)
        self.clock = clock
        self.clockIsUptime = injected == nil
        self.state = ConnectionState(limits: ConnectionState.Limits(configuration), now: clock())
        self.processors = processors
        self.logger = logger
        self.pool = pool
        self.queued = queued ?? QueuedPoolWork()
        self.tracker = tracker
        self.limiter = limiter
        self.configuration = configuration
    }

    /// The peer's uid once admitted (nil when the kernel did not say): whose shares the
    /// connection's fonts, documents and unfinished frames count against.
    private var user: UInt32? { state.admission.uid }

    /// The peer's uid for logs ("?" when unknown or not yet admitted).
    private var admittedUID: String { state.admission.uid.map { "\($0)" } ?? "?" }

    // MARK: Admission and lifetime

    func channelActive(context: ChannelHandlerContext) {
        readCore = context.channel._channelCore
        socketCore = readCore as? any NIOTransportAccessibleChannelCore
        let uid = PeerCredentials.of(channel: context.channel)?.uid
        if let refusal = limiter.admit(uid: uid) {
            logger.info("connection refused", metadata: ["uid": "\(uid.map { "\($0)" } ?? "?")", "why": "\(refusal)"])
            writeThenClose(processor.refusal(WireError(.resourceExhausted, "connection refused: \(refusal)", field: "connection")),
                           context: context)
            // What it sends meanwhile is read and dropped (`channelRead`), not left unread at the close.
            askToRead(context)
            return
        }
        state.admit(uid: uid)
        documents.assign(user: uid)
        processor.stats.connectionOpened()
        tracker.register(context.channel)
        let tick = TimeAmount.milliseconds(Int64(saturating: min(1_000, max(20, min(configuration.idleTimeoutSeconds,
                                                                                    configuration.frameTimeoutSeconds) * 250))))
        // The repeated task runs on this loop; NIOLoopBound lets the context cross into it.
        let boundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleRepeatedTask(initialDelay: tick, delay: tick) { [weak self] _ in
            self?.checkTimeouts(context: boundContext.value)
        }
        context.fireChannelActive()
        askToRead(context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        socketCore = nil
        readCore = nil
        // Queued work of a closed connection is skipped; running work stops at its next check.
        for budget in state.allPendingBudgets { budget.cancel() }
        resumeBatches(context: context)
        documents.closeAll()
        clientFonts.releaseAll(user: user)
        decoder.release(shares.partialFrames, user: user)
        if case .admitted(let uid) = state.admission {
            logger.info("connection closed", metadata: ["uid": "\(admittedUID)", "unanswered": "\(state.inFlight)"])
            limiter.release(uid: uid)
            processor.stats.connectionClosed()
            tracker.unregister(context.channel)
        }
        context.fireChannelInactive()
    }

    /// Closes a connection whose frame has been arriving for too long, or that has been idle.
    private func checkTimeouts(context: ChannelHandlerContext) {
        documents.sweep(now: clock())
        switch state.tick(now: clock()) {
        case .none: break
        case .close: context.close(promise: nil)
        case .closeAfter(let farewell): closeAfter(farewell, context: context)
        }
    }

    // MARK: Back-pressure

    // The daemon's connections do not read by themselves (`autoRead` off, `LayoutServer`): NIO's
    // read after each read went from the pipeline's tail through this handler and the head to the
    // channel, so the handler asks for the next read itself, once admitted and after each read,
    // through the same gate as any other read.

    func channelReadComplete(context: ChannelHandlerContext) {
        context.fireChannelReadComplete()
        askToRead(context)
    }

    func read(context: ChannelHandlerContext) {
        askToRead(context)
    }

    /// Reads now, or owes the read while the connection is over its limits. A read is asked of
    /// the channel's core, as NIO's head handler does with it: past the pipeline's outbound path,
    /// which no handler of the daemon's intercepts reads on, and which took more instructions
    /// than the read itself (`docs/design.md`).
    private func askToRead(_ context: ChannelHandlerContext) {
        if state.readRequested() { readNow(context) }
    }

    private func readNow(_ context: ChannelHandlerContext) {
        if let readCore { readCore.read0() } else { context.read() }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        state.writabilityChanged(context.channel.isWritable, now: clock())
        resumeBatches(context: context)
        payOwedRead(context)
        context.fireChannelWritabilityChanged()
    }

    /// Back under the limits: the frames waiting are taken, then the read owed is made; once the
    /// client's input has ended, whether the connection is done is checked instead.
    private func payOwedRead(_ context: ChannelHandlerContext) {
        drain(context)
        if state.inputEnded { queueEndOfInputCheck(context) }
        if state.takeOwedRead() { readNow(context) }
    }

    // MARK: The end of the input

    // A client may shut its writing side after its last request (`shutdown(SHUT_WR)`, `nc -N`,
    // a script fed from a pipe) and read on: NIO tells the handler (`allowRemoteHalfClosure`,
    // `LayoutServer`) instead of closing, every request it sent is answered, and the connection
    // closes once they are. A client that closes outright is seen as gone (on a Unix socket the
    // kernel tells the two apart: NIO closes the channel), and its work is dropped as before.

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed, state.isAdmitted, !state.closing, !state.inputEnded {
            state.inputClosed()
            queueEndOfInputCheck(context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Checks whether a connection whose input ended is done, after whatever the loop runs now:
    /// a request ending may lead straight to another (a large frame decoded on the pool is ended,
    /// then handled), which must be counted in flight before the check.
    private func queueEndOfInputCheck(_ context: ChannelHandlerContext) {
        guard !endOfInputCheckQueued else { return }
        endOfInputCheckQueued = true
        context.eventLoop.assumeIsolated().execute {
            self.endOfInputCheckQueued = false
            self.checkEndOfInput(context)
        }
    }

    private func checkEndOfInput(_ context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        switch state.inputEndAction(holdsWholeFrame: decoder.holdsWholeFrame, holdsPartialFrame: decoder.holdsPartialFrame) {
        case .wait: break
        case .closeOnceWritten:
            logger.debug("input ended and every request answered; closing", metadata: ["uid": "\(admittedUID)"])
            // Nothing more to say: an empty write, which NIO completes after every reply before it.
            writeThenClose(context.channel.allocator.buffer(capacity: 0), context: context)
        case .sayFarewell(let farewell):
            logger.info("input ended in the middle of a frame; closing", metadata: ["uid": "\(admittedUID)"])
            writeThenClose(farewellReply(farewell), context: context)
        }
    }

    // MARK: Requests

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard state.isAdmitted, !state.closing else { return }
        var bytes = unwrapInboundIn(data)
        let now = clock()
        state.bytesArrived(now: now)
        decoder.append(&bytes)
        drain(context, readAt: now)
    }

    /// Takes whole frames from what was read, while the client is under its limits; past them
    /// the rest waits in the decoder until replies are written or requests finish. `readAt`: when
    /// the bytes were read, if this pass follows a read: the frames it completes arrived then
    /// (one clock reading for the read and its frames); frames taken later arrive when taken.
    private func drain(_ context: ChannelHandlerContext, readAt: UInt64? = nil) {
        defer { flushHeldReplies(context) }
        while state.mayTakeFrame {
            let frame: ByteBuffer?
            do {
                frame = try decoder.next()
            } catch {
                // Framing errors end the connection, after one structured reply saying why.
                logger.info("framing error; closing the connection", metadata: ["why": "\(error)", "uid": "\(admittedUID)"])
                closeAfter(.framingError(error.description), context: context)
                return
            }
            guard let frame else { break }
            state.frameCompleted()
            holdsFlush = decoder.holdsPartialFrame
            take(frame, arrival: readAt ?? clock(), context: context)
            holdsFlush = false
        }
        if let why = decoder.charge(shares.partialFrames, user: user) {
            logger.info("unfinished frames past the user's share; closing the connection", metadata: ["why": "\(why)", "uid": "\(admittedUID)"])
            closeAfter(.framingError(why), context: context)
            return
        }
        state.framesTaken(holdsPartialFrame: decoder.holdsPartialFrame, now: clock())
    }

    private func take(_ frame: ByteBuffer, arrival: UInt64, context: ChannelHandlerContext) {
        let processor = self.processor
        // Whether the request came before shutdown is decided when its frame is complete, not
        // when a large one has finished decoding: what the daemon has read, it answers.
        let afterShutdown = tracker.isShuttingDown
        // The budget runs from `arrival`: decoding a large frame counts against it.
        switch frame.withUnsafeReadableBytes({ FrameRoute.of($0) }) {
        case .plain(let plain):
            answerUndecoded(RequestTag(id: plain.requestID, kind: "layout", deadlineMs: plain.deadlineMs), processor: processor,
                            arrival: arrival, afterShutdown: afterShutdown, context: context) { budget in
                try processor.replyFrame(toPlain: plain, budget: budget)
            }
            return
        case .plainJustify(let justify):
            answerUndecoded(RequestTag(id: justify.requestID, kind: "justify", deadlineMs: justify.deadlineMs), processor: processor,
                            arrival: arrival, afterShutdown: afterShutdown, context: context) { budget in
                try processor.replyFrame(toPlainJustify: justify, budget: budget)
            }
            return
        case .plainEdit(let edit):
            answerPlainEdit(edit, processor: processor, bytes: frame.readableBytes, arrival: arrival, afterShutdown: afterShutdown,
                            context: context)
            return
        case .decodeHere:
            handle(CrashReport.serving("undecoded") { frame.withUnsafeReadableBytes { processor.decode($0) } }, processor: processor,
                   bytes: frame.readableBytes, arrival: arrival, afterShutdown: afterShutdown, context: context)
            return
        case .batch(let id, let deadlineMs):
            takeBatch(frame, requestID: id, deadlineMs: deadlineMs, processor: processor, arrival: arrival, afterShutdown: afterShutdown,
                      context: context)
            return
        case .decodeOnPool:
            break
        }
        // A large frame is decoded on the pool; it counts as in flight meanwhile.
        begin(bytes: frame.readableBytes)
        queued.run(on: pool, eventLoop: context.eventLoop) { CrashReport.serving("undecoded") { frame.withUnsafeReadableBytes { processor.decode($0) } } }
            .assumeIsolated().whenComplete { result in
                // The daemon-wide count is held across the hand-over, so a draining shutdown
                // never sees zero in flight between the decode and the layout it leads to.
                self.tracker.begin()
                defer { self.tracker.end() }
                self.end(bytes: frame.readableBytes, context: context)
                switch result {
                case .success(let decoded):
                    self.handle(decoded, processor: processor, bytes: frame.readableBytes, arrival: arrival, afterShutdown: afterShutdown,
                                context: context)
                case .failure: self.write(processor.refusal(WireError(.unavailable, "the server is shutting down")), context: context)
                }
            }
    }

    /// `processor` is the one the request was taken with (see `take`): read once a request, as
    /// reading the switch takes its lock.
    private func handle(_ decoded: Result<Layoutd_V1_Envelope, RequestProcessor.DecodeFailure>, processor: RequestProcessor, bytes: Int,
                        arrival: UInt64, afterShutdown: Bool, context: ChannelHandlerContext) {
        let envelope: Layoutd_V1_Envelope
        switch decoded {
        case .failure(let failure):
            write(processor.reply(to: failure), context: context)
            return
        case .success(let value):
            envelope = value
        }
        let id = envelope.requestID
        let documents = self.documents
        let route = RequestRoute.of(envelope, bytes: bytes, documentsQueued: documentRequestsQueued) {
            processor.isSmallDocumentRequest(envelope, documents: documents)
        }
        if case .cancel(let cancelled) = route {
            // A notice: the cancelled request is answered with CANCELLED, the notice itself is not.
            // Only a request already here can be cancelled; a cancel for an unknown id is dropped,
            // so it cannot cancel a later request that happens to reuse the id.
            state.budget(cancelledBy: cancelled)?.cancel()
            return
        }
        guard context.channel.isActive else {
            // A large frame decoded on the pool after its client left: nobody waits for the
            // answer, so it is dropped as CANCELLED (counted, written nowhere), never laid out.
            _ = processor.errorReply(id, WireError(.cancelled, "request \(id): its connection closed before it started"))
            return
        }
        if afterShutdown {
            write(processor.errorReply(id, WireError(.unavailable, "the server is shutting down")), context: context)
            return
        }
        if envelope.body != nil, let refusal = idRefusal(id, processor: processor) {  // no body: UNIMPLEMENTED below
            write(refusal, context: context)
            return
        }
        switch route {
        case .reload:
            reload(id, context: context)
            return
        case .registerFonts:
            guard case .registerFonts(let request) = envelope.body else { return }
            let (fonts, base, user) = (clientFonts, self.base, user)
            write(CrashReport.serving("register_fonts") { fonts.register(envelope, request, over: base, user: user) }, context: context)
            return
        case .atOnce:
            let inFlight = tracker.count
            write(CrashReport.serving(envelope.body?.name ?? "none") { processor.reply(to: envelope, inFlight: inFlight) }, context: context)
            return
        case .cancel, .inline, .documentInline, .documentChain, .batch, .pool:
            break
        }
        if let refusal = overInFlightLimit(id, processor: processor) {
            write(refusal, context: context)
            return
        }
        if route == .batch {
            runBatch(envelope, processor: processor, bytes: bytes, arrival: arrival, context: context)
            return
        }
        let budget = self.budget(arrival: arrival, deadlineMs: envelope.deadlineMs)
        switch route {
        case .documentInline:
            let clock = self.clock
            answerInline(RequestTag(envelope), processor: processor, budget: budget, context: context) {
                try processor.documentReplyFrame(to: envelope, documents: documents, now: clock(), budget: budget)
            }
            return
        case .documentChain:
            runDocumentRequest(envelope, processor: processor, bytes: bytes, budget: budget, context: context)
            return
        case .inline:
            answerInline(RequestTag(envelope), processor: processor, budget: budget, context: context) {
                try processor.replyFrame(to: envelope, budget: budget)
            }
            return
        case .pool, .cancel, .reload, .registerFonts, .atOnce, .batch:
            break
        }
        state.accepted(id, budget: budget)
        begin(bytes: bytes)
        let allocator = context.channel.allocator
        queued.run(on: pool, eventLoop: context.eventLoop) { () throws -> ByteBuffer in
            Self.buffer(try Self.answer(RequestTag(envelope), processor: processor, budget: budget) {
                try processor.replyFrame(to: envelope, budget: budget)
            }, allocator: allocator)
        }.assumeIsolated().whenComplete { result in
            self.deliver(result, id: id, budget: budget, bytes: bytes, processor: processor, context: context)
        }
    }

    /// INVALID_ARGUMENT for an id its reply could not be told apart by: 0, which replies that
    /// answer no request carry, or one of a request still in flight on this connection (the
    /// one in flight is answered as usual).
    private func idRefusal(_ id: UInt64, processor: RequestProcessor) -> Layoutd_V1_Envelope? {
        if id == 0 {
            return processor.errorReply(0, WireError(.invalidArgument,
                "request ids start at 1: id 0 marks replies that answer no request", field: "envelope.request_id"))
        }
        guard state.isInFlight(id) else { return nil }
        return processor.errorReply(id, WireError(.invalidArgument,
            "request \(id) is still in flight on this connection: a request id may be used again only after its reply",
            field: "envelope.request_id"))
    }

    /// RESOURCE_EXHAUSTED for request `id` when the connection has as many in flight as it may.
    private func overInFlightLimit(_ id: UInt64, processor: RequestProcessor) -> Layoutd_V1_Envelope? {
        guard state.inFlight >= configuration.maxInFlightPerConnection else { return nil }
        return processor.errorReply(id, WireError(.resourceExhausted,
            "more than \(configuration.maxInFlightPerConnection) requests in flight on this connection", field: "envelope"))
    }

    /// The server's time budget from `arrival`, or the request's own deadline when sooner;
    /// without `serverBudget` (a batch, whose items each have it), the request's deadline only.
    func budget(arrival: UInt64, deadlineMs: UInt32, serverBudget: Bool = true) -> WorkBudget {
        var deadline = serverBudget ? arrival &+ UInt64(configuration.requestBudgetMilliseconds) &* 1_000_000 : .max
        if deadlineMs > 0 { deadline = min(deadline, arrival &+ UInt64(deadlineMs) &* 1_000_000) }
        if deadline == .max { return WorkBudget(deadline: deadline, user: user) }
        if !clockIsUptime {
            let now = clock()
            deadline = Uptime.nanoseconds &+ (deadline > now ? deadline - now : 0)
        }
        return WorkBudget(deadline: deadline, user: user)
    }

    /// A request read without decoding its frame (a plain layout, Type Mode request or keystroke):
    /// what `handle` checks of every request, then answered on the loop, as small requests of its
    /// kind are; `produce` makes its reply within the budget it is given.
    private func answerUndecoded(_ request: RequestTag, processor: RequestProcessor, arrival: UInt64, afterShutdown: Bool,
                                 context: ChannelHandlerContext, produce: (WorkBudget) throws -> [UInt8]) {
        if let refusal = undecodedRefusal(request.id, processor: processor, afterShutdown: afterShutdown) {
            write(refusal, context: context)
            return
        }
        let budget = self.budget(arrival: arrival, deadlineMs: request.deadlineMs)
        answerInline(request, processor: processor, budget: budget, context: context) { try produce(budget) }
    }

    /// A keystroke read without decoding its envelope (`PlainEditRequest`): answered on the loop
    /// where `handle` would answer its envelope there (the connection open and not shutting
    /// down, no document request of the connection queued, a small edit), after the same
    /// checks; anything else goes the general way with the same request.
    private func answerPlainEdit(_ edit: PlainEditRequest, processor: RequestProcessor, bytes: Int, arrival: UInt64, afterShutdown: Bool,
                                 context: ChannelHandlerContext) {
        let documents = self.documents
        guard !afterShutdown, context.channel.isActive, documentRequestsQueued == 0, processor.isSmallEdit(edit, documents: documents) else {
            handle(.success(edit.envelope), processor: processor, bytes: bytes, arrival: arrival, afterShutdown: afterShutdown, context: context)
            return
        }
        let clock = self.clock
        answerUndecoded(RequestTag(id: edit.requestID, kind: "edit_document", deadlineMs: edit.deadlineMs), processor: processor,
                        arrival: arrival, afterShutdown: afterShutdown, context: context) { budget in
            try processor.documentReplyFrame(toPlainEdit: edit, documents: documents, now: clock(), budget: budget)
        }
    }

    /// What `handle` checks of every request, for a frame read without decoding its envelope (a
    /// plain layout or keystroke, a batch): the server shutting down, the id, the requests in flight.
    private func undecodedRefusal(_ id: UInt64, processor: RequestProcessor, afterShutdown: Bool) -> Layoutd_V1_Envelope? {
        afterShutdown ? processor.errorReply(id, WireError(.unavailable, "the server is shutting down"))
            : idRefusal(id, processor: processor) ?? overInFlightLimit(id, processor: processor)
    }

    /// A batch frame: what `handle` checks of every request, then laid out a chunk at a time.
    private func takeBatch(_ frame: ByteBuffer, requestID id: UInt64, deadlineMs: UInt32, processor: RequestProcessor, arrival: UInt64,
                           afterShutdown: Bool, context: ChannelHandlerContext) {
        if let refusal = undecodedRefusal(id, processor: processor, afterShutdown: afterShutdown) {
            write(refusal, context: context)
            return
        }
        runBatch(frame: frame, requestID: id, deadlineMs: deadlineMs, processor: processor, arrival: arrival, context: context)
    }

    /// Writes the answer a worker made for request `id`, or INTERNAL when making it failed.
    private func deliver(_ result: Result<ByteBuffer, any Error>, id: UInt64, budget: WorkBudget, bytes: Int, processor: RequestProcessor,
                         context: ChannelHandlerContext) {
        state.answered(id, budget: budget)
        let buffer: ByteBuffer
        switch result {
        case .success(let answer): buffer = answer
        case .failure(let error):
            guard let framed = Self.internalFailure(id, error, processor: processor, allocator: context.channel.allocator) else {
                end(bytes: bytes, context: context)
                return
            }
            buffer = framed
        }
        guard context.channel.isActive else {
            end(bytes: bytes, context: context)
            return
        }
        beforeChannelWrite(context)
        context.write(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in
            self.state.replyWritten(now: self.clock())
            self.end(bytes: bytes, context: context)
        }
        queueFlushOfWorkersReplies(context)
    }

    /// Flushes the replies the workers finished, once, after every task the loop has queued:
    /// the hops of replies finished together run in one pass, so they go out in one write. A
    /// lone reply is flushed in the same pass it is written (the task runs before the loop waits
    /// again: no wake-up, no syscall of its own).
    private func queueFlushOfWorkersReplies(_ context: ChannelHandlerContext) {
        guard !workersFlushQueued else { return }
        workersFlushQueued = true
        context.eventLoop.assumeIsolated().execute {
            self.workersFlushQueued = false
            context.flush()
        }
    }

    /// Document requests run on the pool one after another, in the order they came: each edit
    /// applies to the text the one before it left.
    private func runDocumentRequest(_ envelope: Layoutd_V1_Envelope, processor: RequestProcessor, bytes: Int, budget: WorkBudget,
                                    context: ChannelHandlerContext) {
        let id = envelope.requestID
        state.accepted(id, budget: budget)
        begin(bytes: bytes)
        let (documents, clock, pool, queued) = (self.documents, self.clock, self.pool, self.queued)
        let allocator = context.channel.allocator
        let loop = context.eventLoop
        documentRequestsQueued += 1
        let work = (documentTail ?? loop.makeSucceededVoidFuture()).flatMap {
            queued.run(on: pool, eventLoop: loop) { () throws -> ByteBuffer in
                Self.buffer(try Self.answer(RequestTag(envelope), processor: processor, budget: budget) {
                    try processor.documentReplyFrame(to: envelope, documents: documents, now: clock(), budget: budget)
                }, allocator: allocator)
            }
        }
        documentTail = work.map { _ in () }.recover { _ in () }
        work.assumeIsolated().whenComplete { result in
            self.documentRequestsQueued -= 1
            self.deliver(result, id: id, budget: budget, bytes: bytes, processor: processor, context: context)
        }
    }


    /// Answers a small request on the event loop, under the same budget as on the pool: `produce`
    /// makes its reply.
    private func answerInline(_ request: RequestTag, processor: RequestProcessor, budget: WorkBudget,
                              context: ChannelHandlerContext, produce: () throws -> [UInt8]) {
        let id = request.id
        let buffer: ByteBuffer
        do {
            let frame = try Self.answer(request, processor: processor, budget: budget, produce: produce)
            if holdsReplies {
                hold(frame, context: context)
                state.replyWritten(now: clock())
                return
            }
            if frame.withUnsafeBytes({ sendDirectly($0, context: context) }) {
                state.replyWritten(now: clock())
                return
            }
            buffer = reusedBuffer(frame, context: context)
        } catch {
            guard let framed = Self.internalFailure(id, error, processor: processor, allocator: context.channel.allocator) else { return }
            buffer = framed
        }
        state.replyWritten(now: clock())
        send(buffer, context: context)
    }

    /// Writes a lone reply made on the loop, or a pass's held replies, straight to the socket,
    /// past NIO's write path (its pending-write queue, promise and flush, and the reply's copy
    /// into a buffer), when NIO holds no bytes of an earlier reply to keep ahead of it. Whatever
    /// the socket does not take at once (its buffer is full) goes through the channel, which
    /// waits for room, and replies after it follow there. False when nothing was written: the
    /// caller hands NIO the whole frame, and NIO meets any error of the socket (a closed peer)
    /// as it does for every write.
    /// The bytes on the wire are the same either way (`DirectReplyTests`).
    private func sendDirectly(_ frame: UnsafeRawBufferPointer, context: ChannelHandlerContext) -> Bool {
        guard !unflushed else { return false }
        if channelMayHoldBytes {
            guard let held = try? context.channel.syncOptions?.getOption(.bufferedWritableBytes), held == 0 else { return false }
            channelMayHoldBytes = false
        }
        // The channel's descriptor, as `withUnsafeTransportIfAvailable` reaches it, but through
        // the plain protocol, kept: NIO's cast to the protocol constrained to a socket handle took
        // more instructions than the layout's encoding, every time.
        guard let core = socketCore, let sent = try? Self.send(frame, through: core), sent > 0 else { return false }
        directReplies += 1
        if sent < frame.count {
            directRepliesCutShort += 1
            var rest = context.channel.allocator.buffer(capacity: frame.count - sent)
            rest.writeBytes(UnsafeRawBufferPointer(rebasing: frame[sent...]))
            channelMayHoldBytes = true
            context.writeAndFlush(wrapOutboundOut(rest), promise: nil)
        }
        return true
    }

    /// `frame` in the buffer the connection keeps for replies made on the loop (`keptReplyBuffer`).
    private func reusedBuffer(_ frame: [UInt8], context: ChannelHandlerContext) -> ByteBuffer {
        Self.reply(frame, reusing: &keptReplyBuffer, allocator: context.channel.allocator, keepingAtMost: Self.keptReplyBytes)
    }

    /// `frame` in `kept`'s storage where no one else holds it: once the channel has written the
    /// last reply (a lone reply is written before `send` returns), the buffer is this handler's
    /// alone and its storage is used again, no allocation; while a reply is still queued,
    /// `clear` gives the buffer storage of its own (ByteBuffer copies on write), so a queued
    /// reply is never overwritten. The buffer is kept for the next reply unless its storage is
    /// past `limit` bytes.
    static func reply(_ frame: [UInt8], reusing kept: inout ByteBuffer?, allocator: ByteBufferAllocator,
                      keepingAtMost limit: Int) -> ByteBuffer {
        // Taken out, so that the handler holds no second reference while it clears.
        let buffer: ByteBuffer
        if var reused = kept.take() {
            reused.clear(minimumCapacity: frame.count)
            reused.writeBytes(frame)
            buffer = reused
        } else {
            buffer = Self.buffer(frame, allocator: allocator)
        }
        if buffer.capacity <= limit { kept = buffer }
        return buffer
    }

    /// Writes a reply made on the loop: flushed now, or held for the end of the pass (`holdsFlush`).
    private func send(_ buffer: ByteBuffer, context: ChannelHandlerContext) {
        if holdsReplies {
            hold(buffer.readableBytesView, context: context)
            return
        }
        channelMayHoldBytes = true
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        unflushed = false
    }

    /// Adds a reply to the pass's held replies; past `HeldReplies.handOverBytes` they go to the
    /// channel now (flushed at the end of the pass), so its write watermarks see them. Out of
    /// line: inlined, it changed how the lone request's path was inlined into `take`, which then
    /// copied the request twice (`daemon-instructions.md`, session 57).
    @inline(never)
    private func hold<Frame: Collection<UInt8>>(_ frame: Frame, context: ChannelHandlerContext) {
        heldReplies.append(frame, allocator: context.channel.allocator)
        if heldReplies.isFull { handHeldRepliesOver(context) }
    }

    /// What every reply written through the channel does first (but a lone reply's remainder in
    /// `sendDirectly`, sent while no reply is held): the held replies go ahead of it, so nothing
    /// passes them, and NIO may hold the connection's bytes from here on.
    func beforeChannelWrite(_ context: ChannelHandlerContext) {
        handHeldRepliesOver(context)
        channelMayHoldBytes = true
    }

    /// Writes the held replies into the channel, unflushed: before any other write through the
    /// channel, so no reply passes those held before it.
    func handHeldRepliesOver(_ context: ChannelHandlerContext) {
        guard let held = heldReplies.take() else { return }
        channelMayHoldBytes = true
        context.write(wrapOutboundOut(held), promise: nil)
        unflushed = true
    }

    /// The end of a pass: its held replies leave in one write, straight to the socket when NIO
    /// holds none of the connection's bytes, through the channel otherwise. Inlined: a lone
    /// request's pass holds nothing, and pays two loads here, not a call.
    @inline(__always)
    private func flushHeldReplies(_ context: ChannelHandlerContext) {
        guard unflushed || !heldReplies.isEmpty else { return }
        writeHeldReplies(context)
    }

    private func writeHeldReplies(_ context: ChannelHandlerContext) {
        if !heldReplies.isEmpty {
            let sent = heldReplies.withBuffer { held in held.withUnsafeReadableBytes { sendDirectly($0, context: context) } }
            if sent == true {
                heldReplies.written()
            } else {
                handHeldRepliesOver(context)
            }
        }
        guard unflushed else { return }
        unflushed = false
        context.flush()
    }

    /// Writes `frame` to `core`'s socket without waiting: the bytes the socket took, nil when the
    /// transport is not a socket or the socket is closed (NIO's own check, on its loop), -1 on
    /// an error of the socket. MSG_NOSIGNAL: a peer gone is an error here, not a SIGPIPE.
    private static func send<Core: NIOTransportAccessibleChannelCore>(_ frame: UnsafeRawBufferPointer, through core: Core) throws -> Int? {
        try core.withUnsafeTransport { transport in
            guard let socket = transport as? NIOBSDSocket.Handle else { return nil }
            return Glibc.send(socket, frame.baseAddress, frame.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
    }

    /// INTERNAL for a request whose answer failed outside its own error handling (its reply could
    /// not be encoded, the pool stopped); nil when even that cannot be framed.
    private static func internalFailure(_ id: UInt64, _ error: Error, processor: RequestProcessor,
                                        allocator: ByteBufferAllocator) -> ByteBuffer? {
        try? frame(processor.errorReply(id, WireError(.internal, "request failed: \(error)")), allocator: allocator)
    }

    /// On a worker: the reply frame, or CANCELLED / DEADLINE_EXCEEDED when the request should
    /// not start, or stopped midway.
    /// `produce` makes the reply.
    static func answer(_ request: RequestTag, processor: RequestProcessor, budget: WorkBudget,
                       produce: () throws -> [UInt8]) throws -> [UInt8] {
        let (id, deadlineMs) = (request.id, request.deadlineMs)
        if budget.isCancelled {
            return try Framing.encode(processor.errorReply(id, WireError(.cancelled, "request \(id) was cancelled before it started")))
        }
        if (try? budget.check()) == nil {
            let (what, field) = deadlineMs > 0 ? ("its \(deadlineMs) ms deadline", "envelope.deadline_ms")
                : ("the server's time budget", "envelope")
            return try Framing.encode(processor.errorReply(id, WireError(.deadlineExceeded,
                "request \(id) waited past \(what) before it started", field: field)))
        }
        return try CrashReport.serving(request.kind, produce)
    }

    func begin(bytes: Int) {
        state.begin(bytes: bytes)
        tracker.begin()
    }

    func end(bytes: Int, context: ChannelHandlerContext) {
        tracker.end()
        switch state.end(bytes: bytes) {
        case .none: break
        case .sayFarewell(let farewell): writeThenClose(farewellReply(farewell), context: context)
        case .resume: payOwedRead(context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }

    /// Stops taking frames, answers what was taken, then says why and closes.
    private func closeAfter(_ farewell: ConnectionState.Farewell, context: ChannelHandlerContext) {
        if state.close(after: farewell) != nil { writeThenClose(farewellReply(farewell), context: context) }
    }

    /// The structured last word for a connection that is closed.
    private func farewellReply(_ farewell: ConnectionState.Farewell) -> Layoutd_V1_Envelope {
        switch farewell {
        case .frameTimedOut(let seconds):
            processor.refusal(WireError(.deadlineExceeded, "a frame did not complete within \(seconds) s; closing", field: "frame"))
        case .framingError(let why):
            processor.refusal(WireError(.resourceExhausted, why, field: "frame"))
        case .inputEndedMidFrame:
            processor.refusal(WireError(.invalidArgument, "the connection's input ended in the middle of a frame "
                + "(\(decoder.buffer.readableBytes) bytes of it came); every whole frame before it was answered", field: "frame"))
        }
    }

    private func writeThenClose(_ reply: Layoutd_V1_Envelope, context: ChannelHandlerContext) {
        guard let buffer = try? Self.frame(reply, allocator: context.channel.allocator) else {
            beforeChannelWrite(context)
            context.close(promise: nil)
            return
        }
        writeThenClose(buffer, context: context)
    }

    /// Writes `buffer` behind every reply handed over (held replies first), flushes them all, and
    /// closes once NIO has written them: it writes in order.
    private func writeThenClose(_ buffer: ByteBuffer, context: ChannelHandlerContext) {
        beforeChannelWrite(context)
        unflushed = false
        context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    func write(_ reply: Layoutd_V1_Envelope, context: ChannelHandlerContext) {
        guard let buffer = try? Self.frame(reply, allocator: context.channel.allocator) else { return }
        send(buffer, context: context)
    }

    static func frame(_ envelope: Layoutd_V1_Envelope, allocator: ByteBufferAllocator) throws -> ByteBuffer {
        buffer(try Framing.encode(envelope), allocator: allocator)
    }

    static func buffer(_ frame: [UInt8], allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: frame.count)
        buffer.writeBytes(frame)
        return buffer
    }
}

extension ConnectionHandler {
    /// A reload asked over the socket: allowed to the daemon's own user and root (the socket's
    /// group may lay text out, not change the daemon). Fonts load on the pool.
    private func reload(_ id: UInt64, context: ChannelHandlerContext) {
        let uid = state.admission.uid
        guard let uid, uid == 0 || uid == geteuid() else {
            write(processor.errorReply(id, WireError(.permissionDenied, "only root or the daemon's own user may reload it "
                + "(send SIGHUP, or systemctl reload layoutd)", field: "reload")), context: context)
            return
        }
        let logger = self.logger
        let boundContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        // In flight until answered: a client whose input ended is not closed on before it.
        begin(bytes: 0)
        // Not on the pool: a reload that hangs on a file must not take a worker with it.
        processors.reload { result in
            var reply = Layoutd_V1_Envelope()
            reply.requestID = id
            switch result {
            case .success(let fresh):
                logger.notice("reloaded on request", metadata: ["uid": "\(uid)", "fonts": "\(fresh.layouter.fonts.fonts.count)"])
                var done = Layoutd_V1_ReloadReply()
                done.fontsLoaded = UInt32(clamping: fresh.layouter.fonts.fonts.count)
                done.message = "fonts and tag styles re-read; requests in flight finish on the old set"
                reply.body = .reloadReply(done)
            case .failure(let error):
                logger.error("reload failed; the old fonts and configuration stay", metadata: ["why": "\(error)"])
                reply.body = .error(WireError(error.timedOut ? .deadlineExceeded : .failedPrecondition,
                                              "reload failed, the old set stays: \(error)", field: "reload").wireMessage)
            }
            let answer = reply
            boundContext.eventLoop.execute {
                let context = boundContext.value
                if context.channel.isActive { self.write(answer, context: context) }
                self.end(bytes: 0, context: context)
            }
        }
    }
}

extension Layoutd_V1_Envelope {
    /// Requests whose cost depends on what they carry (layout, justify, render, tags, ...): they
    /// run on the worker pool under a budget. Only the fixed-cost ones are listed as not, so a
    /// request type added later is budgeted unless someone decides otherwise (the tag requests,
    /// added without a line here, first ran on the event loop with no budget).
    var isLayoutWork: Bool {
        switch body {
        case .hello, .fonts, .stats, .none: false
        default: true
        }
    }

    /// The most spans a layout answered on the event loop may carry.
    static let inlineSpans = 16

    /// A layout request with nothing but its text, its styles and at most a few spans and ruby annotations (no
    /// backgrounds, no attachments: highlights and pictures cost by what they ask for), or a
    /// Type Mode request without attachments (its one background follows its lines).
    /// Open, edit and close: answered in order with the connection's documents.
    var isDocumentRequest: Bool {
        switch body {
        case .openDocument, .editDocument, .closeDocument: true
        default: false
        }
    }

    var isSmallLayoutWork: Bool {
        switch body {
        case .layout(let request):
            request.backgrounds.isEmpty && request.attachments.isEmpty && request.spans.count <= Self.inlineSpans && request.fonts.isEmpty
                // Each annotation's readings are laid out as a text of their own.
                && request.rubyAnnotations.count <= Self.inlineSpans
        case .justify(let request):
            request.attachments.isEmpty
        default:
            false
        }
    }
}

extension PeerCredentials {
    /// The peer of an accepted Unix-socket channel, read on its event loop.
    static func of(channel: Channel) -> PeerCredentials? {
        guard let provider = channel as? SocketOptionProvider else { return nil }
        let future: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET),
                                                                                      name: SocketOptionName(SO_PEERCRED))
        // On the channel's own loop the option is read at once; the future is already complete.
        var credentials: PeerCredentials?
        future.assumeIsolated().whenSuccess { credentials = $0 }
        return credentials
    }
}
