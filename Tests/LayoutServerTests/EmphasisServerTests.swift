import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Emphasis marks through a real daemon: in the layout reply beside the runs, drawn in the
/// picture, in vertical text beside the characters, and refused by name where they cannot be.
@Suite struct EmphasisServerTests {
    let daemon: Daemon
    init() throws { daemon = try Daemon() }

    static func request(_ marks: Layoutd_V1_EmphasisMarks? = nil) -> Layoutd_V1_LayoutRequest {
        var request = layoutRequest("強調する、文章。", width: 300)
        request.defaultStyle.family = "Noto Sans CJK JP"
        request.defaultStyle.size = 24
        if let marks { request.defaultStyle.emphasis = marks }
        return request
    }

    @Test func marksComeBackBesideTheRunsAndAreDrawn() throws {
        let client = try daemon.client()
        let plain = try #require(try client.call(.layout(Self.request())).layoutReply)
        let sesame = try #require(try client.call(.layout(Self.request(.with { $0.shape = .sesame }))).layoutReply)
        #expect(plain.emphasisMarks.isEmpty)
        #expect(sesame.emphasisMarks.flatMap(\.clusters) == [0, 1, 2, 3, 5, 6], "no mark on the comma and the full stop")
        #expect(sesame.lines[0].ascent > plain.lines[0].ascent, "the line holds the marks")
        #expect(sesame.emphasisMarks.allSatisfy { $0.size == 12 })
        let custom = try #require(try client.call(.layout(Self.request(.with { $0.custom = "※"; $0.under = true }))).layoutReply)
        #expect(custom.emphasisMarks.flatMap(\.clusters).count == 6 && custom.lines[0].descent > plain.lines[0].descent)

        var render = Layoutd_V1_RenderRequest()
        render.layout = Self.request()
        render.format = .png
        guard case .renderReply(let without)? = try client.call(.render(render)).body else { Issue.record("no picture"); return }
        render.layout = Self.request(.with { $0.shape = .sesame })
        guard case .renderReply(let with)? = try client.call(.render(render)).body else { Issue.record("no picture"); return }
        #expect(without.image != with.image && with.height > without.height)
    }

    @Test func badMarksAreRefusedByName() throws {
        let client = try daemon.client()
        var vertical = Self.request(.with { $0.shape = .dot })
        vertical.writingMode = .verticalRl
        vertical.height = 200
        var onAPath = Self.request(.with { $0.shape = .dot })
        onAPath.textPath.path.commands = [.with { $0.verb = .move; $0.points = [0, 100] }, .with { $0.verb = .line; $0.points = [300, 100] }]
        let cases: [(Layoutd_V1_LayoutRequest, String)] = [
            (Self.request(.with { $0.custom = "ab" }), "layout.default_style.emphasis.custom"),
            (Self.request(.with { $0.shape = .UNRECOGNIZED(9) }), "layout.default_style.emphasis.shape"),
            (onAPath, "layout.emphasis"),
        ]
        for (request, field) in cases {
            let error = try client.call(.layout(request)).errorReply
            #expect(error?.code == .invalidArgument && error?.field == field, "\(field): \(String(describing: error))")
        }
        #expect(try client.call(.layout(Self.request())).layoutReply != nil, "the daemon still answers")
        // Vertical text takes them, upright beside each character but the comma and the stop.
        let columns = try #require(try client.call(.layout(vertical)).layoutReply)
        #expect(columns.emphasisMarks.flatMap(\.clusters) == [0, 1, 2, 3, 5, 6] && columns.emphasisMarks.allSatisfy { $0.orientation == .upright })
    }

    /// Type Mode sizes each line on its own: each line's marks are half its size, centred on
    /// its clusters, inside its line box, and drawn in the story's picture.
    @Test func typeModeMarksEachLineAtItsOwnSize() throws {
        let client = try daemon.client()
        var story = Layoutd_V1_JustifyRequest()
        story.text = "強調\n強調する文章"
        story.style.family = "Noto Sans CJK JP"
        story.width = 300
        story.spans = [.with { $0.range = .with { $0.start = 0; $0.length = 2 }; $0.style.emphasis = .with { $0.shape = .dot } }]
        guard case .justifyReply(let fitted)? = try client.call(.justify(story)).body else { Issue.record("no Type Mode reply"); return }
        #expect(fitted.lineSizes.count == 2 && fitted.lineSizes[0] > fitted.lineSizes[1])
        #expect(fitted.emphasisMarks.count == 1 && fitted.emphasisMarks[0].clusters == [0, 1], "the span's two characters only")
        let marks = try #require(fitted.emphasisMarks.first)
        #expect(marks.size == fitted.lineSizes[0] / 2)
        let line = fitted.lines[0], run = try #require(fitted.runs.first { $0.lineIndex == 0 })
        for (k, cluster) in marks.clusters.enumerated() {
            // The mark's ink sits within the line box, above the text's baseline.
            let top = line.baselineOrigin.y - line.ascent, y = marks.positions[2 * k + 1]
            #expect(y > top && y < line.baselineOrigin.y - 0.5 * Float(fitted.lineSizes[0]), "mark \(cluster) at \(y), line top \(top)")
            let base = try #require(run.clusters.firstIndex(of: cluster))
            #expect(marks.positions[2 * k] > run.positions[2 * base], "mark \(cluster) stands over its character")
        }
        var render = Layoutd_V1_RenderRequest()
        render.justify = story
        guard case .renderReply(let with)? = try client.call(.render(render)).body else { Issue.record("no picture"); return }
        render.justify.spans = []
        guard case .renderReply(let without)? = try client.call(.render(render)).body else { Issue.record("no picture"); return }
        #expect(with.image != without.image)
    }

    /// layoutctl: `--emphasis` and the span key print a row of marks per marked run, in layout
    /// and in Type Mode; a bad mark is refused before any request is sent.
    @Test func layoutctlTakesTheOptionAndTheSpanKeyAndPrintsTheMarks() throws {
        let layoutctl = Daemon.binary("layoutctl")
        let whole = try run(layoutctl, ["layout", "--socket", daemon.socketPath, "--width", "300", "--font", "Noto Sans CJK JP",
                                        "--emphasis", "sesame/open", "強調する、文章。"])
        #expect(whole.status == 0, "\(whole.err)")
        let row = whole.out.split(separator: "\n").first { $0.hasPrefix("    6     0") }
        #expect(whole.out.contains("marked characters") && row?.hasSuffix("0 1 2 3 5 6") == true, "\(whole.out)")
        let story = try run(layoutctl, ["typemode", "--socket", daemon.socketPath, "--width", "300", "--span", "0:2:emphasis=dot", "強調する"])
        #expect(story.status == 0 && story.out.contains("marked characters"), "\(story.out)\(story.err)")
        let bad = try run(layoutctl, ["layout", "--socket", daemon.socketPath, "--width", "300", "--emphasis", "dot/sideways", "x"])
        #expect(bad.status != 0 && bad.err.contains("after the mark come open and under"), "\(bad.err)")
    }
}
