import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// Image tags through the real daemon: geometry, hit-testing, toggle and reset, the moment of
/// the animation, pictures, layoutctl's rows, a configured style table, and bad input by name.
@Suite struct TagServerTests {
    static func tagsRequest(_ tags: [(x: Float, y: Float, style: UInt32, labels: [(String, String)])]) -> Layoutd_V1_TagsRequest {
        var request = Layoutd_V1_TagsRequest()
        request.photoWidth = 1080
        request.photoHeight = 1350
        request.tags = tags.map { tag in
            Layoutd_V1_ImageTag.with {
                $0.at = Layoutd_V1_Point.with { $0.x = tag.x; $0.y = tag.y }
                $0.style = tag.style
                $0.labels = tag.labels.map { label in Layoutd_V1_TagLabel.with { $0.name = label.0; $0.value = label.1 } }
            }
        }
        return request
    }

    static let sample = tagsRequest([(0.42, 0.61, 3, [("Nike", "Air Max 90"), ("¥899", "")]), (0.8, 0.2, 0, [("قهوة", "")])])

    @Test func theDaemonPlacesTagsAndReportsTheMoment() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        guard case .tagsReply(let reply) = try client.request(.tags(Self.sample)) else { Issue.record("no tags reply"); return }
        #expect(reply.tags.count == 2 && reply.tags[0].labels.count == 2)
        let tag = reply.tags[0]
        #expect(abs(tag.dot.x - 453.6) < 1e-3 && abs(tag.dot.y - 823.5) < 1e-3)
        // Style 3 for two labels: left slanted at 135° and 225°, 40 points out.
        let leader = tag.labels[0].leaderTo
        #expect(abs(leader.x - (453.6 - 40 * 0.70710678)) < 1e-3 && abs(leader.y - (823.5 - 40 * 0.70710678)) < 1e-3)
        #expect(tag.labels[0].side == "left" && tag.labels[0].text == "Nike Air Max 90" && !tag.labels[0].runs.isEmpty)
        #expect(reply.tags[1].labels[0].runs.contains { $0.bidiLevel == 1 }, "an Arabic label is laid out right to left")
        #expect(reply.phase == .shown && reply.state.textOpacity == 1 && abs(reply.state.shadowOpacity - 0.3) < 1e-6)
        #expect(reply.hide.map(\.property) == ["text_opacity", "stroke_end", "dot_opacity", "shadow_opacity"])
        #expect(reply.show.first?.property == "dot_opacity" && reply.show.last?.beginSeconds == 2, "1 s a phase, as the article animates")

