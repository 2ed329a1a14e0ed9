import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// Numbers a client sends never crash the daemon: each is bounded and refused by name.
@Suite(.serialized) struct ExtremeValueTests {

    /// Once a crash: the render path turned the width into an Int for its own error message.
    @Test func aHugeWidthInARenderIsRefusedByName() throws {
        let daemon = try Daemon()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(UUID().uuidString).png").path
        let result = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "1e30", "-o", output, "x"])
        #expect(result.status == 65)
        #expect(result.err.contains("INVALID_ARGUMENT") && result.err.contains("layout.width"), "\(result.err)")
        #expect(daemon.process.isRunning)
    }

    /// Once a crash: the SVG path writer turned a coordinate past Int's range into an Int.
    @Test func aWidthPastIntsRangeWithABackgroundIsRefusedByName() throws {
        let daemon = try Daemon()
        var request = layoutRequest("WW", width: 2e19, size: 10_000)
        request.alignment = .right
        request.backgrounds = [.with { $0.kind = .perLine }]
        let reply = try daemon.client().call(.layout(request))
        #expect(reply.errorReply?.code == .invalidArgument)
        #expect(reply.errorReply?.field == "layout.width")
        // The largest width allowed, with the largest size, lays out and decorates.
        request.width = 1_000_000
        let largest = try daemon.client().call(.layout(request))
        let layout = try #require(largest.layoutReply)
        #expect(layout.backgrounds.first?.svgPath.hasPrefix("M") == true)
        #expect(daemon.process.isRunning)
    }

    @Test func aPictureSideOverCairosLimitIsInvalidArgument() throws {
        let daemon = try Daemon()
        var render = Layoutd_V1_RenderRequest()
        render.layout = layoutRequest("wide", width: 20_000)
        render.scale = 2
        let reply = try daemon.client().call(.render(render))
        #expect(reply.errorReply?.code == .invalidArgument, "\(reply)")
        #expect(reply.errorReply?.field == "render.scale")
        #expect(reply.errorReply?.message.contains("32767") == true)
    }

    /// Every numeric field of every request message, found from the proto's descriptors by the
    /// Python client, at NaN, ±∞, ±3e38, 1e30, 2e19, 1e19, 1e9, 10,000, −1, −0, 0 and 1e−38,
    /// alone (under each alignment) and in seeded random combinations.
    @Test func everyNumericFieldAtItsExtremes() throws {
        let daemon = try Daemon()
        let result = try runHostileScript("extreme_values.py", [daemon.socketPath, "--combinations", "600", "--seed", "8"])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.hasPrefix("ok: "), "\(result.out)")
        #expect(daemon.process.isRunning, "the daemon died: \(daemon.stderr.text)")
        guard case .helloReply = try daemon.client().request(.hello(.init())) else {
            Issue.record("no hello after the extremes")
            return
        }
    }
}
