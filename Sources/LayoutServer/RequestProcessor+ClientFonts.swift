import LayoutEngine
import LayoutWire
import LayoutUnicode
import LayoutFonts

/// Fonts clients send: with one request (`LayoutRequest.fonts`) or registered on a connection
/// (`register_fonts`). Either way the request is answered by a processor over the daemon's fonts
/// with the client's beside them; the daemon's own processor never sees them.
extension RequestProcessor {
    /// The most fonts one request may carry.
    static let maxRequestFonts = 4

    /// This processor with `fonts` added to its font set, sharing its configuration, counters and
    /// shaping cache (shaped runs are cached by a face's process-wide serial, so a client's
    /// faces never meet another's).
    func adding(_ fonts: [Layoutd_V1_ClientFont], field: String) throws(WireError) -> RequestProcessor {
        try adding(Self.clientFonts(fonts), field: field)
    }

    /// The wire's fonts as the engine keeps them: each file's bytes copied once, into the blob its
    /// faces and a connection's registrations share.
    static func clientFonts(_ fonts: [Layoutd_V1_ClientFont]) -> [ClientFont] {
        fonts.map { font in
            ClientFont(family: font.family, bytes: font.data.withUnsafeBytes { FontBytes($0) }, faceIndices: font.faceIndices.map { Int($0) })
        }
    }

    /// This processor with `clientFonts` added (see above).
    func adding(_ clientFonts: [ClientFont], field: String) throws(WireError) -> RequestProcessor {
        let registry: FontRegistry
        do {
            registry = try layouter.fonts.adding(clientFonts, field: field)
        } catch {
            throw WireError(error, under: "")
        }
        let scoped = ParagraphLayouter(fonts: registry, cache: layouter.cache, maxTextLength: layouter.maxTextLength)
        return RequestProcessor(layouter: scoped, configuration: configuration, stats: stats, logger: logger)
    }

    /// This processor's client faces over `base`, a reloaded processor, the faces kept (see
    /// `FontRegistry.rebased`); nil when they must be added again.
    func rebased(onto base: RequestProcessor) -> RequestProcessor? {
        guard let registry = layouter.fonts.rebased(onto: base.layouter.fonts) else { return nil }
        let scoped = ParagraphLayouter(fonts: registry, cache: base.layouter.cache, maxTextLength: base.layouter.maxTextLength)
        return RequestProcessor(layouter: scoped, configuration: base.configuration, stats: base.stats, logger: base.logger)
    }

    /// The fonts a request carries for itself, or nil.
    static func requestFonts(_ envelope: Layoutd_V1_Envelope) -> (fonts: [Layoutd_V1_ClientFont], field: String)? {
        switch envelope.body {
        case .layout(let request) where !request.fonts.isEmpty: (request.fonts, "layout.fonts")
        case .render(let request) where !request.layout.fonts.isEmpty: (request.layout.fonts, "render.layout.fonts")
        case .hitTest(let request) where !request.layout.fonts.isEmpty: (request.layout.fonts, "hit_test.layout.fonts")
        default: nil
        }
    }

    /// The processor that answers `envelope`: this one, or one with the request's own fonts.
    func scoped(for envelope: Layoutd_V1_Envelope) throws(WireError) -> RequestProcessor {
        guard let (fonts, field) = Self.requestFonts(envelope) else { return self }
        return try scoped(fonts: fonts, field: field)
    }

    /// This processor with the fonts a request carries (`field` names them), at most
    /// `maxRequestFonts` of them.
    func scoped(fonts: [Layoutd_V1_ClientFont], field: String) throws(WireError) -> RequestProcessor {
        guard !fonts.isEmpty else { return self }
        guard fonts.count <= Self.maxRequestFonts else {
            throw WireError(.resourceExhausted, "\(fonts.count) fonts in one request; at most \(Self.maxRequestFonts) "
                            + "(register_fonts keeps up to 16 on a connection)", field: field)
        }
        return try adding(fonts, field: field)
    }

    /// The faces past the daemon's own and the connection's: what a registration added.
    func facesAdded(over base: RequestProcessor) -> [Layoutd_V1_FontFace] {
        let all = Layoutd_V1_FontsReply(layouter.fonts).faces
        return Array(all[base.layouter.fonts.fonts.count...])
    }
}

extension Layoutd_V1_Envelope {
    /// The same request without the fonts it carries: what the processor with them answers.
    var withoutRequestFonts: Layoutd_V1_Envelope {
        var copy = self
        switch copy.body {
        case .layout(let request): copy.body = .layout(request.withoutFonts)
        case .render(var request): request.layout.fonts = []; copy.body = .render(request)
        case .hitTest(var request): request.layout.fonts = []; copy.body = .hitTest(request)
        default: break
        }
        return copy
    }
}

extension Layoutd_V1_LayoutRequest {
    /// The same request without the fonts it carries.
    var withoutFonts: Layoutd_V1_LayoutRequest {
        var copy = self
        copy.fonts = []
        return copy
    }
}
