/// Writes protobuf's binary format field by field, the way swift-protobuf's serializer
/// does (fields in number order, proto3 defaults left out, repeated scalars packed), so
/// its bytes equal swift-protobuf's for the same message.
///
/// The reply to a layout is the daemon's largest and most frequent message; building it
/// as generated structs and serializing those cost more than the layout itself.
struct ProtobufWriter {
    private(set) var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    @inline(__always)
    mutating func tag(_ field: Int, _ type: WireType) {
        varint(UInt64(field << 3) | UInt64(type.rawValue))
    }

    mutating func uint64(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        tag(field, .varint)
        varint(value)
    }

    mutating func uint32(_ field: Int, _ value: UInt32) {
        uint64(field, UInt64(value))
    }

    mutating func bool(_ field: Int, _ value: Bool) {
        guard value else { return }
        tag(field, .varint)
        bytes.append(1)
    }

    /// A float is left out only when its bits are all zero: -0 is written, as swift-protobuf does.
    @inline(__always)
    mutating func float(_ field: Int, _ value: Float) {
        guard value.bitPattern != 0 else { return }
        tag(field, .fixed32)
        fixed32(value.bitPattern)
    }

    @inline(__always)
    mutating func fixed32(_ bits: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: bits))
        bytes.append(UInt8(truncatingIfNeeded: bits >> 8))
        bytes.append(UInt8(truncatingIfNeeded: bits >> 16))
        bytes.append(UInt8(truncatingIfNeeded: bits >> 24))
    }

    /// An embedded message, written even when empty (a set message field is present).
    /// Its length is not known until its body is written: one byte is kept for it and the
    /// body moved along in the rare case the length needs more.
    @inline(__always)
    mutating func message(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
        tag(field, .lengthDelimited)
        let lengthAt = bytes.count
        bytes.append(0)
        body(&self)
        patchLength(at: lengthAt)
    }

    /// Bytes that are already a serialized message.
    mutating func message(_ field: Int, serialized: [UInt8]) {
        tag(field, .lengthDelimited)
        varint(UInt64(serialized.count))
        bytes += serialized
    }

    /// The tag and length of a packed run of `count` floats; the caller writes them with `fixed32`.
    mutating func packedFixed32Header(_ field: Int, count: Int) {
        tag(field, .lengthDelimited)
        varint(UInt64(count * 4))
    }

    mutating func packedUInt32<S: Sequence>(_ field: Int, isEmpty: Bool, _ values: S) where S.Element == UInt32 {
        guard !isEmpty else { return }
        tag(field, .lengthDelimited)
        let lengthAt = bytes.count
        bytes.append(0)
        for value in values { varint(UInt64(value)) }
        patchLength(at: lengthAt)
    }

    private mutating func patchLength(at lengthAt: Int) {
        let length = bytes.count - lengthAt - 1
        if length < 0x80 {
            bytes[lengthAt] = UInt8(length)
            return
        }
        var encoded: [UInt8] = []
        var value = length
        while value >= 0x80 {
            encoded.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        encoded.append(UInt8(value))
        bytes.replaceSubrange(lengthAt..<(lengthAt + 1), with: encoded)
    }

    /// Puts the frame header (the body's length, big-endian) in the first four bytes,
    /// which the writer of a frame keeps free.
    mutating func finishFrame() {
        let length = UInt32(bytes.count - Framing.headerBytes)
        bytes[0] = UInt8(length >> 24)
        bytes[1] = UInt8((length >> 16) & 0xFF)
        bytes[2] = UInt8((length >> 8) & 0xFF)
        bytes[3] = UInt8(length & 0xFF)
    }
}
