/// The Type Mode request of text, width and a family, nothing else — a caption fitted line by
/// line with the defaults — read from its envelope as plain values, as `PlainLayoutRequest`
/// reads a layout: building, converting and destroying the generated messages cost more here
/// than writing the reply.
///
/// `read` takes the envelope's request id and deadline and the justify's fields 1 (text),
/// 3 (style: family 1) and 4 (width), each with its declared wire type, a scalar repeated as
/// protobuf reads it (the last wins), the style message at most once. Anything else — a preset,
/// a size, any other field of the three messages, a style given twice, malformed bytes or
/// UTF-8 — gives nil, and the frame goes the general way.
public struct PlainJustifyRequest: Sendable, Equatable, PlainTextRequest {
    public var requestID: UInt64 = 0
    public var deadlineMs: UInt32 = 0
    /// The text as UTF-16 units, read straight from the frame's UTF-8.
    public var units = ContiguousArray<UInt16>()
    /// The text as a string, made from `units` when asked (and setting it sets them).
    public var text: String {
        get { String(decoding: units, as: UTF16.self) }
        set { units = ContiguousArray(newValue.utf16) }
    }
    /// Whether the request carries a style (it may be empty).
    public var hasStyle = false
    public var family = ""
    public var width: Float = 0

    public init() {}

    /// The envelope's `justify` field (proto/layoutd/v1/envelope.proto).
    static let bodyField = 20

    public static func read(_ bytes: UnsafeRawBufferPointer) -> PlainJustifyRequest? { readEnvelope(bytes) }

    /// The justify request's `style`.
    static let styleField = 3
    var styleGiven: Bool {
        get { hasStyle }
        set { hasStyle = newValue }
    }
    /// A size makes the lines' sizes the request's own: the general way fits them.
    mutating func setSize(_ size: Float) -> Bool { false }

    /// The same request as swift-protobuf's envelope: what the general way answers.
    public var envelope: Layoutd_V1_Envelope {
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = requestID
        envelope.deadlineMs = deadlineMs
        var justify = Layoutd_V1_JustifyRequest()
        justify.text = text
        justify.width = width
        if hasStyle || !family.isEmpty { justify.style.family = family }
        envelope.body = .justify(justify)
        return envelope
    }
}
