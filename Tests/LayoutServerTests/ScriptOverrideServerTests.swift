import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// A style's script through the daemon and layoutctl: Devanagari shaped as Latin keeps its
/// i-matra where it was typed; a code that is not four letters is refused by name.
@Suite struct ScriptOverrideServerTests {
    @Test func aStylesScriptShapesItsTextAndABadCodeIsRefused() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Layoutd_V1_LayoutRequest()
        request.text = "कि कि"
        request.width = 300
        request.defaultStyle.family = "Noto Sans Devanagari"
        let own = try #require(try client.call(.layout(request)).layoutReply).runs.flatMap(\.glyphIds)
        // Devanagari's shaper draws the i-matra before its consonant: [i, ka, space, i, ka].
        // The second word shaped as Latin keeps the typed order there: [i, ka, space, ka, i].
        request.spans = [.with { $0.range = .with { $0.start = 3; $0.length = 2 }; $0.style.script = "latn" }]
        let mixed = try #require(try client.call(.layout(request)).layoutReply).runs.flatMap(\.glyphIds)
        #expect(own.count == 5 && mixed.count == 5)
        #expect(Array(mixed.prefix(3)) == Array(own.prefix(3)) && own[3] != own[1] && mixed[3] == own[1], "own \(own), mixed \(mixed)")
        request.spans = []
        request.defaultStyle.script = "Latin"
        let refused = try client.call(.layout(request)).errorReply
        #expect(refused?.code == .invalidArgument && refused?.field == "layout.default_style.script", "\(String(describing: refused))")
        #expect(refused?.message.contains("ISO 15924") == true)
        let ctl = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--json", "--script", "Latn",
                                                       "--font", "Noto Sans Devanagari", "कि"])
        #expect(ctl.status == 0 && ctl.out.contains("[\(own[1]),"), "ka first: \(ctl.out)\(ctl.err)")
    }
}
