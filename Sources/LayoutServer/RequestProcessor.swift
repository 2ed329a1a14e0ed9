import Foundation
import LayoutEngine
import LayoutFonts
import LayoutRender
import LayoutWire
import Logging
import SwiftProtobuf
import LayoutUnicode

/// Turns one decoded request into its reply. Pure of sockets, so it is tested directly.
public final class RequestProcessor: Sendable {
    public let layouter: ParagraphLayouter
    let renderer: Renderer
    public let configuration: ServerConfiguration
    /// Shared with the processors a reload makes: counts run across reloads.
    let stats: ServerStats
    public static let serverVersion = LayoutdVersion.current

    /// Failed requests at warning (code and field), every request at debug.
    let logger: Logger
    /// Whether every request is logged (the logger's level is debug or finer), read once: the
    /// logger is this processor's own copy and its level does not change, and reading the level
    /// copies the log handler out and back (a processor is made again on reload).
    private let logsEachRequest: Bool
    /// Plain layout requests' styles, handed out again (see `PlainStyles`).
    private let plainStyles: PlainStyles

    public init(layouter: ParagraphLayouter, configuration: ServerConfiguration, stats: ServerStats = ServerStats(),
                logger: Logger = Logger(label: "layoutd") { _ in SwiftLogNoOpLogHandler() }) {
        self.layouter = layouter
        self.renderer = Renderer(fonts: layouter.fonts, maxPixels: configuration.maxPicturePixels)
        self.configuration = configuration
        self.stats = stats
        self.logger = logger
        self.logsEachRequest = logger.logLevel <= .debug
        self.plainStyles = PlainStyles(fonts: layouter.fonts)
    }

    /// One answered request, counted in the stats and the metrics and logged: its outcome at
    /// debug, a failure at warning with what was wrong.
    func account(_ request: RequestTag, failure: Layoutd_V1_Error?, microseconds: Double) {
        let (id, kind) = (request.id, request.kind)
        // Nearly every request: tested first, so the failure is not copied to read its code.
        guard let failure else {
            stats.record(microseconds: microseconds, failed: false)
            stats.metrics.record(type: kind, code: nil, microseconds: microseconds)
            if logsEachRequest {
                logger.debug("request", metadata: ["id": "\(id)", "request": "\(kind)", "us": "\(Int(saturating: microseconds))"])
            }
            return
        }
        stats.record(microseconds: microseconds, failed: true)
        stats.metrics.record(type: kind, code: failure.code.protoName, microseconds: microseconds)
        logger.warning("request failed", metadata: ["id": "\(id)", "request": "\(kind)",
                                                    "code": "\(failure.code.protoName)", "field": "\(failure.field)",
                                                    "message": "\(failure.message)"])
    }

    /// A processor on the default fonts and configuration, as the daemon starts with: for the
    /// benchmark and the fuzzer, which answer requests in process.
    public static func standalone(configuration: ServerConfiguration = ServerConfiguration()) throws -> RequestProcessor {
        let fonts = try FontRegistry.load(paths: DefaultFonts.installedPaths)
        return RequestProcessor(layouter: ParagraphLayouter(fonts: fonts, maxTextLength: configuration.maxTextUnits),
                                configuration: configuration)
    }

    /// Decodes a frame body; a body that is not an Envelope gets a MALFORMED reply with id 0.
    /// Layout and justify requests, the frequent ones, are read by `RequestReader`; whatever it
    /// does not take goes to swift-protobuf, which names what is wrong, after `MergeGuard` has
    /// made sure its work is linear in the body's size.
    public func decode(_ bytes: UnsafeRawBufferPointer) -> Result<Layoutd_V1_Envelope, DecodeFailure> {
        if let envelope = RequestReader.envelope(bytes) { return .success(envelope) }
        if let refusal = MergeGuard.check(bytes) {
            return .failure(DecodeFailure(requestID: refusal.requestID, error: WireError(.invalidArgument,
                "message field \(refusal.path) occurs \(refusal.occurrences) times in one message; at most "
                + "\(MergeGuard.maxOccurrences) are merged", field: refusal.path)))
        }
        do {
            return .success(try Layoutd_V1_Envelope(serializedBytes: Array(bytes)))
        } catch {
            return .failure(DecodeFailure(requestID: 0, error: WireError(.malformed, "frame body is not a layoutd.v1.Envelope: \(error)",
                                                                         field: "envelope")))
        }
    }

