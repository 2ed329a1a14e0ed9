/// The layout request most clients send — text, width and a default style of family and size,
/// nothing else (`layoutctl layout`, the Python client's `layout(text, width, font=, size=)`, the
/// C example) — read from its envelope as plain values.
///
/// The daemon lays such a request out without swift-protobuf's messages: building them (each
/// message's storage copied from its default on the first write), converting them (presence
/// tests of some forty fields and their styles) and destroying them was a fair share of a
/// caption's whole cost through the daemon.
///
/// `read` takes the envelope's request id and deadline and the layout's fields 1 (text),
/// 2 (default_style: family 1, size 4) and 4 (width), each with its declared wire type, a
/// scalar repeated as protobuf reads it (the last wins), the style message at most once. Anything
/// else — another field of any of the three messages, a style given twice (protobuf would merge
/// them), malformed bytes or UTF-8 — gives nil, and the frame goes the general way.
public struct PlainLayoutRequest: Sendable, Equatable, PlainTextRequest {
    public var requestID: UInt64 = 0
    public var deadlineMs: UInt32 = 0
    /// The text as UTF-16 units, read straight from the frame's UTF-8: the engine's form, with no
    /// `String` made on the way.
    public var units = ContiguousArray<UInt16>()
    /// The text as a string, made from `units` when asked (and setting it sets them).
    public var text: String {
        get { String(decoding: units, as: UTF16.self) }
        set { units = ContiguousArray(newValue.utf16) }
    }
    /// Whether the request carries a default style (it may be empty).
    public var hasDefaultStyle = false
    public var family = ""
    public var size: Float = 0
    public var width: Float = 0

    public init() {}

    /// The envelope's `layout` field (proto/layoutd/v1/envelope.proto).
    static let bodyField = 12

    public static func read(_ bytes: UnsafeRawBufferPointer) -> PlainLayoutRequest? { readEnvelope(bytes) }

    /// The layout's `default_style`.
    static let styleField = 2
    var styleGiven: Bool {
        get { hasDefaultStyle }
        set { hasDefaultStyle = newValue }
    }
    mutating func setSize(_ size: Float) -> Bool {
        self.size = size
        return true
    }

    /// The same request as swift-protobuf's envelope: what the general way answers.
    public var envelope: Layoutd_V1_Envelope {
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = requestID
        envelope.deadlineMs = deadlineMs
        envelope.body = .layout(layoutRequest)
        return envelope
    }

    /// The layout request alone, as swift-protobuf's message.
    public var layoutRequest: Layoutd_V1_LayoutRequest {
        var layout = Layoutd_V1_LayoutRequest()
        layout.text = text
        layout.width = width
        if hasDefaultStyle || !family.isEmpty || size != 0 {
            layout.defaultStyle.family = family
            layout.defaultStyle.size = size
        }
        return layout
    }
}
