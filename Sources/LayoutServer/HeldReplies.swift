import NIOCore

/// The replies one pass over pipelined frames makes on the event loop, joined in one buffer so
/// that they leave as one write at the end of the pass: NIO's write path (its pending-write
/// queue, the generic channel's metadata look-ups, the reply's own buffer) is paid once a pass,
/// not once a reply. A pass of many replies hands its buffer to the channel whenever it reaches
/// `handOverBytes` (`isFull`), so NIO's write watermarks, the connection's back-pressure, still
/// see the bytes as they are made.
struct HeldReplies {
    private var buffer: ByteBuffer?
    /// The bytes held: what the checks made on every reply read, so that they never touch the
    /// buffer (reading it through the handler would retain and release its storage).
    private(set) var count = 0
    /// The bytes past which the held replies go to the channel before the pass ends, and the
    /// largest storage kept between passes (a bound on what an idle connection holds).
    let handOverBytes: Int

    init(handOverBytes: Int) {
        self.handOverBytes = handOverBytes
    }

    var isEmpty: Bool { count == 0 }
    var isFull: Bool { count >= handOverBytes }

    /// Adds one reply frame after those held.
    mutating func append<Frame: Collection<UInt8>>(_ frame: Frame, allocator: ByteBufferAllocator) {
        let bytes = frame.count
        if buffer == nil { buffer = allocator.buffer(capacity: max(bytes, 4_096)) }
        buffer!.writeBytes(frame)
        count += bytes
    }

    /// The held bytes, for writing them straight to the socket; nil when none were ever held.
    func withBuffer<Result>(_ body: (ByteBuffer) throws -> Result) rethrows -> Result? {
        guard let buffer else { return nil }
        return try body(buffer)
    }

    /// The held bytes were written (straight to the socket): the storage is kept for the next
    /// pass unless it grew past `handOverBytes`.
    mutating func written() {
        count = 0
        guard let capacity = buffer?.capacity, capacity <= handOverBytes else {
            buffer = nil
            return
        }
        buffer!.clear()
    }

    /// The held bytes, handed to the channel: the channel holds the storage from here, so the
    /// next reply starts a buffer of its own.
    mutating func take() -> ByteBuffer? {
        defer { (buffer, count) = (nil, 0) }
        return isEmpty ? nil : buffer
    }
}
