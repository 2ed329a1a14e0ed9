import ArgumentParser
import Foundation
import LayoutdClient
import LayoutProtocol
import SwiftProtobuf

extension LayoutCtl {
    struct TypeMode: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "typemode",
            abstract: "Fit text to a width by font size, as Instagram's Type Mode does, with backgrounds.")

        @OptionGroup(title: "Connection") var connection: Connection
        @Option(help: "Preset: modern, neon, typewriter, strong or classic.") var style: String = ""
        @Option(parsing: .unconditional, help: "Width in points: the length lines fill (vertical: the columns' length).") var width: Float
        @Option(parsing: .unconditional, help: "Smallest font size (0: the preset's).") var minSize: Float = 0
        @Option(parsing: .unconditional, help: "Largest font size (0: the preset's).") var maxSize: Float = 0
        @Option(help: "per-line or uniform (default: the preset's).") var sizing: String = ""
        @Option(help: "left, center or right for lines that stay narrower (default: the preset's).") var align: String = ""
        @Option(help: "Font family (overrides the preset's).") var font: String = ""
        @Option(parsing: .unconditional, help: "Scale the block down when taller than this (vertical: wider; 0: unlimited).") var maxHeight: Float = 0
        @Flag(help: "Leave each paragraph's last line at the minimum size.") var lastLineUnscaled = false
        @Flag(help: "Round each line's size down to whole points, as Android's binary search does.") var wholePointSizes = false
        @Option(help: "Palette colour as #rrggbb.") var color: String?
        @Flag(help: "Open the text as a Type Mode document and edit it, one command a line on standard input, as `edit` does.")
        var edit = false
        @Option(help: AttachmentSpec.help) var attachment: [String] = []
        @Option(help: "A PNG drawn in the Nth attachment's box with -o (the Nth of these; \"\" for a placeholder).")
        var attachmentImage: [String] = []
        @Option(name: .shortAndLong, parsing: .unconditional, help: "Write a picture instead: FILE.png, .svg or .pdf, or - for standard output (with --format).") var output: String?
        @Option(help: "The picture's format: png, svg or pdf (default: from -o's extension).") var format: String?
        @Option(parsing: .unconditional, help: "Picture scale, pixels per point.") var scale: Float = 2
        @OptionGroup(title: "Decorations") var decorations: DecorationOptions
        @OptionGroup(title: "Spans") var styling: SpanOptions
        @OptionGroup(title: "Backgrounds (replace the preset's)") var boxes: BackgroundOptions
        @OptionGroup(title: "Vertical text") var verticalText: VerticalOptions
        @OptionGroup(title: "Story frame (with -o)") var frame: FrameOptions
        @OptionGroup(title: "Text input") var input: TextInput

        func run() throws {
            var request = Layoutd_V1_JustifyRequest()
            // An editing session reads its commands from standard input: the text is the argument or a file.
            if edit && input.text == "-" { throw ValidationError("--edit reads its commands from standard input: give the text as an argument") }
            let text = edit && input.text == nil && input.textFile == nil ? "" : try connection.reportingFailures { try input.resolve() }
            request.text = text
            request.preset = style
            request.width = width
            request.minSize = minSize
            request.maxSize = maxSize
            request.maxHeight = maxHeight
            if !font.isEmpty { request.style.family = font }
            if lastLineUnscaled { request.lastLineUnscaled = true }
            if wholePointSizes { request.wholePointSizes = true }
            request.attachments = try attachment.map(AttachmentSpec.parse)
            try verticalText.apply(to: &request)
            switch sizing {
            case "": break
            case "per-line": request.sizing = .perLine
            case "uniform": request.sizing = .uniform
            default: throw ValidationError("--sizing must be per-line or uniform")
            }
            switch align {
            case "": break
            case "left": request.alignment = .left
            case "center": request.alignment = .center
            case "right": request.alignment = .right
            default: throw ValidationError("--align must be left, center or right")
            }
            if let color { request.color = try Self.parseColor(color) }
            var style = request.style
            try decorations.apply(to: &style)
            if style != request.style { request.style = style }
            request.spans = try styling.spans()
            request.rules = try styling.formattingRules()
            request.builtinRules = try styling.builtinRules()
            request.hideBuiltinMarkers = styling.hideMarkers
            request.backgrounds = try boxes.specs()
            if edit {
                guard output == nil else { throw ValidationError("--edit prints each edit's lines; draw a picture without it") }
                try Edit.session(.with { $0.typeMode = request }, text: text, connection: connection)
                return
            }
            try connection.reportingFailures {
                if let output {
                    var render = Layoutd_V1_RenderRequest()
                    render.justify = request
                    render.attachmentImages = try Picture.images(attachmentImage)
                    render.fillImages = try Picture.images(decorations.textFillImage)
                    try frame.apply(to: &render)
                    try Picture.write(render, to: output, format: format, scale: scale, connection: connection)
                    return
                }
                guard case .justifyReply(let reply) = try connection.client().request(.justify(request)) else {
                    throw ClientError.protocolViolation("expected a justify reply")
                }
                print(connection.json ? try StableJSON.encode(reply) : Self.table(reply, text: request.text))
                if !connection.json, let boxes = AttachmentTable.render(reply.attachments) { print(boxes) }
                if !connection.json, let rows = DecorationTable.render(reply.decorations) { print(rows) }
                if !connection.json, let rows = EmphasisTable.render(reply.emphasisMarks) { print(rows) }
                if !connection.json, let matches = RuleMatchTable.render(reply.ruleMatches, text: request.text) { print(matches) }
            }
        }

        static func parseColor(_ hex: String) throws -> Layoutd_V1_Color {
            let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
            guard digits.count == 6, let value = UInt32(digits, radix: 16) else {
                throw ValidationError("--color must be #rrggbb")
            }
            var color = Layoutd_V1_Color()
            color.red = Float((value >> 16) & 0xFF) / 255
            color.green = Float((value >> 8) & 0xFF) / 255
            color.blue = Float(value & 0xFF) / 255
            return color
        }

        /// One row per line: size, baseline, width, text. A column's baseline is its centre
        /// line's x, and its width its length down the page.
        static func table(_ reply: Layoutd_V1_JustifyReply, text: String) -> String {
            let units = Array(text.utf16)
            let vertical = reply.writingMode != .horizontalTb
            var rows = [vertical ? "column size  centre x  length  text" : "line   size  baseline   width  text"]
            for (index, line) in reply.lines.enumerated() {
                let start = Int(line.range.start), end = min(units.count, start + Int(line.range.length))
                let shown = String(decoding: units[start..<end], as: UTF16.self).replacingOccurrences(of: "\n", with: "\\n")
                let held = index < reply.clamped.count && reply.clamped[index] ? " (clamped)" : ""
                rows.append(String(format: "%4d  %5.2f  %8.2f  %6.2f  ", index, reply.lineSizes[index],
                                          vertical ? line.baselineOrigin.x : line.baselineOrigin.y, line.width)
                            + shown + held)
            }
            rows.append(String(format: "block %.2f x %.2f, preset %@, %d background(s)", reply.width, reply.height,
                               (reply.preset.isEmpty ? "none" : reply.preset) as NSString, reply.backgrounds.count))
            return rows.joined(separator: "\n")
        }
    }
}
