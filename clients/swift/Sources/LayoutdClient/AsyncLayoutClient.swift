import Foundation
import LayoutProtocol

/// An async client for one connection to layoutd, safe to share between tasks.
///
///     let client = try await AsyncLayoutClient()
///     let reply = try await client.layout("Hello, world", width: 300)
///
/// Every call sends its request at once and waits for the reply with its id, so calls made
/// from several tasks are in flight together on the one connection (pipelined) and their
/// replies come back in whatever order the daemon finishes them; `layoutMany` does this for a
/// list. A reader thread takes replies off the socket and resumes the task waiting for each.
/// On connect the client greets the daemon and checks its protocol version; a request the
/// daemon does not serve is refused before it is sent, naming the daemon's version.
///
/// The client outlives the daemon (a restart, an upgrade, a crash): the call after the
/// connection is lost connects again, waiting up to `reconnectWait` seconds for the socket,
/// greets the new daemon and registers this client's fonts on it again. A request whose reply
/// never came is sent again (`retries` times) where that is safe: it changes nothing in the
/// daemon (layout, justify, render, tags, hit tests, fonts, stats, register fonts), or the
/// daemon answered UNAVAILABLE. A document lives on its connection: a call on one opened
/// before the loss throws `ClientError.documentGone` (docs/protocol.md, "Retrying").
public final class AsyncLayoutClient: Sendable {
    public let socketPath: String
    /// Seconds a call waits for its reply before it fails with `ClientError.timedOut` (and the
    /// daemon is asked to cancel the request).
    public let timeout: TimeInterval
    /// Seconds a call after a lost connection waits for the daemon's socket to come back.
    public let reconnectWait: TimeInterval
    /// How many times a call is sent again where that is safe.
    public let retries: Int
    private let clientName: String
    private let trustingAnyPeer: Bool
    private let state: Locked<Connection>

    /// The connection there is now, and what lives on it.
    private struct Connection: ~Copyable {
        var link: Link
        /// Which connection this is: documents belong to one.
        var generation = 1
        var hello = Layoutd_V1_HelloReply()
        /// The new connection being made, which every call finding the old one lost waits for.
        var replacing: Task<Void, any Error>?
        var closed = false
        var documents: [UInt64: Int] = [:]
        /// Registered again on each new connection.
        var fonts: [Layoutd_V1_RegisterFontsRequest] = []
    }

    /// The daemon's hello: version, limits and the requests it serves.
    public var daemon: Layoutd_V1_HelloReply { state.withLock { $0.hello } }

    /// Connects to the daemon at `socketPath` (default: as layoutctl finds it — $LAYOUTD_SOCKET,
    /// the service's socket, else the user's) and greets it. `trustingAnyPeer` skips the check
    /// that the daemon runs as this user, root or the layoutd service.
    public init(socketPath: String? = nil, timeout: TimeInterval = 60, trustingAnyPeer: Bool = false,
                clientName: String = "layoutd-swift", reconnectWait: TimeInterval = 5, retries: Int = 1) async throws {
        let path = SocketPaths.resolve(explicit: socketPath)
        guard timeout.isFinite, timeout > 0 else { throw ClientError.io("the timeout must be a positive number of seconds") }
        self.socketPath = path
        self.timeout = timeout
        self.reconnectWait = reconnectWait.isFinite ? max(0, reconnectWait) : 0
        self.retries = max(0, retries)
        self.clientName = clientName
        self.trustingAnyPeer = trustingAnyPeer
        let link = try Self.open(path, timeout: timeout, trustingAnyPeer: trustingAnyPeer)
        state = Locked(Connection(link: link))
        do {
            let hello = try await Self.greet(on: link, clientName: clientName)
            state.withLock { $0.hello = hello }
        } catch {
            link.shutDown()
            throw error
        }
    }

    deinit { state.withLock { $0.link.shutDown() } }

    /// Ends the connection: calls still waiting fail with `ClientError.closed`, and so do later ones.
    public func close() {
        state.withLock { connection in
            connection.closed = true
            return connection.link
        }.shutDown()
    }

