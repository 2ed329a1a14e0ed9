import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Breaking strategies and auto-size through the daemon and layoutctl, and their refusals.
@Suite struct TypographyServerTests {
    @Test func strategiesTravelAndBreakTextThatFlows() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Layoutd_V1_LayoutRequest()
        request.text = "A title of several words that wraps onto a second short line"
        request.width = 300
        request.defaultStyle.size = 22
        guard case .layoutReply(let greedy) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        request.breakStrategy = .balanced
        guard case .layoutReply(let balanced) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        #expect(balanced.lines.count == greedy.lines.count && greedy.lines.count >= 2)
        let spread = { (reply: Layoutd_V1_LayoutReply) in reply.lines.map(\.width).max()! - reply.lines.map(\.width).min()! }
        #expect(spread(balanced) < spread(greedy), "balanced \(spread(balanced)), greedy \(spread(greedy))")
        // Around an exclusion each line has its own slot: balanced keeps greedy's line count and
        // fills the slots more evenly; total fit keeps the count too; every line fits its slot.
        request.exclusions = [.with { $0.shape.rect = .with { $0.y = 30; $0.width = 120; $0.height = 40 } }]
        request.text = "Around an exclusion each line of this caption has a slot of its own width, and balanced breaking evens them"
        var flowed: [Layoutd_V1_BreakStrategy: Layoutd_V1_LayoutReply] = [:]
        for strategy in [Layoutd_V1_BreakStrategy.greedy, .balanced, .optimal] {
            request.breakStrategy = strategy
            guard case .layoutReply(let reply) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
            #expect(reply.lines.allSatisfy { $0.width <= $0.fragmentRect.width + 0.01 }, "\(strategy)")
            flowed[strategy] = reply
        }
        let fill = { (reply: Layoutd_V1_LayoutReply) in reply.lines.dropLast().map { $0.width / $0.fragmentRect.width } }
        let (greedyFill, balancedFill) = (fill(flowed[.greedy]!), fill(flowed[.balanced]!))
        #expect(flowed[.balanced]!.lines.count == flowed[.greedy]!.lines.count && greedyFill.count >= 3)
        #expect(flowed[.optimal]!.lines.count == flowed[.greedy]!.lines.count)
        #expect(balancedFill.min()! > greedyFill.min()!, "balanced \(balancedFill), greedy \(greedyFill)")
        #expect(flowed[.balanced]!.lines.map(\.range) != flowed[.greedy]!.lines.map(\.range))
        let ctl = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--size", "22",
                                                       "--break", "balanced", request.text])
        #expect(ctl.status == 0, "\(ctl.err)")
        let around = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--size", "22",
                                                          "--break", "optimal", "--exclude", "rect:0,30,120,40", request.text])
        #expect(around.status == 0, "\(around.err)")
        let wrong = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--break", "best", "x"])
        #expect(wrong.status == 64 && wrong.err.contains("greedy, balanced or optimal"))
    }

    @Test func autoSizeTravelsAndIsRefusedWithoutABox() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Layoutd_V1_LayoutRequest()
        request.text = "A caption shrunk to fit one line"
        request.width = 200
        request.maxLines = 1
        request.defaultStyle.size = 30
        request.autoSize = .with { $0.minScale = 0.3 }
        guard case .layoutReply(let fitted) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        #expect(fitted.appliedScale > 0.3 && fitted.appliedScale < 1 && fitted.lines.count == 1 && !fitted.lines[0].truncated)
        #expect(abs(fitted.runs[0].size - 30 * fitted.appliedScale) < 0.01)
        request.maxLines = 0
        do {
            _ = try client.request(.layout(request))
            Issue.record("auto-size without a box was not refused")
        } catch ClientError.server(let error) {
            #expect(error.code == .invalidArgument && error.field == "layout.auto_size")
        }
        let ctl = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "200", "--size", "30",
                                                       "--max-lines", "1", "--auto-size", "0.3:1", request.text])
        #expect(ctl.status == 0 && ctl.out.contains("auto-size: scale "), "\(ctl.out)\(ctl.err)")
    }

    @Test func paragraphStylesTravel() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Layoutd_V1_LayoutRequest()
        request.text = "One paragraph that wraps over two lines or more here.\nAnother."
        request.width = 240
        request.defaultStyle.size = 18
        request.paragraphStyle = .with {
            $0.firstLineHeadIndent = 24
            $0.headIndent = 8
            $0.spacingAfter = 12
        }
        guard case .layoutReply(let reply) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        #expect(reply.lines.count >= 3)
        #expect(abs(reply.lines[0].baselineOrigin.x - 24) < 1e-4 && abs(reply.lines[1].baselineOrigin.x - 8) < 1e-4)
        let last = reply.lines[reply.lines.count - 1], before = reply.lines[reply.lines.count - 2]
        #expect(abs(last.usedRect.y - (before.usedRect.y + before.usedRect.height + 12)) < 1e-3)
        request.paragraphStyle.maxLineHeight = 1
        request.paragraphStyle.minLineHeight = 5
        do {
            _ = try client.request(.layout(request))
            Issue.record("a maximum line height below the minimum was not refused")
        } catch ClientError.server(let error) {
            #expect(error.field == "layout.paragraph_style.max_line_height")
        }
        let ctl = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "240", "--indent", "24,8,0",
                                                       "--paragraph-spacing", "0,12", "One\\nTwo"])
        #expect(ctl.status == 0, "\(ctl.err)")
    }
}

