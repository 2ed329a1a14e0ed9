import Foundation
import LayoutdClient
import LayoutEngine
import LayoutServer
import LayoutWire
import LayoutUnicode

/// Editing sessions (issue 21): a one-character edit in the middle of a paragraph of a document
/// of 20, 200 and 2,000 paragraphs (corpus captions, one a paragraph), against laying out that
/// paragraph alone. The edit re-lays its paragraph and moves the rest; its cost should follow
/// the paragraph, not the document. In process, one thread, the shaping cache warm for both.
struct EditBench {
    let captions: [Caption]
    let options: BenchOptions
    static let sizes = [20, 200, 2_000]
    /// Paragraphs edited per document: the middle ones.
    static let edited = 64

    func run() throws -> [Section] {
        let registry = try FontRegistry.load(paths: DefaultFonts.paths)
        let layouter = ParagraphLayouter(fonts: registry, cache: ShapingCache())
        let style = TextStyle(family: "Noto Sans", size: Double(options.size))
        let request = ParagraphRequest(text: AttributedText("", style: style), width: Double(options.width))
        let settings = DocumentSettings(request: request, style: style)
        var lines = ["In process, one thread. Each document is N corpus captions, one a paragraph, at width "
                     + "\(Int(saturating: options.width)); in the \(Self.edited) middle paragraphs (all 20 of the smallest), "
                     + "one character is typed at the grapheme boundary nearest the paragraph's middle and then deleted. "
                     + "'alone' lays that paragraph out (with the character) as a request of its own. Per-paragraph medians over "
                     + "\(options.repeats) rounds, then median and p99 over paragraphs; the ratio is each paragraph's edit over its "
                     + "own 'alone', medians.", "",
                     "| paragraphs | type one character µs (median) | p99 | delete it µs (median) | alone µs (median) | edit / alone (median ratio) | p99 ratio |",
                     "|---|---|---|---|---|---|---|"]
        // Text that flows: around a picture at the document's top right, and in two columns of
        // 3,000 pt and a third that grows (each paragraph laid out from where the one before ended).
        let width = Double(options.width)
        var aroundPicture = settings, columns = settings
        aroundPicture.request.flow = TextFlow(containers: [TextContainer(width: width, exclusions: [
            Exclusion(FlowShape(.ellipse(Rect(x: width * 0.5, y: 0, width: width * 0.5, height: 200))), margin: 6)])], isOneBox: true)
        columns.request.flow = TextFlow(containers: [
            TextContainer(width: width, height: 3_000), TextContainer(origin: Point(x: width + 20, y: 0), width: width, height: 3_000),
            TextContainer(origin: Point(x: 2 * (width + 20), y: 0), width: width)])
        let cases: [(label: String, size: Int, settings: DocumentSettings)] = Self.sizes.map { ("\($0)", $0, settings) }
            + [(label: "200 around a picture", size: 200, settings: aroundPicture), (label: "200 in three columns", size: 200, settings: columns)]
        for (label, size, settings) in cases {
            FileHandle.standardError.write(Data("editing a document of \(label) paragraphs\n".utf8))
            let texts = (0..<size).map { captions[($0 * 7) % captions.count].text.replacingOccurrences(of: "\n", with: " ") }
            let document = try TextDocument(units: AttributedText.utf16(texts.joined(separator: "\n")), settings: settings, layouter: layouter)
            let targets = size <= Self.edited ? Array(0..<size) : Array((size / 2 - Self.edited / 2)..<(size / 2 + Self.edited / 2))
            var typed: [[Double]] = [], deleted: [[Double]] = [], alone: [[Double]] = []
            for _ in 0..<options.repeats {
                var t: [Double] = [], d: [Double] = [], a: [Double] = []
                for index in targets {
                    let text = texts[index]
                    let at = document.start(of: index) + Self.middleBoundary(of: text)
                    var start = nanoseconds()
                    _ = try document.replace(at..<at, with: [0x78])
                    t.append(Double(nanoseconds() - start) / 1000)
                    var single = request
                    single.text = AttributedText("", units: document.paragraphs[index].units, style: style)
                    start = nanoseconds()
                    _ = try layouter.layout(single)
                    a.append(Double(nanoseconds() - start) / 1000)
                    start = nanoseconds()
                    _ = try document.replace(at..<(at + 1), with: [])
                    d.append(Double(nanoseconds() - start) / 1000)
                }
                typed.append(t); deleted.append(d); alone.append(a)
            }
            let typing = Distribution.perItemMedian(typed), deleting = Distribution.perItemMedian(deleted)
            let single = Distribution.perItemMedian(alone)
            let ratios = Distribution(values: zip(typing.values, single.values).map { $0 / $1 })
            lines.append(String(format: "| %@ | %.1f | %.1f | %.1f | %.1f | %.2f× | %.2f× |", label, typing.median, typing.p99, deleting.median,
                                single.median, ratios.median, ratios.p99))
        }
        return [Section(title: "Editing sessions: a one-character edit against its paragraph alone", lines: lines),
                try asTheWorkerAnswers(), try typeModeAsTheWorkerAnswers(), try throughTheDaemon()]
    }

