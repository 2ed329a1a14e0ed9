/// Writes protobuf's binary format field by field, the way swift-protobuf's serializer
/// does (fields in number order, proto3 defaults left out, repeated scalars packed), so
/// its bytes equal swift-protobuf's for the same message.
///
/// The reply to a layout is the daemon's largest and most frequent message; building it
/// as generated structs and serializing those cost more than the layout itself, and even
/// appending to an array byte by byte cost more than this: bytes go to raw memory that
/// grows when a write would pass its end.
struct ProtobufWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0
    /// Whether `base` is this writer's allocation (freed with it), or room lent by `frame(capacity:_:)`
    /// or a batch chunk's buffer (`BatchItemFrames(lent:)`), left to its lender.
    private(set) var ownsStorage = true

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    /// A writer into `capacity` bytes at `room`, which it does not own: when a write would pass
    /// them, it moves to storage of its own.
    init(lent room: UnsafeMutablePointer<UInt8>, capacity: Int) {
        base = room
        self.capacity = capacity
        ownsStorage = false
    }

    deinit { if ownsStorage { base.deallocate() } }

    /// The bytes written so far.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// The bytes `body` writes, written straight into the storage of the array returned, made
    /// with room for `capacity` (a reply's estimate): no copy where they fit, nearly always.
    /// Where they do not, the writer moves to storage of its own, as any writer grows, and the
    /// array is made from that.
    static func frame(capacity: Int, _ body: (inout ProtobufWriter) -> Void) -> [UInt8] {
        let capacity = max(capacity, 64)
        var outgrown: [UInt8]?
        // (The specialized allocation: the standard library's initializer looks the array's
        // storage class up at run time, which cost more than the copy it saves.)
        // SAFETY: the writer lent the array's room lives only inside the closure that lends it,
        // writes at most `capacity` bytes there (past that it moves to its own), and the array
        // counts as initialized exactly the bytes it wrote there (UInt8 needs no other setup).
        let frame = [UInt8](specializedCapacity: capacity) { room, initialized in
            var writer = ProtobufWriter(lent: room.baseAddress!, capacity: capacity)
            body(&writer)
            if writer.ownsStorage {
                outgrown = writer.bytes
                initialized = 0
            } else {
                initialized = writer.count
            }
        }
        return outgrown ?? frame
    }

    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    // Offsets and lengths inside the writer's storage are added and subtracted wrapping (`&+`):
    // no count of bytes in memory comes near `Int.max`, and the checked operations cost a test
    // and a branch each, dozens a run of every reply.

    /// Makes room for `more` bytes.
    @inline(__always)
    private mutating func reserve(_ more: Int) {
        if count &+ more > capacity { grow(to: count &+ more) }
    }

    private mutating func grow(to needed: Int) {
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: base, count: count)
        if ownsStorage { base.deallocate() }  // lent room stays its lender's
        base = moved
        capacity = larger
        ownsStorage = true
    }

    @inline(__always)
    mutating func varint(_ value: UInt64) {
        reserve(10)
        count = store(value, at: count)
    }

    /// Writes `value` as a varint at `offset` (room must be there); returns where it ends.
    @inline(__always)
    private func store(_ value: UInt64, at offset: Int) -> Int {
        var value = value
        var at = offset
        while value >= 0x80 {
            base[at] = UInt8(truncatingIfNeeded: value) | 0x80
            at &+= 1
            value >>= 7
        }
        base[at] = UInt8(value)
        return at &+ 1
    }

    @inline(__always)
    mutating func tag(_ field: Int, _ type: WireType) {
        varint(UInt64(field << 3) | UInt64(type.rawValue))
    }

    @inline(__always)
    mutating func uint64(_ field: Int, _ value: UInt64) {
        guard value != 0 else { return }
        tag(field, .varint)
        varint(value)
    }

    @inline(__always)
    mutating func uint32(_ field: Int, _ value: UInt32) {
        uint64(field, UInt64(value))
    }

    /// An enum: an int32 on the wire, so a negative value takes ten bytes, as protobuf says.
    @inline(__always)
    mutating func enumeration(_ field: Int, _ rawValue: Int) {
        uint64(field, UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: rawValue))))
    }

    @inline(__always)
    mutating func bool(_ field: Int, _ value: Bool) {
        guard value else { return }
        tag(field, .varint)
        varint(1)
    }

    /// An int64: a negative value takes ten bytes, as protobuf says.
    mutating func int64(_ field: Int, _ value: Int64) {
        uint64(field, UInt64(bitPattern: value))
    }

    /// A double, left out only when its bits are all zero, as a float is.
    mutating func double(_ field: Int, _ value: Double) {
        guard value.bitPattern != 0 else { return }
        tag(field, .fixed64)
        reserve(8)
        UnsafeMutableRawPointer(base + count).storeBytes(of: value.bitPattern.littleEndian, as: UInt64.self)
        count += 8
    }

    /// Bytes that are already serialized fields of the message being written.
    mutating func fields(_ serialized: [UInt8]) {
        guard !serialized.isEmpty else { return }
        reserve(serialized.count)
        serialized.withUnsafeBufferPointer { (base + count).update(from: $0.baseAddress!, count: $0.count) }
        count += serialized.count
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
        reserve(4)
        UnsafeMutableRawPointer(base + count).storeBytes(of: bits.littleEndian, as: UInt32.self)
        count &+= 4
    }

    /// An embedded message, written even when empty (a set message field is present).
    /// Its length is not known until its body is written: one byte is kept for it and the
    /// body moved along in the rare case the length needs more.
    @inline(__always)
    mutating func message(_ field: Int, _ body: (inout ProtobufWriter) -> Void) {
        tag(field, .lengthDelimited)
        let lengthAt = count
        varint(0)
        body(&self)
        patchLength(at: lengthAt)
    }

    /// The same for a message whose length is expected to take `lengthBytes` bytes (a reply's
    /// outer messages, hundreds of bytes or more): that much room is kept for it, and the body is
    /// moved only when its length takes another number of bytes. The length is always written
    /// in the fewest bytes, as swift-protobuf writes it.
    @inline(__always)
    mutating func message(_ field: Int, lengthBytes kept: Int, _ body: (inout ProtobufWriter) -> Void) {
        tag(field, .lengthDelimited)
        let lengthAt = count
        reserve(kept)
        count &+= kept
        body(&self)
        let length = count &- lengthAt &- kept
        // Inlined where the room was right (nearly always); the move is the rare case.
        if Self.varintSize(UInt64(length)) == kept { _ = store(UInt64(length), at: lengthAt) } else { settleLength(at: lengthAt, kept: kept, length: length) }
    }


    /// A string field, left out when empty.
    mutating func string(_ field: Int, _ value: String) {
        guard !value.isEmpty else { return }
        var value = value
        value.withUTF8 { utf8 in
            tag(field, .lengthDelimited)
            varint(UInt64(utf8.count))
            reserve(utf8.count)
            (base + count).update(from: utf8.baseAddress!, count: utf8.count)
            count += utf8.count
        }
    }

    /// Bytes that are already a serialized message.
    mutating func message(_ field: Int, serialized: [UInt8]) {
        tag(field, .lengthDelimited)
        varint(UInt64(serialized.count))
        guard !serialized.isEmpty else { return }  // an empty message has no bytes to copy (nor an address)
        reserve(serialized.count)
        serialized.withUnsafeBufferPointer { (base + count).update(from: $0.baseAddress!, count: $0.count) }
        count += serialized.count
    }

    /// A packed run of `count` uint32 values, `value(i)` each: room for the longest varints is
    /// reserved once, so the loop stores bytes with no check per value (a reply's glyph ids and
    /// clusters are most of what it writes).
    @inline(__always)
    mutating func packedUInt32(_ field: Int, count values: Int, _ value: (Int) -> UInt32) {
        guard values > 0 else { return }
        tag(field, .lengthDelimited)
        let lengthAt = count
        varint(0)
        reserve(values &* 5)
        var at = count
        // A counted loop: `for i in 0..<values` tested each index against the range again (its
        // iterator's check, kept in release builds), two instructions more a value.
        var i = 0
        while i < values {
            at = store(value(i), at: at)
            i &+= 1
        }
        count = at
        patchLength(at: lengthAt)
    }

    /// A packed value's varint: one to three bytes written straight (glyph ids and clusters
    /// nearly always; the ids of a CJK face's ideographs take three), longer ones by the general
    /// loop. Room must be there.
    @inline(__always)
    private func store(_ value: UInt32, at offset: Int) -> Int {
        if value < 0x80 {
            base[offset] = UInt8(truncatingIfNeeded: value)
            return offset &+ 1
        }
        if value < 0x4000 {
            base[offset] = UInt8(truncatingIfNeeded: value) | 0x80
            base[offset &+ 1] = UInt8(truncatingIfNeeded: value &>> 7)
            return offset &+ 2
        }
        if value < 0x20_0000 {
            base[offset] = UInt8(truncatingIfNeeded: value) | 0x80
            base[offset &+ 1] = UInt8(truncatingIfNeeded: value &>> 7) | 0x80
            base[offset &+ 2] = UInt8(truncatingIfNeeded: value &>> 14)
            return offset &+ 3
        }
        return store(UInt64(value), at: offset)
    }

    /// A packed run of `count` floats: `fill` stores them, as little-endian bits, at byte offsets
    /// 0, 4, 8… of the room reserved for them (unaligned: store with `storeBytes`).
    @inline(__always)
    mutating func packedFloats(_ field: Int, count values: Int, _ fill: (UnsafeMutableRawPointer) -> Void) {
        guard values > 0 else { return }
        tag(field, .lengthDelimited)
        varint(UInt64(values &* 4))
        reserve(values &* 4)
        fill(UnsafeMutableRawPointer(base + count))
        count &+= values &* 4
    }

    /// Fields of a bounded size, at most `most` bytes in all, written by `body` into room
    /// reserved once (`BoundedFields`: no check of the room per field). A line's and a run's
    /// fixed fields, written for every line and run of every reply, checked the room a dozen times
    /// each this way.
    @inline(__always)
    mutating func bounded(_ most: Int, _ body: (inout BoundedFields) -> Void) {
        reserve(most)
        var fields = BoundedFields(base: base, at: count, end: count &+ most)
        body(&fields)
        count = fields.at
    }

    /// Inlined where a message ends, the one-byte case at least: most messages are short.
    @inline(__always)
    private mutating func patchLength(at lengthAt: Int) {
        let length = count &- lengthAt &- 1
        if length < 0x80 {
            base[lengthAt] = UInt8(length)
            return
        }
        settleLength(at: lengthAt, kept: 1, length: length)
    }

    /// Writes the length of a message whose body of `length` bytes follows the `kept` bytes kept
    /// for it at `lengthAt`, in the fewest bytes: the body is moved when that is another number.
    private mutating func settleLength(at lengthAt: Int, kept: Int, length: Int) {
        let needed = Self.varintSize(UInt64(length))
        if needed != kept {
            reserve(max(0, needed - kept))
            // The regions overlap; copyMemory is a memmove.
            UnsafeMutableRawPointer(base + lengthAt + needed).copyMemory(from: base + lengthAt + kept, byteCount: length)
            count += needed - kept
        }
        _ = store(UInt64(length), at: lengthAt)
    }

    /// Puts the frame header (the body's length, big-endian) in the first four bytes,
    /// which the writer of a frame keeps free.
    mutating func finishFrame() { finishFrame(startingAt: 0) }

    /// The same for a frame that starts at `start`: frames written one after another.
    mutating func finishFrame(startingAt start: Int) {
        let length = UInt32(count - start - Framing.headerBytes)
        UnsafeMutableRawPointer(base + start).storeBytes(of: length.bigEndian, as: UInt32.self)
    }

    /// Calls `body` with the bytes written so far (good only during the call).
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// How many bytes `value` takes as a varint.
    static func varintSize(_ value: UInt64) -> Int {
        var size = 1
        var rest = value >> 7
        while rest > 0 { size += 1; rest >>= 7 }
        return size
    }

    /// Drops what was written from `offset` on.
    mutating func truncate(to offset: Int) {
        precondition(offset >= 0 && offset <= count, "truncating past what was written")
        count = offset
    }
}

