import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// Attachments through the real daemon: layoutctl's rows and JSON, pictures with and without
/// images, Type Mode, and hostile attachment requests refused by name.
@Suite struct AttachmentServerTests {
    static let text = "I \u{FFFC} NY \u{FFFC}"

    @Test func layoutctlPrintsARowPerAttachment() throws {
        let daemon = try Daemon()
        let result = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300",
                                                          "--attachment", "40x40:center", "--attachment", "24x24:bottom:Noto Serif@30",
                                                          Self.text])
        #expect(result.status == 0, "\(result.err)")
        let rows = result.out.split(separator: "\n")
        let header = try #require(rows.firstIndex { $0.hasPrefix("attachment  line") })
        #expect(rows.count == header + 3)
        #expect(rows[header + 1].hasPrefix("         0     0  [2,3)"))
        #expect(rows[header + 2].hasPrefix("         1     0  [7,8)"))
        let json = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--json",
                                                        "--attachment", "10x8+2", Self.text])
        #expect(json.status == 0, "\(json.err)")
        let reply = try Layoutd_V1_LayoutReply(jsonString: json.out)
        #expect(reply.attachments.count == 1 && reply.attachments[0].ascent == 8 && reply.attachments[0].descent == 2)
        let bad = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300",
                                                       "--attachment", "40x40:sideways", Self.text])
        #expect(bad.status != 0 && bad.err.contains("ALIGNMENT must be one of"), "\(bad.err)")
    }

    @Test func picturesDrawImagesAndPlaceholders() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        // A picture to put in a box: the daemon draws one.
        var source = Layoutd_V1_RenderRequest()
        source.layout = layoutRequest("★", width: 40, size: 30)
        source.scale = 1
        guard case .renderReply(let star) = try client.request(.render(source)) else { Issue.record("no picture"); return }
        var request = Layoutd_V1_RenderRequest()
        request.layout = layoutRequest(Self.text, width: 300, size: 24)
        request.layout.attachments = [Layoutd_V1_Attachment.with { $0.width = 40; $0.height = 40 },
                                      Layoutd_V1_Attachment.with { $0.width = 20; $0.height = 20; $0.alignment = .lineMiddle }]
        request.attachmentImages = [star.image]
        guard case .renderReply(let drawn) = try client.request(.render(request)) else { Issue.record("no render"); return }
        #expect(drawn.image.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // The same without the image: a placeholder instead, so a different picture of the same size.
        request.attachmentImages = []
        guard case .renderReply(let placeholder) = try client.request(.render(request)) else { Issue.record("no render"); return }
        #expect(placeholder.width == drawn.width && placeholder.height == drawn.height)
        #expect(placeholder.image != drawn.image)
        // Not a PNG, or a PNG that claims to be huge: refused by name, not decoded.
        request.attachmentImages = [Data("not a picture".utf8)]
        let notPNG = try client.call(.render(request)).errorReply
        #expect(notPNG?.field == "render.attachment_images[0]", "\(notPNG?.field ?? "no error")")
        var huge = [UInt8](star.image)
        huge.replaceSubrange(16..<24, with: [0, 1, 0, 0, 0, 1, 0, 0])  // IHDR: 65,536 x 65,536
        request.attachmentImages = [Data(huge)]
        let refused = try client.call(.render(request)).errorReply
        #expect(refused?.code == .invalidArgument && refused?.message.contains("4096") == true, "\(refused?.message ?? "")")
        // Small files that each declare 4096 x 4096: together past the pixel limit, refused before any is decoded.
        var large = [UInt8](star.image)
        large.replaceSubrange(16..<24, with: [0, 0, 0x10, 0, 0, 0, 0x10, 0])  // IHDR: 4,096 x 4,096
        request.attachmentImages = Array(repeating: Data(large), count: 5)
        let many = try client.call(.render(request)).errorReply
        #expect(many?.code == .resourceExhausted && many?.field == "render.attachment_images", "\(many?.message ?? "")")
    }

    /// The picture of a wide star drawn into a square box: each content mode draws it otherwise,
    /// and an unknown mode is refused by name, in a layout as in a render.
    @Test func contentModesReachTheRenderer() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var source = Layoutd_V1_RenderRequest()
        source.layout = layoutRequest("★★★", width: 120, size: 30)
        source.scale = 1
        guard case .renderReply(let stars) = try client.request(.render(source)) else { Issue.record("no picture"); return }
        var request = Layoutd_V1_RenderRequest()
        request.layout = layoutRequest(Self.text, width: 300, size: 24)
        request.layout.attachments = [Layoutd_V1_Attachment.with { $0.width = 40; $0.height = 40 }]
        request.attachmentImages = [stars.image]
        var pictures: Set<Data> = []
        for mode: Layoutd_V1_ContentMode in [.scaleToFill, .aspectFit, .aspectFill, .center] {
            request.layout.attachments[0].contentMode = mode
            guard case .renderReply(let drawn) = try client.request(.render(request)) else { Issue.record("no render"); return }
            pictures.insert(drawn.image)
        }
        #expect(pictures.count == 4)
        request.layout.attachments[0].contentMode = .UNRECOGNIZED(9)
        let refused = try client.call(.render(request)).errorReply
        #expect(refused?.code == .invalidArgument && refused?.field == "render.layout.attachments[0].content_mode", "\(refused?.field ?? "")")
        let layoutRefused = try client.call(.layout(request.layout)).errorReply
        #expect(layoutRefused?.field == "layout.attachments[0].content_mode", "\(layoutRefused?.field ?? "")")
    }

    @Test func hostileAttachmentsAreRefusedByName() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = layoutRequest(Self.text)
        request.attachments = [Layoutd_V1_Attachment.with { $0.width = .nan; $0.height = 10 }]
        #expect(try client.call(.layout(request)).errorReply?.field == "layout.attachments[0].width")
        request.attachments = Array(repeating: Layoutd_V1_Attachment.with { $0.width = 1; $0.height = 1 }, count: 3)
        #expect(try client.call(.layout(request)).errorReply?.field == "layout.attachments")
        request.attachments = [Layoutd_V1_Attachment.with { $0.width = 1; $0.height = 1e30 }]
        #expect(try client.call(.layout(request)).errorReply?.field == "layout.attachments[0].height")
        request.attachments = [Layoutd_V1_Attachment.with { $0.width = 1; $0.height = 1; $0.alignment = .fontTop
            $0.referenceFont.family = "No Such Family" }]
        let missing = try client.call(.layout(request)).errorReply
        #expect(missing?.code == .notFound && missing?.field == "layout.attachments[0].reference_font.family", "\(missing?.field ?? "")")
        request.attachments = [Layoutd_V1_Attachment.with { $0.width = 1; $0.height = 1; $0.alignment = .UNRECOGNIZED(99) }]
        #expect(try client.call(.layout(request)).errorReply?.field == "layout.attachments[0].alignment")
        #expect(daemon.process.isRunning)
    }

    @Test func typeModeRepliesCarryBoxesThatGrowWithTheirLine() throws {
        let daemon = try Daemon()
        var request = Layoutd_V1_JustifyRequest()
        request.text = "so \u{FFFC}\nhappy to see you all \u{FFFC}"
        request.preset = "strong"
        request.width = 300
        request.attachments = Array(repeating: Layoutd_V1_Attachment.with { $0.width = 1; $0.height = 1; $0.sizeInEms = true }, count: 2)
        guard case .justifyReply(let reply) = try daemon.client().request(.justify(request)) else { Issue.record("no reply"); return }
        #expect(reply.attachments.count == 2)
        for box in reply.attachments {
            #expect(abs(box.rect.width - reply.lineSizes[Int(box.lineIndex)]) < 0.01)
        }
        #expect(reply.attachments[0].rect.width > reply.attachments[1].rect.width)
    }
}
