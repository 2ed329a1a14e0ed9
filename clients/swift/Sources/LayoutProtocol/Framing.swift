import SwiftProtobuf

/// The frame format: a 4-byte big-endian length, then that many bytes of one `Envelope`.
public enum Framing {
    /// The default largest body a server reads.
    public static let defaultMaxFrameBytes = 4 << 20
    /// The largest limit a server may be configured with.
    public static let maxConfigurableFrameBytes = 16 << 20
    public static let headerBytes = 4
    /// The protocol version Hello reports; bumped only for incompatible changes.
    public static let protocolVersion: UInt32 = 1

    /// Serializes `envelope` into one frame.
    public static func encode(_ envelope: Layoutd_V1_Envelope) throws -> [UInt8] {
        let body: [UInt8] = try envelope.serializedBytes()
        let length = UInt32(body.count)
        var frame: [UInt8] = [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
        frame.reserveCapacity(4 + body.count)
        frame += body
        return frame
    }

    /// The body length a header announces.
    public static func bodyLength<C: Collection>(header: C) -> Int where C.Element == UInt8 {
        header.prefix(4).reduce(0) { ($0 << 8) | Int($1) }
    }
}

/// Why a connection's framing failed; a framing failure closes the connection.
public enum FramingError: Error, Equatable, CustomStringConvertible {
    case tooLarge(length: Int, limit: Int)
    case truncated

    public var description: String {
        switch self {
        case let .tooLarge(length, limit): "frame of \(length) bytes exceeds the limit of \(limit) bytes"
        case .truncated: "connection closed in the middle of a frame"
        }
    }
}
