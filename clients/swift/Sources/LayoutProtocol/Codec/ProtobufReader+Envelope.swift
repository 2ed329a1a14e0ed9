/// What the layout request and reply readers share: the envelope around their body, ranges,
/// and the once-only rule for message fields.
extension ProtobufReader {
    static let varint: UInt8 = 0, fixed32: UInt8 = 5, lengthDelimited: UInt8 = 2

    /// An envelope whose body is field `bodyField`, read by `body`; nil for anything else.
    static func envelope(_ bytes: UnsafeRawBufferPointer, bodyField: Int,
                         body: (inout ProtobufReader) -> Layoutd_V1_Envelope.OneOf_Body?) -> Layoutd_V1_Envelope? {
        envelope(bytes, bodyFields: (bodyField, bodyField)) { _, reader in body(&reader) }
    }

    /// An envelope whose body is one of two fields, read by `body` (given the field's number);
    /// nil for anything else.
    static func envelope(_ bytes: UnsafeRawBufferPointer, bodyFields: (Int, Int),
                         body: (_ field: Int, inout ProtobufReader) -> Layoutd_V1_Envelope.OneOf_Body?) -> Layoutd_V1_Envelope? {
        envelope(bytes, bodyFields: (bodyFields.0, bodyFields.1, bodyFields.1), body: body)
    }

    /// The same with a body of one of three fields.
    static func envelope(_ bytes: UnsafeRawBufferPointer, bodyFields: (Int, Int, Int),
                         body: (_ field: Int, inout ProtobufReader) -> Layoutd_V1_Envelope.OneOf_Body?) -> Layoutd_V1_Envelope? {
        guard let read = envelopeFields(bytes, bodyFields: bodyFields, body: body) else { return nil }
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = read.requestID
        envelope.deadlineMs = read.deadlineMs
        envelope.body = read.body
        return envelope
    }

    /// An envelope's request id, deadline and body (one of three fields, once, read by `body`);
    /// nil when `body` gives nil, when there is no body, or for any other field.
    @inline(__always)
    static func envelopeFields<Body>(_ bytes: UnsafeRawBufferPointer, bodyFields: (Int, Int, Int),
                                     body: (_ field: Int, inout ProtobufReader) -> Body?)
        -> (requestID: UInt64, deadlineMs: UInt32, body: Body)? {
        var reader = ProtobufReader(bytes)
        var requestID: UInt64 = 0, deadlineMs: UInt32 = 0
        var read: Body?
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag() else { return nil }
            switch (field, type) {
            case (1, varint): guard let id = reader.varint() else { return nil }; requestID = id
            case (2, varint): guard let ms = reader.varint() else { return nil }; deadlineMs = UInt32(truncatingIfNeeded: ms)
            case (bodyFields.0, lengthDelimited) where read == nil, (bodyFields.1, lengthDelimited) where read == nil,
                 (bodyFields.2, lengthDelimited) where read == nil:
                guard var nested = reader.nested(), let taken = body(field, &nested) else { return nil }
                read = taken
            default: return nil
            }
        }
        guard let read else { return nil }
        return (requestID, deadlineMs, read)
    }

    /// A `Variation` message (an axis tag and value) from this reader's bytes.
    mutating func variation() -> Layoutd_V1_Variation? {
        var variation = Layoutd_V1_Variation()
        while !isAtEnd {
            guard let (field, type) = tag() else { return nil }
            switch (field, type) {
            case (1, Self.lengthDelimited): guard let tag = string() else { return nil }; variation.tag = tag
            case (2, Self.fixed32): guard let value = float() else { return nil }; variation.value = value
            default: return nil
            }
        }
        return variation
    }

    /// A `Range` message from this reader's bytes.
    mutating func range() -> Layoutd_V1_Range? {
        guard let (start, length) = rangeValues() else { return nil }
        var range = Layoutd_V1_Range()
        (range.start, range.length) = (start, length)
        return range
    }

    /// A `Range` message's start (1) and length (2), varints, the last of each winning; without
    /// the generated message (a keystroke's range, `PlainEditRequest`).
    mutating func rangeValues() -> (start: UInt32, length: UInt32)? {
        var start: UInt32 = 0, length: UInt32 = 0
        while !isAtEnd {
            guard let (field, type) = tag(), type == Self.varint, let value = varint() else { return nil }
            switch field {
            case 1: start = UInt32(truncatingIfNeeded: value)
            case 2: length = UInt32(truncatingIfNeeded: value)
            default: return nil
            }
        }
        return (start, length)
    }

    /// True the first time message field `field` is met (a second one would be merged, which
    /// the readers leave to swift-protobuf); `seen` holds one bit per field number.
    @inline(__always)
    static func firstTime(_ field: Int, _ seen: inout UInt16) -> Bool {
        defer { seen |= 1 << field }
        return seen & (1 << field) == 0
    }

    /// The same for field numbers up to 31.
    static func firstTime(_ field: Int, _ seen: inout UInt32) -> Bool {
        defer { seen |= 1 << field }
        return seen & (1 << field) == 0
    }
}
