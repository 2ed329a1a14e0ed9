import LayoutProtocol

/// What the server needs of a request to answer its refusals and failures, count it and log it:
/// its id, its kind and its deadline. Read from the envelope, or for a plain layout from the
/// frame itself; one value, so that every path (envelope or plain, loop or pool) takes one
/// function instead of a pair.
struct RequestTag {
    let id: UInt64
    let kind: StaticString
    /// The client's own deadline in milliseconds; 0 for none.
    let deadlineMs: UInt32

    init(id: UInt64, kind: StaticString, deadlineMs: UInt32 = 0) {
        self.id = id
        self.kind = kind
        self.deadlineMs = deadlineMs
    }

    init(_ envelope: Layoutd_V1_Envelope) {
        self.init(id: envelope.requestID, kind: envelope.body?.name ?? "none", deadlineMs: envelope.deadlineMs)
    }
}
