import Foundation
import LayoutEngine
import LayoutServer
import LayoutWire
import SwiftProtobuf

/// Cost per character against length (issue 37): each break strategy at widths from one word to
/// the whole text, and each other request kind, at 1k, 10k, 100k and 262k characters of caption
/// text, decoded and answered in process as the daemon's worker does. A stage whose work grows
/// faster than its text shows as a per-character cost that climbs along its row.
struct ScalingBench {
    let captions: [Caption]
    let options: BenchOptions

    static let lengths = [1_000, 10_000, 100_000, 262_000]

    /// Latin captions joined with spaces up to `length` UTF-16 units.
    func text(_ length: Int) -> String {
        let latin = captions.filter { $0.script == "Latn" }.map(\.text)
        var text = "", units = 0, index = 0
        while units < length {
            let next = latin[index % latin.count].replacingOccurrences(of: "\n", with: " ") + " "
            text += next
            units += next.utf16.count
            index += 1
        }
        return String(decoding: Array(text.utf16.prefix(length)), as: UTF16.self)
    }

    func run() throws -> [Section] {
        let processor = try RequestProcessor.standalone()
        // A caption's cost per character, as the hostile table measures its cost per byte.
        var perCharacter: [Double] = []
        for caption in captions {
            let frame: [UInt8] = try HostileRequests.layout(caption.text, width: options.width, size: options.size).serializedBytes()
            perCharacter.append(try HostileBench.answer(frame, processor).micros / Double(max(1, caption.text.utf16.count)))
        }
        let caption = Distribution(values: perCharacter).median
        var lines = [String(format: "A corpus caption costs %.3f µs per character (median, decode to encoded reply). ", caption)
                     + "Each cell: µs per character of one request (median of three, the shaping cache emptied before each), "
                     + "then × a caption per character. Widths: one word (60 pt), 300 pt, half the text's natural width and all "
                     + "of it (at most 1,000,000 pt, the largest width), Noto Sans 12 pt.", "",
                     "| request | width | " + Self.lengths.map { "\($0 / 1_000)k" }.joined(separator: " | ") + " |",
                     "|---|---|" + Self.lengths.map { _ in "---|" }.joined()]
        let texts = Self.lengths.map(text)
        // The natural width of each text on one line, for the widths relative to it.
        let natural = try texts.map { text in
            try processor.layouter.layout(ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 12)),
                                                           width: Bounds.maxLength)).lines.map(\.width).max() ?? 0
        }
        let strategies: [(String, (inout Layoutd_V1_LayoutRequest) -> Void)] = [
            ("greedy", { _ in }), ("balanced", { $0.breakStrategy = .balanced }), ("total fit", { $0.breakStrategy = .optimal }),
            ("total fit, hyphenated (en-US)", { $0.breakStrategy = .optimal; $0.hyphenation = .with { $0.maxConsecutiveLines = 2 } }),
        ]
        let widths: [(String, (Double) -> Double)] = [("one word", { _ in 60 }), ("300 pt", { _ in 300 }),
                                                     ("half", { $0 / 2 }), ("whole", { $0 * 1.001 })]
        for (name, configure) in strategies {
            for (label, width) in widths {
                var cells: [String] = []
                for (index, text) in texts.enumerated() {
                    let envelope = HostileRequests.layout(text, width: Float(min(Bounds.maxLength, width(natural[index]))), size: 12) {
                        configure(&$0)
                        $0.defaultStyle.language = "en-US"
                    }
                    cells.append(try cell(envelope, characters: text.utf16.count, caption: caption, processor: processor))
                }
                lines.append("| layout, \(name) | \(label) | " + cells.joined(separator: " | ") + " |")
            }
        }
        let kinds: [(String, (String) -> Layoutd_V1_Envelope)] = [
            ("Type Mode (justify), per line", { text in .with { $0.requestID = 1; $0.justify = .with { $0.text = text; $0.width = 300 } } }),
            ("layout, built-in rules", { text in HostileRequests.layout(text, size: 12) { $0.builtinRules = .notes } }),
            ("layout, vertical", { text in HostileRequests.layout(text, size: 12) { $0.writingMode = .verticalRl; $0.height = 600 } }),
            ("layout, around an exclusion", { text in HostileRequests.layout(text, size: 12) {
                $0.exclusions = [.with { $0.shape.ellipse = .with { $0.x = 100; $0.y = 0; $0.width = 150; $0.height = 400 } }]
            } }),
            ("layout, connected background", { text in HostileRequests.layout(text, size: 12) { $0.backgrounds = [.with { $0.kind = .connected }] } }),
        ]
        for (name, make) in kinds {
            var cells: [String] = []
            for text in texts {
                cells.append(try cell(make(text), characters: text.utf16.count, caption: caption, processor: processor))
            }
            lines.append("| \(name) | 300 pt | " + cells.joined(separator: " | ") + " |")
        }
        return [Section(title: "Cost per character against length", lines: lines)]
    }

    /// One request's µs per character and its multiple of a caption's, or its error.
    private func cell(_ envelope: Layoutd_V1_Envelope, characters: Int, caption: Double, processor: RequestProcessor) throws -> String {
        let (micros, answer) = try HostileBench.medianOfThree(try envelope.serializedBytes(), processor)
        let perCharacter = micros / Double(characters)
        guard answer.hasPrefix("reply") else { return "\(answer)" }
        return String(format: "%.3f (%.1f×)", perCharacter, perCharacter / caption)
    }
}
