import Foundation
import LayoutEngine
import LayoutServer
import LayoutWire
import SwiftProtobuf

/// The most expensive request per byte: each hostile request, decoded and answered in process
/// as the daemon's worker does, against a corpus caption's cost per byte of its request.
struct HostileBench {
    let captions: [Caption]
    let options: BenchOptions

    func run() throws -> [Section] {
        let processor = try RequestProcessor.standalone()
        // The caption's cost per byte: decode and reply, cold shaping cache per pass as a new text would be.
        let captionFrames = try captions.map { caption in
            try HostileRequests.layout(caption.text, width: options.width, size: options.size).serializedBytes() as [UInt8]
        }
        var perByte: [Double] = []
        for _ in 0..<max(1, options.repeats) {
            processor.layouter.cache?.removeAll()
            for frame in captionFrames {
                let micros = try Self.answer(frame, processor).micros
                perByte.append(micros / Double(frame.count))
            }
        }
        let caption = Distribution(values: perByte).median
        var lines = [String(format: "A corpus caption costs %.3f µs per byte of request (median, decode to encoded reply, cold cache). ", caption)
                     + "Each row: one request, in process, decode to encoded reply (or error), median of 3; "
                     + "the budget (`--request-budget-ms`) would end any request at it.", "",
                     "| request | bytes | ms | µs/byte | × caption per byte | answer |", "|---|---|---|---|---|---|"]
        var worst = 0.0, worstRender = 0.0
        for hostile in HostileRequests.all {
            let frame = try hostile.bytes()
            FileHandle.standardError.write(Data("hostile: \(hostile.name)\n".utf8))
            var samples: [Double] = []
            var answer = ""
            for _ in 0..<3 {
                processor.layouter.cache?.removeAll()
                let result = try Self.answer(frame, processor)
                samples.append(result.micros)
                answer = result.answer
            }
            let micros = Distribution(values: samples).median
            let ratio = micros / Double(frame.count) / caption
            if case .render = hostile.envelope.body { worstRender = max(worstRender, ratio) } else { worst = max(worst, ratio) }
            lines.append(String(format: "| %@ | %d | %.2f | %.3f | %.1f× | %@ |", hostile.name, frame.count, micros / 1000,
                                micros / Double(frame.count), ratio, answer))
        }
        lines.append("")
        lines.append(String(format: "Worst request other than a render: %.1f× a caption per byte (target: at most 50×). ", worst)
                     + String(format: "Renders: worst %.0f× — a picture costs by its pixels and glyphs, not by the bytes that ask ", worstRender)
                     + "for it: pixels are capped (`max-picture-pixels`, 16,777,216 by default), drawing and PNG encoding look at "
                     + "the time budget, which ends one that runs past it.")
        return [Section(title: "Most expensive requests per byte (in process)", lines: lines)]
    }

    static func answer(_ frame: [UInt8], _ processor: RequestProcessor) throws -> (micros: Double, answer: String) {
        let start = nanoseconds()
        guard let reply = try frame.withUnsafeBytes({ try processor.replyFrame(toBody: $0, budget: .unlimited) }) else {
            return (Double(nanoseconds() - start) / 1000, "no reply (a cancel)")
        }
        let micros = Double(nanoseconds() - start) / 1000
        let envelope = try Layoutd_V1_Envelope(serializedBytes: Array(reply.dropFirst(Framing.headerBytes)))
        if case .error(let error) = envelope.body { return (micros, "\(error.code) \(error.field)") }
        return (micros, "reply, \(reply.count) bytes")
    }
}
