import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// A style's own fallback families through the daemon and layoutctl: tried in order before the
/// daemon's, an unknown one refused by name, more than 16 refused.
@Suite struct FallbackFamiliesServerTests {
    @Test func aStylesListComesFirstAndBadListsAreRefused() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Layoutd_V1_LayoutRequest()
        request.text = "Tea ☕ now"
        request.width = 300
        request.defaultStyle.family = "Noto Sans"
        guard case .fontsReply(let fonts) = try client.request(.fonts(.init())) else { Issue.record("no fonts reply"); return }
        func families(_ reply: Layoutd_V1_LayoutReply) -> [String] {
            reply.runs.map { run in fonts.faces.first { $0.fontID == run.fontID }?.family ?? "?" }
        }
        let plain = try #require(try client.call(.layout(request)).layoutReply)
        #expect(families(plain) == ["Noto Sans", "Noto Color Emoji", "Noto Sans"])
        request.defaultStyle.fallbackFamilies = ["DejaVu Sans"]
        let listed = try #require(try client.call(.layout(request)).layoutReply)
        #expect(families(listed) == ["Noto Sans", "DejaVu Sans", "Noto Sans"])
        request.defaultStyle.fallbackFamilies = ["DejaVu Sans", "Comic Nonesuch"]
        let unknown = try client.call(.layout(request)).errorReply
        #expect(unknown?.code == .notFound && unknown?.field == "layout.default_style.fallback_families[1]", "\(String(describing: unknown))")
        request.defaultStyle.fallbackFamilies = Array(repeating: "DejaVu Sans", count: 17)
        let many = try client.call(.layout(request)).errorReply
        #expect(many?.code == .resourceExhausted && many?.field == "layout.default_style.fallback_families")
        let dejaVu = try #require(listed.runs.count == 3 ? listed.runs[1].fontID : nil)
        let ctl = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--json", "--font", "Noto Sans",
                                                       "--fallback-family", "DejaVu Sans", "Tea ☕ now"])
        #expect(ctl.status == 0 && ctl.out.contains("\"fontId\":\(dejaVu),"), "\(ctl.out)\(ctl.err)")
    }
}
