import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Ruby through a real daemon: the readings in the reply beside the runs, drawn in the picture,
/// in vertical text, from layoutctl, and refused by name where they cannot be.
@Suite struct RubyServerTests {
    let daemon: Daemon
    init() throws { daemon = try Daemon() }

    static func ruby(_ start: UInt32, _ length: UInt32, _ text: String = "", readings: [String] = []) -> Layoutd_V1_Ruby {
        .with {
            $0.range = .with { $0.start = start; $0.length = length }
            $0.text = text
            $0.readings = readings
        }
    }

    static func request(_ ruby: [Layoutd_V1_Ruby] = [], text: String = "漢字の東京を読む。", width: Float = 400) -> Layoutd_V1_LayoutRequest {
        var request = layoutRequest(text, width: width)
        request.defaultStyle.family = "Noto Sans CJK JP"
        request.defaultStyle.size = 24
        request.rubyAnnotations = ruby
        return request
    }

    @Test func readingsComeBackBesideTheRunsAndAreDrawn() throws {
        let client = try daemon.client()
        let plain = try #require(try client.call(.layout(Self.request())).layoutReply)
        let ruby = [Self.ruby(0, 2, "かんじ"), Self.ruby(3, 2, readings: ["とう", "きょう"]), Self.ruby(6, 1, "よ")]
        let reply = try #require(try client.call(.layout(Self.request(ruby))).layoutReply)
        #expect(plain.rubyRuns.isEmpty)
        #expect(reply.rubyRuns.map(\.range.start) == [0, 3, 4, 6], "one run a reading, over its base or its cluster")
        #expect(reply.rubyRuns.allSatisfy { $0.size == 12 && $0.lineIndex == 0 })
        // Clusters count in each annotation's readings joined: とう then きょう.
        #expect(reply.rubyRuns[1].clusters == [0, 1] && reply.rubyRuns[2].clusters == [2, 3, 4])
        #expect(reply.lines[0].ascent > plain.lines[0].ascent, "the line holds the readings")
        // The readings stand on the text's em box (Noto Sans CJK's: 0.88 em over the baseline),
        // their baselines 0.12 of their own em above it.
        let top = reply.lines[0].baselineOrigin.y - 0.88 * 24 - 0.12 * 12 + 0.01
        #expect(reply.rubyRuns.allSatisfy { run in stride(from: 1, to: run.positions.count, by: 2).allSatisfy { run.positions[$0] < top && run.positions[$0] > top - 0.02 } })
        // きょう (three kana at 12 pt) over 京 (24 pt) spaces it: the line is 12 pt wider.
        #expect(abs(reply.lines[0].width - plain.lines[0].width - 12) < 0.05)
        var render = Layoutd_V1_RenderRequest()
        render.layout = Self.request()
        render.format = .png
        guard case .renderReply(let without)? = try client.call(.render(render)).body else { Issue.record("no picture"); return }
        render.layout = Self.request(ruby)
        guard case .renderReply(let with)? = try client.call(.render(render)).body else { Issue.record("no picture"); return }
        #expect(without.image != with.image && with.height > without.height)
    }

    @Test func verticalRubyStandsOnTheColumnsRight() throws {
        let client = try daemon.client()
        var request = Self.request([Self.ruby(0, 2, "かんじ")])
        request.writingMode = .verticalRl
        request.height = 400
        let reply = try #require(try client.call(.layout(request)).layoutReply)
        let reading = try #require(reply.rubyRuns.first)
        let base = try #require(reply.runs.first)
        #expect(reading.orientation == .upright && reading.glyphIds.count == 3)
        // Right of the base's column: past half the base's em and half the reading's.
        #expect(reading.positions[0] - base.positions[0] > 12)
    }

