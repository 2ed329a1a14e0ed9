import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// An AAT font's `trak` tracking through a real daemon: at the text's size, at `optical_size`,
/// or off with `fixed_optical_size`, as hb-shape --font-ptem gives it; a bad optical size
/// refused by name; layoutctl's --optical-size.
@Suite struct TrackingServerTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("LayoutEngineTests/HarfBuzzInHouse/fonts/TRAK.ttf").path
    let daemon: Daemon
    init() throws { daemon = try Daemon() }

    func request(size: Float) throws -> Layoutd_V1_LayoutRequest {
        var request = layoutRequest("ABC", width: 100_000)
        request.fonts = [.with { $0.family = "Trak"; $0.data = try! Data(contentsOf: URL(fileURLWithPath: Self.path)) }]
        request.defaultStyle.family = "Trak"
        request.defaultStyle.size = size
        return request
    }

    /// The reply's advances in the font's 1,000 units.
    func advances(_ request: Layoutd_V1_LayoutRequest, client: LayoutClient) throws -> [Int] {
        let reply = try #require(try client.call(.layout(request)).layoutReply)
        return reply.runs.flatMap(\.advances).map { Int(saturating: ($0 * 1000 / request.defaultStyle.size).rounded()) }
    }

    @Test func tracksAsHBShapeAtThePtem() throws {
        let client = try daemon.client()
        guard let at24 = try HBShape.entries("ABC", ["--no-glyph-names", "--no-clusters", "--font-funcs=ot", "--font-ptem=24",
                                                     "--font-file=\(Self.path)"]) else {
            Issue.record("hb-shape is missing")
            return
        }
        let expected = at24.map { Int($0.split(separator: "+")[1])! }
        #expect(expected == [986, 986, 986])
        #expect(try advances(try request(size: 24), client: client) == expected)
        var designedFor24 = try request(size: 48)
        designedFor24.defaultStyle.opticalSize = 24
        #expect(try advances(designedFor24, client: client) == expected)
        var fixed = try request(size: 24)
        fixed.defaultStyle.fixedOpticalSize = true
        #expect(try advances(fixed, client: client) == [1000, 1000, 1000])
        for bad: Float in [-3, .nan, 20_000] {
            var refused = try request(size: 24)
            refused.defaultStyle.opticalSize = bad
            let error = try client.call(.layout(refused)).errorReply
            #expect(error?.code == .invalidArgument && error?.field == "layout.default_style.optical_size", "\(String(describing: error))")
        }
    }

    @Test func layoutctlSetsTheOpticalSize() throws {
        func width(_ extra: [String]) throws -> String {
            let printed = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "100000",
                                                               "--font-file", Self.path, "--font", "TestTRAK", "--size", "72"] + extra + ["ABC"])
            #expect(printed.status == 0, "\(printed.err)")
            return printed.out
        }
        // 3 glyphs of 929 units at 72 points; of 986 designed for 24; of 1,000 untracked.
        #expect(try width([]).contains("200.66"))
        #expect(try width(["--optical-size", "24"]).contains("212.98"))
        #expect(try width(["--fixed-optical-size"]).contains("216.00"))
    }
}