        var moment = Self.sample
        moment.moment = Layoutd_V1_TagMoment.with {
            $0.events = [.with { $0.kind = .hide; $0.atSeconds = 0 }, .with { $0.kind = .show; $0.atSeconds = 0.1 },
                         .with { $0.kind = .show; $0.atSeconds = 1 }]
            $0.atSeconds = 1.45
            $0.phaseSeconds = 0.2
        }
        guard case .tagsReply(let later) = try client.request(.tags(moment)) else { Issue.record("no tags reply"); return }
        #expect(later.ignoredEvents == [1], "a show while hiding is ignored")
        #expect(later.phase == .showing && later.state.dotOpacity == 1 && later.state.strokeEnd == 1)
        #expect(later.state.textOpacity > 0 && later.state.textOpacity < 1, "the text fading in over [0.4, 0.6] s after the show")
    }

    /// A tag dragged past the photo's edge: refused by name as it is; with clamp_to_photo, drawn at
    /// the nearest point on the photo, which the reply gives; layoutctl's --clamp asks it.
    @Test func aTagPastTheEdgeIsClampedWhenAsked() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Self.tagsRequest([(1.2, 0.5, 0, [("Coat", "")])])
        let refused = try client.call(.tags(request)).errorReply
        #expect(refused?.code == .invalidArgument && refused?.field == "tags.tags[0].at.x", "\(refused?.field ?? "no error")")
        request.clampToPhoto = true
        guard case .tagsReply(let reply) = try client.request(.tags(request)) else { Issue.record("no tags reply"); return }
        #expect(reply.tags[0].clamped && reply.tags[0].at.x == 1 && reply.tags[0].at.y == 0.5)
        #expect(reply.tags[0].dot.x == 1080 && reply.tags[0].dot.y == 675)
    }

    @Test func hitTestingToggleAndReset() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var hit = Layoutd_V1_TagHitRequest()
        hit.tags = Self.sample
        hit.point = .with { $0.x = 455; $0.y = 822 }
        guard case .tagHitReply(let onDot) = try client.request(.tagHit(hit)) else { Issue.record("no hit reply"); return }
        #expect(onDot.part == .dot && onDot.tag == 0)
        guard case .tagsReply(let placed) = try client.request(.tags(Self.sample)) else { Issue.record("no tags reply"); return }
        let rect = placed.tags[0].labels[1].textRect
        hit.point = .with { $0.x = rect.x - 4.5; $0.y = rect.y + rect.height / 2 }
        guard case .tagHitReply(let onLabel) = try client.request(.tagHit(hit)) else { Issue.record("no hit reply"); return }
        #expect(onLabel.part == .label && onLabel.label == 1)
        // Once the text has faded, the label cannot be hit.
        hit.tags.moment = .with { $0.events = [.with { $0.kind = .hide }]; $0.atSeconds = 1.25 }
        guard case .tagHitReply(let faded) = try client.request(.tagHit(hit)) else { Issue.record("no hit reply"); return }
        #expect(faded.part != .label && faded.state.textOpacity == 0, "\(faded)")
        // 4.1 points from the dot's centre, on its ring: the dot (the leader's length is the hit
        // radius); asked for the drawn dot alone, nothing.
        let center = placed.tags[0].dot
        hit.tags.moment = Layoutd_V1_TagMoment()
        hit.point = .with { $0.x = center.x; $0.y = center.y + 4.1 }
        guard case .tagHitReply(let onRing) = try client.request(.tagHit(hit)) else { Issue.record("no hit reply"); return }
        #expect(onRing.part == .dot && onRing.tag == 0, "\(onRing)")
        hit.tags.metrics.dotHitRadius = .with { $0.value = 4 }
        guard case .tagHitReply(let strict) = try client.request(.tagHit(hit)) else { Issue.record("no hit reply"); return }
        #expect(strict.part == .none, "\(strict)")

        var toggle = Layoutd_V1_TagStyleRequest()
        toggle.labelCount = 3
        toggle.toggleFrom = 3
        guard case .tagStyleReply(let next) = try client.request(.tagStyle(toggle)) else { Issue.record("no style reply"); return }
        #expect(next.matched && next.style == 0 && next.styleCount == 4 && next.labels.map(\.angle) == [90, 0, 270])
        var reset = Layoutd_V1_TagStyleRequest()
        reset.labelCount = 3
        reset.reset.degrees = [135.2, 179.9, 225]
        guard case .tagStyleReply(let recognised) = try client.request(.tagStyle(reset)) else { Issue.record("no style reply"); return }
        #expect(recognised.matched && recognised.style == 3 && recognised.name == "left slanted")
        reset.reset.degrees = [135, 0, 225]
        guard case .tagStyleReply(let none) = try client.request(.tagStyle(reset)) else { Issue.record("no style reply"); return }
        #expect(!none.matched)
    }

    @Test func badTagRequestsAreRefusedByName() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var cases: [(Layoutd_V1_Envelope.OneOf_Body, String)] = []
        var tooMany = Self.sample
        tooMany.tags[0].labels += [.with { $0.name = "a" }, .with { $0.name = "b" }]
        cases.append((.tags(tooMany), "tags.tags[0].labels"))
        var none = Self.sample
        none.tags[1].labels = []
        cases.append((.tags(none), "tags.tags[1].labels"))
        var outside = Self.sample
        outside.tags[0].at.y = -0.1
        cases.append((.tags(outside), "tags.tags[0].at.y"))
        var empty = Self.sample
        empty.tags[0].labels[0].name = ""
        cases.append((.tags(empty), "tags.tags[0].labels[0].name"))
        var noStyle = Self.sample
        noStyle.tags[0].style = 4
        cases.append((.tags(noStyle), "tags.tags[0].style"))
        var badTable = Self.sample
        badTable.styleTableJson = #"{"styles": {"1": [{"labels": []}]}}"#
        cases.append((.tags(badTable), "tags.style_table_json.styles.1[0].labels"))
        var nanMetric = Self.sample
        nanMetric.metrics.slantRadius.value = .nan
        cases.append((.tags(nanMetric), "tags.metrics.slant_radius"))
        var unordered = Self.sample
        unordered.moment.events = [.with { $0.kind = .hide; $0.atSeconds = 2 }, .with { $0.kind = .show; $0.atSeconds = 1 }]
        cases.append((.tags(unordered), "tags.moment.events[1].at_seconds"))
        var render = Layoutd_V1_RenderRequest()
        render.tags = Self.sample
        render.animate = .hide
        cases.append((.render(render), "render.animate"))
        render.format = .svg
        render.photo = Data("not a picture".utf8)
        cases.append((.render(render), "render.photo"))
        var style = Layoutd_V1_TagStyleRequest()
        style.labelCount = 4
        style.toggleFrom = 0
        cases.append((.tagStyle(style), "tag_style.label_count"))
        for (body, field) in cases {
            let error = try client.call(body).errorReply
            #expect(error?.code == .invalidArgument && error?.field == field, "\(field): \(String(describing: error))")
        }
        // The daemon still answers.
        guard case .tagsReply = try client.request(.tags(Self.sample)) else { Issue.record("no tags reply after errors"); return }
    }

    @Test func picturesOfTagsAndTheAnimation() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var render = Layoutd_V1_RenderRequest()
        render.tags = Self.sample
        render.scale = 1
        for format in [Layoutd_V1_RenderRequest.Format.png, .svg, .pdf] {
            render.format = format
            guard case .renderReply(let picture) = try client.request(.render(render)) else { Issue.record("no picture"); return }
            #expect(picture.width == 1080 && picture.height == 1350)
            let magic: [UInt8] = format == .png ? [0x89, 0x50] : format == .pdf ? Array("%PDF".utf8) : Array("<?xml".utf8)
            #expect(picture.image.starts(with: magic), "\(format)")
        }
        // Over a photo: a PNG the daemon drew, as a client's photo would be.
        render.format = .png
        let photo = try #require({ () throws -> Data? in
            guard case .renderReply(let reply) = try client.request(.render(render)) else { return nil }
            return reply.image
        }())
        render.format = .png
        let plain = try client.request(.render(render))
        render.photo = photo
        let over = try client.request(.render(render))
        #expect(plain != over)
        render.photo = Data()
        render.format = .svg
        render.animate = .show
        guard case .renderReply(let animated) = try client.request(.render(render)) else { Issue.record("no animation"); return }
        let svg = String(decoding: animated.image, as: UTF8.self)
        #expect(svg.contains("@keyframes stroke_end-show") && svg.contains(".text{animation:text_opacity-show 1s cubic-bezier(0,0,.58,1) 2s both}"))
    }

    @Test func layoutctlPrintsTheIssuesExampleAndAConfiguredTable() throws {
        let table = FileManager.default.temporaryDirectory.appendingPathComponent("tag-styles-\(getpid()).json")
        try Data(#"{"styles": {"1": [{"name": "steep", "labels": [{"angle": 60, "line": "slanted", "side": "right"}]}, {"name": "flat", "labels": [{"angle": 0, "line": "straight", "side": "right"}]}]}}"#.utf8).write(to: table)
        defer { try? FileManager.default.removeItem(at: table) }
        let daemon = try Daemon(arguments: ["--tag-styles", table.path])
        let ctl = Daemon.binary("layoutctl")
        let example = try run(ctl, ["tags", "--socket", daemon.socketPath, "--photo", "1080x1350", "--at", "0.42,0.61",
                                    "--label", "Nike|Air Max 90", "--label", "¥899", "--style", "3"])
        // The configured table has no style for two labels: the request says which field.
        #expect(example.status == 65 && example.err.contains("tags.tags[0].style"), "\(example.err)")
        let shipped = try run(ctl, ["tags", "--socket", daemon.socketPath, "--photo", "1080x1350", "--at", "0.42,0.61",
                                    "--label", "Nike|Air Max 90", "--label", "¥899", "--style", "3",
                                    "--style-table", TagServerTests.shippedTable])
        #expect(shipped.status == 0, "\(shipped.err)")
        let rows = shipped.out.split(separator: "\n").map(String.init)
        #expect(rows.contains { $0.hasPrefix("  0  dot          453.60,823.50") })
        #expect(rows.contains { $0.contains("leader 1") && $0.contains("225°") })
        #expect(rows.contains { $0.contains("label 0") && $0.contains("\"Nike Air Max 90\"") })
        let configured = try run(ctl, ["tags", "toggle", "--socket", daemon.socketPath, "--label-count", "1", "--style", "1"])
        #expect(configured.out.hasPrefix("style 0 of 2 (steep): 60 slanted right"), "\(configured.out)\(configured.err)")
        let hit = try run(ctl, ["tags", "hit", "--socket", daemon.socketPath, "--at", "0.5,0.5", "--label", "x", "--at-point", "540,676"])
        #expect(hit.out == "tag 0 dot\n", "\(hit.out)\(hit.err)")
        let json = try run(ctl, ["tags", "--socket", daemon.socketPath, "--at", "0.5,0.5", "--label", "x", "--style", "1", "--json"])
        let reply = try Layoutd_V1_TagsReply(jsonString: json.out)
        #expect(reply.tags.first?.labels.first?.angle == 0)
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("tags-\(getpid()).svg")
        defer { try? FileManager.default.removeItem(at: svg) }
        let animated = try run(ctl, ["tags", "--socket", daemon.socketPath, "--at", "0.5,0.5", "--label", "x", "--animate", "hide", "-o", svg.path])
        let written = try String(contentsOf: svg, encoding: .utf8)
        #expect(animated.status == 0 && written.contains("@keyframes"), "\(animated.err)")
    }

    /// A tag switching style over the wire: placed in both styles, the switch's keyframes in
    /// the reply, drawn as an SVG whose leaving labels fade and retract while the arriving
    /// ones grow and fade in; refused where it cannot be drawn or is not an event.
    @Test func aTagSwitchesStyleOverTheWireAndInAnAnimatedPicture() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Self.sample
        request.tags[0].switchTo.style = 0
        guard case .tagsReply(let reply) = try client.request(.tags(request)) else { Issue.record("no tags reply"); return }
        let tag = reply.tags[0]
        #expect(tag.style == 3 && tag.hasSwitched && tag.switched.style == 0 && !reply.tags[1].hasSwitched)
        // Style 0 for two labels: straight up and to the right, as the tag in style 0 alone.
        var alone = Self.sample
        alone.tags[0].style = 0
        guard case .tagsReply(let still) = try client.request(.tags(alone)) else { Issue.record("no tags reply"); return }
        #expect(tag.switched.labels == still.tags[0].labels && tag.switched.bounds == still.tags[0].bounds)
        #expect(tag.labels.map(\.angle) != tag.switched.labels.map(\.angle))
        #expect(reply.leavingKeyframes.map(\.property) == ["text_opacity", "stroke_end"])
        #expect(reply.arrivingKeyframes.map(\.property) == ["stroke_end", "text_opacity"])
        #expect(reply.arrivingKeyframes.map(\.beginSeconds) == [2, 3], "1 s a phase: lines, then text, after the leaving half")

        var render = Layoutd_V1_RenderRequest()
        render.tags = request
        render.format = .svg
        render.animate = .switch
        guard case .renderReply(let animated) = try client.request(.render(render)) else { Issue.record("no animation"); return }
        let svg = String(decoding: animated.image, as: UTF8.self)
        #expect(svg.contains(".text-leaving{animation:text_opacity-leaving 1s cubic-bezier(0,0,.58,1) 0s both}"))
        #expect(svg.contains(".line-arriving{animation:stroke_end-arriving 1s cubic-bezier(0,0,.58,1) 2s both}"))
        #expect(svg.components(separatedBy: "class=\"line-leaving\"").count - 1 == 2, "both labels of the switching tag leave")
        #expect(svg.components(separatedBy: "class=\"line-arriving\"").count - 1 == 2)
        #expect(svg.components(separatedBy: "<title>Nike Air Max 90</title>").count - 1 == 2, "drawn in both styles")
        #expect(svg.components(separatedBy: "<title>قهوة</title>").count - 1 == 1, "the other tag holds still, once")
        #expect(!svg.contains("class=\"dot\""), "the dot does not animate")

        var cases: [(Layoutd_V1_Envelope.OneOf_Body, String)] = []
        var png = render
        png.format = .png
        cases.append((.render(png), "render.animate"))
        var nothingSwitches = render
        nothingSwitches.tags = Self.sample
        cases.append((.render(nothingSwitches), "render.animate"))
        var missing = request
        missing.tags[0].switchTo.style = 9
        cases.append((.tags(missing), "tags.tags[0].switch_to.style"))
        var event = request
        event.moment.events = [.with { $0.kind = .switch; $0.atSeconds = 0 }]
        cases.append((.tags(event), "tags.moment.events[0].kind"))
        for (body, field) in cases {
            let error = try client.call(body).errorReply
            #expect(error?.code == .invalidArgument && error?.field == field, "\(field): \(String(describing: error))")
        }

        let ctl = Daemon.binary("layoutctl")
        let table = try run(ctl, ["tags", "--socket", daemon.socketPath, "--at", "0.42,0.61", "--label", "Nike|Air Max 90",
                                  "--style", "1", "--switch-to", "0", "--tag", "0.8,0.2@0>2:¥899"])
        #expect(table.status == 0, "\(table.err)")
        #expect(table.out.contains("switch 0") && table.out.contains("style 0: 0°") && table.out.contains("style 2: 45°"), "\(table.out)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("switch-\(getpid()).svg")
        defer { try? FileManager.default.removeItem(at: file) }
        let drawn = try run(ctl, ["tags", "--socket", daemon.socketPath, "--at", "0.5,0.5", "--label", "x", "--switch-to", "1",
                                  "--animate", "switch", "-o", file.path])
        let written = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        #expect(drawn.status == 0 && written.contains("@keyframes text_opacity-arriving"), "\(drawn.err)")
        let stray = try run(ctl, ["tags", "--socket", daemon.socketPath, "--switch-to", "1"])
        #expect(stray.status != 0 && stray.err.contains("--switch-to belongs to the tag at --at"), "\(stray.err)")
    }

    static let shippedTable = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("data/tag-styles.json").path
}

/// Tag requests are work like layouts: run on the pool under the request's budget.
@Suite struct TagBudgetTests {
    @Test func aCostlyTagRequestMeetsItsDeadline() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Layoutd_V1_TagsRequest()
        request.photoWidth = 1080
        request.photoHeight = 1350
        request.tags = (0..<256).map { k in .with {
            $0.at = .with { $0.x = Float(k % 16) / 16; $0.y = Float(k / 16) / 16 }
            $0.labels = (0..<3).map { _ in .with { $0.name = String(repeating: "long label ", count: 45) } }
        } }
        let reply = try client.call(.tags(request), deadlineMs: 1)
        #expect(reply.errorReply?.code == .deadlineExceeded, "\(reply.errorReply?.message ?? "answered")")
        // Without the deadline it is answered in full.
        guard case .tagsReply(let placed) = try client.call(.tags(request)).body else { Issue.record("no tags reply"); return }
        #expect(placed.tags.count == 256)
    }
}
