import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// CSS text-orientation through a real daemon: each run's orientation as asked, an unknown value
/// refused by name, and layoutctl's --text-orientation.
@Suite struct TextOrientationServerTests {
    let daemon: Daemon
    init() throws { daemon = try Daemon() }

    func request(_ orientation: Layoutd_V1_TextOrientation) -> Layoutd_V1_LayoutRequest {
        var request = layoutRequest("縦ABC書", width: 300)
        request.height = 1000
        request.writingMode = .verticalRl
        request.defaultStyle.family = "Noto Sans CJK JP"
        request.defaultStyle.size = 20
        request.textOrientation = orientation
        return request
    }

    @Test func eachRunStandsAsAsked() throws {
        let client = try daemon.client()
        func orientations(_ orientation: Layoutd_V1_TextOrientation) throws -> [Layoutd_V1_GlyphOrientation] {
            try #require(try client.call(.layout(request(orientation))).layoutReply).runs.map(\.orientation)
        }
        #expect(try orientations(.mixed) == [.upright, .sideways, .upright])
        #expect(try orientations(.upright) == [.upright])
        #expect(try orientations(.sideways) == [.sideways])
        let error = try client.call(.layout(request(.UNRECOGNIZED(7)))).errorReply
        #expect(error?.code == .invalidArgument && error?.field == "layout.text_orientation", "\(String(describing: error))")
    }

    @Test func layoutctlTakesIt() throws {
        func column(_ orientation: String) throws -> (status: Int32, out: String) {
            let printed = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--vertical", "--width", "300",
                                                               "--height", "1000", "--font", "Noto Sans CJK JP", "--size", "20",
                                                               "--text-orientation", orientation, "縦ABC"])
            return (printed.status, printed.out + printed.err)
        }
        // Upright, each of the four takes a full em down the column: 80 points.
        #expect(try column("upright").out.contains("size 20.00 x 80.00"))
        #expect(try !column("mixed").out.contains("x 80.00"))
        let bogus = try column("diagonal")
        #expect(bogus.status != 0 && bogus.out.contains("--text-orientation must be mixed, upright or sideways"))
    }
}
