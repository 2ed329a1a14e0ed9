import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Emphasis marks through a real daemon: in the layout reply beside the runs, drawn in the
/// picture, and refused by name where they cannot be.
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
        let cases: [(Layoutd_V1_LayoutRequest, String)] = [
            (Self.request(.with { $0.custom = "ab" }), "layout.default_style.emphasis.custom"),
            (Self.request(.with { $0.shape = .UNRECOGNIZED(9) }), "layout.default_style.emphasis.shape"),
            (vertical, "layout.emphasis"),
        ]
        for (request, field) in cases {
            let error = try client.call(.layout(request)).errorReply
            #expect(error?.code == .invalidArgument && error?.field == field, "\(field): \(String(describing: error))")
        }
        #expect(try client.call(.layout(Self.request())).layoutReply != nil, "the daemon still answers")
    }
}
