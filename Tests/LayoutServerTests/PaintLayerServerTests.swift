import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Fills, several shadows and glows through the daemon and layoutctl: layout and Type Mode
/// replies carry the paint layers and fill boxes, renders draw picture fills from the request,
/// and bad pictures are refused by name.
@Suite struct PaintLayerServerTests {
    static let gradient = Layoutd_V1_TextFill.with {
        $0.linearGradient = .with { gradient in
            gradient.start = .with { $0.y = 0.5 }
            gradient.end = .with { $0.x = 1; $0.y = 0.5 }
            gradient.stops = [.with { $0.color = .with { $0.red = 1 } }, .with { $0.offset = 1; $0.color = .with { $0.blue = 1 } }]
        }
    }

    @Test func layoutAndTypeModeRepliesCarryTheLayers() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = layoutRequest("Gradient text with a glow and two shadows", width: 200)
        request.defaultStyle.fill = Self.gradient
        request.defaultStyle.glow = .with { $0.radius = 6; $0.strength = 2 }
        request.defaultStyle.shadows = [.with { $0.offsetY = 2 }, .with { $0.offsetY = 5; $0.blurRadius = 3 }]
        let reply = try #require(try client.call(.layout(request)).layoutReply)
        #expect(reply.fillRegions.count == 1 && reply.fillRegions[0].range.length == UInt32(request.text.utf16.count))
        #expect(reply.lines.count > 1 && reply.fillRegions[0].box.height > reply.lines[0].usedRect.height)
        #expect(reply.paints.count == 1 && reply.paints[0].shadows.count == 2 && reply.paints[0].glow.strength == 2)
        var typeMode = Layoutd_V1_JustifyRequest()
        typeMode.text = "so\nHAPPY\nto see you"
        typeMode.width = 300
        typeMode.spans = [.with { $0.range = .with { $0.start = 3; $0.length = 5 }; $0.style.fill = Self.gradient }]
        guard case .justifyReply(let fitted) = try client.call(.justify(typeMode)).body else { Issue.record("no Type Mode reply"); return }
        #expect(fitted.fillRegions.count == 1 && fitted.fillRegions[0].range.start == 3)
    }

    @Test func aRenderDrawsPictureFillsAndRefusesBadPictures() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        // A picture to fill with: the daemon draws one.
        var source = Layoutd_V1_RenderRequest()
        source.layout = layoutRequest("★", width: 40, size: 30)
        source.scale = 1
        guard case .renderReply(let star) = try client.request(.render(source)) else { Issue.record("no picture"); return }
        var request = Layoutd_V1_RenderRequest()
        request.layout = layoutRequest("PICTURE", width: 300, size: 48)
        request.layout.defaultStyle.fill = .with { $0.image = .with { $0.contentMode = .aspectFill } }
        request.fillImages = [star.image]
        guard case .renderReply(let drawn) = try client.request(.render(request)) else { Issue.record("no render"); return }
        #expect(drawn.image.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        request.fillImages = []
        guard case .renderReply(let plain) = try client.request(.render(request)) else { Issue.record("no render"); return }
        #expect(plain.image != drawn.image, "without its picture the text is drawn in its colour")
        request.fillImages = [Data("not a picture".utf8)]
        #expect(try client.call(.render(request)).errorReply?.field == "render.fill_images[0]")
        request.fillImages = Array(repeating: star.image, count: 65)
        #expect(try client.call(.render(request)).errorReply?.field == "render.fill_images")
        var tags = Layoutd_V1_RenderRequest()
        tags.tags = .with { $0.photoWidth = 300; $0.photoHeight = 300 }
        tags.fillImages = [star.image]
        #expect(try client.call(.render(tags)).errorReply?.field == "render.fill_images")
        // The daemon goes on.
        #expect(try client.call(.layout(layoutRequest("still here"))).layoutReply != nil)
    }

    @Test func layoutctlDrawsFillsGlowsAndShadows() throws {
        let daemon = try Daemon()
        let picture = FileManager.default.temporaryDirectory.appendingPathComponent("fill-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: picture) }
        let drawn = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "-o", picture.path,
                                                         "--text-fill", "linear,#ff0000,#ffcc00,#0000ff,diagonal", "--glow", "6,#ff2d95,2",
                                                         "--shadow", "2,2,0,#00000080", "--shadow", "4,4,3", "Gradient with a glow"])
        #expect(drawn.status == 0, "\(drawn.err)")
        #expect(try String(contentsOf: picture, encoding: .utf8).contains("linearGradient"))
        let json = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--json",
                                                        "--span", "0:4:fill=radial/#ffffff/#000000/line,glow=3/#00ff00",
                                                        "--shadow", "1,1,0", "--shadow", "2,2,0", "Fill part"])
        #expect(json.status == 0, "\(json.err)")
        let reply = try Layoutd_V1_LayoutReply(jsonString: json.out)
        #expect(reply.fillRegions.count == 1 && reply.fillRegions[0].perLine)
        #expect(reply.paints.allSatisfy { $0.shadows.count == 2 })
        let bad = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300",
                                                       "--text-fill", "linear,#ff0000", "x"])
        #expect(bad.status != 0 && bad.err.contains("two #colours"), "\(bad.err)")
    }
}
