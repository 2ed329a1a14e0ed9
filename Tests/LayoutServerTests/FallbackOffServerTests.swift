import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Fallback off through the daemon and layoutctl: the style's own face draws everything, .notdef
/// where it lacks a character.
@Suite struct FallbackOffServerTests {
    @Test func theStylesOwnFaceShowsNotdef() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Layoutd_V1_LayoutRequest()
        request.text = "Thai ภาษา"
        request.width = 300
        request.defaultStyle.family = "Noto Sans"
        guard case .layoutReply(let fallingBack) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        #expect(!fallingBack.runs.flatMap(\.glyphIds).contains(0) && Set(fallingBack.runs.map(\.fontID)).count == 2)
        request.defaultStyle.noFontFallback = true
        guard case .layoutReply(let own) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        #expect(Set(own.runs.map(\.fontID)).count == 1 && own.runs.flatMap(\.glyphIds).filter { $0 == 0 }.count == 4)
        let ctl = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--json", "--no-fallback",
                                                       "--font", "Noto Sans", "Thai ภาษา"])
        #expect(ctl.status == 0 && ctl.out.contains(",0,0,0,0]"), "\(ctl.out)\(ctl.err)")
    }
}
