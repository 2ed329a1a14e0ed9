import ArgumentParser
import Foundation
import LayoutdClient
import LayoutProtocol

extension LayoutCtl {
    /// An editing session by hand: opens a document of the text and the layout options, then
    /// reads one command a line from standard input and prints what each edit changed.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Edit a text the daemon keeps laid out, one command a line on standard input.",
            discussion: """
                Takes every option of `layout`; the starting text is the argument or --text-file (none: empty). Commands:
                  replace A B TEXT   replace UTF-16 offsets A..<B with TEXT (\\n a line break; nothing deletes)
                  style A B STYLE    STYLE is bold, italic, underline, size=N, weight=N or color=RRGGBB
                  hit X Y            the offset a point lands at
                  caret N            the caret at offset N
                  show [N]           every line as the client keeps them, spliced from the changes (N: of view N)
                Each edit prints the paragraphs laid out again and how far the ones after them moved; with
                --view-width, in each view too.
                """)

        @OptionGroup var layout: Layout
        @Option(help: "Keep one more layout of the text at this width (repeatable): each edit prints its changes in each.")
        var viewWidth: [Float] = []

        func run() throws {
            if layout.input.text == "-" { throw ValidationError("edit reads its commands from standard input: give the text as an argument") }
            var options = layout
            if options.input.text == nil && options.input.textFile == nil { options.input.text = "" }
            let request = try options.makeRequest()
            var open = Layoutd_V1_OpenDocumentRequest()
            open.layout = request
            // A view is the same settings at another width; the text, spans and attachments are the document's.
            open.views = viewWidth.map { width in
                var view = request
                (view.text, view.spans, view.attachments, view.width) = ("", [], [], width)
                return view
            }
            try Self.session(open, text: request.text, connection: layout.connection)
        }

        /// Opens the document, runs the commands of standard input on it, and closes it: the
        /// session of `edit`, and of `typemode --edit` for a Type Mode document.
        static func session(_ open: Layoutd_V1_OpenDocumentRequest, text: String, connection: Connection) throws {
            try connection.reportingFailures {
                let client = try connection.client()
                guard case .documentReply(let opened) = try client.request(.openDocument(open)) else {
                    throw ClientError.protocolViolation("expected a document reply")
                }
                var mirror = DocumentMirror(text: Array(text.utf16), views: open.views.count)
                print(mirror.apply(opened, label: "open"))
                var number = 0
                while let line = readLine() {
                    let command = line.trimmingCharacters(in: .whitespaces)
                    if command.isEmpty || command.hasPrefix("#") { continue }
                    do {
                        if let output = try step(command, document: opened.document, client: client, mirror: &mirror, number: &number) {
                            print(output)
                        }
                    } catch let error as ClientError {
                        guard case .server(let wire) = error else { throw error }
                        print("error: \(wire.field.isEmpty ? "" : wire.field + ": ")\(wire.message)")
                    }
                }
                var close = Layoutd_V1_CloseDocumentRequest()
                close.document = opened.document
                _ = try client.request(.closeDocument(close))
            }
        }

        /// Runs one command; what to print.
        private static func step(_ command: String, document: UInt64, client: LayoutClient, mirror: inout DocumentMirror,
                          number: inout Int) throws -> String? {
            let words = command.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true).map(String.init)
            var request = Layoutd_V1_EditDocumentRequest()
            request.document = document
            func offsets() throws -> (UInt32, UInt32) {
                guard words.count >= 3, let a = UInt32(words[1]), let b = UInt32(words[2]), a <= b else {
                    throw ValidationError("\(words[0]) takes A B with A <= B: \(command)")
                }
                return (a, b)
            }
            switch words.first {
            case "replace":
                let (a, b) = try offsets()
                let text = words.count > 3 ? TextInput.unescaped(words[3]) : ""
                request.edits = [.with { $0.replace = .with { $0.range = .with { $0.start = a; $0.length = b - a }; $0.text = text } }]
            case "style":
                let (a, b) = try offsets()
                guard words.count > 3 else { throw ValidationError("style takes A B STYLE: \(command)") }
                let style = try Self.style(words[3])
                request.edits = [.with { $0.style = .with { $0.range = .with { $0.start = a; $0.length = b - a }; $0.style = style } }]
            case "hit":
                guard words.count == 3, let x = Float(words[1]), let y = Float(words[2]) else { throw ValidationError("hit takes X Y: \(command)") }
                request.points = [.with { $0.x = x; $0.y = y }]
            case "caret":
                guard words.count == 2, let offset = UInt32(words[1]) else { throw ValidationError("caret takes N: \(command)") }
                request.carets = [.with { $0.offset = offset }]
            case "show":
                let view = words.count > 1 ? Int(words[1]) : 0
                guard let view, view >= 0, view <= mirror.views.count else { return "error: show takes a view, 0 to \(mirror.views.count): \(command)" }
                return view == 0 ? mirror.lines() : mirror.views[view - 1].lines()
            default:
                return "error: unknown command \(words.first ?? ""): replace, style, hit, caret or show"
            }
            guard case .documentReply(let reply) = try client.request(.editDocument(request)) else {
                throw ClientError.protocolViolation("expected a document reply")
            }
            if let hit = reply.hits.first {
                return "hit → offset \(hit.position.offset)\(hit.position.affinity == .upstream ? " (upstream)" : "") on line \(hit.lineIndex)"
            }
            if let caret = reply.carets.first {
                let r = caret.primary
                return String(format: "caret → x %.2f y %.2f height %.2f on line %d", r.x, r.y, r.height, caret.lineIndex)
            }
            if case .replace(let replace) = request.edits.first?.edit {
                mirror.replace(Int(replace.range.start)..<Int(replace.range.start + replace.range.length), with: Array(replace.text.utf16))
            }
            number += 1
            return mirror.apply(reply, label: "edit \(number)")
        }

        static func style(_ spec: String) throws -> Layoutd_V1_Style {
            var style = Layoutd_V1_Style()
            let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
            switch (parts[0], parts.count == 2 ? parts[1] : nil) {
            case ("bold", nil): style.weight = 700
            case ("italic", nil): style.slant = .italic
            case ("underline", nil): style.underline = .with { $0.style = .single }
            case ("size", let value?): style.size = try StyleValues.size(try Self.number(value, spec), option: "style size")
            case ("weight", let value?): style.weight = try StyleValues.weight(UInt32(saturating: try Self.number(value, spec)), option: "style weight")
            case ("color", let value?):
                guard value.count == 6, let rgb = UInt32(value, radix: 16) else { throw ValidationError("color takes RRGGBB: \(spec)") }
                style.color = .with { $0.red = Float(rgb >> 16) / 255; $0.green = Float(rgb >> 8 & 0xFF) / 255; $0.blue = Float(rgb & 0xFF) / 255 }
            default:
                throw ValidationError("STYLE is bold, italic, underline, size=N, weight=N or color=RRGGBB, not \(spec)")
            }
            return style
        }

        private static func number(_ value: String, _ spec: String) throws -> Float {
            guard let number = Float(value), number.isFinite else { throw ValidationError("\(spec): not a number") }
            return number
        }
    }
}

