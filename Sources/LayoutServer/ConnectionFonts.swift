import Dispatch
import LayoutWire

/// The fonts a client registered on its connection (`register_fonts`) and the processor that
/// answers its requests with them. Confined to the connection's event loop, as its other state.
///
/// A registration is answered on the loop, in order with the requests around it: a layout sent
/// right after it must see its fonts. Reading a font costs about a millisecond per megabyte
/// (FreeType's and HarfBuzz's checks, the coverage scan), bounded by the frame's size, and a
/// connection registers at most `maxFonts`.
final class ConnectionFonts {
    static let maxFonts = 16
    static let maxBytes = 64 << 20

    private var fonts: [Layoutd_V1_ClientFont] = []
    private var bytes = 0
    /// The processor with the fonts, and the daemon's processor it was made over: a reload
    /// swaps the latter, and the fonts are added again over the new one.
    private var built: (base: RequestProcessor, processor: RequestProcessor)?

    /// The processor for this connection's next request.
    func processor(over base: RequestProcessor) -> RequestProcessor {
        guard !fonts.isEmpty else { return base }
        if let built, built.base === base { return built.processor }
        // They passed the checks once; the same bytes pass them again.
        let rebuilt = (try? base.adding(fonts, field: "register_fonts.fonts")) ?? base
        built = (base, rebuilt)
        return rebuilt
    }

    /// Registers the request's fonts over the daemon's `base`, all or none.
    func register(_ envelope: Layoutd_V1_Envelope, _ request: Layoutd_V1_RegisterFontsRequest,
                  over base: RequestProcessor) -> Layoutd_V1_Envelope {
        let start = DispatchTime.now().uptimeNanoseconds
        var reply = Layoutd_V1_Envelope()
        reply.requestID = envelope.requestID
        do {
            reply.body = .registerFontsReply(try register(request.fonts, over: base))
        } catch {
            reply.body = .error(error.wireMessage)
        }
        let failure: Layoutd_V1_Error? = if case .error(let error) = reply.body { error } else { nil }
        base.account(envelope, failure: failure, microseconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
        return reply
    }

    private func register(_ added: [Layoutd_V1_ClientFont], over base: RequestProcessor) throws(WireError) -> Layoutd_V1_RegisterFontsReply {
        let field = "register_fonts.fonts"
        guard !added.isEmpty else { throw WireError(.invalidArgument, "no fonts to register", field: field) }
        let addedBytes = added.reduce(0) { $0 + $1.data.count }
        guard fonts.count + added.count <= Self.maxFonts, bytes + addedBytes <= Self.maxBytes else {
            throw WireError(.resourceExhausted, "a connection registers at most \(Self.maxFonts) fonts and \(Self.maxBytes >> 20) MiB; "
                            + "it has \(fonts.count) (\(bytes) bytes) and asked for \(added.count) more (\(addedBytes) bytes)", field: field)
        }
        let before = processor(over: base)
        let after = try before.adding(added, field: field)
        fonts += added
        bytes += addedBytes
        built = (base, after)
        var reply = Layoutd_V1_RegisterFontsReply()
        reply.faces = after.facesAdded(over: before)
        return reply
    }
}
