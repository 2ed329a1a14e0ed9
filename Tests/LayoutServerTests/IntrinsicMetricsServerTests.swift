import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Intrinsic metrics and face metrics through the daemon and layoutctl: asked for, the reply
/// carries the widths and every run's bounds; not asked for, none.
@Suite struct IntrinsicMetricsServerTests {
    @Test func askedForTheReplyCarriesTheWidthsAndBounds() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Layoutd_V1_LayoutRequest()
        request.text = "Widths before a box\nsecond line"
        request.width = 100
        request.defaultStyle.size = 20
        guard case .layoutReply(let plain) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        #expect(plain.minContentWidth == 0 && plain.maxContentWidth == 0 && plain.runs.allSatisfy { $0.ascent == 0 })
        request.intrinsicMetrics = true
        guard case .layoutReply(let measured) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        // "Widths" is the widest word; "Widths before a box" the widest hard line, on two lines at 100.
        #expect(measured.minContentWidth > 40 && measured.minContentWidth < 100)
        #expect(measured.maxContentWidth > 100 && measured.maxContentWidth < 250)
        #expect(measured.lines.count > 2)
        guard case .fontsReply(let fonts) = try client.request(.fonts(.init())) else { Issue.record("no fonts"); return }
        for run in measured.runs {
            let face = try #require(fonts.faces.first { $0.fontID == run.fontID })
            let scale = run.size / Float(face.unitsPerEm)
            #expect(abs(run.ascent - Float(face.ascender) * scale) < 1e-3 && abs(run.descent - Float(face.descender) * scale) < 1e-3)
            #expect(abs(run.leading - Float(face.lineGap) * scale) < 1e-3)
        }
        // Noto Sans's OS/2: cap height 714, x-height 536 at 1,000 units per em.
        let noto = try #require(fonts.faces.first { $0.family == "Noto Sans" && $0.weight == 400 && !$0.italic })
        #expect(noto.capHeight == 714 && noto.xHeight == 536 && noto.ascender > noto.capHeight && noto.descender > 0)
        let ctl = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "100", "--metrics",
                                                       "Widths before a box"])
        #expect(ctl.status == 0 && ctl.out.contains("min-content width ") && ctl.out.contains("ascent  descent  leading"),
                "\(ctl.out)\(ctl.err)")
        let listed = try run(Daemon.binary("layoutctl"), ["fonts", "--socket", daemon.socketPath, "--metrics"])
        #expect(listed.status == 0 && listed.out.contains("cap height 714, x-height 536"), "\(listed.out)\(listed.err)")
    }
}

