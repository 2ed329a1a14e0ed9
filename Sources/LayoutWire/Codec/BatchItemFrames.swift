import LayoutEngine

/// The frames answering a batch's items (`BatchItemReply`), written one after another into one
/// buffer: a chunk of a batch is laid out on a worker and goes out in one write.
///
/// Each frame's bytes equal `Framing.encode` of the envelope swift-protobuf would build for the
/// item (`BatchItemFramesTests` holds them together); a layout is written straight from the
/// engine's result, as `LayoutReplyFrame` writes a layout reply.
public struct BatchItemFrames: ~Copyable {
    /// Field numbers, from proto/layoutd/v1/{envelope,batch}.proto.
    private enum Envelope { static let requestID = 1, batchItem = 41 }
    private enum Item { static let index = 1, layout = 2, error = 3 }

    private var writer: ProtobufWriter
    /// Frames written so far.
    public private(set) var frames = 0

    public init(capacity: Int) {
        writer = ProtobufWriter(capacity: capacity)
    }

    /// Frames written straight into `room`, which they do not own: a chunk's buffer lends its
    /// writable bytes, so the chunk's frames are not copied into it afterwards. Where the frames
    /// outgrow the room they move to storage of their own (`outgrewRoom`), as any writer grows.
    // SAFETY: the caller lends `room` for the frames' whole life (they are made and dropped in the
    // closure that lends it) and reads back only the `byteCount` bytes written, and only when
    // the frames stayed in it; UInt8 needs no setup, so binding the bytes to it is sound.
    public init(lent room: UnsafeMutableRawBufferPointer) {
        writer = ProtobufWriter(lent: room.baseAddress!.bindMemory(to: UInt8.self, capacity: room.count), capacity: room.count)
    }

    /// Whether frames written into lent room (`init(lent:)`) left it for storage of their own:
    /// then the room holds no frames, and `withBytes` reads them where they are.
    public var outgrewRoom: Bool { writer.ownsStorage }

    /// Bytes written so far.
    public var byteCount: Int { writer.count }

    /// Appends item `index`'s layout and returns the size of its LayoutReply body, which the
    /// caller holds to the server's largest reply (`dropLast` takes an item back).
    public mutating func appendLayout(requestID: UInt64, index: UInt32, layout: ParagraphLayout, backgrounds: [Background] = [],
                                      ruleMatches: [Layoutd_V1_RuleMatch] = []) -> Int {
        let start = writer.count
        // The room for both lengths (the item's, the reply's in it) kept from the glyph count, as
        // for a lone reply (`LayoutReplyFrame.encode`): the reply is written in place, and moved
        // only where the guess took a byte too many or too few.
        let kept = LayoutReplyFrame.lengthBytes(glyphs: layout.glyphCount)
        var replyBytes = 0
        writer.fixed32(0)  // the frame header, filled in below
        writer.uint64(Envelope.requestID, requestID)
        writer.message(Envelope.batchItem, lengthBytes: kept) { item in
            item.uint32(Item.index, index)  // left out when 0, as proto3 writes it
            item.message(Item.layout, lengthBytes: kept) { reply in
                let before = reply.count
                LayoutReplyFrame.writeReply(layout, backgrounds: backgrounds, ruleMatches: ruleMatches, to: &reply)
                replyBytes = reply.count &- before
            }
        }
        writer.finishFrame(startingAt: start)
        frames += 1
        return replyBytes
    }

    /// Appends item `index`'s error.
    public mutating func appendError(requestID: UInt64, index: UInt32, _ error: Layoutd_V1_Error) {
        let start = writer.count
        let serialized: [UInt8] = (try? error.serializedBytes()) ?? []
        writer.fixed32(0)
        writer.uint64(Envelope.requestID, requestID)
        writer.message(Envelope.batchItem) { item in
            item.uint32(Item.index, index)
            item.message(Item.error, serialized: serialized)
        }
        writer.finishFrame(startingAt: start)
        frames += 1
    }

    /// Takes back the last frame, which started at `offset` (the `byteCount` before it).
    public mutating func dropLast(from offset: Int) {
        writer.truncate(to: offset)
        frames -= 1
    }

    /// Every frame written, one after another.
    public var bytes: [UInt8] { writer.bytes }

    /// Calls `body` with every frame written (the bytes are good only during the call).
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try writer.withBytes(body) }
}