    /// Sends `body` and returns the reply's body; an error reply is thrown as `ClientError.server`.
    /// Sent again after a lost connection where that is safe.
    public func call(_ body: Layoutd_V1_Envelope.OneOf_Body) async throws -> Layoutd_V1_Envelope.OneOf_Body {
        if let missing = Features.missing(body, in: daemon) { throw ClientError.unsupported(missing) }
        var attempt = 0
        while true {
            do {
                return try await callOnce(body)
            } catch let error as ClientError where attempt < retries && error.allowsSendingAgain(body) {
                attempt += 1
            }
        }
    }

    private func callOnce(_ body: Layoutd_V1_Envelope.OneOf_Body) async throws -> Layoutd_V1_Envelope.OneOf_Body {
        let document = body.document
        let (link, generation) = try await liveLink(for: document)
        let reply: Layoutd_V1_Envelope
        do {
            reply = try await Self.exchange(body, on: link)
        } catch let error as ClientError where error.losesTheConnection && !state.withLock({ $0.closed }) {
            if let document { throw ClientError.documentGone(document) }
            throw ClientError.connectionLost("\(error)")
        }
        if case .error(let error) = reply.body {
            // A daemon that is stopping did none of it; the next call connects again.
            if error.code == .unavailable { link.shutDown() }
            throw ClientError.server(error)
        }
        guard let answer = reply.body else { throw ClientError.protocolViolation("reply without a body") }
        remember(body, answer, generation: generation)
        return answer
    }

    /// What lives on a connection: documents die with it, fonts are registered on the next.
    /// (Nearly every call is none of these, and takes no lock here.)
    private func remember(_ body: Layoutd_V1_Envelope.OneOf_Body, _ answer: Layoutd_V1_Envelope.OneOf_Body, generation: Int) {
        switch (body, answer) {
        case (.openDocument, .documentReply(let reply)): state.withLock { $0.documents[reply.document] = generation }
        case (.closeDocument(let request), _): state.withLock { $0.documents[request.document] = nil }
        case (.registerFonts(let request), _):
            state.withLock { if generation == $0.generation { $0.fonts.append(request) } }
        default: break
        }
    }

    private enum Step {
        case ready(Link, Int)
        case waitFor(Task<Void, any Error>)
    }

    /// The live connection and its generation; when it is lost, the new one (made once for
    /// every call waiting). A document on a lost connection is gone.
    private func liveLink(for document: UInt64?) async throws -> (Link, Int) {
        while true {
            let step: Step = try state.withLock { connection in
                if connection.closed { throw ClientError.closed }
                let lost = connection.link.isFailed
                if let document, let opened = connection.documents[document], opened != connection.generation || lost {
                    throw ClientError.documentGone(document)
                }
                if !lost { return .ready(connection.link, connection.generation) }
                if connection.replacing == nil { connection.replacing = Task { try await self.replaceLink() } }
                return .waitFor(connection.replacing!)
            }
            switch step {
            case .ready(let link, let generation): return (link, generation)
            case .waitFor(let replacing): try await replacing.value
            }
        }
    }

    /// A new connection in place of the lost one: opened (waiting for the socket up to
    /// `reconnectWait`), greeted, and given this client's fonts.
    private func replaceLink() async throws {
        defer { state.withLock { $0.replacing = nil } }
        let deadline = ContinuousClock.now + .milliseconds(Int64(saturating: reconnectWait * 1000))
        var pause = Duration.milliseconds(20)
        var link: Link
        var hello: Layoutd_V1_HelloReply
        while true {
            do {
                link = try Self.open(socketPath, timeout: timeout, trustingAnyPeer: trustingAnyPeer)
            } catch ClientError.connect where ContinuousClock.now + pause < deadline {
                try await Task.sleep(for: pause)
                pause = min(pause * 2, .milliseconds(500))
                continue
            }
            do {
                hello = try await Self.greet(on: link, clientName: clientName)
                break
            } catch let error as ClientError where error.losesTheConnection && ContinuousClock.now < deadline {
                // A daemon being killed can still take a connection into its backlog, then drop
                // it unanswered: that is the daemon not being there yet.
                link.shutDown()
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                link.shutDown()
                throw error
            }
        }
        do {
            for request in state.withLock({ $0.fonts }) {
                if case .error(let error) = try await Self.exchange(.registerFonts(request), on: link).body {
                    throw ClientError.server(error)
                }
            }
            let closed = state.withLock { connection in
                connection.link = link
                connection.generation += 1
                connection.hello = hello
                return connection.closed
            }
            if closed { link.shutDown() }
        } catch {
            link.shutDown()
            throw error
        }
    }

