import Foundation
import LayoutProtocol
import SwiftProtobuf

/// A blocking client for one connection to layoutd: frames out, frames in.
///
/// Used by layoutctl, the integration tests and the benchmark. Replies are matched by
/// request id; `call` waits for its own and keeps any other that arrives first.
public final class LayoutClient {
    public let socketPath: String
    private let fd: Int32
    private var nextID: UInt64 = 1
    /// Replies that came before they were asked for, by id, in order (a batch has many).
    private var early: [UInt64: [Layoutd_V1_Envelope]] = [:]
    private var inbox = FrameInbox()
    /// Replies can be much larger than requests (a glyph per character); this bounds them.
    public var maxReplyBytes: Int {
        get { inbox.maxReplyBytes }
        set { inbox.maxReplyBytes = newValue }
    }
    /// The daemon's hello, once `greet` has asked for it: its version, limits and features.
    public private(set) var daemon: Layoutd_V1_HelloReply?

    /// Connects to the daemon at `socketPath`. Unless `trustingAnyPeer`, the daemon must run as
    /// this user, as root, or as the service's `layoutd` user (checked with SO_PEERCRED): a
    /// socket in a shared place can be another user's daemon, which would read the text sent.
    public init(socketPath: String, timeout: TimeInterval = 60, trustingAnyPeer: Bool = false) throws {
        self.socketPath = socketPath
        // The descriptor becomes the client's only once connected. A class whose initializer
        // throws after setting every property still runs its deinit, so a failed connect that
        // closed `fd` itself would close it twice, and the second time the number may already
        // belong to another thread's new descriptor (the test runner's process monitor lost one
        // that way and stopped reaping children).
        fd = try SocketConnection.open(socketPath, timeout: timeout, trustingAnyPeer: trustingAnyPeer)
    }

    deinit { Platform.close(fd) }

    /// A fresh request id.
    public func makeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Sends `body` and waits for the reply with the same id.
    public func call(_ body: Layoutd_V1_Envelope.OneOf_Body, deadlineMs: UInt32 = 0) throws -> Layoutd_V1_Envelope {
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = makeID()
        envelope.deadlineMs = deadlineMs
        envelope.body = body
        // swift-protobuf writes every request: a hand-written writer saved 0.4 µs a layout
        // request and silently dropped any field added to the .proto after it (docs/design.md).
        do {
            try send(envelope)
        } catch ClientError.io(let failure) {
            // The daemon may have answered before it closed (a frame past its max_frame_bytes gets
            // one error saying so, then the connection ends): that answer, not the broken pipe.
            if let last = try? receive(), case .error = last.body { return last }
            throw ClientError.io(failure)
        }
        return try receive(id: envelope.requestID)
    }

    /// Asks the daemon who it is and checks that it speaks this client's protocol; later
    /// requests it does not serve are refused here, by name (`daemon` keeps the answer).
    @discardableResult
    public func greet(clientName: String = "layoutd-swift") throws -> Layoutd_V1_HelloReply {
        var hello = Layoutd_V1_HelloRequest()
        hello.clientName = clientName
        guard case .helloReply(let reply) = try request(.hello(hello)) else {
            throw ClientError.protocolViolation("the daemon did not answer hello with a hello reply")
        }
        if let problem = Features.incompatibility(reply) { throw ClientError.unsupported(problem) }
        daemon = reply
        return reply
    }

    /// Like `call`, but a server error becomes a thrown `ClientError.server`.
    public func request(_ body: Layoutd_V1_Envelope.OneOf_Body) throws -> Layoutd_V1_Envelope.OneOf_Body {
        if let daemon, let missing = Features.missing(body, in: daemon) { throw ClientError.unsupported(missing) }
        let reply = try call(body)
        if case .error(let error) = reply.body { throw ClientError.server(error) }
        guard let body = reply.body else { throw ClientError.protocolViolation("reply without a body") }
        return body
    }

    public func send(_ envelope: Layoutd_V1_Envelope) throws {
        try sendRaw(Framing.encode(envelope))
    }

    /// Writes bytes as they are: tests use it to send broken frames.
    public func sendRaw(_ bytes: [UInt8]) throws {
        try SocketConnection.write(fd, bytes)
    }

