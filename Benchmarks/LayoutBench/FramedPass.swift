import LayoutEngine
import LayoutServer
import LayoutUnicode
import LayoutWire
import SwiftProtobuf

/// The daemon's work on a request without its transport: each caption's frame body, as
/// `scripts/daemon-instructions.py` sends it (a layout 300 points wide in Noto Sans 24), read,
/// laid out and written back as a reply frame by the daemon's own `RequestProcessor`, no shaping
/// cache, under a budget with a deadline made per request as the connection makes it. Beside the cold pass it
/// counts what reading and writing the wire add; beside the daemon's count, what the event
/// loop, the channel and the socket add (Benchmarks/results/daemon-instructions.md).
struct FramedPass {
    let bodies: [[UInt8]]
    let processor: RequestProcessor

    init(captions: [Caption], options: BenchOptions, registry: FontRegistry) throws {
        bodies = try captions.enumerated().map { index, caption in
            var envelope = Layoutd_V1_Envelope()
            envelope.requestID = UInt64(index + 2)
            envelope.layout = Self.captionOptions(options)
            envelope.layout.text = caption.text
            return try envelope.serializedBytes()
        }
        processor = Self.uncachedProcessor(registry: registry)
    }

    /// The options every caption is sent with, as `scripts/daemon-instructions.py` sends them:
    /// the width, Noto Sans at the size.
    static func captionOptions(_ options: BenchOptions) -> Layoutd_V1_LayoutRequest {
        var layout = Layoutd_V1_LayoutRequest()
        layout.width = options.width
        layout.defaultStyle.family = "Noto Sans"
        layout.defaultStyle.size = options.size
        return layout
    }

    /// The daemon's own request processor on `registry`, with no shaping cache: every caption
    /// shaped as the cold pass shapes it.
    static func uncachedProcessor(registry: FontRegistry) -> RequestProcessor {
        let configuration = ServerConfiguration()
        return RequestProcessor(layouter: ParagraphLayouter(fonts: registry, cache: nil, maxTextLength: configuration.maxTextUnits),
                                configuration: configuration)
    }

    /// Every body answered `repeats` times, each with a reply frame.
    func run(repeats: Int) throws {
        for _ in 0..<repeats {
            for body in bodies {
                let reply = try body.withUnsafeBytes { try processor.replyFrame(toBody: $0, budget: WorkBudget(milliseconds: 60_000)) }
                precondition((reply?.count ?? 0) > 8, "no reply frame to a caption's layout request")
            }
        }
    }
}