    private static func open(_ path: String, timeout: TimeInterval, trustingAnyPeer: Bool) throws -> Link {
        // The link sets the socket's own time limits: each call keeps its deadline in the link.
        let descriptor = try SocketConnection.open(path, timeout: nil, trustingAnyPeer: trustingAnyPeer)
        let link = Link(descriptor: descriptor, timeout: timeout)
        link.startReading()
        return link
    }

    private static func greet(on link: Link, clientName: String) async throws -> Layoutd_V1_HelloReply {
        var request = Layoutd_V1_HelloRequest()
        request.clientName = clientName
        let reply = try await exchange(.hello(request), on: link)
        if case .error(let error) = reply.body { throw ClientError.server(error) }
        guard case .helloReply(let hello) = reply.body else {
            throw ClientError.protocolViolation("the daemon did not answer hello with a hello reply")
        }
        if let problem = Features.incompatibility(hello) { throw ClientError.unsupported(problem) }
        return hello
    }

    /// One request and its reply on `link`.
    private static func exchange(_ body: Layoutd_V1_Envelope.OneOf_Body, on link: Link) async throws -> Layoutd_V1_Envelope {
        let id = link.makeID()
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = id
        envelope.body = body
        let frame = try Framing.encode(envelope)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                link.wait(for: id, continuation)
                do {
                    try link.send(frame)
                } catch {
                    link.fail(id, with: error)
                    return
                }
            }
        } onCancel: {
            link.fail(id, with: CancellationError())
        }
    }

    /// Lays `text` out in one style (the daemon's default family and size where empty or 0);
    /// `layout(_:)` takes every option of the protocol.
    public func layout(_ text: String, width: Float, font: String = "", size: Float = 0) async throws -> Layoutd_V1_LayoutReply {
        var request = Layoutd_V1_LayoutRequest()
        request.text = text
        request.width = width
        request.defaultStyle.family = font
        request.defaultStyle.size = size
        return try await layout(request)
    }

    public func layout(_ request: Layoutd_V1_LayoutRequest) async throws -> Layoutd_V1_LayoutReply {
        guard case .layoutReply(let reply) = try await call(.layout(request)) else { throw Self.mismatch("layout") }
        return reply
    }

    /// Lays every request out with all of them in flight at once, at most `window` at a time;
    /// the replies come back in the requests' order. The first failure is thrown.
    public func layoutMany(_ requests: [Layoutd_V1_LayoutRequest], window: Int = 64) async throws -> [Layoutd_V1_LayoutReply] {
        try await withThrowingTaskGroup(of: (Int, Layoutd_V1_LayoutReply).self) { group in
            var replies = [Layoutd_V1_LayoutReply?](repeating: nil, count: requests.count)
            var next = 0
            func start() {
                let index = next, request = requests[index]
                group.addTask { (index, try await self.layout(request)) }
                next += 1
            }
            while next < min(max(window, 1), requests.count) { start() }
            while let (index, reply) = try await group.next() {
                replies[index] = reply
                if next < requests.count { start() }
            }
            return replies.map { $0! }
        }
    }

    /// As `layoutMany`, but every result in its place: the reply, or the error of that request
    /// alone (the others are kept).
    public func layoutEach(_ requests: [Layoutd_V1_LayoutRequest], window: Int = 64) async -> [Result<Layoutd_V1_LayoutReply, any Error>] {
        await withTaskGroup(of: (Int, Result<Layoutd_V1_LayoutReply, any Error>).self) { group in
            var results = [Result<Layoutd_V1_LayoutReply, any Error>](repeating: .failure(CancellationError()), count: requests.count)
            var next = 0
            func start() {
                let index = next, request = requests[index]
                group.addTask {
                    do { return (index, .success(try await self.layout(request))) } catch { return (index, .failure(error)) }
                }
                next += 1
            }
            while next < min(max(window, 1), requests.count) { start() }
            while let (index, result) = await group.next() {
                results[index] = result
                if next < requests.count { start() }
            }
            return results
        }
    }

    /// Lays out many texts (or whole requests) in one request (`BatchLayoutRequest`): every
    /// item's layout, or its own error, in the items' order. `deadlineMs` covers the whole batch.
    /// Throws `ClientError.server` when the daemon refuses the batch as a whole.
    public func layoutBatch(_ batch: Layoutd_V1_BatchLayoutRequest,
                            deadlineMs: UInt32 = 0) async throws -> [Result<Layoutd_V1_LayoutReply, ClientError>] {
        var results: [Result<Layoutd_V1_LayoutReply, ClientError>] = []
        for try await item in batchItems(batch, deadlineMs: deadlineMs) {
            switch item.result {
            case .layout(let layout): results.append(.success(layout))
            case .error(let error): results.append(.failure(.server(error)))
            case nil: throw ClientError.protocolViolation("batch item \(item.index) carries no result")
            }
        }
        return results
    }

    /// The items of a batch as they arrive, in order (each with its index, and its layout or
    /// error). Stopping early (the loop left, the task cancelled) asks the daemon to drop the
    /// rest. A batch cut by a lost connection throws after the items that came; it is not sent
    /// again by itself (docs/protocol.md, "Retrying").
    public func batchItems(_ batch: Layoutd_V1_BatchLayoutRequest,
                           deadlineMs: UInt32 = 0) -> AsyncThrowingStream<Layoutd_V1_BatchItemReply, any Error> {
        let count = max(batch.texts.count, batch.requests.count)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    let body = Layoutd_V1_Envelope.OneOf_Body.batchLayout(batch)
                    if let missing = Features.missing(body, in: daemon) { throw ClientError.unsupported(missing) }
                    let (link, _) = try await liveLink(for: nil)
                    let id = link.makeID()
                    let frame = try Framing.encode(.with { $0.requestID = id; $0.deadlineMs = deadlineMs; $0.body = body })
                    let (replies, feed) = AsyncThrowingStream<Layoutd_V1_Envelope, any Error>.makeStream()
                    link.stream(for: id, feed)
                    var answered = 0
                    defer { link.endStream(id, cancelling: answered < count) }
                    try link.send(frame)
                    for try await reply in replies {
                        switch reply.body {
                        case .error(let error) where answered == 0: throw ClientError.server(error)
                        case .batchItem(let item) where Int(item.index) == answered:
                            answered += 1
                            continuation.yield(item)
                        default:
                            throw ClientError.protocolViolation("batch item \(answered) was due; the daemon sent something else")
                        }
                        if answered == count { break }
                    }
                    if answered < max(count, 1) && count > 0 {
                        throw ClientError.connectionLost("\(count - answered) of the batch's \(count) items did not come")
                    }
                    continuation.finish()
                } catch let error as ClientError where error.losesTheConnection {
                    continuation.finish(throwing: ClientError.connectionLost("\(error)"))
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    public func justify(_ request: Layoutd_V1_JustifyRequest) async throws -> Layoutd_V1_JustifyReply {
        guard case .justifyReply(let reply) = try await call(.justify(request)) else { throw Self.mismatch("justify") }
        return reply
    }

    public func render(_ request: Layoutd_V1_RenderRequest) async throws -> Layoutd_V1_RenderReply {
        guard case .renderReply(let reply) = try await call(.render(request)) else { throw Self.mismatch("render") }
        return reply
    }

    public func tags(_ request: Layoutd_V1_TagsRequest) async throws -> Layoutd_V1_TagsReply {
        guard case .tagsReply(let reply) = try await call(.tags(request)) else { throw Self.mismatch("tags") }
        return reply
    }

    public func tagHit(_ request: Layoutd_V1_TagHitRequest) async throws -> Layoutd_V1_TagHitReply {
        guard case .tagHitReply(let reply) = try await call(.tagHit(request)) else { throw Self.mismatch("tag_hit") }
        return reply
    }

    public func tagStyle(_ request: Layoutd_V1_TagStyleRequest) async throws -> Layoutd_V1_TagStyleReply {
        guard case .tagStyleReply(let reply) = try await call(.tagStyle(request)) else { throw Self.mismatch("tag_style") }
        return reply
    }

    /// Where points land in a layout, where carets stand and what selections cover.
    public func hitTest(_ request: Layoutd_V1_HitTestRequest) async throws -> Layoutd_V1_HitTestReply {
        guard case .hitTestReply(let reply) = try await call(.hitTest(request)) else { throw Self.mismatch("hit_test") }
        return reply
    }

    /// Opens an editing session on this connection: the document's id and every paragraph.
    public func openDocument(_ layout: Layoutd_V1_LayoutRequest) async throws -> Layoutd_V1_DocumentReply {
        guard case .documentReply(let reply) = try await call(.openDocument(.with { $0.layout = layout })) else {
            throw Self.mismatch("open_document")
        }
        return reply
    }

    /// Edits an open document: the paragraphs laid out again and how the rest moved. Edits
    /// sent without waiting apply in the order they were sent.
    public func editDocument(_ request: Layoutd_V1_EditDocumentRequest) async throws -> Layoutd_V1_DocumentReply {
        guard case .documentReply(let reply) = try await call(.editDocument(request)) else { throw Self.mismatch("edit_document") }
        return reply
    }

    public func closeDocument(_ document: UInt64) async throws {
        guard case .documentReply = try await call(.closeDocument(.with { $0.document = document })) else {
            throw Self.mismatch("close_document")
        }
    }

    /// Registers fonts on this connection, each a file's bytes and the family to name it by
    /// (empty: its own); later requests on this client may use them. Returns the faces added.
    public func registerFonts(_ fonts: [(family: String, data: [UInt8])]) async throws -> [Layoutd_V1_FontFace] {
        let request = Layoutd_V1_RegisterFontsRequest.with { request in
            request.fonts = fonts.map { font in .with { $0.family = font.family; $0.data = Data(font.data) } }
        }
        guard case .registerFontsReply(let reply) = try await call(.registerFonts(request)) else { throw Self.mismatch("register_fonts") }
        return reply.faces
    }

    public func fonts() async throws -> Layoutd_V1_FontsReply {
        guard case .fontsReply(let reply) = try await call(.fonts(.init())) else { throw Self.mismatch("fonts") }
        return reply
    }

    public func stats(prometheus: Bool = false) async throws -> Layoutd_V1_StatsReply {
        var request = Layoutd_V1_StatsRequest()
        request.prometheus = prometheus
        guard case .statsReply(let reply) = try await call(.stats(request)) else { throw Self.mismatch("stats") }
        return reply
    }

    public func reload() async throws -> Layoutd_V1_ReloadReply {
        guard case .reloadReply(let reply) = try await call(.reload(.init())) else { throw Self.mismatch("reload") }
        return reply
    }

    private static func mismatch(_ request: String) -> ClientError {
        .protocolViolation("the daemon answered a \(request) request with another kind of reply")
    }
}