/// The document's lines as a client keeps them: the paragraphs each change sends, spliced in,
/// and the ones after them moved by the change's deltas. `show` prints this, so what it prints
/// is what a client following the protocol would have.
struct DocumentMirror {
    var text: [UInt16]
    var paragraphs: [Layoutd_V1_LayoutReply] = []
    /// A Type Mode document's: each paragraph's line sizes, kept beside its lines.
    var sizes: [[Float]] = []

    /// The document's views, kept the same way.
    var views: [DocumentMirror] = []

    init(text: [UInt16], views: Int = 0) {
        self.text = text
        self.views = (0..<views).map { _ in DocumentMirror(text: text) }
    }

    mutating func replace(_ range: Range<Int>, with units: [UInt16]) {
        text.replaceSubrange(range, with: units)
        for index in views.indices { views[index].replace(range, with: units) }
    }

    /// Applies every change of `reply`; the lines it laid out, as rows.
    mutating func apply(_ reply: Layoutd_V1_DocumentReply, label: String) -> String {
        var rows = splice(reply.changes, label: label)
        var summary = String(format: "  document: %d units, %d paragraphs, %d lines, %.2f × %.2f pt", reply.textLength, reply.paragraphCount,
                             reply.lineCount, reply.width, reply.height)
        if reply.hasStory {
            let story = reply.story
            summary += ", preset \(story.preset.isEmpty ? "none" : story.preset), \(story.backgrounds.count) background(s)"
        }
        rows.append(summary)
        for (index, view) in reply.views.enumerated() where index < views.count {
            rows.append(views[index].apply(view, label: "view \(index + 1) \(label)"))
        }
        return rows.joined(separator: "\n")
    }

