import LayoutWire
import NIOCore

/// Splits the byte stream into frame bodies, refusing an oversize frame as soon as its
/// 4-byte header arrives, before any of the body is read or buffered.
///
/// NIO-extras' LengthFieldBasedFrameDecoder has no maximum: a header announcing 2 GiB would
/// keep the connection open while the buffer grew. This one checks first. Nothing is reserved
/// for the declared length: the buffer holds only the bytes that arrived. It tells `clock` when a
/// frame is partly read, so the connection can close one that never completes.
struct FrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer
    let maxFrameBytes: Int
    let clock: ConnectionClock

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        clock.sawBytes()
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else {
            markPartial(buffer)
            return .needMoreData
        }
        guard Int(length) <= maxFrameBytes else {
            throw FramingError.tooLarge(length: Int(length), limit: maxFrameBytes)
        }
        guard buffer.readableBytes >= Framing.headerBytes + Int(length) else {
            markPartial(buffer)
            return .needMoreData
        }
        buffer.moveReaderIndex(forwardBy: Framing.headerBytes)
        let body = buffer.readSlice(length: Int(length))!
        clock.partialFrameSince = nil
        context.fireChannelRead(wrapInboundOut(body))
        return .continue
    }

    private func markPartial(_ buffer: ByteBuffer) {
        if buffer.readableBytes == 0 {
            clock.partialFrameSince = nil
        } else if clock.partialFrameSince == nil {
            clock.partialFrameSince = ConnectionClock.now
        }
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        // A client that leaves mid-frame is gone; its partial frame is dropped with the connection.
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}
