import LayoutEngine

/// Everything the server holds for its users between requests, each shared fairly per user
/// (`FairShare`): open documents and their units, registered client fonts and their bytes, and
/// the bytes of frames still arriving. One per server; every connection counts against it.
public final class ServerShares: Sendable {
    public let documents: DocumentLedger
    let fonts: FairShare
    let fontBytes: FairShare
    let partialFrames: FairShare

    public init(_ configuration: ServerConfiguration) {
        documents = DocumentLedger(limits: configuration.documentLimits)
        fonts = FairShare("registered client fonts", capacity: configuration.maxServerFonts)
        fontBytes = FairShare("bytes of registered client fonts", capacity: configuration.maxServerFontBytes)
        partialFrames = FairShare("bytes of frames still arriving", capacity: configuration.maxPartialFrameBytes)
    }
}