    @Test func badAnnotationsAreRefusedByName() throws {
        let client = try daemon.client()
        var both = Self.ruby(0, 2, "かんじ")
        both.readings = ["かん", "じ"]
        var onAPath = Self.request([Self.ruby(0, 1, "かん")])
        onAPath.textPath.path.commands = [.with { $0.verb = .move; $0.points = [0, 100] }, .with { $0.verb = .line; $0.points = [300, 100] }]
        var document = Layoutd_V1_OpenDocumentRequest()
        document.layout = Self.request([Self.ruby(0, 1, "かん")])
        let cases: [(Layoutd_V1_Envelope.OneOf_Body, String)] = [
            (.layout(Self.request([Self.ruby(0, 99, "x")])), "layout.ruby_annotations[0].range"),
            (.layout(Self.request([Self.ruby(0, 2, "x"), Self.ruby(1, 2, "y")])), "layout.ruby_annotations[1].range"),
            (.layout(Self.request([Self.ruby(0, 2, readings: ["a", "b", "c"])])), "layout.ruby_annotations[0].readings"),
            (.layout(Self.request([both])), "layout.ruby_annotations[0].readings"),
            (.layout(Self.request([Self.ruby(0, 1)])), "layout.ruby_annotations[0].text"),
            (.layout(Self.request([Self.ruby(0, 1, "a\nb")])), "layout.ruby_annotations[0].text"),
            (.layout(Self.request([Self.ruby(2, 3, "x")], text: "漢字\n東京")), "layout.ruby_annotations[0].range"),
            (.layout(onAPath), "layout.ruby_annotations"),
            (.openDocument(document), "open_document.layout.ruby_annotations"),
        ]
        for (body, field) in cases {
            let error = try client.call(body).errorReply
            #expect(error?.code == .invalidArgument && error?.field == field, "\(field): \(String(describing: error))")
        }
        // Listed out of order, they are placed in the text's; an error names the request's own index.
        let unordered = try #require(try client.call(.layout(Self.request([Self.ruby(6, 1, "よ"), Self.ruby(0, 2, "かんじ")]))).layoutReply)
        #expect(unordered.rubyRuns.map(\.range.start) == [0, 6])
        let late = try client.call(.layout(Self.request([Self.ruby(6, 1, "よ"), Self.ruby(0, 2, "")]))).errorReply
        #expect(late?.field == "layout.ruby_annotations[1].text")
        // Too many: refused before anything is laid out.
        let many = (0..<4_097).map { Self.ruby(UInt32($0), 1, "x") }
        let error = try client.call(.layout(Self.request(many, text: String(repeating: "字", count: 4_097)))).errorReply
        #expect(error?.code == .resourceExhausted && error?.field == "layout.ruby_annotations")
        #expect(try client.call(.layout(Self.request())).layoutReply != nil, "the daemon still answers")
    }

    /// layoutctl: `--ruby` (jukugo with `|`) prints a row per reading run; a bad spec is refused
    /// before any request is sent.
    @Test func layoutctlTakesTheOptionAndPrintsTheReadings() throws {
        let layoutctl = Daemon.binary("layoutctl")
        let result = try run(layoutctl, ["layout", "--socket", daemon.socketPath, "--width", "300", "--font", "Noto Sans CJK JP",
                                         "--ruby", "0:2=かんじ", "--ruby", "3:2=とう|きょう", "漢字の東京"])
        #expect(result.status == 0, "\(result.err)")
        let rows = result.out.split(separator: "\n")
        #expect(rows.contains { $0.hasPrefix("ruby  line") }, "\(result.out)")
        #expect(rows.contains { $0.hasPrefix("   3     0") && $0.hasSuffix("漢字") }, "\(result.out)")
        #expect(rows.contains { $0.hasPrefix("   3     0") && $0.hasSuffix("京") }, "\(result.out)")
        let bad = try run(layoutctl, ["layout", "--socket", daemon.socketPath, "--width", "300", "--ruby", "0-2=x", "x"])
        #expect(bad.status != 0 && bad.err.contains("--ruby takes START:LENGTH=READING"), "\(bad.err)")
    }
}
