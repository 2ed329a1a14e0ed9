import ArgumentParser
import Foundation
import LayoutdClient
import LayoutProtocol
import SwiftProtobuf

extension LayoutCtl {
    struct Layout: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lay a paragraph out and print its lines.",
            discussion: """
                Examples:
                  layoutctl layout --width 300 --font "Noto Sans" --size 24 "some text"
                  layoutctl layout --width 200 --max-lines 1 --truncate middle "a long caption cut in its middle"
                  layoutctl layout --width 300 --exclude 'circle:150,80,50;margin=6' "a long text that flows around a circle"
                  layoutctl layout --width 300 -o paragraph.svg "some text"
                  layoutctl layout --width 300 -o - --format png "to a pipe" > picture.png
                """)

        @OptionGroup var options: LayoutOptions
        @OptionGroup(title: "Text input") var input: TextInput
        @OptionGroup(title: "Connection") var connection: Connection

        var output: String? { options.output }
        var format: String? { options.format }
        var scale: Float { options.scale }
        var attachmentImage: [String] { options.attachmentImage }
        var frame: FrameOptions { options.frame }

        func run() throws {
            let request = try makeRequest()
            let text = request.text
            try connection.reportingFailures {
                if let output {
                    var render = Layoutd_V1_RenderRequest()
                    render.layout = request
                    render.attachmentImages = try Picture.images(attachmentImage)
                    render.fillImages = try Picture.images(options.paint.decorations.textFillImage)
                    render.showShapes = true  // a picture of text that flows shows what it flows around
                    try frame.apply(to: &render)
                    try Picture.write(render, to: output, format: format, scale: scale, connection: connection)
                    return
                }
                guard case .layoutReply(let reply) = try connection.client().request(.layout(request)) else {
                    throw ClientError.protocolViolation("expected a layout reply")
                }
                print(connection.json ? try StableJSON.encode(reply)
                      : LineTable.render(reply, text: text, token: request.hasTruncation ? request.truncation.token : "…"))
                if !connection.json, let boxes = AttachmentTable.render(reply.attachments) { print(boxes) }
                if !connection.json, let decorations = DecorationTable.render(reply.decorations) { print(decorations) }
                if !connection.json, let marks = EmphasisTable.render(reply.emphasisMarks) { print(marks) }
                if !connection.json, let ruby = RubyTable.render(reply.rubyRuns, text: text) { print(ruby) }
                if !connection.json, let matches = RuleMatchTable.render(reply.ruleMatches, text: text) { print(matches) }
                if !connection.json, let fragments = FragmentTable.render(reply) { print(fragments) }
                if !connection.json, let ink = InkTable.render(reply) { print(ink) }
                if !connection.json, request.intrinsicMetrics { print(MetricsTable.render(reply)) }
                if !connection.json, request.glyphFlags { print(GlyphFlagsTable.render(reply)) }
            }
        }

        /// The layout request the options describe (`layoutctl hit` asks about the same layout).
        func makeRequest() throws -> Layoutd_V1_LayoutRequest {
            try options.makeRequest(text: connection.reportingFailures { try input.resolve() })
        }
    }
}

