import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Variable fonts through the daemon and layoutctl: the face's axes listed, axis values and named
/// instances in styles, the runs naming the values they were shaped at, and bad values refused.
@Suite struct VariableFontServerTests {
    static let inter = "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf"

    @Test func axesTravelAndAreRefusedByName() throws {
        try #require(FileManager.default.fileExists(atPath: Self.inter), "fonts-inter-variable is missing: scripts/setup.sh installs it")
        let daemon = try Daemon(arguments: ["--font", Self.inter])
        let client = try daemon.client()
        guard case .fontsReply(let fonts) = try client.request(.fonts(.init())) else { Issue.record("no fonts reply"); return }
        let face = try #require(fonts.faces.first { $0.family == "Inter" })
        #expect(face.axes.map(\.tag) == ["wght"] && face.axes[0].minimum == 100 && face.axes[0].maximum == 900)
        #expect(face.namedInstances.contains("Semi Bold"))

        var request = Layoutd_V1_LayoutRequest()
        request.text = "Variable"
        request.width = 400
        request.defaultStyle.family = "Inter"
        request.defaultStyle.size = 20
        guard case .layoutReply(let regular) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        #expect(regular.runs.allSatisfy { $0.variations.isEmpty && $0.fontID == face.fontID })
        request.defaultStyle.variations = [.with { $0.tag = "wght"; $0.value = 720 }]
        guard case .layoutReply(let heavy) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        #expect(heavy.runs[0].fontID == face.fontID)
        #expect(heavy.runs[0].variations.map(\.tag) == ["wght"] && heavy.runs[0].variations[0].value == 720)
        #expect(heavy.width > regular.width)
        // A span's named instance over part of the text.
        request.defaultStyle.variations = []
        request.spans = [.with { $0.range = .with { $0.start = 0; $0.length = 3 }; $0.style.namedInstance = "semibold" }]
        guard case .layoutReply(let spanned) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        #expect(spanned.runs.count == 2 && spanned.runs[0].variations.first?.value == 600 && spanned.runs[1].variations.isEmpty)
        // And drawn.
        var render = Layoutd_V1_RenderRequest()
        render.layout = request
        guard case .renderReply(let picture) = try client.request(.render(render)) else { Issue.record("no render reply"); return }
        #expect(picture.image.count > 100)

        func refusalOf(_ change: (inout Layoutd_V1_LayoutRequest) -> Void) throws -> Layoutd_V1_Error? {
            var bad = request
            change(&bad)
            return try refusal(client, .layout(bad))
        }
        let tag = try refusalOf { $0.defaultStyle.variations = [.with { $0.tag = "weight"; $0.value = 700 }] }
        #expect(tag?.code == .invalidArgument && tag?.field == "layout.default_style.variations[0].tag")
        let value = try refusalOf { $0.spans[0].style.variations = [.with { $0.tag = "wght"; $0.value = .nan }] }
        #expect(value?.code == .invalidArgument && value?.field == "layout.spans[0].style.variations[0].value")
        let named = try refusalOf { $0.spans[0].style.namedInstance = "Hairline" }
        #expect(named?.code == .invalidArgument && named?.message.contains("Hairline") == true, "\(String(describing: named))")

        let ctl = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--font", "Inter",
                                                       "--variations", "wght=650", "--json", "Variable"])
        #expect(ctl.status == 0 && ctl.out.contains("\"variations\""), "\(ctl.out)\(ctl.err)")
        let listed = try run(Daemon.binary("layoutctl"), ["fonts", "--socket", daemon.socketPath])
        #expect(listed.out.contains("axes: wght 100-900 (400)"), "\(listed.out)")
        let wrong = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--variations", "wght", "x"])
        #expect(wrong.status == 64 && wrong.err.contains("TAG=VALUE"))
    }
}