/// The connection under an `AsyncLayoutClient`: the socket, the calls waiting for replies and
/// the reader thread that answers them and fails those past their deadline. The thread holds
/// the link, not the client, so a client dropped without `close()` still ends its connection
/// (its deinit shuts the socket down). Deadlines are kept by the thread, not by timer tasks,
/// so they hold however busy the program's task pool is.
private final class Link: Sendable {
    private let descriptor: Int32
    private let timeout: Duration
    private let state = Locked(State())
    /// Frames are written whole, one at a time: two tasks sending at once must not interleave.
    /// True once the reader has closed the descriptor, whose number the system may then give
    /// to another file: nothing touches it after that.
    private let sending = Locked(false)

    private struct Waiting {
        var continuation: CheckedContinuation<Layoutd_V1_Envelope, any Error>
        var deadline: ContinuousClock.Instant
    }

    /// A batch waiting for its items: each reply is yielded, and its deadline starts again.
    private struct Streaming {
        var continuation: AsyncThrowingStream<Layoutd_V1_Envelope, any Error>.Continuation
        var deadline: ContinuousClock.Instant
    }

    private struct State: ~Copyable {
        var nextID: UInt64 = 1
        var waiting: [UInt64: Waiting] = [:]
        var streams: [UInt64: Streaming] = [:]
        /// Set once the connection has failed or closed: every later call fails with it.
        var failure: (any Error)?
    }

