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
            let (micros, answer) = try Self.medianOfThree(frame, processor)
            let ratio = micros / Double(frame.count) / caption
            if case .render = hostile.envelope.body { worstRender = max(worstRender, ratio) } else { worst = max(worst, ratio) }
            lines.append(String(format: "| %@ | %d | %.2f | %.3f | %.1f× | %@ |", hostile.name, frame.count, micros / 1000,
                                micros / Double(frame.count), ratio, answer))
        }
        lines += try documentRows(processor, caption: caption)
        lines.append("")
        lines.append(String(format: "Worst request other than a render: %.1f× a caption per byte (target: at most 50×). ", worst)
                     + String(format: "Renders: worst %.0f× — a picture costs by its pixels and glyphs, not by the bytes that ask ", worstRender)
                     + "for it: pixels are capped (`max-picture-pixels`, 16,777,216 by default), drawing and PNG encoding look at "
                     + "the time budget, which ends one that runs past it. Edits (the edit_document rows) cost by the text "
                     + "they re-lay, not by their own few bytes: an edit is extended to whole paragraphs, so one keystroke "
                     + "in a paragraph of the longest text re-lays all of it, and a style over all of a document re-lays "
                     + "everything; per byte of the text re-laid (text the client sent when it opened or typed it) they "
                     + "cost a few captions' worth, each edit runs under the budget, and a connection holds at most "
                     + "`max-documents` of at most `max-text` units.")
        return [Section(title: "Most expensive requests per byte (in process)", lines: lines)]
    }

    /// Editing sessions: an edit is a few bytes, and re-lays the paragraphs it touches, which
    /// the client sent before. The worst: a keystroke in one paragraph of the longest text, and a
    /// style over all of a text of 2,000 paragraphs. Each measured after its document is open.
    func documentRows(_ processor: RequestProcessor, caption: Double) throws -> [String] {
        let longest = 262_143
        let words = captions.map(\.text).joined(separator: " ").replacingOccurrences(of: "\n", with: " ")
        let onePara = String(decoding: Array(words.utf16.prefix(longest)), as: UTF16.self)
        let paragraphs = (0..<2_000).map { captions[$0 % captions.count].text.replacingOccurrences(of: "\n", with: " ") }
            .joined(separator: "\n")
        var rows: [String] = []
        for (name, text, edit) in [
            ("edit_document: one character typed in a paragraph of 262,143 UTF-16 units", onePara,
             Layoutd_V1_DocumentEdit.with { $0.replace = .with { $0.range = HostileRequests.range(1_000, 0); $0.text = "x" } }),
            ("edit_document: a style over all of a text of 2,000 paragraphs", paragraphs,
             Layoutd_V1_DocumentEdit.with { $0.style = .with { $0.range = HostileRequests.range(0, paragraphs.utf16.count); $0.style.weight = 700 } }),
        ] {
            FileHandle.standardError.write(Data("hostile: \(name)\n".utf8))
            let store = DocumentStore(ledger: DocumentLedger(limits: DocumentLimits()))
            var open = Layoutd_V1_Envelope()
            guard case .layout(let layout) = HostileRequests.layout(text, width: options.width, size: options.size).body else { continue }
            open.openDocument = .with { $0.layout = layout }
            _ = try processor.documentReplyFrame(to: open, documents: store, now: 0, budget: .unlimited)
            var envelope = Layoutd_V1_Envelope()
            envelope.requestID = 7
            envelope.editDocument = .with { $0.document = 1; $0.edits = [edit] }
            let bytes: [UInt8] = try envelope.serializedBytes()
            var samples: [Double] = []
            var answer = ""
            for _ in 0..<3 {
                processor.layouter.cache?.removeAll()
                let start = nanoseconds()
                let reply = try processor.documentReplyFrame(to: envelope, documents: store, now: 0, budget: .unlimited)
                samples.append(Double(nanoseconds() - start) / 1000)
                let decoded = try Layoutd_V1_Envelope(serializedBytes: Array(reply.dropFirst(4)))
                if case .error(let error) = decoded.body { answer = "\(error.code) \(error.field)" } else { answer = "reply, \(reply.count) bytes" }
            }
            let micros = Distribution(values: samples).median
            let textBytes = text.utf8.count
            rows.append(String(format: "| %@ | %d | %.2f | %.3f | %.1f× (%.2f× per byte of the text it re-lays, %d bytes when opened) | %@ |",
                               name, bytes.count, micros / 1000, micros / Double(bytes.count), micros / Double(bytes.count) / caption,
                               micros / Double(textBytes) / caption, textBytes, answer))
        }
        return rows
    }

    /// The median of three answers to `frame`, the shaping cache emptied before each, and the last answer.
    static func medianOfThree(_ frame: [UInt8], _ processor: RequestProcessor) throws -> (micros: Double, answer: String) {
        var samples: [Double] = []
        var answer = ""
        for _ in 0..<3 {
            processor.layouter.cache?.removeAll()
            let result = try Self.answer(frame, processor)
            samples.append(result.micros)
            answer = result.answer
        }
        return (Distribution(values: samples).median, answer)
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
