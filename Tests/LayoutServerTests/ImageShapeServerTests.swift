import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// An exclusion from a picture's alpha (CSS `shape-outside: url()`) through the daemon: text
/// flows around what the picture shows, and bad pictures and thresholds are named.
@Suite struct ImageShapeServerTests {
    static let words = String(repeating: "Text runs beside the round picture and hugs its edge ", count: 6)

    /// The lines' starts beside the top 150 points of a layout around `shape`.
    static func starts(_ client: LayoutClient, _ shape: Layoutd_V1_Shape) throws -> [Float] {
        var request = layoutRequest(Self.words, width: 300, size: 12)
        request.exclusions = [.with { $0.shape = shape }]
        let reply = try #require(try client.call(.layout(request)).layoutReply)
        return reply.lines.filter { $0.baselineOrigin.y < 150 }.map(\.baselineOrigin.x)
    }

    @Test func textFlowsAroundThePicturesSilhouette() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        // A black disc on a clear canvas, drawn by the daemon: U+25CF at 150 points.
        var disc = Layoutd_V1_RenderRequest()
        disc.layout = layoutRequest("\u{25CF}", width: 200, size: 150)
        disc.canvas = .with { $0.transparency = 1 }
        disc.scale = 1
        guard case .renderReply(let picture) = try client.request(.render(disc)) else { Issue.record("no picture"); return }
        let rect = Layoutd_V1_Rect.with { $0.width = 150; $0.height = 150 }
        let round = try Self.starts(client, .with { $0.image = .with { $0.png = picture.image; $0.rect = rect } })
        let box = try Self.starts(client, .with { $0.rect = rect })
        // Beside the picture's box every line starts at its right edge; beside its silhouette
        // some start further left, where the disc is narrower than the box (or left of it).
        #expect(!box.isEmpty && box.allSatisfy { $0 >= 150 })
        #expect(!round.isEmpty && round.contains { $0 < 140 }, "\(round)")
        // A picture clear everywhere excludes nothing: the first line starts at 0.
        var clear = disc
        clear.layout.text = " "
        guard case .renderReply(let empty) = try client.request(.render(clear)) else { Issue.record("no picture"); return }
        #expect(try Self.starts(client, .with { $0.image = .with { $0.png = empty.image; $0.rect = rect } }).first == 0)
        // layoutctl reads the picture from a file: the same lines as the request above.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("disc-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try picture.image.write(to: file)
        let json = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--size", "12", "--json",
                                                        "--exclude", "image:\(file.path)@0,0,150,150", Self.words])
        #expect(json.status == 0, "\(json.err)")
        let reply = try Layoutd_V1_LayoutReply(jsonString: json.out)
        #expect(reply.lines.filter { $0.baselineOrigin.y < 150 }.map(\.baselineOrigin.x) == round)
    }

    @Test func badPicturesAndThresholdsAreNamed() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        let rect = Layoutd_V1_Rect.with { $0.width = 100; $0.height = 100 }
        let cases: [(String, Layoutd_V1_ImageShape)] = [
            ("layout.exclusions[0].shape.image.png", .with { $0.png = Data("not a png".utf8); $0.rect = rect }),
            ("layout.exclusions[0].shape.image.threshold", .with { $0.threshold = 1.5; $0.rect = rect }),
            ("layout.exclusions[0].shape.image.rect", .with { $0.rect = .with { $0.width = 0; $0.height = 10 } }),
            ("layout.exclusions[0].shape.image.rect", .with { $0.rect = .with { $0.x = 900_000; $0.width = 900_000; $0.height = 10 } }),
        ]
        for (field, image) in cases {
            var request = layoutRequest(Self.words, width: 300, size: 12)
            request.exclusions = [.with { $0.shape = .with { $0.image = image } }]
            let error = try client.call(.layout(request)).errorReply
            #expect(error?.field == field, "\(field): \(String(describing: error))")
        }
        // Two pictures that declare 4,096 × 4,096 pixels each: past what one request may decode,
        // refused before either is decoded.
        guard case .renderReply(let small) = try client.request(.render(.with { $0.layout = layoutRequest("x", width: 20) })) else {
            Issue.record("no picture"); return
        }
        var large = [UInt8](small.image)
        large.replaceSubrange(16..<24, with: [0, 0, 0x10, 0, 0, 0, 0x10, 0])
        var request = layoutRequest(Self.words, width: 300, size: 12)
        request.exclusions = [Layoutd_V1_Exclusion](repeating: .with { $0.shape = .with { $0.image = .with { $0.png = Data(large); $0.rect = rect } } },
                                                    count: 2)
        let error = try client.call(.layout(request)).errorReply
        #expect(error?.code == .resourceExhausted && error?.field == "layout.exclusions[1].shape.image.png", "\(String(describing: error))")
        #expect(try client.call(.layout(layoutRequest("still here"))).layoutReply != nil)
    }
}
