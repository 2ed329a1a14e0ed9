import Glibc
import SwiftProtobuf

/// Reads protobuf's binary format field by field. Every read returns nil on bytes that
/// are not well formed; callers then hand the whole message to swift-protobuf, which
/// says precisely what is wrong.
struct ProtobufReader {
    private let bytes: UnsafeRawBufferPointer
    private(set) var offset: Int
    private let end: Int

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        offset = 0
        end = bytes.count
    }

    private init(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) {
        self.bytes = bytes
        offset = start
        self.end = end
    }

    var isAtEnd: Bool { offset >= end }

    @inline(__always)
    mutating func varint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while offset < end && shift < 64 {
            let byte = bytes[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
        return nil
    }

    /// The next field's number and wire type.
    @inline(__always)
    mutating func tag() -> (field: Int, type: UInt8)? {
        guard let key = varint(), key >> 3 > 0, key >> 3 <= UInt64(Int32.max) else { return nil }
        return (Int(key >> 3), UInt8(key & 7))
    }

    /// An enum's raw value: an int32 on the wire, kept as swift-protobuf keeps it.
    mutating func enumeration() -> Int? {
        varint().map { Int(Int32(truncatingIfNeeded: $0)) }
    }

    @inline(__always)
    mutating func fixed32() -> UInt32? {
        guard end - offset >= 4 else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return UInt32(littleEndian: value)
    }

    mutating func float() -> Float? { fixed32().map(Float.init(bitPattern:)) }

    /// Moves past `count` bytes (a fixed64 or fixed32 value); false when fewer remain.
    mutating func skip(_ count: Int) -> Bool {
        guard end - offset >= count else { return false }
        offset += count
        return true
    }

    /// A reader over the next length-delimited field's bytes; this one moves past them.
    mutating func nested() -> ProtobufReader? {
        guard let length = varint(), length <= UInt64(end - offset) else { return nil }
        let start = offset
        offset += Int(length)
        return ProtobufReader(bytes, from: start, to: offset)
    }

    /// How many times fields `first` and `second` occur from here on, as length-delimited
    /// fields (to reserve room for repeated messages); stops at the first malformed tag.
    mutating func countFields(_ first: Int, _ second: Int) -> (Int, Int) {
        var counts = (0, 0)
        while !isAtEnd, let (field, type) = tag() {
            switch type {
            case 0: guard varint() != nil else { return counts }
            case 1: guard end - offset >= 8 else { return counts }; offset += 8
            case 2:
                guard nested() != nil else { return counts }
                if field == first { counts.0 += 1 } else if field == second { counts.1 += 1 }
            case 5: guard fixed32() != nil else { return counts }
            default: return counts
            }
        }
        return counts
    }

    /// A length-delimited field as a string; nil unless it is well-formed UTF-8.
    mutating func string() -> String? {
        guard let length = varint(), length <= UInt64(end - offset) else { return nil }
        let start = offset
        offset += Int(length)
        return Self.validUTF8(UnsafeRawBufferPointer(rebasing: bytes[start..<offset]))
    }

    /// `utf8` as a string, nil unless it is valid UTF-8. `String(validating:as:)` decodes
    /// scalar by scalar through the generic codec (26 instructions a byte on the corpus);
    /// `String(decoding:as:)` validates with the standard library's fast path and replaces
    /// what is invalid, and a string whose bytes are not the input's had something replaced.
    static func validUTF8(_ utf8: UnsafeRawBufferPointer) -> String? {
        var string = String(decoding: utf8, as: UTF8.self)
        let unchanged = string.withUTF8 { stored in
            stored.count == utf8.count && (stored.isEmpty || memcmp(stored.baseAddress!, utf8.baseAddress!, stored.count) == 0)
        }
        return unchanged ? string : nil
    }

    /// The rest of this reader's bytes as an array.
    var remainingBytes: [UInt8] { Array(bytes[offset..<end]) }

    /// A nested message the fast readers leave to swift-protobuf (rare, intricate or a blob):
    /// the next length-delimited bytes decoded as `M`; nil when they are not well formed.
    mutating func message<M: SwiftProtobuf.Message>(_ type: M.Type) -> M? {
        nested().flatMap { try? M(serializedBytes: $0.remainingBytes) }
    }

    /// Every float of a packed field; nil unless its length is a multiple of four.
    mutating func packedFloats() -> [Float]? {
        guard (end - offset) % 4 == 0 else { return nil }
        let count = (end - offset) / 4
        var values = [Float]()
        values.reserveCapacity(count)
        while let bits = fixed32() { values.append(Float(bitPattern: bits)) }
        return values
    }

    /// Every varint of a packed field, each truncated to 32 bits as swift-protobuf does.
    mutating func packedUInt32() -> [UInt32]? {
        var values = [UInt32]()
        values.reserveCapacity(end - offset)
        while !isAtEnd {
            guard let value = varint() else { return nil }
            values.append(UInt32(truncatingIfNeeded: value))
        }
        return values
    }
}