    /// A body that could not be decoded: why, and the request id when it could be read.
    public struct DecodeFailure: Error {
        public var requestID: UInt64
        public var error: WireError
    }

    /// The reply frame to one frame body, routed as a connection routes it (`FrameRoute`) and
    /// answered in process as a worker answers it (a body that is no Envelope gets MALFORMED); nil
    /// for a Cancel, which gets no reply. For the fuzzer and the benchmark, which have no connection.
    public func replyFrame(toBody body: UnsafeRawBufferPointer, budget: WorkBudget) throws -> [UInt8]? {
        switch FrameRoute.of(body) {
        case .plain(let plain): return try replyFrame(toPlain: plain, budget: budget)
        case .plainJustify(let plain): return try replyFrame(toPlainJustify: plain, budget: budget)
        default: break
        }
        switch decode(body) {
        case .failure(let failure):
            return try Framing.encode(reply(to: failure))
        case .success(let envelope):
            if case .cancel = envelope.body { return nil }
            return try replyFrame(to: envelope, budget: budget)
        }
    }

    /// The reply to `envelope` as a frame ready to send. Layout and Type Mode replies are written
    /// straight from the engine's result (`LayoutReplyFrame`, `JustifyReplyFrame`); every other
    /// reply goes through `reply(to:)`.
    public func replyFrame(to envelope: Layoutd_V1_Envelope, inFlight: Int = 0, budget: WorkBudget = .unlimited) throws -> [UInt8] {
        if Self.requestFonts(envelope) != nil {
            let scoped: RequestProcessor
            do {
                scoped = try self.scoped(for: envelope)
            } catch {
                account(RequestTag(envelope), failure: error.wireMessage, microseconds: 0)
                return try Framing.encode(Self.errorEnvelope(envelope.requestID, error.wireMessage))
            }
            return try scoped.replyFrame(to: envelope.withoutRequestFonts, inFlight: inFlight, budget: budget)
        }
        return try bounded(try unboundedReplyFrame(to: envelope, inFlight: inFlight, budget: budget), answering: RequestTag(envelope),
                    hint: "ask for less text, fewer backgrounds or a smaller picture")
    }

    /// Layout and Type Mode requests whose frame is at most this many bytes, and that carry no
    /// attachments (and a layout no backgrounds and at most `Layoutd_V1_Envelope.inlineSpans`
    /// spans), are laid out on the event loop: their cost is bounded by their size (the hostile
    /// table's worst at this size is a Type Mode story of 500 one-letter lines with a connected
    /// background), and handing one to the pool and back cost a large share of a caption's
    /// whole layout through the daemon.
    /// Everything else goes to the pool. Frames up to this size are also tried as a
    /// `PlainLayoutRequest` before they are decoded.
    public static let smallRequestBytes = 1_024

    /// The reply frame to a plain layout request (`PlainLayoutRequest`): laid out from the
    /// engine's request made straight from its values, written as `replyFrame(to:)` writes a
    /// layout's. A value that request would refuse goes the general way, which names it.
    public func replyFrame(toPlain plain: PlainLayoutRequest, budget: WorkBudget = .unlimited) throws -> [UInt8] {
        // The length first, and the request bound straight from what makes it: unwrapped from a
        // named optional, it was copied (every array of its text counted) and both destroyed.
        guard plain.units.count <= configuration.maxTextUnits,
              case .some(let request) = plain.engineRequest(fonts: layouter.fonts, styles: plainStyles.styles(of: plain)) else {
            return try replyFrame(to: plain.envelope, budget: budget)
        }
        let id = plain.requestID
        let tag = RequestTag(id: id, kind: "layout", deadlineMs: plain.deadlineMs)
        return try bounded(try written(tag, request) { (request) throws(WireError) in
            let layout = try work("layout") { try layouter.layout(request, budget: budget) }
            try checkBeforeWriting(budget, "layout")
            return LayoutReplyFrame.encode(requestID: id, layout: layout, backgrounds: [], ruleMatches: [])
        }, answering: tag, hint: "ask for less text, fewer backgrounds or a smaller picture")
    }

