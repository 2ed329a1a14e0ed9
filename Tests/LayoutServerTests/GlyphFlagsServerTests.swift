import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// Glyph flags through a real daemon: in the reply when asked, as hb-shape gives them; absent
/// otherwise; refused by name in a document.
@Suite struct GlyphFlagsServerTests {
    let daemon: Daemon
    init() throws { daemon = try Daemon() }

    @Test func flagsComeBackWhenAskedFor() throws {
        let client = try daemon.client()
        var request = layoutRequest("office AVAT", width: 1_000_000)
        request.defaultStyle.family = "Noto Sans"
        request.defaultStyle.size = 1000
        let plain = try #require(try client.call(.layout(request)).layoutReply)
        #expect(plain.runs.allSatisfy { $0.glyphFlags.isEmpty })
        request.glyphFlags = true
        let flagged = try #require(try client.call(.layout(request)).layoutReply)
        let glyphRun = try #require(flagged.runs.first)
        #expect(glyphRun.glyphFlags.count == glyphRun.glyphIds.count)
        guard let expected = try HBShape.output("office AVAT", ["--unsafe-to-concat", "--show-flags", "--no-glyph-names", "--no-positions",
                                                                "--font-file=/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"]) else {
            Issue.record("hb-shape is missing")
            return
        }
        let ours = zip(zip(glyphRun.glyphIds, glyphRun.clusters), glyphRun.glyphFlags).map { "\($0.0)=\($0.1)" + ($1 == 0 ? "" : "#\($1)") }
        #expect("[" + ours.joined(separator: "|") + "]" == expected)
        // layoutctl prints them as hb-shape does.
        let printed = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "1000000", "--font", "Noto Sans",
                                                           "--size", "1000", "--glyph-flags", "office AVAT"])
        #expect(printed.status == 0 && printed.out.contains("  0  " + expected.dropFirst().dropLast()), "\(printed.out)\(printed.err)")
        var document = Layoutd_V1_OpenDocumentRequest()
        document.layout = request
        let error = try client.call(.openDocument(document)).errorReply
        #expect(error?.code == .invalidArgument && error?.field == "open_document.layout.glyph_flags")
    }
}
