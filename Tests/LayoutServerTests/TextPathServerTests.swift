import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Text on a path through the daemon and layoutctl: the reply's runs carry their glyphs'
/// angles, what cannot go on a path is refused by name, and pictures follow the path.
@Suite struct TextPathServerTests {
    static let arc = Layoutd_V1_TextPath.with {
        $0.path.commands = [.with { $0.verb = .move; $0.points = [20, 200] }, .with { $0.verb = .cubic; $0.points = [100, 20, 300, 20, 380, 200] }]
        $0.startOffset = 10
    }

    @Test func theReplyCarriesAnglesAndWhatCannotGoOnAPathIsRefused() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = layoutRequest("Text that follows a curve", width: 300)
        request.textPath = Self.arc
        let reply = try #require(try client.call(.layout(request)).layoutReply)
        let angles = reply.runs.flatMap(\.angles)
        #expect(angles.count == reply.runs.reduce(0) { $0 + $1.glyphIds.count } && angles.count > 10)
        #expect(angles.first! < -30 && angles.last! > angles.first!, "up the arc, then round it: \(angles)")
        #expect(reply.overflowRange.length == 0)
        // Too short a path: the rest of the text overflows.
        var short = request
        short.textPath.path.commands[1] = .with { $0.verb = .line; $0.points = [80, 200] }
        let cut = try #require(try client.call(.layout(short)).layoutReply)
        #expect(cut.overflowRange.length > 0 && cut.runs.flatMap(\.glyphIds).count < angles.count)
        for (change, field) in [({ (r: inout Layoutd_V1_LayoutRequest) in r.maxLines = 1 }, "layout.max_lines"),
                                ({ $0.backgrounds = [.with { $0.kind = .perLine }] }, "layout.backgrounds"),
                                ({ $0.writingMode = .verticalRl; $0.height = 300 }, "layout.writing_mode"),
                                ({ $0.textPath.anchor = .UNRECOGNIZED(9) }, "layout.text_path.anchor"),
                                ({ $0.textPath.path.commands[0].verb = .line }, "layout.text_path.path.commands[0]")] {
            var bad = request
            change(&bad)
            #expect(try client.call(.layout(bad)).errorReply?.field == field, "\(field)")
        }
        // Hit-testing answers along lines, and documents are text on lines.
        let hit = try client.call(.hitTest(.with { $0.layout = request; $0.points = [.with { $0.x = 10; $0.y = 10 }] })).errorReply
        #expect(hit?.field == "hit_test.layout.text_path", "\(String(describing: hit))")
        var document = request
        document.text = "A document"
        let opened = try client.call(.openDocument(.with { $0.layout = document })).errorReply
        #expect(opened?.field == "open_document.layout.text_path", "\(String(describing: opened))")
        #expect(try client.call(.layout(layoutRequest("still here"))).layoutReply != nil)
    }

    @Test func layoutctlDrawsTextOnAPath() throws {
        let daemon = try Daemon()
        let picture = FileManager.default.temporaryDirectory.appendingPathComponent("path-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: picture) }
        let drawn = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "400", "-o", picture.path,
                                                         "--text-path", "M 20 220 C 100 20 300 20 380 220", "--path-anchor", "middle",
                                                         "--path-offset", "220", "Text that follows a curve"])
        #expect(drawn.status == 0, "\(drawn.err)")
        #expect(try Data(contentsOf: picture).starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let json = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "400", "--json",
                                                        "--text-path", "M 0 100 L 400 100", "--path-side", "right", "Upside down"])
        #expect(json.status == 0, "\(json.err)")
        let reply = try Layoutd_V1_LayoutReply(jsonString: json.out)
        #expect(reply.runs.flatMap(\.angles).allSatisfy { abs(abs($0) - 180) < 1e-3 })
        let bad = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "400",
                                                       "--text-path", "M 0 0 L 10 10", "--path-side", "up", "x"])
        #expect(bad.status != 0 && bad.err.contains("--path-side"), "\(bad.err)")
    }
}