    /// The reply frame to a plain Type Mode request (`PlainJustifyRequest`), fitted from the plan
    /// made straight from its fields, as `replyFrame(to:)` answers the same envelope: the same
    /// bytes (`PlainJustifyTests`), timed and counted alike. Anything the plain plan would not
    /// take (a family not loaded, a width out of range, a text past the limit) goes the general
    /// way, which names what is wrong.
    public func replyFrame(toPlainJustify plain: PlainJustifyRequest, budget: WorkBudget = .unlimited) throws -> [UInt8] {
        guard let plan = plain.plan(fonts: layouter.fonts), plain.units.count <= configuration.maxTextUnits else {
            return try replyFrame(to: plain.envelope, budget: budget)
        }
        let id = plain.requestID
        let tag = RequestTag(id: id, kind: "justify", deadlineMs: plain.deadlineMs)
        return try bounded(try written(tag, plan) { (plan) throws(WireError) in
            let fitted = try work("justify") { try layouter.justify(plan.request, budget: budget) }
            let effects = TextEffects.derive(preset: plan.presetName, palette: plan.palette,
                                             largestSize: fitted.lineSizes.max() ?? plan.request.minSize)
            try checkBeforeWriting(budget, "justify")
            return JustifyReplyFrame.encode(requestID: id, fitted: fitted, backgrounds: [], effects: effects, preset: plan.presetName)
        }, answering: tag, hint: "ask for less text, fewer backgrounds or a smaller picture")
    }

    /// `frame`, or the RESOURCE_EXHAUSTED frame that replaces it when its body is past the
    /// largest reply this server sends (`hint` says what to ask for instead).
    func bounded(_ frame: [UInt8], answering request: RequestTag, hint: String) throws -> [UInt8] {
        let (id, kind) = (request.id, request.kind)
        let bodyBytes = frame.count - Framing.headerBytes
        guard bodyBytes <= configuration.maxReplyBytes else {
            let error = WireError(.resourceExhausted, "the reply would be \(bodyBytes) bytes; this server sends at most "
                                  + "\(configuration.maxReplyBytes) (\(hint))", field: "reply")
            // The request was counted when it was answered; now it counts as failed, once.
            stats.recordLateFailure()
            stats.metrics.recordError(code: error.wireMessage.code.protoName)
            logger.warning("reply too large", metadata: ["id": "\(id)", "request": "\(kind)", "bytes": "\(bodyBytes)"])
            return try Framing.encode(Self.errorEnvelope(id, error.wireMessage))
        }
        return frame
    }

    private func unboundedReplyFrame(to envelope: Layoutd_V1_Envelope, inFlight: Int, budget: WorkBudget) throws -> [UInt8] {
        switch envelope.body {
        case .layout(let request):
            return try written(RequestTag(envelope)) { () throws(WireError) in
                let decorated = try wireLayout(request, budget: budget)
                try checkBeforeWriting(budget, "layout")
                return LayoutReplyFrame.encode(requestID: envelope.requestID, layout: decorated.layout,
                                               backgrounds: decorated.backgrounds, ruleMatches: decorated.ruleMatches)
            }
        case .justify(let request):
            return try written(RequestTag(envelope)) { () throws(WireError) in
                let story = try work("justify") { try decoratedStory(request, budget: budget) }
                try checkBeforeWriting(budget, "justify")
                return JustifyReplyFrame.encode(requestID: envelope.requestID, fitted: story.fitted, backgrounds: story.backgrounds,
                                                effects: story.effects, preset: story.plan.presetName,
                                                ruleMatches: story.plan.ruleMatches)
            }
        default:
            return try Framing.encode(reply(to: envelope, inFlight: inFlight, budget: budget))
        }
    }

