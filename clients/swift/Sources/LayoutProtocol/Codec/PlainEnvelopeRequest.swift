/// A request read plain from its frame (`PlainLayoutRequest`, `PlainJustifyRequest`,
/// `PlainEditRequest`, `PlainBatchRequest`): the id and the deadline are the envelope's, the rest
/// is its one body field, read by `readBody` into an empty request. One reader of the envelope
/// for all four, where each stamped the id and deadline itself.
protocol PlainEnvelopeRequest {
    init()
    var requestID: UInt64 { get set }
    var deadlineMs: UInt32 { get set }
    /// The envelope's field the body is (proto/layoutd/v1/envelope.proto).
    static var bodyField: Int { get }
    /// Reads the body's fields; false for anything the plain request does not take.
    mutating func readBody(_ reader: inout ProtobufReader) -> Bool
}

extension PlainEnvelopeRequest {
    /// The request in `bytes`, an envelope of an id, a deadline and the body at `bodyField`, once;
    /// nil for any other field, a body given twice, or one `readBody` refuses.
    @inline(__always)
    static func readEnvelope(_ bytes: UnsafeRawBufferPointer) -> Self? {
        guard var read = ProtobufReader.envelopeFields(bytes, bodyFields: (bodyField, bodyField, bodyField), body: { _, body in
            var plain = Self()
            return plain.readBody(&body) ? plain : nil
        }) else { return nil }
        read.body.requestID = read.requestID
        read.body.deadlineMs = read.deadlineMs
        return read.body
    }
}

/// A plain layout's and a plain Type Mode request's fields, the same in both messages but for
/// where the style is: a text (field 1), a width (field 4, fixed32) and at most once a style at
/// `styleField`, of a family (its field 1) and, where the request takes one, a size (its field 4).
/// A scalar repeated is read as protobuf reads it: the last wins.
protocol PlainTextRequest: PlainEnvelopeRequest {
    var units: ContiguousArray<UInt16> { get set }
    var family: String { get set }
    var width: Float { get set }
    /// Whether the style message was given (it may be empty).
    var styleGiven: Bool { get set }
    /// The body's field that holds the style.
    static var styleField: Int { get }
    /// Sets the style's size; false where the request takes none (a size then goes the general way).
    mutating func setSize(_ size: Float) -> Bool
}

extension PlainTextRequest {
    mutating func readBody(_ reader: inout ProtobufReader) -> Bool {
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag() else { return false }
            switch (field, type) {
            case (1, ProtobufReader.lengthDelimited): guard let units = reader.utf16() else { return false }; self.units = units
            case (Self.styleField, ProtobufReader.lengthDelimited) where !styleGiven:
                guard var style = reader.nested(), readStyle(&style) else { return false }
                styleGiven = true
            case (4, ProtobufReader.fixed32): guard let width = reader.float() else { return false }; self.width = width
            default: return false
            }
        }
        return true
    }

    private mutating func readStyle(_ reader: inout ProtobufReader) -> Bool {
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag() else { return false }
            switch (field, type) {
            case (1, ProtobufReader.lengthDelimited): guard let family = reader.string() else { return false }; self.family = family
            case (4, ProtobufReader.fixed32): guard let size = reader.float(), setSize(size) else { return false }
            default: return false
            }
        }
        return true
    }
}
