import Foundation
import LayoutdClient
import LayoutWire
import Testing

@Suite struct TypeModeServerTests {
    let daemon: Daemon
    init() throws { daemon = try Daemon() }

    func justify(_ configure: (inout Layoutd_V1_JustifyRequest) -> Void) throws -> Layoutd_V1_Envelope {
        var request = Layoutd_V1_JustifyRequest()
        request.text = "so\nHAPPY\nto see you all"
        request.width = 300
        configure(&request)
        return try daemon.client().call(.justify(request))
    }

    @Test(arguments: ["modern", "neon", "typewriter", "strong", "classic"])
    func everyPresetLaysOutAndDecorates(_ preset: String) throws {
        let reply = try justify { $0.preset = preset }
        guard case .justifyReply(let body) = reply.body else { Issue.record("\(reply)"); return }
        #expect(body.preset == preset)
        #expect(body.lines.count == body.lineSizes.count)
        #expect(body.clamped.count == body.lineSizes.count, "every line says whether its size was clamped")
        #expect(body.lines.allSatisfy { $0.width <= 300 + 1e-3 })
        let expectsBackground = ["typewriter", "strong", "classic"].contains(preset)
        #expect(body.backgrounds.isEmpty == !expectsBackground)
        if preset == "neon" {
            #expect(body.effects.glowRadius > 0)
            // Interior = palette mixed 65% toward white: default palette (1, 0.2, 0.6).
            #expect(abs(body.effects.textColor.green - (0.2 + 0.8 * 0.65)) < 1e-6)
        }
        for shape in body.backgrounds { #expect(shape.svgPath.hasPrefix("M") && shape.svgPath.hasSuffix("Z")) }
    }

    @Test func fieldsOverrideThePreset() throws {
        let reply = try justify {
            $0.preset = "strong"
            $0.backgrounds = [.with { $0.kind = .block; $0.geometry.cornerRadius = 4 }]
            $0.minSize = 20
            $0.maxSize = 30
        }
        guard case .justifyReply(let body) = reply.body else { Issue.record("\(reply)"); return }
        #expect(body.backgrounds.count == 1 && body.backgrounds[0].rects.count == 1)
        #expect(body.lineSizes.allSatisfy { $0 >= 20 - 1e-4 && $0 <= 30 + 1e-4 })
    }

    @Test func hostileJustifyRequestsNameTheField() throws {
        let cases: [(String, (inout Layoutd_V1_JustifyRequest) -> Void)] = [
            ("justify.min_size", { $0.minSize = 40; $0.maxSize = 20 }),
            ("justify.width", { $0.width = 0 }),
            ("justify.width", { $0.width = -5 }),
            ("justify.max_size", { $0.maxSize = -1 }),
            ("justify.min_size", { $0.minSize = .nan }),
            ("justify.preset", { $0.preset = "glitter" }),
            ("justify.backgrounds[0].geometry.horizontal_padding", { $0.backgrounds = [.with { $0.kind = .perLine; $0.geometry.horizontalPadding = -2 }] }),
            ("justify.backgrounds[0].range", { $0.backgrounds = [.with { $0.kind = .highlight; $0.range = .with { $0.start = 2; $0.length = 500 } }] }),
            ("justify.backgrounds[0].kind", { $0.backgrounds = [.init()] }),
            ("justify.color.red", { $0.color = .with { $0.red = 3 } }),
            ("justify.alignment", { $0.alignment = .justified }),
            ("justify.writing_mode", { $0.writingMode = .UNRECOGNIZED(7) }),
            ("justify.text_orientation", { $0.writingMode = .verticalRl; $0.textOrientation = .UNRECOGNIZED(-3) }),
            ("justify.text_combine_upright", { $0.writingMode = .verticalRl; $0.textCombineUpright = .max }),
        ]
        for (field, configure) in cases {
            let reply = try justify(configure)
            #expect(reply.errorReply?.field == field, "\(field): \(reply)")
            #expect(reply.errorReply?.code == .invalidArgument)
        }
        // A radius larger than a line is clamped, not refused.
        let clamped = try justify { $0.backgrounds = [.with { $0.kind = .connected; $0.geometry.cornerRadius = 1000 }] }
        guard case .justifyReply(let body) = clamped.body else { Issue.record("\(clamped)"); return }
        #expect(body.backgrounds.count == 1)
    }

    /// Vertical Type Mode through the daemon: columns each filling the width down the page, their
    /// per-line backgrounds made in the lines' frame and turned with them, on the page.
    @Test(arguments: [Layoutd_V1_WritingMode.verticalRl, .verticalLr])
    func verticalStoriesStandInColumnsWithTheirBackgrounds(_ mode: Layoutd_V1_WritingMode) throws {
        let reply = try justify {
            $0.text = "今日は\n最高の一日\nありがとう、また会いましょう"
            $0.style.family = "Noto Sans CJK JP"
            $0.writingMode = mode
            $0.backgrounds = [.with { $0.kind = .perLine; $0.geometry.horizontalPadding = 6; $0.geometry.verticalPadding = 4 }]
        }
        guard case .justifyReply(let body) = reply.body else { Issue.record("\(reply)"); return }
        #expect(body.writingMode == mode)
        #expect(body.lines.count == 3 && body.lineSizes.count == 3)
        #expect(abs(body.height - 300) < 0.01, "the longest column is the width lines fill")
        for (index, (line, size)) in zip(body.lines, body.lineSizes).enumerated() where !body.clamped[index] {
            #expect(abs(line.width - 300) < 0.01, "column \(index) fills its length")
            #expect(abs(line.usedRect.width - size) < 1e-3, "column \(index) is an em thick")
        }
        let xs = body.lines.map(\.usedRect.x)
        #expect(xs == (mode == .verticalRl ? xs.sorted(by: >) : xs.sorted()), "columns stack the mode's way")
        // One rounded rect a column, around its text: padded along it (horizontal padding) to
        // the text's ink, across it (vertical padding) to its edges, adjacent columns' rects
        // meeting at the boundary between them as adjacent lines' do.
        #expect(body.backgrounds.count == 1)
        let rects = body.backgrounds[0].rects
        #expect(rects.count == body.lines.count)
        let outer = (mode == .verticalRl ? body.lines.first : body.lines.last)!.usedRect
        let inner = (mode == .verticalRl ? body.lines.last : body.lines.first)!.usedRect
        for (index, (rect, line)) in zip(rects, body.lines).enumerated() {
            let (column, size) = (line.usedRect, body.lineSizes[index])
            #expect(rect.height > rect.width)
            let left = column.x == inner.x ? column.x - 4 : column.x, right = column.x == outer.x ? column.x + column.width + 4 : column.x + column.width
            #expect(abs(rect.x - left) < 1e-3 && abs(rect.x + rect.width - right) < 1e-3, "\(rect) across \(column)")
            #expect(rect.y >= column.y - 6 - 1e-3 && rect.y < column.y + size / 5, "\(rect) along \(column)")
            #expect(rect.y + rect.height <= column.y + column.height + 6 + 1e-3 && rect.y + rect.height > column.y + column.height - size / 5)
        }
    }

    @Test func layoutctlSetsVerticalStories() throws {
        let result = try run(Daemon.binary("layoutctl"), ["typemode", "--socket", daemon.socketPath, "--vertical", "--font", "Noto Sans CJK JP",
                                                          "--width", "300", "--upright-digits", "2", "縦書き\\n12月の物語"])
        #expect(result.status == 0, "\(result.err)")
        let rows = result.out.split(separator: "\n")
        #expect(rows.first?.hasPrefix("column size  centre x  length") == true)
        #expect(rows.count == 1 + 2 + 1)
        let picture = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-vertical-story-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: picture) }
        let drawn = try run(Daemon.binary("layoutctl"), ["typemode", "--socket", daemon.socketPath, "--vertical-lr", "--style", "strong",
                                                         "--width", "300", "-o", picture, "縦書き\\n物語"])
        #expect(drawn.status == 0, "\(drawn.err)")
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: picture)).prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
    }

    @Test func layoutRepliesCarryBackgroundsToo() throws {
        var request = layoutRequest("highlight these words please", width: 150)
        request.backgrounds = [.with { $0.kind = .highlight; $0.range = .with { $0.start = 10; $0.length = 11 } },
                               .with { $0.kind = .perLine }]
        let reply = try daemon.client().call(.layout(request))
        let layout = try #require(reply.layoutReply)
        #expect(layout.backgrounds.count == 2)
        #expect(layout.backgrounds[1].rects.count == layout.lines.count)
    }

    @Test func layoutctlTypeModePrintsRows() throws {
        let result = try run(Daemon.binary("layoutctl"), ["typemode", "--socket", daemon.socketPath, "--style", "strong",
                                                          "--width", "300", "so\\nHAPPY\\nto see you"])
        #expect(result.status == 0, "\(result.err)")
        let rows = result.out.split(separator: "\n")
        #expect(rows.first?.hasPrefix("line   size") == true)
        #expect(rows.count == 1 + 3 + 1)
        #expect(rows.last?.contains("preset strong, 1 background(s)") == true)
    }

    @Test func layoutctlWritesPictures() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-pictures-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let signatures: [String: [UInt8]] = ["png": [0x89, 0x50, 0x4E, 0x47], "svg": Array("<?xm".utf8), "pdf": Array("%PDF".utf8)]
        for (ext, signature) in signatures {
            let path = directory.appendingPathComponent("story.\(ext)").path
            let result = try run(Daemon.binary("layoutctl"), ["typemode", "--socket", daemon.socketPath, "--style", "neon",
                                                              "--width", "300", "-o", path, "glow 🌟"])
            #expect(result.status == 0, "\(result.err)")
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(4)) == signature)
        }
        let layout = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "200",
                                                          "-o", directory.appendingPathComponent("p.png").path, "paragraph"])
        #expect(layout.status == 0)
        let bad = try run(Daemon.binary("layoutctl"), ["typemode", "--socket", daemon.socketPath, "--width", "300", "-o",
                                                       directory.appendingPathComponent("x.gif").path, "x"])
        #expect(bad.status != 0)
    }

    @Test func hostileRenderRequestsNameTheField() throws {
        var request = Layoutd_V1_RenderRequest()
        request.justify = .with { $0.text = "x"; $0.width = 100 }
        request.scale = 50
        #expect(try daemon.client().call(.render(request)).errorReply?.field == "render.scale")
        request.scale = 2
        request.justify.width = -1
        #expect(try daemon.client().call(.render(request)).errorReply?.field == "render.justify.width")
        request.source = nil
        #expect(try daemon.client().call(.render(request)).errorReply?.field == "render.source")
    }
}