    /// A reply frame written by `body` straight from the engine's result, or its error's frame;
    /// timed and counted as `reply(to:)` counts the others.
    private func written(_ request: RequestTag, _ body: () throws(WireError) -> [UInt8]) throws -> [UInt8] {
        try written(request, ()) { () throws(WireError) in try body() }
    }

    /// The same, `body` borrowing `input`: a closure that captured the engine's request held a
    /// copy of it (every array of its text retained, and released with the copy).
    private func written<Input: ~Copyable>(_ request: RequestTag, _ input: borrowing Input,
                                           _ body: (borrowing Input) throws(WireError) -> [UInt8]) throws -> [UInt8] {
        let start = Uptime.nanoseconds
        let frame: [UInt8]
        var failure: Layoutd_V1_Error?
        do {
            frame = try body(input)
        } catch {
            failure = error.wireMessage
            frame = try Framing.encode(Self.errorEnvelope(request.id, error.wireMessage))
        }
        account(request, failure: failure, microseconds: Double(Uptime.nanoseconds - start) / 1000)
        return frame
    }

    /// The reply to `envelope`, which carries the same request id.
    public func reply(to envelope: Layoutd_V1_Envelope, inFlight: Int = 0, budget: WorkBudget = .unlimited) -> Layoutd_V1_Envelope {
        if Self.requestFonts(envelope) != nil {
            do {
                return try scoped(for: envelope).reply(to: envelope.withoutRequestFonts, inFlight: inFlight, budget: budget)
            } catch {
                account(RequestTag(envelope), failure: error.wireMessage, microseconds: 0)
                return Self.errorEnvelope(envelope.requestID, error.wireMessage)
            }
        }
        let start = Uptime.nanoseconds
        var reply = Layoutd_V1_Envelope()
        reply.requestID = envelope.requestID
        do {
            reply.body = try body(for: envelope, inFlight: inFlight, budget: budget)
            try checkBeforeWriting(budget, envelope.body?.name ?? "none")
        } catch {
            reply.body = .error(error.wireMessage)
        }
        let failure: Layoutd_V1_Error? = if case .error(let error) = reply.body { error } else { nil }
        account(RequestTag(envelope), failure: failure, microseconds: Double(Uptime.nanoseconds - start) / 1000)
        return reply
    }

