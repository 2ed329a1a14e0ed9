import LayoutEngine
import LayoutWire

/// A batch_layout request checked as a whole before any item is laid out: the refusals that
/// concern every item (no items, both kinds, too many, a shared text) answer the batch with
/// one error. What concerns one item (its text too long, a span past its end) is that item's
/// own error, and the others go on.
struct BatchPlan: Sendable {
    let requestID: UInt64
    let deadlineMs: UInt32
    private let items: Items
    /// How many items: texts or requests.
    let count: Int
    /// The fonts every text shares (`layout.fonts`), added once for the whole batch.
    let sharedFonts: [Layoutd_V1_ClientFont]
    /// Plain items' texts, and the engine's request their options make, its text empty (nil
    /// where they go the general way: an unknown family, a size or width out of range). Kept
    /// outside `items`: each item read them from the case's payload, a copy of it (request,
    /// texts and template retained and released) an item.
    private var template: ParagraphRequest?
    private let plainTexts: [ContiguousArray<UInt16>]
    /// The fonts the template was made over, to make it again for a lane (`forLane`).
    private let templateFonts: FontRegistry?

    private enum Items {
        /// Texts read straight from the frame (`plainTexts`), sharing these plain options
        /// (`PlainBatchRequest`), and the engine's request they make (`template`).
        case plain(PlainLayoutRequest)
        /// Texts sharing any options; the shared request without its fonts.
        case texts(Layoutd_V1_LayoutRequest, [String])
        case requests([Layoutd_V1_LayoutRequest])
    }

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
        try Self.check(count: max(texts, requests), maxItems: maxItems, field: texts > 0 ? "batch_layout.texts" : "batch_layout.requests")
        if texts > 0 && !batch.layout.text.isEmpty {
            throw WireError(.invalidArgument, "layout.text is replaced by each of the batch's texts: leave it empty",
                            field: "batch_layout.layout.text")
        }
        if requests > 0 && batch.hasLayout {
            throw WireError(.invalidArgument, "layout's options go with texts; each of the batch's requests carries its own",
                            field: "batch_layout.layout")
        }
        requestID = envelope.requestID
        deadlineMs = envelope.deadlineMs
        count = max(texts, requests)
        var shared = batch.layout
        sharedFonts = shared.fonts
        if !shared.fonts.isEmpty { shared.fonts = [] }
        items = texts > 0 ? .texts(shared, batch.texts) : .requests(batch.requests)
        (template, plainTexts, templateFonts) = (nil, [], nil)
    }

    /// A batch read by `PlainBatchRequest`: the same checks, the texts kept as units, the
    /// options made into the engine's request once, over `fonts`.
    init(_ plain: PlainBatchRequest, fonts: FontRegistry, maxItems: Int) throws(WireError) {
        try Self.check(count: plain.texts.count, maxItems: maxItems, field: "batch_layout.texts")
        requestID = plain.requestID
        deadlineMs = plain.deadlineMs
        count = plain.texts.count
        sharedFonts = []
        template = plain.shared.engineRequest(fonts: fonts)
        templateFonts = fonts
        plainTexts = plain.texts
        items = .plain(plain.shared)
    }

    /// The plan with a template of its own, for one lane of the batch: equal to this one's, made
    /// again from the same options. Every item copies its lane's template, counting references
    /// to its objects; with one template for all lanes, workers on different cores would count
    /// them on the same cache lines, item after item (docs/design.md).
    func forLane() -> BatchPlan {
        guard case .plain(let shared) = items, let templateFonts, template != nil else { return self }
        var plan = self
        plan.template = shared.engineRequest(fonts: templateFonts)
        return plan
    }

    private static func check(count: Int, maxItems: Int, field: String) throws(WireError) {
        if count > maxItems {
            throw WireError(.resourceExhausted, "\(count) items in one batch; this server takes at most \(maxItems) "
                            + "(send several batches)", field: field)
        }
    }

    /// Whether the items are texts sharing `layout`'s options.
    var isTexts: Bool {
        if case .requests = items { return false }
        return true
    }

    /// Item `index` as the engine's request, made straight from plain options (as a plain
    /// layout request is, `PlainLayoutRequest.engineRequest`: the template with the item's
    /// text); nil where the item goes the general way (`item`), which also names what a plain
    /// one would refuse.
    func engineRequest(_ index: Int, maxTextUnits: Int) -> ParagraphRequest? {
        guard let template, plainTexts[index].count <= maxTextUnits else { return nil }
        var request = template
        // The template's styles, the same array for every item: the style caches find it equal
        // by its storage (`PlainStyles`).
        request.text = AttributedText(plainUnits: plainTexts[index], styles: template.text.styles)
        return request
    }

    /// Item `index` as the layout request it is, without the shared fonts.
    func item(_ index: Int) -> Layoutd_V1_LayoutRequest {
        switch items {
        case .plain(let shared):
            var plain = shared
            plain.units = plainTexts[index]
            return plain.layoutRequest
        case .texts(let shared, let texts):
            var item = shared
            item.text = texts[index]
            return item
        case .requests(let requests):
            return requests[index]
        }
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

extension BatchPlan {
    /// The plan of a batch frame: read as a `PlainBatchRequest` where it is one, else decoded
    /// by `processor` (swift-protobuf, merge-guarded) and checked; or the error that refuses it.
    static func of(frame bytes: UnsafeRawBufferPointer, processor: RequestProcessor, maxItems: Int) throws(WireError) -> BatchPlan {
        if let plain = PlainBatchRequest.read(bytes) { return try BatchPlan(plain, fonts: processor.layouter.fonts, maxItems: maxItems) }
        switch processor.decode(bytes) {
        case .success(let envelope): return try BatchPlan(envelope, maxItems: maxItems)
        case .failure(let failure): throw failure.error
        }
    }
}