    /// The same edits as a worker answers them, decoded request to encoded reply, against a
    /// layout request of the paragraph answered the same way: what the wire adds to each.
    func asTheWorkerAnswers() throws -> Section {
        let processor = try RequestProcessor.standalone()
        var lines = ["In process, as the daemon's worker answers: the edit_document envelope to its encoded reply (the "
                     + "paragraph laid out again, as a LayoutReply), against the layout request of that paragraph to its "
                     + "encoded reply. Same documents, paragraphs and medians as above; '+ 2 views' keeps two more layouts of the "
                     + "text (half the width, and 4 pt larger type), each edit answered in all three.", "",
                     "| paragraphs | edit µs (median) | layout alone µs (median) | edit / alone (median ratio) |", "|---|---|---|---|"]
        for (size, viewCount) in Self.sizes.map({ ($0, 0) }) + [(200, 2)] {
            let texts = (0..<size).map { captions[($0 * 7) % captions.count].text.replacingOccurrences(of: "\n", with: " ") }
            var layout = Layoutd_V1_LayoutRequest()
            layout.width = options.width
            layout.defaultStyle.family = "Noto Sans"
            layout.defaultStyle.size = options.size
            let store = DocumentStore(ledger: DocumentLedger(limits: DocumentLimits()))
            var open = Layoutd_V1_Envelope()
            var whole = layout
            whole.text = texts.joined(separator: "\n")
            open.openDocument = .with {
                $0.layout = whole
                $0.views = Array([Layoutd_V1_LayoutRequest.with { $0.width = options.width / 2; $0.defaultStyle.size = options.size },
                                  .with { $0.width = options.width; $0.defaultStyle.size = options.size + 4 }].prefix(viewCount))
            }
            _ = try processor.documentReplyFrame(to: open, documents: store, now: 0, budget: .unlimited)
            var starts = [0]
            for text in texts { starts.append(starts.last! + text.utf16.count + 1) }
            let targets = size <= Self.edited ? Array(0..<size) : Array((size / 2 - Self.edited / 2)..<(size / 2 + Self.edited / 2))
            func edit(_ at: Int, _ length: Int, _ text: String) throws -> Double {
                try Self.timedReplace(at, length, text, processor: processor, store: store)
            }
            var typed: [[Double]] = [], alone: [[Double]] = []
            for _ in 0..<options.repeats {
                var t: [Double] = [], a: [Double] = []
                for index in targets {
                    let middle = Self.middleBoundary(of: texts[index])
                    t.append(try edit(starts[index] + middle, 0, "x"))
                    var single = layout
                    var units = Array(texts[index].utf16)
                    units.insert(0x78, at: middle)
                    single.text = String(decoding: units, as: UTF16.self)
                    var envelope = Layoutd_V1_Envelope()
                    envelope.layout = single
                    let start = nanoseconds()
                    _ = try processor.replyFrame(to: envelope)
                    a.append(Double(nanoseconds() - start) / 1000)
                    _ = try edit(starts[index] + middle, 1, "")
                }
                typed.append(t); alone.append(a)
            }
            let typing = Distribution.perItemMedian(typed), single = Distribution.perItemMedian(alone)
            let ratios = Distribution(values: zip(typing.values, single.values).map { $0 / $1 })
            lines.append(String(format: "| %@ | %.1f | %.1f | %.2f× |", viewCount == 0 ? "\(size)" : "\(size) + \(viewCount) views", typing.median,
                                single.median, ratios.median))
        }
        return Section(title: "Editing sessions as the daemon's worker answers them", lines: lines)
    }

