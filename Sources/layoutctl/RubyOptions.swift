import ArgumentParser
import Foundation
import LayoutProtocol

/// Ruby on the command line: `--ruby START:LENGTH=READING`, with `|` between the readings of
/// jukugo ruby (one per character of the base).
struct RubyOptions: ParsableArguments {
    @Option(help: "Ruby over a range of the text (UTF-16 units): START:LENGTH=READING, or START:LENGTH=R1|R2|… for jukugo ruby, one reading per character of the base (repeatable).")
    var ruby: [String] = []
    @Flag(help: "Set the ruby under the text (left of vertical text).") var rubyUnder = false
    @Option(help: "The ruby's size against the text's, in [0.1, 1]; 0.5 by default.") var rubyScale: Float = 0

    func annotations() throws -> [Layoutd_V1_Ruby] {
        try ruby.map { spec in
            guard let equals = spec.firstIndex(of: "="),
                  case let range = spec[..<equals].split(separator: ":", omittingEmptySubsequences: false), range.count == 2,
                  let start = UInt32(range[0]), let length = UInt32(range[1]) else {
                throw ValidationError("--ruby takes START:LENGTH=READING (or R1|R2|… for jukugo), not \"\(spec)\"")
            }
            var annotation = Layoutd_V1_Ruby()
            annotation.range.start = start
            annotation.range.length = length
            let readings = spec[spec.index(after: equals)...].split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            if readings.count == 1 { annotation.text = readings[0] } else { annotation.readings = readings }
            annotation.under = rubyUnder
            annotation.scale = rubyScale
            return annotation
        }
    }
}

/// One row per run of ruby: its line, font and size, the base range it stands over, and its glyphs' reading offsets.
enum RubyTable {
    static func render(_ runs: [Layoutd_V1_GlyphRun], text: String) -> String? {
        guard !runs.isEmpty else { return nil }
        let units = Array(text.utf16)
        var rows = ["ruby  line  font  size    base          over"]
        for run in runs {
            let start = min(Int(run.range.start), units.count), end = min(units.count, start + Int(run.range.length))
            rows.append(String(format: "%4d  %4d  %4d  %6.2f  ", run.glyphIds.count, run.lineIndex, run.fontID, run.size)
                        + "[\(start),\(end))".padded(12) + "  " + String(decoding: units[start..<end], as: UTF16.self))
        }
        return rows.joined(separator: "\n")
    }
}
