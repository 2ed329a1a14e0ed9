/// A batch_layout of texts whose shared request is plain (`PlainLayoutRequest`'s fields: the
/// default style's family and size, and the width; no text of its own), read straight from the
/// frame with each text as UTF-16 units: the form a program laying out a feed's captions sends.
/// Anything else (whole requests, any other option) is left to swift-protobuf (nil).
public struct PlainBatchRequest: Sendable, Equatable, PlainEnvelopeRequest {
    public var requestID: UInt64 = 0
    public var deadlineMs: UInt32 = 0
    /// The options every text shares; its `units` are empty.
    public var shared = PlainLayoutRequest()
    public var texts: [ContiguousArray<UInt16>] = []

    public init() {}

    /// Field numbers, from proto/layoutd/v1/{envelope,batch}.proto.
    static let bodyField = 40
    private enum Batch { static let layout = 1, texts = 2 }

    public static func read(_ bytes: UnsafeRawBufferPointer) -> PlainBatchRequest? { readEnvelope(bytes) }

    /// The request id and deadline of a frame whose body is a batch_layout, read without
    /// reading the batch; nil for any other frame.
    public static func peek(_ bytes: UnsafeRawBufferPointer) -> (requestID: UInt64, deadlineMs: UInt32)? {
        guard let read = ProtobufReader.envelopeFields(bytes, bodyFields: (bodyField, bodyField, bodyField), body: { _, _ in true })
        else { return nil }
        return (read.requestID, read.deadlineMs)
    }

    mutating func readBody(_ reader: inout ProtobufReader) -> Bool {
        var sawLayout = false
        while !reader.isAtEnd {
            guard let (field, type) = reader.tag(), type == ProtobufReader.lengthDelimited else { return false }
            switch field {
            case Batch.layout where !sawLayout:
                guard var layout = reader.nested(), shared.readBody(&layout), shared.units.isEmpty else { return false }
                sawLayout = true
            case Batch.texts:
                guard let units = reader.utf16() else { return false }
                texts.append(units)
            default: return false
            }
        }
        return !texts.isEmpty
    }

    /// The same batch as swift-protobuf's envelope: what the general way answers.
    public var envelope: Layoutd_V1_Envelope {
        var batch = Layoutd_V1_BatchLayoutRequest()
        batch.layout = shared.layoutRequest
        batch.texts = texts.map { String(decoding: $0, as: UTF16.self) }
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = requestID
        envelope.deadlineMs = deadlineMs
        envelope.body = .batchLayout(batch)
        return envelope
    }
}
