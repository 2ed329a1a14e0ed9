import LayoutEngine
import LayoutWire
import LayoutFonts

/// The fonts a client registered on its connection (`register_fonts`) and the processor that
/// answers its requests with them. Confined to the connection's event loop, as its other state.
///
/// A registration is answered on the loop, in order with the requests around it: a layout sent
/// right after it must see its fonts. Reading a font costs about a millisecond per megabyte
/// (FreeType's and HarfBuzz's checks, the coverage scan), bounded by the frame's size, and a
/// connection registers at most `maxFonts`, and each user its fair share of the server's
/// (`ServerShares.fonts`, `fontBytes`). A font's bytes are held once: the blob its faces read is
/// the one kept here for the next reload.
final class ConnectionFonts {
    static let maxFonts = 16
    static let maxBytes = 64 << 20

    private var fonts: [ClientFont] = []
    private var bytes = 0
    private let shares: ServerShares
    /// The processor with the fonts, and the daemon's processor it was made over: a reload
    /// swaps the latter, and the fonts are added again over the new one.
    private var built: (base: RequestProcessor, processor: RequestProcessor)?

    init(shares: ServerShares) { self.shares = shares }

    /// The processor for this connection's next request.
    func processor(over base: RequestProcessor) -> RequestProcessor {
        guard !fonts.isEmpty else { return base }
        if let built, built.base === base { return built.processor }
        // After a reload: the faces made before, over the new set (cheap), where their ids
        // still follow it; else made again from the same bytes (they passed the checks once).
        let rebuilt = built?.processor.rebased(onto: base) ?? (try? base.adding(fonts, field: "register_fonts.fonts")) ?? base
        built = (base, rebuilt)
        return rebuilt
    }

    /// Registers the request's fonts over the daemon's `base`, all or none, counted against
    /// `user`'s shares.
    func register(_ envelope: Layoutd_V1_Envelope, _ request: Layoutd_V1_RegisterFontsRequest,
                  over base: RequestProcessor, user: UInt32?) -> Layoutd_V1_Envelope {
        let start = Uptime.nanoseconds
        var reply = Layoutd_V1_Envelope()
        reply.requestID = envelope.requestID
        do {
            reply.body = .registerFontsReply(try register(request.fonts, over: base, user: user))
        } catch {
            reply.body = .error(error.wireMessage)
        }
        let failure: Layoutd_V1_Error? = if case .error(let error) = reply.body { error } else { nil }
        base.account(RequestTag(envelope), failure: failure, microseconds: Double(Uptime.nanoseconds - start) / 1000)
        return reply
    }

    private func register(_ wire: [Layoutd_V1_ClientFont], over base: RequestProcessor, user: UInt32?) throws(WireError)
        -> Layoutd_V1_RegisterFontsReply {
        let field = "register_fonts.fonts"
        guard !wire.isEmpty else { throw WireError(.invalidArgument, "no fonts to register", field: field) }
        let addedBytes = wire.reduce(0) { $0 + $1.data.count }
        guard fonts.count + wire.count <= Self.maxFonts, bytes + addedBytes <= Self.maxBytes else {
            throw WireError(.resourceExhausted, "a connection registers at most \(Self.maxFonts) fonts and \(Self.maxBytes >> 20) MiB; "
                            + "it has \(fonts.count) (\(bytes) bytes) and asked for \(wire.count) more (\(addedBytes) bytes)", field: field)
        }
        if let why = shares.fonts.reserve(wire.count, for: user) { throw WireError(.resourceExhausted, why, field: field) }
        if let why = shares.fontBytes.reserve(addedBytes, for: user) {
            shares.fonts.release(wire.count, for: user)
            throw WireError(.resourceExhausted, why, field: field)
        }
        let added = RequestProcessor.clientFonts(wire)
        let before = processor(over: base)
        let after: RequestProcessor
        do {
            after = try before.adding(added, field: field)
        } catch {
            shares.fonts.release(wire.count, for: user)
            shares.fontBytes.release(addedBytes, for: user)
            throw error
        }
        fonts += added
        bytes += addedBytes
        built = (base, after)
        var reply = Layoutd_V1_RegisterFontsReply()
        reply.faces = after.facesAdded(over: before)
        return reply
    }

    /// The connection closed: its fonts go, and `user`'s part of the server's shares with them.
    func releaseAll(user: UInt32?) {
        shares.fonts.release(fonts.count, for: user)
        shares.fontBytes.release(bytes, for: user)
        fonts = []
        bytes = 0
        built = nil
    }
}