    /// One replace in document 1 of `store`, decoded request to encoded reply, in microseconds.
    static func timedReplace(_ at: Int, _ length: Int, _ text: String, processor: RequestProcessor, store: DocumentStore) throws -> Double {
        var envelope = Layoutd_V1_Envelope()
        envelope.editDocument = .with {
            $0.document = 1
            $0.edits = [.with { $0.replace = .with { $0.range = .with { $0.start = UInt32(at); $0.length = UInt32(length) }; $0.text = text } }]
        }
        let start = nanoseconds()
        _ = try processor.documentReplyFrame(to: envelope, documents: store, now: 0, budget: .unlimited)
        return Double(nanoseconds() - start) / 1000
    }

    /// Type Mode in an editing session, as the worker answers: a keystroke in a story document
    /// (each caption a paragraph, every line fitted), against the justify request of the whole
    /// story that a client without documents sends for it, and of its paragraph alone. "modern"
    /// has no backgrounds; "strong" has a connected one, made over the whole story with each reply.
    func typeModeAsTheWorkerAnswers() throws -> Section {
        let processor = try RequestProcessor.standalone()
        var lines = ["In process, as the daemon's worker answers: a one-character edit_document in a Type Mode document (N corpus "
                     + "captions, one a paragraph, width \(Int(saturating: options.width))) to its encoded reply, against the justify "
                     + "request of the whole story with the character, and of its paragraph alone. Medians over \(options.repeats) rounds "
                     + "of every paragraph (at most \(Self.edited)), as above.", "",
                     "| preset | paragraphs | keystroke µs (median) | justify the story µs | justify the paragraph µs | keystroke / story | keystroke / paragraph |",
                     "|---|---|---|---|---|---|---|"]
        for preset in ["modern", "strong"] {
            for size in [5, 20, 200] {
                let texts = (0..<size).map { captions[($0 * 7) % captions.count].text.replacingOccurrences(of: "\n", with: " ") }
                let story = Layoutd_V1_JustifyRequest.with {
                    $0.preset = preset
                    $0.width = options.width
                }
                let store = DocumentStore(ledger: DocumentLedger(limits: DocumentLimits()))
                var open = Layoutd_V1_Envelope()
                open.openDocument = .with { $0.typeMode = story; $0.typeMode.text = texts.joined(separator: "\n") }
                _ = try processor.documentReplyFrame(to: open, documents: store, now: 0, budget: .unlimited)
                var starts = [0]
                for text in texts { starts.append(starts.last! + text.utf16.count + 1) }
                let targets = size <= Self.edited ? Array(0..<size) : Array((size / 2 - Self.edited / 2)..<(size / 2 + Self.edited / 2))
                func edit(_ at: Int, _ length: Int, _ text: String) throws -> Double {
                    try Self.timedReplace(at, length, text, processor: processor, store: store)
                }
                func justify(_ text: String) throws -> Double {
                    var envelope = Layoutd_V1_Envelope()
                    envelope.justify = story
                    envelope.justify.text = text
                    let start = nanoseconds()
                    _ = try processor.replyFrame(to: envelope)
                    return Double(nanoseconds() - start) / 1000
                }
                var typed: [[Double]] = [], whole: [[Double]] = [], alone: [[Double]] = []
                for _ in 0..<options.repeats {
                    var t: [Double] = [], w: [Double] = [], a: [Double] = []
                    for index in targets {
                        let middle = Self.middleBoundary(of: texts[index])
                        t.append(try edit(starts[index] + middle, 0, "x"))
                        var units = Array(texts[index].utf16)
                        units.insert(0x78, at: middle)
                        let paragraph = String(decoding: units, as: UTF16.self)
                        var all = texts
                        all[index] = paragraph
                        w.append(try justify(all.joined(separator: "\n")))
                        a.append(try justify(paragraph))
                        _ = try edit(starts[index] + middle, 1, "")
                    }
                    typed.append(t); whole.append(w); alone.append(a)
                }
                let typing = Distribution.perItemMedian(typed), fullStory = Distribution.perItemMedian(whole)
                let single = Distribution.perItemMedian(alone)
                let overStory = Distribution(values: zip(typing.values, fullStory.values).map { $0 / $1 })
                let overParagraph = Distribution(values: zip(typing.values, single.values).map { $0 / $1 })
                lines.append(String(format: "| %@ | %d | %.1f | %.1f | %.1f | %.2f× | %.2f× |", preset, size, typing.median, fullStory.median,
                                    single.median, overStory.median, overParagraph.median))
            }
        }
        return Section(title: "Type Mode in an editing session, as the daemon's worker answers it", lines: lines)
    }

