import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// A background's border and shadow through the daemon and layoutctl: the reply's shapes carry
/// them, bad values are refused under the background's own field, and pictures are drawn.
@Suite struct BackgroundBorderServerTests {
    @Test func theReplyCarriesTheBorderAndShadowAndBadOnesAreNamed() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Layoutd_V1_LayoutRequest()
        request.text = "Borders and shadows behind each line of a caption"
        request.width = 200
        request.backgrounds = [.with {
            $0.kind = .perLine
            $0.border = .with { $0.width = 2; $0.dashes = [6, 3]; $0.color = .with { $0.red = 1 } }
            $0.shadow = .with { $0.offsetY = 3; $0.blurRadius = 4 }
        }, .with { $0.kind = .connected }]
        let reply = try #require(try client.call(.layout(request)).layoutReply)
        #expect(reply.backgrounds.count == 2)
        let shape = try #require(reply.backgrounds.first)
        #expect(shape.border.width == 2 && shape.border.dashes == [6, 3] && shape.border.color.red == 1)
        #expect(shape.shadow.offsetY == 3 && shape.shadow.blurRadius == 4 && abs(shape.shadow.color.transparency - 2.0 / 3) < 1e-6)
        #expect(!reply.backgrounds[1].hasBorder && !reply.backgrounds[1].hasShadow)
        for (change, field) in [({ (spec: inout Layoutd_V1_BackgroundSpec) in spec.border.width = 0 }, "border.width"),
                                ({ $0.border.dashes = Array(repeating: 1, count: 17) }, "border.dashes"),
                                ({ $0.border.dashes = [0, 0] }, "border.dashes"),
                                ({ $0.border.color.green = 2 }, "border.color.green"),
                                ({ $0.shadow.blurRadius = 101 }, "shadow.blur_radius"),
                                ({ $0.shadow.color.blue = -1 }, "shadow.color.blue")] {
            var bad = request
            if field != "border.width" { bad.backgrounds[1].border.width = 1 }
            change(&bad.backgrounds[1])
            let refused = try client.call(.layout(bad)).errorReply
            #expect(refused?.code == .invalidArgument || refused?.code == .resourceExhausted, "\(field): \(String(describing: refused))")
            #expect(refused?.field == "layout.backgrounds[1].\(field)", "\(String(describing: refused))")
        }
    }

    @Test func layoutctlDrawsBackdropsForLayoutAndTypeMode() throws {
        let daemon = try Daemon()
        let picture = FileManager.default.temporaryDirectory.appendingPathComponent("backdrop-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: picture) }
        let drawn = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "240", "-o", picture.path,
                                                         "--backdrop", "per-line,fill=#ffd60a,border=2/#000000,dashes=6/3,shadow=0/3/4/#00000060",
                                                         "Dashed borders behind each line"])
        #expect(drawn.status == 0, "\(drawn.err)")
        let svg = try String(contentsOf: picture, encoding: .utf8)
        #expect(svg.contains("stroke-dasharray"))
        let typed = try run(Daemon.binary("layoutctl"), ["typemode", "--socket", daemon.socketPath, "--width", "240", "--json",
                                                         "--backdrop", "connected,border=3/#ff0000", "Type Mode with a border"])
        #expect(typed.status == 0 && typed.out.contains("\"border\":{\"width\":3"), "\(typed.out.prefix(400))\(typed.err)")
        let bad = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "240",
                                                       "--backdrop", "per-line,glow=3", "x"])
        #expect(bad.status != 0 && bad.err.contains("unknown key \"glow\""))
    }
}
