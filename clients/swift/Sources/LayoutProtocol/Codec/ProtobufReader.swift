#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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

    /// A string field as UTF-16 units, nil unless its bytes are well-formed UTF-8 (what
    /// `string()` accepts: swift-protobuf refuses the rest). One pass and no `String`: a text the
    /// engine lays out is read as its units, instead of making the string, checking it and
    /// transcoding it again.
    mutating func utf16() -> ContiguousArray<UInt16>? {
        guard let length = varint(), length <= UInt64(end - offset) else { return nil }
        let start = offset
        offset += Int(length)
        return Self.utf16(UnsafeRawBufferPointer(rebasing: bytes[start..<offset]))
    }

    /// `utf8` transcoded to UTF-16, nil unless it is well-formed (Unicode's table 3-7: no overlong
    /// forms, no surrogates, nothing past U+10FFFF, no sequence cut short). The engine's
    /// `AttributedText.utf16` transcodes a `String`, whose bytes are valid already, and checks
    /// nothing; this reader stands below the engine (clients use it) and reads bytes off the wire.
    static func utf16(_ utf8: UnsafeRawBufferPointer) -> ContiguousArray<UInt16>? {
        // UTF-16 never needs more units than UTF-8 has bytes.
        var written: Int?
        let units = ContiguousArray<UInt16>(specializedCapacity: utf8.count) { out, initialized in
            written = utf16(utf8, into: out)
            initialized = written ?? 0
        }
        return written == nil ? nil : units
    }

    /// Writes `utf8` as UTF-16 into `out` (room for `utf8.count` units): how many units, nil
    /// where it is not well-formed.
    private static func utf16(_ utf8: UnsafeRawBufferPointer, into out: UnsafeMutableBufferPointer<UInt16>) -> Int? {
        let count = utf8.count
        @inline(__always) func continuation(_ index: Int) -> UInt32? {
            guard index < count else { return nil }
            let byte = utf8[index]
            return byte & 0xC0 == 0x80 ? UInt32(byte & 0x3F) : nil
        }
        var i = 0
        var o = 0
        while i < count {
            // Eight ASCII bytes at once (most of a Latin text): one load and one test, each byte
            // widened as it is. The byte-by-byte path below takes whatever is left.
            if count &- i >= 8 {
                let word = UInt64(littleEndian: utf8.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                if word & 0x8080_8080_8080_8080 == 0 {
                    for k in 0..<8 { out[o &+ k] = UInt16(truncatingIfNeeded: word &>> (k &* 8)) & 0x7F }
                    i &+= 8
                    o &+= 8
                    continue
                }
            }
            let byte = utf8[i]
            if byte < 0x80 {
                out[o] = UInt16(byte)
                i += 1
                o += 1
                continue
            }
            // Two- and three-byte sequences in a row (the letters of Cyrillic, Greek, Arabic and
            // Hebrew; of Devanagari and Han), each from one load of four bytes: the lead's and
            // the continuations' top bits tested at once, then the limits on the scalar. ASCII
            // but a lone byte between them goes back to the loop above; four-byte sequences,
            // damage and the last three bytes to the byte-by-byte reader below.
            while count &- i >= 4 {
                let word = UInt32(littleEndian: utf8.loadUnaligned(fromByteOffset: i, as: UInt32.self))
                if word & 0x00C0_C0F0 == 0x0080_80E0 {
                    let scalar = (word & 0x0F) << 12 | (word & 0x3F00) >> 2 | (word >> 16) & 0x3F
                    guard Self.isWellFormedThreeByteScalar(scalar) else { return nil }
                    out[o] = UInt16(truncatingIfNeeded: scalar)
                    i &+= 3
                } else if word & 0xC0E0 == 0x80C0 {
                    guard let scalar = Self.twoByteScalar(word) else { return nil }
                    out[o] = UInt16(truncatingIfNeeded: scalar)
                    i &+= 2
                    if word & 0xC0E0_0000 == 0x80C0_0000 {
                        // The next letter too (inside a word of Cyrillic or Arabic): from the same load.
                        guard let next = Self.twoByteScalar(word &>> 16) else { return nil }
                        o &+= 1
                        out[o] = UInt16(truncatingIfNeeded: next)
                        i &+= 2
                    }
                } else if word & 0x8080 == 0x8000 {
                    // One ASCII byte before another sequence (the space between two words):
                    // taken here, not by the loop above and back, which tested it twice more.
                    out[o] = UInt16(truncatingIfNeeded: word & 0x7F)
                    i &+= 1
                } else {
                    break
                }
                o &+= 1
            }
            guard i < count else { break }
            let lead = utf8[i]
            if lead < 0x80 { continue }
            switch lead {
            case 0xC2...0xDF:
                guard let c1 = continuation(i + 1) else { return nil }
                out[o] = UInt16(UInt32(lead & 0x1F) << 6 | c1)
                i += 2
                o += 1
            case 0xE0...0xEF:
                guard let c1 = continuation(i + 1), let c2 = continuation(i + 2) else { return nil }
                let scalar = UInt32(lead & 0x0F) << 12 | c1 << 6 | c2
                guard Self.isWellFormedThreeByteScalar(scalar) else { return nil }
                out[o] = UInt16(scalar)
                i += 3
                o += 1
            case 0xF0...0xF4:
                guard let c1 = continuation(i + 1), let c2 = continuation(i + 2), let c3 = continuation(i + 3) else { return nil }
                let scalar = UInt32(lead & 0x07) << 18 | c1 << 12 | c2 << 6 | c3
                // F0 needs 90…BF after it (no overlong form), F4 80…8F (nothing past U+10FFFF).
                guard scalar >= 0x10000, scalar <= 0x10FFFF else { return nil }
                out[o] = UInt16(0xD800 + (scalar - 0x10000) >> 10)
                out[o + 1] = UInt16(0xDC00 + (scalar - 0x10000) & 0x3FF)
                i += 4
                o += 2
            default:
                return nil  // a continuation byte first, C0 or C1 (overlong), or F5…FF
            }
        }
        return o
    }

    /// The scalar of the two-byte sequence in the low two bytes of `word` (its lead and
    /// continuation bits tested already); nil for C0 and C1, whose forms are overlong.
    @inline(__always)
    private static func twoByteScalar(_ word: UInt32) -> UInt32? {
        let scalar = (word & 0x1F) << 6 | (word &>> 8) & 0x3F
        return scalar >= 0x80 ? scalar : nil
    }

    /// The scalar of a three-byte sequence, within its limits: E0 needs A0…BF after it (no
    /// overlong form), ED 80…9F (no surrogate). Both of `utf16`'s readers hold to this one rule.
    @inline(__always)
    private static func isWellFormedThreeByteScalar(_ scalar: UInt32) -> Bool {
        scalar >= 0x800 && scalar & 0xF800 != 0xD800
    }

    /// `utf8` as a string, nil unless it is valid UTF-8. `String(validating:as:)` decodes
    /// scalar by scalar through the generic codec;
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