    init(descriptor: Int32, timeout: TimeInterval) {
        self.descriptor = descriptor
        self.timeout = .milliseconds(Int64(saturating: timeout * 1000))
        // A daemon that stops reading must not hold a sender (and the lock) for ever; a frame
        // cut short must not hold the reader past a deadline (it comes back and waits again).
        var sendLimit = Platform.timeLimit(seconds: max(timeout, 1))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &sendLimit, socklen_t(MemoryLayout<timeval>.size))
        var receiveLimit = Platform.timeLimit(seconds: 0.1)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &receiveLimit, socklen_t(MemoryLayout<timeval>.size))
    }

    func makeID() -> UInt64 {
        state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
    }

    func startReading() {
        let thread = Thread { [self] in read() }
        thread.name = "layoutd-client-reader"
        thread.start()
    }

    /// Registers a call, due within the client's timeout; one arriving after the connection
    /// failed fails at once.
    func wait(for id: UInt64, _ continuation: CheckedContinuation<Layoutd_V1_Envelope, any Error>) {
        let failure: (any Error)? = state.withLock { state in
            if let failure = state.failure { return failure }
            state.waiting[id] = Waiting(continuation: continuation, deadline: .now + timeout)
            return nil
        }
        if let failure { continuation.resume(throwing: failure) }
    }

    /// Registers a batch: its replies go to `continuation` until `endStream`.
    func stream(for id: UInt64, _ continuation: AsyncThrowingStream<Layoutd_V1_Envelope, any Error>.Continuation) {
        let failure: (any Error)? = state.withLock { state in
            if let failure = state.failure { return failure }
            state.streams[id] = Streaming(continuation: continuation, deadline: .now + timeout)
            return nil
        }
        if let failure { continuation.finish(throwing: failure) }
    }

    /// The batch `id` is done, or nobody reads it any more (`cancelling`: the daemon is asked to
    /// drop the rest).
    func endStream(_ id: UInt64, cancelling: Bool) {
        guard let streaming = state.withLock({ $0.streams.removeValue(forKey: id) }) else { return }
        streaming.continuation.finish()
        if cancelling { cancel(id) }
    }

    func send(_ frame: [UInt8]) throws {
        try sending.withLock { closed in
            guard !closed else { throw ClientError.closed }
            try SocketConnection.write(descriptor, frame)
        }
    }

    /// Fails the call `id` if it is still waiting (a reply that comes later is dropped).
    func fail(_ id: UInt64, with error: any Error) {
        guard let waiting = state.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
        waiting.continuation.resume(throwing: error)
        cancel(id)
    }

    /// Asks the daemon to drop work nobody waits for (best effort).
    private func cancel(_ id: UInt64) {
        var cancel = Layoutd_V1_Envelope()
        cancel.requestID = makeID()
        cancel.body = .cancel(.with { $0.requestID = id })
        if let frame = try? Framing.encode(cancel) { try? send(frame) }
    }

    /// Whether the connection has failed or was shut down: nothing more goes over it.
    var isFailed: Bool { state.withLock { $0.failure != nil } }

    func shutDown() {
        // Later calls fail at once; the reader sees end of file, fails the waiting calls and
        // closes the descriptor.
        state.withLock { if $0.failure == nil { $0.failure = ClientError.closed } }
        sending.withLock { closed in if !closed { _ = shutdown(descriptor, Int32(SHUT_RDWR)) } }
    }

    /// Fails the calls whose deadline has passed; the time until the next one falls due.
    private func expireOverdue() -> Duration {
        let now = ContinuousClock.now
        let (overdue, next, overdueStreamIDs): ([(UInt64, Waiting)], Duration, [UInt64]) = state.withLock { state in
            let overdue = state.waiting.filter { $0.value.deadline <= now }
            for (id, _) in overdue { state.waiting.removeValue(forKey: id) }
            let overdueStreams = state.streams.filter { $0.value.deadline <= now }
            for (id, streaming) in overdueStreams {
                state.streams.removeValue(forKey: id)
                streaming.continuation.finish(throwing: ClientError.timedOut)
            }
            let deadlines = state.waiting.values.map(\.deadline) + state.streams.values.map(\.deadline)
            let next = deadlines.min().map { $0 - now } ?? timeout
            return (Array(overdue), next, Array(overdueStreams.keys))
        }
        for (id, waiting) in overdue {
            waiting.continuation.resume(throwing: ClientError.timedOut)
            cancel(id)
        }
        for id in overdueStreamIDs { cancel(id) }
        return next
    }

    /// The reader thread: replies to waiting calls until the connection ends. While nothing
    /// is in flight it still wakes once per timeout, so a call made meanwhile (due a timeout
    /// after it) is never overdue by more than that wait.
    private func read() {
        var inbox = FrameInbox()
        var ending: any Error = ClientError.closed
        while true {
            let untilNext = expireOverdue()
            if !inbox.holdsFrame {
                var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let milliseconds = max(1, Int32(clamping: untilNext.components.seconds * 1000
                                                          + untilNext.components.attoseconds / 1_000_000_000_000_000))
                let got = poll(&ready, 1, milliseconds)
                if got == 0 || (got < 0 && errno == EINTR) { continue }
            }
            let envelope: Layoutd_V1_Envelope
            do {
                envelope = try inbox.next(from: descriptor)
            } catch ClientError.timedOut {
                continue  // part of a frame so far: deadlines first, then wait for the rest
            } catch {
                ending = error
                break
            }
            // Replies to calls that timed out or were cancelled have nobody waiting: dropped.
            let (waiting, streaming) = state.withLock { state -> (Waiting?, Streaming?) in
                if let waiting = state.waiting.removeValue(forKey: envelope.requestID) { return (waiting, nil) }
                guard state.streams[envelope.requestID] != nil else { return (nil, nil) }
                state.streams[envelope.requestID]!.deadline = .now + timeout
                return (nil, state.streams[envelope.requestID])
            }
            waiting?.continuation.resume(returning: envelope)
            streaming?.continuation.yield(envelope)
        }
        let (waiting, streams) = state.withLock { state in
            state.failure = state.failure ?? ending
            defer { state.waiting = [:]; state.streams = [:] }
            return (Array(state.waiting.values), Array(state.streams.values))
        }
        for call in waiting { call.continuation.resume(throwing: ending) }
        for batch in streams { batch.continuation.finish(throwing: ending) }
        sending.withLock { closed in
            closed = true
            Platform.close(descriptor)
        }
    }
}

extension Layoutd_V1_Envelope.OneOf_Body {
    /// Whether the request changes nothing in the daemon, so that sending it twice is sending it once.
    var changesNothing: Bool {
        switch self {
        case .hello, .layout, .justify, .render, .tags, .tagHit, .tagStyle, .hitTest, .fonts, .stats, .registerFonts: true
        default: false
        }
    }

    /// The document a request works on, where it names one.
    var document: UInt64? {
        switch self {
        case .editDocument(let request): request.document
        case .closeDocument(let request): request.document
        default: nil
        }
    }
}

extension ClientError {
    /// The connection is gone with it (the daemon closed it, or a read or write failed).
    var losesTheConnection: Bool {
        switch self {
        case .closed, .io: true
        default: false
        }
    }

    /// Whether `body`, failed with this, may go out again as it is (docs/protocol.md, "Retrying").
    func allowsSendingAgain(_ body: Layoutd_V1_Envelope.OneOf_Body) -> Bool {
        switch self {
        case .connectionLost: body.changesNothing
        case .server(let error): error.code == .unavailable
        default: false
        }
    }
}