/// Hyphenation through the daemon and layoutctl: hyphen runs in the reply, limits refused by name.
@Suite struct HyphenationServerTests {
    @Test func hyphensTravelAndBadLimitsAreRefused() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Layoutd_V1_LayoutRequest()
        request.text = "Internationalization requires extraordinary responsibility."
        request.width = 120
        request.defaultStyle.size = 16
        request.defaultStyle.language = "en"
        request.hyphenation = .with { $0.minWordLength = 6 }
        guard case .layoutReply(let reply) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        let hyphens = reply.runs.filter(\.hyphen)
        #expect(!hyphens.isEmpty && hyphens.allSatisfy { $0.range.length == 0 && !$0.truncationToken && $0.glyphIds.count == 1 })
        request.hyphenation.maxConsecutiveLines = 26
        do {
            _ = try client.request(.layout(request))
            Issue.record("a limit of 5,000 lines was accepted")
        } catch ClientError.server(let error) {
            #expect(error.code == .invalidArgument && error.field == "layout.hyphenation.max_consecutive_lines")
        }
        let ctl = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "120", "--size", "16",
                                                       "--hyphenate", request.text])
        #expect(ctl.status == 0 && ctl.out.contains("‐"), "\(ctl.out)\(ctl.err)")
    }
}

/// Tab stops through the daemon and layoutctl, and bad stops refused by name.
@Suite struct TabStopServerTests {
    @Test func stopsTravelAndBadOnesAreRefused() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Layoutd_V1_LayoutRequest()
        request.text = "Total\t12.50"
        request.width = 300
        request.defaultStyle.size = 20
        request.paragraphStyle.tabStops = [.with { $0.location = 200; $0.alignment = .decimal }]
        guard case .layoutReply(let reply) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        let first = try #require(reply.runs.first)
        let dot = try #require(first.clusters.firstIndex(of: 8))
        #expect(abs(first.positions[dot * 2] - 200) < 0.01)
        request.paragraphStyle.tabStops[0].decimalSeparator = "ab"
        do {
            _ = try client.request(.layout(request))
            Issue.record("a two-character separator was accepted")
        } catch ClientError.server(let error) {
            #expect(error.code == .invalidArgument && error.field == "layout.paragraph_style.tab_stops[0].decimal_separator")
        }
        request.paragraphStyle.tabStops[0] = .with { $0.location = .infinity }
        do {
            _ = try client.request(.layout(request))
            Issue.record("an infinite stop was accepted")
        } catch ClientError.server(let error) {
            #expect(error.code == .invalidArgument && error.field == "layout.paragraph_style.tab_stops[0].location")
        }
        let ctl = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--tabs", "100,200:end",
                                                       "--json", "a\tb\tc"])
        #expect(ctl.status == 0, "\(ctl.err)")
        let wrong = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--tabs", "100:left", "x"])
        #expect(wrong.status == 64 && wrong.err.contains("LOCATION"))
    }
}

/// Lists and hanging punctuation through the daemon and layoutctl.
@Suite struct ListServerTests {
    @Test func markersTravelAndBadListsAreRefused() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Layoutd_V1_LayoutRequest()
        request.text = "Milk\nEggs\nBread"
        request.width = 300
        request.paragraphStyle.list = .with { $0.marker = .decimal; $0.indent = 30 }
        request.paragraphStyle.hangingPunctuation = true
        guard case .layoutReply(let reply) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        let markers = reply.runs.filter(\.listMarker)
        #expect(markers.count == 3 && markers.allSatisfy { $0.range.length == 0 && !$0.truncationToken })
        #expect(reply.runs.filter { !$0.listMarker }.allSatisfy { abs($0.positions[0] - 30) < 0.01 })
        request.paragraphStyle.list = .with { $0.marker = .bullet; $0.bullet = String(repeating: "•", count: 17) }
        do {
            _ = try client.request(.layout(request))
            Issue.record("a 17-unit bullet was accepted")
        } catch ClientError.server(let error) {
            #expect(error.code == .invalidArgument && error.field == "layout.paragraph_style.list.bullet")
        }
        let ctl = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--list", "upper-roman",
                                                       "--hanging-punctuation", "one\ntwo"])
        #expect(ctl.status == 0, "\(ctl.err)")
        let wrong = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300", "--list", "stars", "x"])
        #expect(wrong.status == 64 && wrong.err.contains("lower-roman"))
    }
}
