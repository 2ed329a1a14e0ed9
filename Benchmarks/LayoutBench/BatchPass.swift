import LayoutEngine
import LayoutServer
import LayoutWire
import SwiftProtobuf

/// The daemon's work on a batch without its connection: every caption as one batch_layout frame
/// body, as `scripts/daemon-instructions.py --kind batch` and `scripts/kernel-cost.py` send it,
/// answered chunk after chunk by the daemon's own `RequestProcessor`, no shaping cache. Beside
/// the cold pass it counts what a batch's reading, items and chunks add; beside the daemon's
/// batch, what the connection, the worker hand-overs and the writes add.
struct BatchPass {
    let body: [UInt8]
    let items: Int
    let processor: RequestProcessor

    init(captions: [Caption], options: BenchOptions, registry: FontRegistry) throws {
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = 2
        envelope.batchLayout.texts = captions.map(\.text)
        envelope.batchLayout.layout = FramedPass.captionOptions(options)
        body = try envelope.serializedBytes()
        items = captions.count
        processor = FramedPass.uncachedProcessor(registry: registry)
    }

    /// The batch answered `repeats` times.
    func run(repeats: Int) throws {
        for _ in 0..<repeats {
            let chunks = try processor.batchReplyChunks(toBody: body)
            precondition(chunks.reduce(0) { $0 + $1.readableBytes } > items * 8, "no reply frames to the batch's items")
        }
    }
}