    /// Splices each change in; a row saying what it replaced and moved, then its new lines.
    private mutating func splice(_ changes: [Layoutd_V1_ParagraphChange], label: String) -> [String] {
        var rows: [String] = []
        for change in changes {
            let first = Int(change.first), removed = Int(change.removed)
            paragraphs.replaceSubrange(first..<(first + removed), with: change.paragraphs)
            if !change.fittedLines.isEmpty || !sizes.isEmpty {
                sizes.replaceSubrange(first..<(first + removed), with: change.fittedLines.map(\.lineSizes))
            }
            let moved = paragraphs.count - first - change.paragraphs.count
            for index in (first + change.paragraphs.count)..<paragraphs.count {
                paragraphs[index] = Self.moved(paragraphs[index], change)
            }
            rows.append(String(format: "%@: paragraphs %d..<%d laid out again as %d; %d after them moved %+.2f pt, %+d units, %+d lines",
                               label, first, first + removed, change.paragraphs.count, moved, change.deltaY, change.deltaOffset,
                               change.deltaLines))
            for index in first..<(first + change.paragraphs.count) { rows += self.rows(of: index) }
        }
        return rows
    }

    /// Applies a view's changes; its lines laid out again, as rows, and its size.
    mutating func apply(_ view: Layoutd_V1_DocumentView, label: String) -> String {
        var rows = splice(view.changes, label: label)
        rows.append(String(format: "  %@: %d lines, %.2f × %.2f pt", label, view.lineCount, view.width, view.height))
        return rows.joined(separator: "\n")
    }

    func lines() -> String {
        paragraphs.indices.flatMap(rows(of:)).joined(separator: "\n")
    }

    /// Paragraph `index`'s lines, a row each (with its size in a Type Mode document).
    private func rows(of index: Int) -> [String] {
        paragraphs[index].lines.enumerated().map { number, line in
            let range = Int(line.range.start)..<Int(line.range.start + line.range.length)
            let shown = range.upperBound <= text.count ? String(decoding: text[range], as: UTF16.self) : "?"
            let size = index < sizes.count && number < sizes[index].count ? String(format: "  size %6.2f", sizes[index][number]) : ""
            return String(format: "  %4d..<%-4d y %7.2f  w %7.2f", range.lowerBound, range.upperBound, line.usedRect.y, line.width)
                + size + "  " + shown.debugDescription
        }
    }

    private static func moved(_ paragraph: Layoutd_V1_LayoutReply, _ change: Layoutd_V1_ParagraphChange) -> Layoutd_V1_LayoutReply {
        var paragraph = paragraph
        let dy = Float(change.deltaY), units = Int32(change.deltaOffset)
        for index in paragraph.lines.indices {
            paragraph.lines[index].range.start = UInt32(Int32(paragraph.lines[index].range.start) + units)
            paragraph.lines[index].usedRect.y += dy
            paragraph.lines[index].baselineOrigin.y += dy
        }
        return paragraph
    }
}
