import Foundation
import LayoutProtocol
import SwiftProtobuf

/// Reply frames read from a socket: bytes received and not yet taken, `buffer[start..<end]`.
/// A reply usually arrives in one receive, header and body together.
struct FrameInbox {
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)
    private var start = 0
    private var end = 0
    /// Replies can be much larger than requests (a glyph per character); this bounds them.
    var maxReplyBytes = 256 << 20

    /// True when a whole frame is already waiting (the next `next` receives nothing).
    var holdsFrame: Bool {
        guard end - start >= Framing.headerBytes else { return false }
        return end - start >= Framing.headerBytes + Framing.bodyLength(header: buffer[start..<(start + Framing.headerBytes)])
    }

    /// The next reply frame on `descriptor`, whatever its id.
    mutating func next(from descriptor: Int32) throws -> Layoutd_V1_Envelope {
        try fill(Framing.headerBytes, from: descriptor)
        let length = Framing.bodyLength(header: buffer[start..<(start + Framing.headerBytes)])
        guard length <= maxReplyBytes else { throw ClientError.protocolViolation("reply of \(length) bytes is over the client's limit") }
        try fill(Framing.headerBytes + length, from: descriptor)
        let bodyStart = start + Framing.headerBytes
        start = bodyStart + length
        // Layout replies, the large and frequent ones, skip swift-protobuf's generic decoder.
        let fast = buffer.withUnsafeBytes { LayoutReplyReader.envelope(UnsafeRawBufferPointer(rebasing: $0[bodyStart..<(bodyStart + length)])) }
        if let fast { return fast }
        do {
            return try Layoutd_V1_Envelope(serializedBytes: Array(buffer[bodyStart..<(bodyStart + length)]))
        } catch {
            throw ClientError.protocolViolation("reply is not an Envelope: \(error)")
        }
    }

    /// Receives until at least `count` bytes are waiting, taking whatever else has arrived.
    private mutating func fill(_ count: Int, from descriptor: Int32) throws {
        if buffer.count - start < count {
            // Move what is waiting to the front, growing the buffer if the frame is larger.
            let waiting = Array(buffer[start..<end])
            buffer = [UInt8](repeating: 0, count: max(buffer.count, count, 64 << 10))
            buffer.replaceSubrange(0..<waiting.count, with: waiting)
            end = waiting.count
            start = 0
        }
        while end - start < count {
            let got = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress! + end, $0.count - end, 0) }
            if got == 0 { throw ClientError.closed }
            if got < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw ClientError.timedOut }
                throw ClientError.io("receive failed: \(String(cString: strerror(errno)))")
            }
            end += got
        }
    }
}
