/// The names a hello reply lists in `features`: each request's Envelope body field name.
/// A client checks a request's name before sending it, so a daemon too old for it is named in
/// a clear error instead of answering UNIMPLEMENTED.
public enum Features {
    /// Every request this protocol version defines, as the daemon built from it serves them.
    public static let served = ["batch_layout", "cancel", "close_document", "edit_document", "fonts", "hello", "hit_test", "justify", "layout",
                                "open_document", "register_fonts", "reload", "render", "stats", "tag_hit", "tag_style", "tags"]

    /// The name of a request body, or nil for a reply.
    public static func name(of body: Layoutd_V1_Envelope.OneOf_Body) -> String? {
        switch body {
        case .hello: "hello"
        case .layout: "layout"
        case .fonts: "fonts"
        case .stats: "stats"
        case .cancel: "cancel"
        case .justify: "justify"
        case .render: "render"
        case .tags: "tags"
        case .tagHit: "tag_hit"
        case .tagStyle: "tag_style"
        case .reload: "reload"
        case .hitTest: "hit_test"
        case .openDocument: "open_document"
        case .editDocument: "edit_document"
        case .closeDocument: "close_document"
        case .registerFonts: "register_fonts"
        case .batchLayout: "batch_layout"
        case .helloReply, .layoutReply, .fontsReply, .statsReply, .error, .justifyReply, .renderReply,
             .tagsReply, .tagHitReply, .tagStyleReply, .reloadReply, .hitTestReply, .documentReply,
             .registerFontsReply, .batchItem: nil
        }
    }

    /// Why `daemon` cannot serve `body`, or nil when it can. A daemon that lists no features
    /// predates the list: the request is sent and an UNIMPLEMENTED answer explains itself.
    public static func missing(_ body: Layoutd_V1_Envelope.OneOf_Body, in daemon: Layoutd_V1_HelloReply) -> String? {
        guard let name = name(of: body), !daemon.features.isEmpty, !daemon.features.contains(name) else { return nil }
        return "layoutd \(daemon.serverVersion) does not serve \(name) requests (it serves \(daemon.features.joined(separator: ", "))); "
            + "upgrade the daemon"
    }

    /// Why a client speaking `Framing.protocolVersion` cannot talk to `daemon`, or nil.
    public static func incompatibility(_ daemon: Layoutd_V1_HelloReply) -> String? {
        guard daemon.protocolVersion != Framing.protocolVersion else { return nil }
        return "layoutd \(daemon.serverVersion) speaks protocol \(daemon.protocolVersion); this client speaks \(Framing.protocolVersion)"
    }
}
