import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// A picture costs by its pixels, not by the bytes that ask for it: a 25-byte render request once
/// drew a 7,825 x 7,912 canvas (3 s of CPU). Pictures are capped (`max-picture-pixels`, told in
/// Hello), and encoding stops when the budget runs out (issue 17).
@Suite struct PictureLimitTests {
    /// Text "a", width 1, margin 990, scale 3.95: 25 bytes on the wire.
    static var tinyRequestHugePicture: Layoutd_V1_RenderRequest {
        var render = Layoutd_V1_RenderRequest()
        render.layout.text = "a"
        render.layout.width = 1
        render.margin = 990
        render.scale = 3.95
        return render
    }

    @Test func aHugePictureIsRefusedByNameAndTheLimitIsInHello() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        guard case .helloReply(let hello) = try client.request(.hello(.init())) else { Issue.record("no hello"); return }
        #expect(hello.maxPicturePixels == 16_777_216)
        let bytes: [UInt8] = try Layoutd_V1_Envelope.with { $0.requestID = 1; $0.render = Self.tinyRequestHugePicture }.serializedBytes()
        #expect(bytes.count == 25)
        let started = Date()
        let refused = try client.call(.render(Self.tinyRequestHugePicture)).errorReply
        #expect(refused?.code == .resourceExhausted && refused?.field == "render.scale", "\(String(describing: refused))")
        #expect(refused?.message.contains("over this server's 16777216 pixels (max-picture-pixels)") == true, "\(String(describing: refused))")
        #expect(Date().timeIntervalSince(started) < 1)

        var fits = Self.tinyRequestHugePicture
        fits.scale = 1  // about 2,000 x 2,000 points: 4 million pixels
        guard case .renderReply(let picture) = try client.request(.render(fits)) else { Issue.record("no picture"); return }
        #expect(picture.image.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func theLimitIsConfigurable() throws {
        let daemon = try Daemon(arguments: ["--max-picture-pixels", "1000000"])
        var render = Self.tinyRequestHugePicture
        render.scale = 1
        let refused = try daemon.client().call(.render(render)).errorReply
        #expect(refused?.code == .resourceExhausted && refused?.message.contains("1000000 pixels") == true, "\(String(describing: refused))")
        let bad = try run(Daemon.binary("layoutd"), ["--config", "/dev/null", "--max-picture-pixels", "0", "--check-config"], within: 30)
        #expect(bad.status == 78 && bad.err.contains("max-picture-pixels must be in 1..."), "\(bad.err)")
    }

    /// A short deadline ends a large picture with DEADLINE_EXCEEDED. That the encoder stops at
    /// its first write past the deadline, rather than after the whole PNG, is held by counting
    /// its writes (`EncodingBudgetTests`): a wall-clock bound here failed when the machine was busy.
    @Test func encodingAPictureStopsAtTheDeadline() throws {
        let daemon = try Daemon(arguments: ["--max-picture-pixels", "70000000"])
        var render = Self.tinyRequestHugePicture  // 62 million pixels, allowed here
        render.canvas.red = 0.5
        let reply = try daemon.client().call(.render(render), deadlineMs: 150)
        #expect(reply.errorReply?.code == .deadlineExceeded, "\(reply.errorReply.map { "\($0)" } ?? "a picture")")
    }
}
