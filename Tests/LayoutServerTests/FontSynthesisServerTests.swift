import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Synthesised faces through the daemon and layoutctl: the reply says what was made (the bold's
/// growth in points, the oblique's shear), a span turns synthesis off, an unknown value is
/// refused by name, and a picture of the text is drawn.
@Suite struct FontSynthesisServerTests {
    @Test func theReplySaysWhatWasMadeAndAStyleCanRefuseIt() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Layoutd_V1_LayoutRequest()
        request.text = "汉字 Hello"
        request.width = 600
        request.defaultStyle.family = "Z003"
        request.defaultStyle.size = 24
        request.defaultStyle.weight = 700
        request.defaultStyle.slant = .italic
        let reply = try #require(try client.call(.layout(request)).layoutReply)
        // Z003 is Medium Italic: its Latin is made bold; Han falls back to Noto Sans CJK Bold, made oblique.
        let latin = try #require(reply.runs.last), han = try #require(reply.runs.first)
        #expect(latin.syntheticBold == 1 && latin.syntheticSlant == 0, "\(latin.syntheticBold) \(latin.syntheticSlant)")
        #expect(han.syntheticBold == 0 && abs(Double(han.syntheticSlant) - 0.2126) < 0.001)
        // Off for the Han span: the CJK face as it is; the rest keeps its bold.
        request.spans = [.with { $0.range = .with { $0.start = 0; $0.length = 2 }; $0.style.fontSynthesis = .none }]
        let spanned = try #require(try client.call(.layout(request)).layoutReply)
        #expect(spanned.runs.first?.syntheticSlant == 0 && spanned.runs.last?.syntheticBold == 1)
        request.spans = []
        request.defaultStyle.fontSynthesis = .UNRECOGNIZED(9)
        let refused = try client.call(.layout(request)).errorReply
        #expect(refused?.code == .invalidArgument && refused?.field == "layout.default_style.font_synthesis", "\(String(describing: refused))")
    }

    @Test func layoutctlAsksForItAndDrawsIt() throws {
        let daemon = try Daemon()
        func runs(_ extra: [String]) throws -> String {
            let ctl = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--json",
                                                           "--font", "Noto Sans CJK SC", "--italic", "汉字"] + extra)
            #expect(ctl.status == 0, "\(ctl.err)")
            return ctl.out
        }
        #expect(try runs([]).contains("\"syntheticSlant\":0.21"))
        #expect(try !runs(["--font-synthesis", "weight"]).contains("\"syntheticSlant\":0.21"))
        let bad = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300",
                                                       "--font-synthesis", "italic", "汉字"])
        #expect(bad.status != 0 && bad.err.contains("--font-synthesis must be"))
        let picture = FileManager.default.temporaryDirectory.appendingPathComponent("synthetic-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: picture) }
        let drawn = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--font", "Z003",
                                                         "--weight", "800", "-o", picture.path, "Bold made"])
        #expect(drawn.status == 0, "\(drawn.err)")
        let png = try Data(contentsOf: picture)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}