/// One readable row per line: index, UTF-16 range, size, baseline, width, text.
enum LineTable {
    /// `token`: the truncation token the request asked for (the daemon draws it; the reply has
    /// its glyphs, not its text).
    static func render(_ reply: Layoutd_V1_LayoutReply, text: String, token: String = "…") -> String {
        let units = Array(text.utf16)
        var rows = ["line  range        size  baseline   width  text"]
        for (index, line) in reply.lines.enumerated() {
            let sizes = reply.runs.filter { $0.lineIndex == index }.map(\.size)
            let start = Int(line.range.start)
            let end = min(units.count, start + Int(line.range.length))
            var shown = String(decoding: units[start..<end], as: UTF16.self)
            if line.truncated {
                // What the line shows, in text order, with the token where the text was cut.
                let runs = reply.runs.filter { $0.lineIndex == index }
                let cut = Int(runs.first { $0.truncationToken }?.range.start ?? UInt32(end))
                let kept = runs.filter { !$0.truncationToken }.map { Int($0.range.start)..<Int($0.range.start + $0.range.length) }
                    .sorted { $0.lowerBound < $1.lowerBound }
                func text(_ ranges: [Range<Int>]) -> String {
                    ranges.map { String(decoding: units[max(0, min($0.lowerBound, units.count))..<min($0.upperBound, units.count)],
                                        as: UTF16.self) }.joined()
                }
                shown = text(kept.filter { $0.lowerBound < cut }) + token + text(kept.filter { $0.lowerBound >= cut })
            }
            if reply.runs.contains(where: { $0.lineIndex == index && $0.hyphen }) { shown += "‐" }
            shown = shown.replacingOccurrences(of: "\n", with: "\\n")
            rows.append(String(format: "%4d  ", index) + "[\(start),\(end))".padded(11)
                        + String(format: "  %4.1f  %8.2f  %6.2f  ", sizes.max() ?? 0, line.baselineOrigin.y, line.width)
                        + shown)
        }
        rows.append(String(format: "size %.2f x %.2f, visible [%d,%d)", reply.width, reply.height,
                           reply.visibleRange.start, reply.visibleRange.start + reply.visibleRange.length))
        if reply.appliedScale > 0 { rows.append(String(format: "auto-size: scale %.4f", reply.appliedScale)) }
        return rows.joined(separator: "\n")
    }
}

/// The text's intrinsic widths and each run's typographic bounds (`--metrics`).
enum MetricsTable {
    static func render(_ reply: Layoutd_V1_LayoutReply) -> String {
        var rows = [String(format: "min-content width %.2f, max-content width %.2f", reply.minContentWidth, reply.maxContentWidth),
                    "run  font  size    ascent  descent  leading"]
        for (index, run) in reply.runs.enumerated() {
            rows.append(String(format: "%3d  %4d  %6.2f  %6.2f  %7.2f  %7.2f", index, run.fontID, run.size, run.ascent, run.descent,
                               run.leading))
        }
        return rows.joined(separator: "\n")
    }
}

/// Each run's glyphs with HarfBuzz's flags (`--glyph-flags`), as hb-shape --show-flags writes
/// them: glyph=cluster, then #flags where a glyph has some.
enum GlyphFlagsTable {
    static func render(_ reply: Layoutd_V1_LayoutReply) -> String {
        var rows = ["run  glyph=cluster#flags"]
        for (index, run) in reply.runs.enumerated() {
            let glyphs = zip(zip(run.glyphIds, run.clusters), run.glyphFlags).map { "\($0.0)=\($0.1)" + ($1 == 0 ? "" : "#\($1)") }
            rows.append(String(format: "%3d  ", index) + glyphs.joined(separator: "|"))
        }
        return rows.joined(separator: "\n")
    }
}

/// Where the glyphs put ink (`--ink`): each line's box, the whole layout's and the first glyph's.
enum InkTable {
    static func render(_ reply: Layoutd_V1_LayoutReply) -> String? {
        guard reply.hasInkBounds else { return nil }
        func rect(_ r: Layoutd_V1_Rect) -> String { String(format: "%.2f, %.2f, %.2f x %.2f", r.x, r.y, r.width, r.height) }
        var rows = ["line  ink x, y, width x height"]
        for (index, line) in reply.lines.enumerated() {
            rows.append(String(format: "%4d  %@", index, line.hasInkBounds ? rect(line.inkBounds) : "none"))
        }
        rows.append("ink of the layout: \(rect(reply.inkBounds))")
        if reply.hasFirstGlyphInk { rows.append("first glyph's ink: \(rect(reply.firstGlyphInk))") }
        return rows.joined(separator: "\n")
    }
}
