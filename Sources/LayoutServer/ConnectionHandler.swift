import Foundation
import LayoutWire
import NIOCore
import NIOPosix
import Synchronization

/// Serves one client connection: decodes envelopes, runs each request on the worker pool, and
/// writes replies as they finish, so a pipelining client may see them out of order.
final class ConnectionHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let processor: RequestProcessor
    private let pool: NIOThreadPool
    private let tracker: InFlightTracker
    private let maxInFlight: Int
    private let inlineTextLimit: Int
    /// Ids a client cancelled, read by workers when a request starts.
    private let cancelled = CancelledRequests()
    /// Touched only on the channel's event loop.
    private var inFlight = 0

    init(processor: RequestProcessor, pool: NIOThreadPool, tracker: InFlightTracker, maxInFlight: Int, inlineTextLimit: Int) {
        self.inlineTextLimit = inlineTextLimit
        self.processor = processor
        self.pool = pool
        self.tracker = tracker
        self.maxInFlight = maxInFlight
    }

    func channelActive(context: ChannelHandlerContext) {
        processor.stats.connectionOpened()
        tracker.register(context.channel)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        processor.stats.connectionClosed()
        tracker.unregister(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope: Layoutd_V1_Envelope
        switch unwrapInboundIn(data).withUnsafeReadableBytes({ self.processor.decode($0) }) {
        case .failure(let error):
            write(processor.errorReply(0, error), context: context)
            return
        case .success(let decoded):
            envelope = decoded
        }
        let id = envelope.requestID
        if case .cancel(let cancel) = envelope.body {
            // Cancel is a notice: the cancelled request is answered with CANCELLED, the notice itself is not.
            cancelled.insert(cancel.requestID)
            return
        }
        if tracker.isShuttingDown {
            write(processor.errorReply(id, WireError(.unavailable, "the server is shutting down")), context: context)
            return
        }
        guard let textBytes = envelope.layoutWorkTextBytes else {
            // Hello, fonts, stats and malformed bodies are cheap: answered at once, never queued
            // behind layouts, so health checks stay fast under load.
            write(processor.reply(to: envelope, inFlight: tracker.count), context: context)
            return
        }
        if inFlight >= maxInFlight {
            write(processor.errorReply(id, WireError(.resourceExhausted,
                "more than \(maxInFlight) requests in flight on this connection", field: "envelope")), context: context)
            return
        }
        inFlight += 1
        tracker.begin()
        let arrival = DispatchTime.now().uptimeNanoseconds
        let processor = self.processor
        let cancelled = self.cancelled
        let channel = context.channel
        let work = { () throws -> ByteBuffer in
            let frame: [UInt8]
            if cancelled.remove(id) {
                frame = try Framing.encode(processor.errorReply(id, WireError(.cancelled, "request \(id) was cancelled before it started")))
            } else if envelope.deadlineMs > 0,
                      DispatchTime.now().uptimeNanoseconds - arrival > UInt64(envelope.deadlineMs) * 1_000_000 {
                frame = try Framing.encode(processor.errorReply(id, WireError(.deadlineExceeded,
                    "request \(id) waited past its \(envelope.deadlineMs) ms deadline", field: "envelope.deadline_ms")))
            } else {
                frame = try processor.replyFrame(to: envelope)
            }
            return Self.buffer(frame, allocator: channel.allocator)
        }
        if textBytes <= inlineTextLimit {
            // Small layouts run here on the event loop: handing them to the pool and back costs
            // more than they do. The promise ends the request once its reply is written.
            let buffer: ByteBuffer
            do {
                buffer = try work()
            } catch {
                write(processor.errorReply(id, WireError(.internal, "request failed: \(error)")), context: context)
                inFlight -= 1
                tracker.end()
                return
            }
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenComplete { _ in
                self.inFlight -= 1
                self.tracker.end()
            }
            context.writeAndFlush(wrapOutboundOut(buffer), promise: written)
            return
        }
        pool.runIfActive(eventLoop: context.eventLoop, work).whenComplete { result in
            let written: EventLoopFuture<Void>
            switch result {
            case .success(let buffer):
                written = channel.writeAndFlush(buffer)
            case .failure(let error):
                let reply = processor.errorReply(id, WireError(.internal, "request failed: \(error)"))
                written = (try? Self.frame(reply, allocator: channel.allocator)).map { channel.writeAndFlush($0) }
                    ?? channel.eventLoop.makeSucceededVoidFuture()
            }
            written.whenComplete { _ in
                self.inFlight -= 1
                self.tracker.end()
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // Framing errors end the connection, after one structured reply saying why.
        if let framing = error as? FramingError {
            let reply = processor.errorReply(0, WireError(.resourceExhausted, framing.description, field: "frame"))
            if let buffer = try? Self.frame(reply, allocator: context.channel.allocator) {
                context.writeAndFlush(wrapOutboundOut(buffer)).whenComplete { _ in context.close(promise: nil) }
                return
            }
        }
        context.close(promise: nil)
    }

    private func write(_ reply: Layoutd_V1_Envelope, context: ChannelHandlerContext) {
        guard let buffer = try? Self.frame(reply, allocator: context.channel.allocator) else { return }
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
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

/// Counts requests in flight across connections, so shutdown can wait for them, and keeps
/// the open channels so shutdown can close them afterwards.
final class InFlightTracker: Sendable {
    private struct State {
        var inFlight = 0
        var shuttingDown = false
        var channels: [ObjectIdentifier: Channel] = [:]
    }
    private let state = Mutex(State())

    var isShuttingDown: Bool { state.withLock { $0.shuttingDown } }
    var count: Int { state.withLock { $0.inFlight } }

    func begin() { state.withLock { $0.inFlight += 1 } }
    func end() { state.withLock { $0.inFlight -= 1 } }
    func beginShutdown() { state.withLock { $0.shuttingDown = true } }
    func register(_ channel: Channel) { state.withLock { $0.channels[ObjectIdentifier(channel)] = channel } }
    func unregister(_ channel: Channel) { state.withLock { _ = $0.channels.removeValue(forKey: ObjectIdentifier(channel)) } }
    var openChannels: [Channel] { state.withLock { Array($0.channels.values) } }
}

/// Ids a client cancelled. Bounded: a cancel for a request that already finished is
/// forgotten once the set grows past a few thousand.
final class CancelledRequests: Sendable {
    private let ids = Mutex<Set<UInt64>>([])

    func insert(_ id: UInt64) {
        ids.withLock { set in
            if set.count > 4096 { set.removeAll() }
            set.insert(id)
        }
    }

    func remove(_ id: UInt64) -> Bool { ids.withLock { $0.remove(id) != nil } }
}

extension Layoutd_V1_Envelope {
    /// For requests that lay text out, the size of their text in bytes (`Int.max` for renders,
    /// which always go to the pool); nil for the cheap requests answered on the event loop.
    var layoutWorkTextBytes: Int? {
        switch body {
        case .layout(let request): request.text.utf8.count
        case .justify(let request): request.text.utf8.count
        case .render: .max
        default: nil
        }
    }
}