/// Fields written into room a `ProtobufWriter` reserved for them (`bounded(_:_:)`), as the
/// writer writes them (the same bytes: `ProtobufWriterTests` holds them equal) but with no check
/// of the room per field. The room is the caller's bound on what its fields can take: a varint
/// at most 10 bytes and its tag 2 (field numbers below 2,048), a float 4, a double 8; debug
/// builds check the bound after each field. A message inside is short: its length one byte.
struct BoundedFields: ~Copyable {
    fileprivate let base: UnsafeMutablePointer<UInt8>
    fileprivate private(set) var at: Int
    fileprivate let end: Int

    fileprivate init(base: UnsafeMutablePointer<UInt8>, at: Int, end: Int) {
        (self.base, self.at, self.end) = (base, at, end)
    }

    @inline(__always)
    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            base[at] = UInt8(truncatingIfNeeded: value) | 0x80
            at &+= 1
            value >>= 7
        }
        base[at] = UInt8(value)
        at &+= 1
        assert(at <= end, "bounded fields wrote past their bound")
    }

    @inline(__always)
    private mutating func tag(_ field: Int, _ type: ProtobufWriter.WireType) {
        varint(UInt64(field << 3) | UInt64(type.rawValue))
    }

    @inline(__always)
    mutating func uint32(_ field: Int, _ value: UInt32) {
        guard value != 0 else { return }
        tag(field, .varint)
        varint(UInt64(value))
    }

    /// An enum: an int32 on the wire, so a negative value takes ten bytes, as protobuf says.
    @inline(__always)
    mutating func enumeration(_ field: Int, _ rawValue: Int) {
        let value = UInt64(bitPattern: Int64(Int32(truncatingIfNeeded: rawValue)))
        guard value != 0 else { return }
        tag(field, .varint)
        varint(value)
    }

    @inline(__always)
    mutating func bool(_ field: Int, _ value: Bool) {
        guard value else { return }
        tag(field, .varint)
        varint(1)
    }

    /// A float is left out only when its bits are all zero: -0 is written, as swift-protobuf does.
    @inline(__always)
    mutating func float(_ field: Int, _ value: Float) {
        guard value.bitPattern != 0 else { return }
        tag(field, .fixed32)
        UnsafeMutableRawPointer(base + at).storeBytes(of: value.bitPattern.littleEndian, as: UInt32.self)
        at &+= 4
        assert(at <= end, "bounded fields wrote past their bound")
    }

    /// A double, left out only when its bits are all zero, as the writer's.
    @inline(__always)
    mutating func double(_ field: Int, _ value: Double) {
        guard value.bitPattern != 0 else { return }
        tag(field, .fixed64)
        UnsafeMutableRawPointer(base + at).storeBytes(of: value.bitPattern.littleEndian, as: UInt64.self)
        at &+= 8
        assert(at <= end, "bounded fields wrote past their bound")
    }

    /// An embedded message of fewer than 128 bytes, written even when empty.
    @inline(__always)
    mutating func message(_ field: Int, _ body: (inout BoundedFields) -> Void) {
        tag(field, .lengthDelimited)
        let lengthAt = at
        at &+= 1
        body(&self)
        let length = at - lengthAt - 1
        assert(length < 0x80, "a bounded message is shorter than 128 bytes")
        base[lengthAt] = UInt8(truncatingIfNeeded: length)
    }
}
