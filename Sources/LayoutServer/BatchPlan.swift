import LayoutWire

/// A batch_layout request checked as a whole before any item is laid out: the refusals that
/// concern every item (no items, both kinds, too many, a shared text) answer the batch with
/// one error. What concerns one item (its text too long, a span past its end) is that item's
/// own error, and the others go on.
struct BatchPlan: Sendable {
    let requestID: UInt64
    let deadlineMs: UInt32
    private let batch: Layoutd_V1_BatchLayoutRequest
    /// What the texts share, without its fonts (`sharedFonts`).
    private let shared: Layoutd_V1_LayoutRequest
    /// How many items: texts or requests.
    let count: Int
    /// The fonts every text shares (`layout.fonts`), added once for the whole batch.
    let sharedFonts: [Layoutd_V1_ClientFont]

    init(_ envelope: Layoutd_V1_Envelope, maxItems: Int) throws(WireError) {
        guard case .batchLayout(let batch) = envelope.body else {
            throw WireError(.internal, "not a batch", field: "envelope.body")
        }
        let (texts, requests) = (batch.texts.count, batch.requests.count)
        if texts == 0 && requests == 0 {
            throw WireError(.invalidArgument, "a batch needs texts (laid out with layout's options) or whole requests",
                            field: "batch_layout.texts")
        }
        if texts > 0 && requests > 0 {
            throw WireError(.invalidArgument, "a batch gives texts or requests, not both (\(texts) texts, \(requests) requests)",
                            field: "batch_layout.requests")
        }
        let count = max(texts, requests)
        if count > maxItems {
            throw WireError(.resourceExhausted, "\(count) items in one batch; this server takes at most \(maxItems) "
                            + "(send several batches)", field: texts > 0 ? "batch_layout.texts" : "batch_layout.requests")
        }
        if texts > 0 && !batch.layout.text.isEmpty {
            throw WireError(.invalidArgument, "layout.text is replaced by each of the batch's texts: leave it empty",
                            field: "batch_layout.layout.text")
        }
        if requests > 0 && batch.hasLayout {
            throw WireError(.invalidArgument, "layout's options go with texts; each of the batch's requests carries its own",
                            field: "batch_layout.layout")
        }
        self.requestID = envelope.requestID
        self.deadlineMs = envelope.deadlineMs
        self.batch = batch
        self.count = count
        var shared = batch.layout
        sharedFonts = shared.fonts
        if !shared.fonts.isEmpty { shared.fonts = [] }
        self.shared = shared
    }

    /// Whether the items are texts sharing `layout`'s options.
    var isTexts: Bool { !batch.texts.isEmpty }

    /// Item `index` as the layout request it is, without the shared fonts.
    func item(_ index: Int) -> Layoutd_V1_LayoutRequest {
        guard isTexts else { return batch.requests[index] }
        var item = shared
        item.text = batch.texts[index]
        return item
    }

    /// An item's error field, named in the batch: `layout.text` of text 3 is `batch_layout.texts[3]`,
    /// `layout.width` is the shared `batch_layout.layout.width` or `batch_layout.requests[3].width`.
    func field(_ field: String, item index: Int) -> String {
        let rest: Substring
        if field == "layout" { rest = "" } else if field.hasPrefix("layout.") { rest = field.dropFirst("layout".count) } else { return field }
        if isTexts {
            return rest == ".text" ? "batch_layout.texts[\(index)]" : "batch_layout.layout" + rest
        }
        return "batch_layout.requests[\(index)]" + rest
    }
}
