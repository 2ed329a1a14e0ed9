import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Ink bounds through the daemon and layoutctl: asked for, every line, run and the layout carry
/// them; not asked for, none.
@Suite struct InkServerTests {
    @Test func askedForTheReplyCarriesInk() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Layoutd_V1_LayoutRequest()
        request.text = "Ink and glyphs, lines apart"
        request.width = 150
        request.defaultStyle.size = 20
        guard case .layoutReply(let plain) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        #expect(!plain.hasInkBounds && !plain.lines.contains { $0.hasInkBounds })
        request.inkBounds = true
        guard case .layoutReply(let inked) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        #expect(inked.hasInkBounds && inked.hasFirstGlyphInk && inked.lines.count == 2)
        #expect(inked.lines.allSatisfy { $0.hasInkBounds })
        #expect(inked.runs.filter { $0.hasInkBounds }.count >= 2)
        // The ink sits inside the line boxes, give or take overhangs.
        for line in inked.lines {
            #expect(line.inkBounds.y >= line.usedRect.y - 2 && line.inkBounds.y + line.inkBounds.height <= line.usedRect.y + line.usedRect.height + 2)
        }
        let ctl = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "150", "--ink", "Ink and glyphs"])
        #expect(ctl.status == 0 && ctl.out.contains("ink of the layout: ") && ctl.out.contains("first glyph's ink: "), "\(ctl.out)\(ctl.err)")
    }
}