    /// The reply with `id`, keeping others that arrive first for later calls.
    public func receive(id: UInt64) throws -> Layoutd_V1_Envelope {
        if var kept = early[id], !kept.isEmpty {
            let first = kept.removeFirst()
            early[id] = kept.isEmpty ? nil : kept
            return first
        }
        while true {
            let envelope = try receive()
            if envelope.requestID == id { return envelope }
            early[envelope.requestID, default: []].append(envelope)
        }
    }

    /// Lays out many texts, or many whole requests, in one request (`BatchLayoutRequest`):
    /// `each` is called with every item's answer (`layout` or `error`), in order, as it
    /// arrives. Throws `ClientError.server` when the daemon refuses the batch as a whole; an
    /// error thrown by `each` stops reading, and the rest of the batch is cancelled.
    public func batch(_ batch: Layoutd_V1_BatchLayoutRequest, deadlineMs: UInt32 = 0,
                      each: (Layoutd_V1_BatchItemReply) throws -> Void) throws {
        let body = Layoutd_V1_Envelope.OneOf_Body.batchLayout(batch)
        if let daemon, let missing = Features.missing(body, in: daemon) { throw ClientError.unsupported(missing) }
        let count = max(batch.texts.count, batch.requests.count)
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = makeID()
        envelope.deadlineMs = deadlineMs
        envelope.body = body
        try send(envelope)
        var expected = 0
        // An empty batch is still answered: with its refusal.
        while expected < max(count, 1) {
            let reply = try receive(id: envelope.requestID)
            switch reply.body {
            case .batchItem(let item) where Int(item.index) == expected:
                expected += 1
                do {
                    try each(item)
                } catch {
                    if expected < count { try? send(.with { $0.requestID = makeID(); $0.cancel.requestID = envelope.requestID }) }
                    // What is still coming for the batch is read and dropped, so the connection stays usable.
                    while expected < count, let rest = try? receive(id: envelope.requestID), case .batchItem = rest.body { expected += 1 }
                    throw error
                }
            case .batchItem(let item):
                throw ClientError.protocolViolation("batch item \(item.index) came where item \(expected) was due")
            case .error(let error) where expected == 0:
                throw ClientError.server(error)
            default:
                throw ClientError.protocolViolation("a batch was answered with something other than its items")
            }
        }
    }

    /// The next reply frame, whatever its id.
    public func receive() throws -> Layoutd_V1_Envelope {
        try inbox.next(from: fd)
    }

    /// True when the server has closed the connection (a read sees end of file).
    public func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }
}

public enum ClientError: Error, CustomStringConvertible {
    case connect(path: String, reason: String)
    case closed
    case io(String)
    case protocolViolation(String)
    case server(Layoutd_V1_Error)
    case untrustedPeer(path: String, reason: String)
    /// No answer within the client's timeout.
    case timedOut
    /// The daemon speaks another protocol version, or does not serve the request (too old).
    case unsupported(String)
    /// The connection was lost after the request went and before its reply came (the daemon
    /// restarted or crashed): it may or may not have been done. The next call connects again.
    case connectionLost(String)
    /// The document was open on a connection that was lost, so the daemon closed it: open it again.
    case documentGone(UInt64)

    public var description: String {
        switch self {
        case let .connect(path, reason) where reason.contains("Permission denied"):
            "cannot connect to layoutd at \(path): \(reason) (the socket is for the layoutd group: "
                + "sudo usermod -aG layoutd $USER, then log in again)"
        case let .connect(path, reason): "cannot connect to layoutd at \(path): \(reason) (is the daemon running? set --socket or LAYOUTD_SOCKET)"
        case .timedOut: "timed out waiting for the daemon (--timeout)"
        case .closed: "the daemon closed the connection"
        case let .io(message): message
        case let .protocolViolation(message): "protocol error: \(message)"
        case let .server(error): "layoutd: \(error)"
        case let .untrustedPeer(path, reason): "refusing the daemon at \(path): \(reason); your text is not sent to it"
        case let .unsupported(reason): reason
        case let .connectionLost(reason): "the connection to layoutd was lost before the reply came: \(reason)"
        case let .documentGone(document):
            "document \(document) was open on a connection to layoutd that was lost, so the daemon closed it; open it again"
        }
    }
}