    func body(for envelope: Layoutd_V1_Envelope, inFlight: Int = 0, budget: WorkBudget = .unlimited) throws(WireError) -> Layoutd_V1_Envelope.OneOf_Body {
        switch envelope.body {
        case .layout(let request):
            return try work("layout") {
                let decorated = try decoratedLayout(request, budget: budget)
                var reply = Layoutd_V1_LayoutReply(decorated.layout)
                reply.backgrounds = decorated.backgrounds.map(Layoutd_V1_BackgroundShape.init)
                reply.ruleMatches = decorated.ruleMatches
                return .layoutReply(reply)
            }
        case .justify(let request):
            return try work("justify") {
                let story = try decoratedStory(request, budget: budget)
                return .justifyReply(Layoutd_V1_JustifyReply(story.fitted, backgrounds: story.backgrounds,
                                                             effects: story.effects, preset: story.plan.presetName,
                                                             ruleMatches: story.plan.ruleMatches))
            }
        case .render(let request):
            return try work("render") { .renderReply(try render(request, budget: budget)) }
        case .tags(let request):
            return try work("tags") { .tagsReply(try tags(request, budget: budget)) }
        case .tagHit(let request):
            return try work("tag_hit") { .tagHitReply(try tagHit(request, budget: budget)) }
        case .tagStyle(let request):
            return try work("tag_style") { .tagStyleReply(try tagStyle(request)) }
        case .hitTest(let request):
            return try work("hit_test") { .hitTestReply(try hitTest(request, budget: budget)) }
        case .registerFonts:
            throw WireError(.invalidArgument, "fonts register on a connection: send this over a daemon's socket", field: "envelope.body")
        case .openDocument, .editDocument, .closeDocument:
            // A connection answers these with its own documents (`documentReplyFrame`).
            throw WireError(.invalidArgument, "documents live on a connection: send this over a daemon's socket", field: "envelope.body")
        case .hello:
            var hello = Layoutd_V1_HelloReply()
            hello.serverVersion = Self.serverVersion
            hello.protocolVersion = Framing.protocolVersion
            hello.maxFrameBytes = UInt32(configuration.maxFrameBytes)
            hello.maxTextUtf16 = UInt32(clamping: configuration.maxTextUnits)
            hello.maxReplyBytes = UInt32(clamping: configuration.maxReplyBytes)
            hello.requestBudgetMs = UInt32(clamping: configuration.requestBudgetMilliseconds)
            hello.maxInFlight = UInt32(clamping: configuration.maxInFlightPerConnection)
            hello.maxPicturePixels = UInt64(configuration.maxPicturePixels)
            hello.features = Features.served
            hello.maxBatchItems = UInt32(clamping: configuration.maxBatchItems)
            return .helloReply(hello)
        case .fonts:
            return .fontsReply(Layoutd_V1_FontsReply(layouter.fonts))
        case .stats(let request):
            var reply = statsReply(inFlight: inFlight)
            if request.prometheus { reply.prometheusText = prometheusText(inFlight: inFlight) }
            return .statsReply(reply)
        case .none:
            throw WireError(.unimplemented, "the envelope has no body, or one this server does not know", field: "envelope.body")
        case .reload:
            throw WireError(.internal, "reload is handled by the connection", field: "envelope.body")
        case .batchLayout:
            // A connection answers a batch item by item (`ConnectionHandler.runBatch`).
            throw WireError(.invalidArgument, "a batch is answered item by item: send it over a daemon's socket", field: "envelope.body")
        case .helloReply, .layoutReply, .fontsReply, .statsReply, .justifyReply, .renderReply, .error,
             .tagsReply, .tagHitReply, .tagStyleReply, .reloadReply, .hitTestReply, .documentReply, .registerFontsReply,
             .batchItem:
            throw WireError(.invalidArgument, "a reply message was sent as a request", field: "envelope.body")
        case .cancel:
            throw WireError(.internal, "cancel is handled by the connection", field: "envelope.body")
        }
    }

    /// Runs a request's work; whatever it throws goes on the wire under the request's name,
    /// through the one mapping (`WireError.init(_:under:)`).
    func work<T>(_ request: String, _ body: () throws -> T) throws(WireError) -> T {
        do { return try body() } catch { throw WireError(error, under: request) }
    }

    /// The budget checked once more before a reply is written: writing is linear in the reply,
    /// a small part of the work that made it (docs/design.md, "Budgets and fair shares"), so a
    /// request past its deadline or cancelled by then is answered so, not written.
    func checkBeforeWriting(_ budget: WorkBudget, _ request: StaticString) throws(WireError) {
        do { try budget.check() } catch { throw WireError(error, under: "\(request)") }
    }

    /// A layout request's work, its errors named under `layout`.
    func wireLayout(_ request: Layoutd_V1_LayoutRequest, budget: WorkBudget = .unlimited) throws(WireError) -> DecoratedLayout {
        try work("layout") { try decoratedLayout(request, budget: budget) }
    }

    func statsReply(inFlight: Int) -> Layoutd_V1_StatsReply {
        let snapshot = stats.snapshot()
        var reply = Layoutd_V1_StatsReply()
        reply.requestsServed = snapshot.served
        reply.errors = snapshot.errors
        reply.refused = snapshot.refused
        reply.connectionsOpen = snapshot.open
        reply.connectionsTotal = snapshot.total
        reply.latencyP50Us = snapshot.p50
        reply.latencyP90Us = snapshot.p90
        reply.latencyP99Us = snapshot.p99
        reply.fontsLoaded = UInt32(layouter.fonts.fonts.count)
        reply.uptimeSeconds = Date().timeIntervalSince(stats.started)
        reply.shapingCacheHits = layouter.cache?.hits ?? 0
        reply.shapingCacheMisses = layouter.cache?.misses ?? 0
        reply.requestsInFlight = UInt64(inFlight)
        return reply
    }