    /// The same edits as round trips through a daemon (edit_document, its reply carrying the
    /// paragraph laid out again), against a layout request of that paragraph's text.
    func throughTheDaemon() throws -> Section {
        let socket = "/tmp/layoutd-bench-edit-\(getpid()).sock"
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("layoutd")
        daemon.arguments = ["--socket", socket, "--log-level", "warning"]
        try daemon.run()
        defer { daemon.terminate(); daemon.waitUntilExit() }
        var connected: LayoutClient?
        for _ in 0..<300 where connected == nil {
            connected = try? LayoutClient(socketPath: socket)
            if connected == nil { usleep(20_000) }
        }
        guard let client = connected else { throw ClientError.connect(path: socket, reason: "daemon did not start") }
        var lines = ["Round trips through a daemon of the same build, one client (the Swift blocking client). The edit is "
                     + "an edit_document of one replace, its reply the paragraph laid out again; 'alone' is a layout request of "
                     + "that paragraph's text. Same documents, paragraphs and medians as above.", "",
                     "| paragraphs | type one character µs (median) | delete it µs (median) | layout alone µs (median) | edit / alone (median ratio) |",
                     "|---|---|---|---|---|"]
        for size in Self.sizes {
            FileHandle.standardError.write(Data("daemon: editing a document of \(size) paragraphs\n".utf8))
            let texts = (0..<size).map { captions[($0 * 7) % captions.count].text.replacingOccurrences(of: "\n", with: " ") }
            var layout = Layoutd_V1_LayoutRequest()
            layout.width = options.width
            layout.defaultStyle.family = "Noto Sans"
            layout.defaultStyle.size = options.size
            var whole = layout
            whole.text = texts.joined(separator: "\n")
            guard case .documentReply(let opened) = try client.request(.openDocument(.with { $0.layout = whole })) else {
                throw ClientError.protocolViolation("no document reply")
            }
            var starts = [0]
            for text in texts { starts.append(starts.last! + text.utf16.count + 1) }
            let targets = size <= Self.edited ? Array(0..<size) : Array((size / 2 - Self.edited / 2)..<(size / 2 + Self.edited / 2))
            func edit(_ at: Int, _ length: Int, _ text: String) throws -> Double {
                let start = nanoseconds()
                _ = try client.request(.editDocument(.with {
                    $0.document = opened.document
                    $0.edits = [.with { $0.replace = .with { $0.range = .with { $0.start = UInt32(at); $0.length = UInt32(length) }; $0.text = text } }]
                }))
                return Double(nanoseconds() - start) / 1000
            }
            var typed: [[Double]] = [], deleted: [[Double]] = [], alone: [[Double]] = []
            for _ in 0..<options.repeats {
                var t: [Double] = [], d: [Double] = [], a: [Double] = []
                for index in targets {
                    let middle = Self.middleBoundary(of: texts[index])
                    t.append(try edit(starts[index] + middle, 0, "x"))
                    var single = layout
                    var units = Array(texts[index].utf16)
                    units.insert(0x78, at: middle)
                    single.text = String(decoding: units, as: UTF16.self)
                    let start = nanoseconds()
                    _ = try client.request(.layout(single))
                    a.append(Double(nanoseconds() - start) / 1000)
                    d.append(try edit(starts[index] + middle, 1, ""))
                }
                typed.append(t); deleted.append(d); alone.append(a)
            }
            _ = try client.request(.closeDocument(.with { $0.document = opened.document }))
            let typing = Distribution.perItemMedian(typed), deleting = Distribution.perItemMedian(deleted)
            let single = Distribution.perItemMedian(alone)
            let ratios = Distribution(values: zip(typing.values, single.values).map { $0 / $1 })
            lines.append(String(format: "| %d | %.1f | %.1f | %.1f | %.2f× |", size, typing.median, deleting.median, single.median, ratios.median))
        }
        return Section(title: "Editing sessions through the daemon", lines: lines)
    }

    /// The grapheme boundary nearest the middle of `text`, in UTF-16 units.
    static func middleBoundary(of text: String) -> Int {
        let half = text.utf16.count / 2
        var offset = 0
        for character in text {
            if offset >= half { return offset }
            offset += character.utf16.count
        }
        return offset
    }
}
