import LayoutProtocol

/// Where the daemon answers a frame, decided in one place: the connection handler follows it,
/// and the fuzzer and the benchmark (`RequestProcessor.replyFrame(toBody:)`) take the same way
/// in process. Pure: it reads the frame and the envelope, and what the connection says.
enum FrameRoute {
    /// A small frame that reads as a plain layout (`PlainLayoutRequest`): laid out on the event
    /// loop without decoding the envelope.
    case plain(PlainLayoutRequest)
    /// A small frame that reads as a plain Type Mode request (`PlainJustifyRequest`): fitted on the
    /// event loop, where its envelope would be answered too, without decoding it.
    case plainJustify(PlainJustifyRequest)
    /// A small frame that reads as a keystroke (`PlainEditRequest`): answered without decoding
    /// the envelope where a document request may be answered on the loop.
    case plainEdit(PlainEditRequest)
    /// Decoded on the event loop, then routed by `RequestRoute`.
    case decodeHere
    /// Larger than `ConnectionHandler.inlineDecodeBytes`: decoded on the pool, then routed.
    case decodeOnPool

    /// A batch_layout: its id and deadline read, the batch itself read on the pool by its first
    /// chunk (`ConnectionHandler.runBatch`), never on the loop.
    case batch(requestID: UInt64, deadlineMs: UInt32)

    static func of(_ frame: UnsafeRawBufferPointer) -> FrameRoute {
        // The commonest frame, a plain layout, is read at once; any other is routed on its body
        // field (`PlainBody`), so only the reader that body names is tried (a justify was read as
        // a keystroke and a batch too).
        let small = frame.count <= RequestProcessor.smallRequestBytes
        if small, let plain = PlainLayoutRequest.read(frame) { return .plain(plain) }
        switch PlainBody.of(frame) {
        case .justify where small:
            if let justify = PlainJustifyRequest.read(frame) { return .plainJustify(justify) }
        case .edit where small:
            if let edit = PlainEditRequest.read(frame) { return .plainEdit(edit) }
        case .batch:
            if let batch = PlainBatchRequest.peek(frame) { return .batch(requestID: batch.requestID, deadlineMs: batch.deadlineMs) }
        default:
            break
        }
        return frame.count <= ConnectionHandler.inlineDecodeBytes ? .decodeHere : .decodeOnPool
    }
}

/// Where a decoded request is answered.
enum RequestRoute: Equatable {
    /// A notice that cancels request `id`; it gets no reply of its own.
    case cancel(UInt64)
    /// A reload asked over the socket (allowed to the daemon's user and root).
    case reload
    /// Client fonts registered on the connection.
    case registerFonts
    /// Hello, fonts, stats and bodies the server does not know: their cost does not depend on
    /// what the client sent, so they are answered at once on the loop, never queued.
    case atOnce
    /// A small layout or Type Mode request: on the loop, its cost bounded by its size.
    case inline
    /// A small document request, none of the connection's queued before it: on the loop.
    case documentInline
    /// A document request down the connection's document chain, in order, on the pool.
    case documentChain
    /// A batch: a chunk of items at a time on the pool, answered item by item.
    case batch
    /// Everything else: the worker pool.
    case pool

    /// `bytes`: the frame's size; `documentsQueued`: the connection's document requests not yet
    /// answered; `isSmallDocument` is asked only of a document request that could go inline.
    static func of(_ envelope: Layoutd_V1_Envelope, bytes: Int, documentsQueued: Int,
                   isSmallDocument: () -> Bool) -> RequestRoute {
        switch envelope.body {
        case .cancel(let cancel): return .cancel(cancel.requestID)
        case .reload: return .reload
        case .registerFonts: return .registerFonts
        default: break
        }
        guard envelope.isLayoutWork else { return .atOnce }
        if case .batchLayout = envelope.body { return .batch }
        let small = bytes <= RequestProcessor.smallRequestBytes
        if envelope.isDocumentRequest {
            return documentsQueued == 0 && small && isSmallDocument() ? .documentInline : .documentChain
        }
        return small && envelope.isSmallLayoutWork ? .inline : .pool
    }
}
