import Foundation
import LayoutWire
import SwiftProtobuf

/// A blocking client for one connection to layoutd: frames out, frames in.
///
/// Used by layoutctl, the integration tests and the benchmark. Replies are matched by
/// request id; `call` waits for its own and keeps any other that arrives first.
public final class LayoutClient {
    public let socketPath: String
    private let fd: Int32
    private var nextID: UInt64 = 1
    private var early: [UInt64: Layoutd_V1_Envelope] = [:]
    /// Bytes received and not yet taken: `inbox[inboxStart..<inboxEnd]`.
    private var inbox = [UInt8](repeating: 0, count: 64 << 10)
    private var inboxStart = 0
    private var inboxEnd = 0
    /// Replies can be much larger than requests (a glyph per character); this bounds them.
    public var maxReplyBytes = 256 << 20

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
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ClientError.connect(path: socketPath, reason: String(cString: strerror(errno))) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard socketPath.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw ClientError.connect(path: socketPath, reason: "path too long for a Unix socket")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: socketPath.utf8) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ClientError.connect(path: socketPath, reason: reason)
        }
        if !trustingAnyPeer {
            guard let peer = PeerCredentials.of(fd: descriptor) else {
                close(descriptor)
                throw ClientError.untrustedPeer(path: socketPath, reason: "the kernel did not say who serves it")
            }
            guard peer.isTrusted(byClient: getuid()) else {
                close(descriptor)
                throw ClientError.untrustedPeer(path: socketPath, reason: "it is served by uid \(peer.uid) (pid \(peer.pid)), "
                                                + "not by you (uid \(getuid())), root or the layoutd service")
            }
        }
        var limit = timeval(tv_sec: Int(saturating: timeout), tv_usec: Int(saturating: (timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        fd = descriptor
    }

    deinit { close(fd) }

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
        try send(envelope)
        return try receive(id: envelope.requestID)
    }

    /// Like `call`, but a server error becomes a thrown `ClientError.server`.
    public func request(_ body: Layoutd_V1_Envelope.OneOf_Body) throws -> Layoutd_V1_Envelope.OneOf_Body {
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
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw ClientError.io("send failed: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// The reply with `id`, keeping others that arrive first for later calls.
    public func receive(id: UInt64) throws -> Layoutd_V1_Envelope {
        if let kept = early.removeValue(forKey: id) { return kept }
        while true {
            let envelope = try receive()
            if envelope.requestID == id { return envelope }
            early[envelope.requestID] = envelope
        }
    }

    /// The next reply frame, whatever its id.
    public func receive() throws -> Layoutd_V1_Envelope {
        try fill(Framing.headerBytes)
        let length = Framing.bodyLength(header: inbox[inboxStart..<(inboxStart + Framing.headerBytes)])
        guard length <= maxReplyBytes else { throw ClientError.protocolViolation("reply of \(length) bytes is over the client's limit") }
        try fill(Framing.headerBytes + length)
        let bodyStart = inboxStart + Framing.headerBytes
        inboxStart = bodyStart + length
        // Layout replies, the large and frequent ones, skip swift-protobuf's generic decoder.
        let fast = inbox.withUnsafeBytes { LayoutReplyReader.envelope(UnsafeRawBufferPointer(rebasing: $0[bodyStart..<(bodyStart + length)])) }
        if let fast { return fast }
        do {
            return try Layoutd_V1_Envelope(serializedBytes: Array(inbox[bodyStart..<(bodyStart + length)]))
        } catch {
            throw ClientError.protocolViolation("reply is not an Envelope: \(error)")
        }
    }

    /// True when the server has closed the connection (a read sees end of file).
    public func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }

    /// Receives until at least `count` bytes are waiting in the inbox, taking whatever else
    /// has arrived with them: a reply usually comes in one receive, header and body together.
    private func fill(_ count: Int) throws {
        if inbox.count - inboxStart < count {
            // Move what is waiting to the front, growing the inbox if the frame is larger.
            let waiting = Array(inbox[inboxStart..<inboxEnd])
            inbox = [UInt8](repeating: 0, count: max(inbox.count, count, 64 << 10))
            inbox.replaceSubrange(0..<waiting.count, with: waiting)
            inboxEnd = waiting.count
            inboxStart = 0
        }
        while inboxEnd - inboxStart < count {
            let got = inbox.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + inboxEnd, $0.count - inboxEnd, 0) }
            if got == 0 { throw ClientError.closed }
            if got < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw ClientError.timedOut }
                throw ClientError.io("receive failed: \(String(cString: strerror(errno)))")
            }
            inboxEnd += got
        }
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
        }
    }
}