    /// Every metric in Prometheus' text format, the gauges read now.
    public func prometheusText(inFlight: Int) -> String {
        let snapshot = stats.snapshot()
        return stats.metrics.exposition(ServerMetrics.Reading(
            inFlight: inFlight, connectionsOpen: Int(snapshot.open), fontsLoaded: layouter.fonts.fonts.count,
            cacheHits: layouter.cache?.hits ?? 0, cacheMisses: layouter.cache?.misses ?? 0,
            uptimeSeconds: Date().timeIntervalSince(stats.started), shapingSettingsKept: ShapingSettings.shared.keptCount,
            twinShapes: ShapingSettings.shared.twinShapes.load(ordering: .relaxed)))
    }

    /// An error reply to request `requestID`, refused before any work on it (cancelled, past
    /// its deadline, too many in flight, ...): counted as a request and an error, with no latency.
    public func errorReply(_ requestID: UInt64, _ error: WireError) -> Layoutd_V1_Envelope {
        stats.recordRejected()
        stats.metrics.recordError(code: error.wireMessage.code.protoName)
        return Self.errorEnvelope(requestID, error.wireMessage)
    }

    /// An error reply that answers no request (a refused connection or frame, a body that is not
    /// an Envelope): counted as a refusal and in errors_total, not as a request.
    public func refusal(_ error: WireError) -> Layoutd_V1_Envelope {
        stats.recordRefusal()
        stats.metrics.recordError(code: error.wireMessage.code.protoName)
        return Self.errorEnvelope(0, error.wireMessage)
    }

    /// The reply to a body that did not decode: a refusal, or a request's error when its id was read.
    func reply(to failure: DecodeFailure) -> Layoutd_V1_Envelope {
        failure.requestID == 0 ? refusal(failure.error) : errorReply(failure.requestID, failure.error)
    }

    /// The envelope that carries `error` as the reply to `requestID`; counts nothing.
    static func errorEnvelope(_ requestID: UInt64, _ error: Layoutd_V1_Error) -> Layoutd_V1_Envelope {
        var reply = Layoutd_V1_Envelope()
        reply.requestID = requestID
        reply.body = .error(error)
        return reply
    }
}

extension Layoutd_V1_Envelope.OneOf_Body {
    /// The body's field name, for logs and metric labels (never its contents: describing a
    /// request prints all its text). Static storage: the fatal-signal report reads it (`CrashReport`).
    var name: StaticString {
        switch self {
        case .hello: "hello"
        case .helloReply: "hello_reply"
        case .layout: "layout"
        case .layoutReply: "layout_reply"
        case .fonts: "fonts"
        case .fontsReply: "fonts_reply"
        case .stats: "stats"
        case .statsReply: "stats_reply"
        case .cancel: "cancel"
        case .error: "error"
        case .justify: "justify"
        case .justifyReply: "justify_reply"
        case .render: "render"
        case .renderReply: "render_reply"
        case .tags: "tags"
        case .tagsReply: "tags_reply"
        case .tagHit: "tag_hit"
        case .tagHitReply: "tag_hit_reply"
        case .tagStyle: "tag_style"
        case .tagStyleReply: "tag_style_reply"
        case .reload: "reload"
        case .reloadReply: "reload_reply"
        case .hitTest: "hit_test"
        case .hitTestReply: "hit_test_reply"
        case .openDocument: "open_document"
        case .editDocument: "edit_document"
        case .closeDocument: "close_document"
        case .documentReply: "document_reply"
        case .registerFonts: "register_fonts"
        case .batchLayout: "batch_layout"
        case .batchItem: "batch_item"
        case .registerFontsReply: "register_fonts_reply"
        }
    }
}
