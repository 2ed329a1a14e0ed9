/// The edit most editing clients send on a keystroke — edit_document with one replacement of a
/// range by text, nothing else — read from its envelope as plain values, as `PlainLayoutRequest`
/// reads the plain layout.
///
/// The daemon answers it without swift-protobuf's messages: the envelope, its body and the
/// edit list built, copied through the routing and destroyed cost a keystroke more than
/// finding its paragraph and caret.
///
/// `read` takes the envelope's request id and deadline, the request's `document` (a scalar
/// repeated as protobuf reads it: the last wins) and one `edits` entry holding one `replace`
/// (its `range` at most once, its `text`). Anything else — a second edit, a style, attachments,
/// points, carets, a view, a field twice that protobuf would merge, malformed bytes or UTF-8 —
/// gives nil, and the frame goes the general way.
public struct PlainEditRequest: Sendable, Equatable, PlainEnvelopeRequest {
    public var requestID: UInt64 = 0
    public var deadlineMs: UInt32 = 0
    public var document: UInt64 = 0
    /// The replaced range as sent (`Range.start`, `Range.length`); `hasRange` false when the
    /// replacement carries none, which the general way refuses.
    public var start: UInt32 = 0
    public var length: UInt32 = 0
    public var hasRange = false
    /// The text typed, as UTF-16 units read straight from the frame's UTF-8.
    public var units = ContiguousArray<UInt16>()

    public init() {}

    private static let varint = ProtobufReader.varint, lengthDelimited = ProtobufReader.lengthDelimited
    /// `Envelope.edit_document`.
    static let bodyField = 36

    public static func read(_ bytes: UnsafeRawBufferPointer) -> PlainEditRequest? { readEnvelope(bytes) }

    mutating func readBody(_ reader: inout ProtobufReader) -> Bool {
        var edits = 0
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag() else { return false }
            switch (field, type) {
            case (1, Self.varint): guard let document = reader.varint() else { return false }; self.document = document
            case (2, Self.lengthDelimited) where edits == 0:
                guard var edit = reader.nested(), readEdit(&edit) else { return false }
                edits += 1
            default: return false
            }
        }
        return edits == 1
    }

    /// A `DocumentEdit` holding one replacement.
    private mutating func readEdit(_ reader: inout ProtobufReader) -> Bool {
        var replacements = 0
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag(), field == 1, type == Self.lengthDelimited, replacements == 0,
                  var replacement = reader.nested(), readReplacement(&replacement) else { return false }
            replacements += 1
        }
        return replacements == 1
    }

    private mutating func readReplacement(_ reader: inout ProtobufReader) -> Bool {
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag() else { return false }
            switch (field, type) {
            case (1, Self.lengthDelimited) where !hasRange:
                guard var nested = reader.nested(), let range = nested.rangeValues() else { return false }
                (start, length, hasRange) = (range.start, range.length, true)
            case (2, Self.lengthDelimited): guard let units = reader.utf16() else { return false }; self.units = units
            default: return false
            }
        }
        return true
    }

    /// The same request as swift-protobuf's envelope: what the general way answers.
    public var envelope: Layoutd_V1_Envelope {
        var replacement = Layoutd_V1_TextReplacement()
        if hasRange {
            replacement.range.start = start
            replacement.range.length = length
        }
        replacement.text = String(decoding: units, as: UTF16.self)
        var edit = Layoutd_V1_DocumentEdit()
        edit.replace = replacement
        var request = Layoutd_V1_EditDocumentRequest()
        request.document = document
        request.edits = [edit]
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = requestID
        envelope.deadlineMs = deadlineMs
        envelope.editDocument = request
        return envelope
    }
}
