import LayoutEngine
import LayoutWire
import NIOCore

/// Splits the byte stream into frame bodies, refusing an oversize frame as soon as its
/// 4-byte header arrives, before any of the body is read or buffered.
///
/// NIO-extras' LengthFieldBasedFrameDecoder has no maximum: a header announcing 2 GiB would
/// keep the connection open while the buffer grew. This one checks first. Nothing is reserved
/// for the declared length: the buffer holds only the bytes that arrived. It is not a NIO
/// decoder handler: the connection asks it for one frame at a time, and only while the client
/// is under its limits, so a single read of thousands of tiny requests cannot queue thousands
/// of replies at once.
struct FrameDecoder {
    let maxFrameBytes: Int
    /// Bytes read and not yet taken as frames.
    private(set) var buffer: ByteBuffer

    init(maxFrameBytes: Int, allocator: ByteBufferAllocator = ByteBufferAllocator()) {
        self.maxFrameBytes = maxFrameBytes
        self.buffer = allocator.buffer(capacity: 0)
    }

    /// Adds bytes as they arrive.
    mutating func append(_ bytes: inout ByteBuffer) {
        if buffer.readableBytes == 0 {
            buffer = bytes  // the common case: no copy
        } else {
            buffer.writeBuffer(&bytes)
        }
    }

    /// What the first buffered frame is, by its header and the bytes behind it.
    private enum FirstFrame {
        case unfinished
        case tooLarge(length: Int)
        case whole(length: Int)
    }

    private var firstFrame: FirstFrame {
        guard let header = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return .unfinished }
        let length = Int(header)
        if length > maxFrameBytes { return .tooLarge(length: length) }
        return buffer.readableBytes >= Framing.headerBytes + length ? .whole(length: length) : .unfinished
    }

    /// The next whole frame's body, nil when it has not all arrived; throws for an oversize one.
    mutating func next() throws(FramingError) -> ByteBuffer? {
        let length: Int
        switch firstFrame {
        case .unfinished: return nil
        case .tooLarge(let declared): throw FramingError.tooLarge(length: declared, limit: maxFrameBytes)
        case .whole(let whole): length = whole
        }
        buffer.moveReaderIndex(forwardBy: Framing.headerBytes)
        let body = buffer.readSlice(length: length)!
        // An emptied buffer is replaced by the next read whole (see `append`); one that keeps a
        // partial frame drops what it has handed out once that passes a mebibyte.
        if buffer.readableBytes > 0 && buffer.readerIndex > 1 << 20 { buffer.discardReadBytes() }
        return body
    }

    /// True while a whole frame waits to be taken (`next` would return it, or throw for it).
    var holdsWholeFrame: Bool {
        if case .unfinished = firstFrame { false } else { true }
    }

    /// True while part of a frame is buffered.
    var holdsPartialFrame: Bool { buffer.readableBytes > 0 }

    /// The buffered bytes counted against the user's share of the server's unfinished frames.
    private(set) var charged = 0

    /// Counts what the buffer holds now against `share` for `user` (more taken as bytes arrive,
    /// given back as frames are taken), or says why the user may hold no more. A buffer that
    /// frames leave empty costs nothing here: most reads never take the share's lock.
    mutating func charge(_ share: FairShare, user: UInt32?) -> String? {
        let holding = buffer.readableBytes
        if holding > charged {
            if let why = share.reserve(holding - charged, for: user) { return why }
        } else if holding < charged {
            share.release(charged - holding, for: user)
        }
        charged = holding
        return nil
    }

    /// The connection closed: what it held is given back.
    mutating func release(_ share: FairShare, user: UInt32?) {
        share.release(charged, for: user)
        charged = 0
    }
}
