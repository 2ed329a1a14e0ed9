import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Colour, decorations and shadows through a real daemon: in the layout reply as paints and
/// geometry, in rendered pictures, and refused by name when they are bad, with the daemon
/// answering the next request.
@Suite struct DecorationServerTests {
    let daemon: Daemon
    init() throws { daemon = try Daemon() }

    static func decorated() -> Layoutd_V1_LayoutRequest {
        var request = layoutRequest("Underlined gypsy text, struck and filled", width: 220)
        request.defaultStyle.underline = .with { $0.style = .double; $0.skipInk = true }
        request.spans = [
            .with { $0.range = .with { $0.start = 0; $0.length = 10 }; $0.style.color = .with { $0.red = 0.8 } },
            .with { $0.range = .with { $0.start = 23; $0.length = 6 }; $0.style.strikethrough = .with { $0.style = .thick } },
            .with { $0.range = .with { $0.start = 34; $0.length = 6 }; $0.style.background = .with { $0.red = 1; $0.green = 0.9 } },
            .with { $0.range = .with { $0.start = 11; $0.length = 5 }; $0.style.shadow = .with { $0.offsetX = 2; $0.offsetY = 2; $0.blurRadius = 3 } },
        ]
        return request
    }

    @Test func aLayoutReplyCarriesPaintsAndDecorations() throws {
        let reply = try #require(try daemon.client().call(.layout(Self.decorated())).layoutReply)
        #expect(reply.lines.count >= 2)
        let kinds = Set(reply.decorations.map(\.kind))
        #expect(kinds == [.underline, .strikethrough, .background])
        // The underline runs on every line, cut around the descenders of "gypsy".
        #expect(Set(reply.decorations.filter { $0.kind == .underline }.map(\.lineIndex)).count == reply.lines.count)
        #expect(reply.decorations.filter { $0.kind == .underline }.contains { $0.rects.count > 2 })
        #expect(reply.decorations.filter { $0.kind == .underline }.allSatisfy { $0.style == .double && $0.thickness > 0 })
        // Paints: the default, the red words and the shadowed ones, each run naming its own.
        #expect(reply.paints.count >= 3)
        #expect(reply.runs.allSatisfy { Int($0.paint) < reply.paints.count })
        #expect(reply.paints.contains { $0.hasShadow && $0.shadow.blurRadius == 3 })
        #expect(reply.runs.contains { reply.paints[Int($0.paint)].color.red > 0.79 })
    }

    @Test func anEffectComesBackAsLayersAndIsDrawn() throws {
        var request = layoutRequest("Pressed and outlined", width: 300)
        request.spans = [.with { $0.range = .with { $0.length = 7 }; $0.style.effect = .with { $0.kind = .letterpress; $0.depth = 2 } },
                         .with { $0.range = .with { $0.start = 12; $0.length = 8 }; $0.style.effect = .with { $0.kind = .outline; $0.strokeWidth = 2 } }]
        let client = try daemon.client()
        let reply = try #require(try client.call(.layout(request)).layoutReply)
        let effects = reply.runs.map { reply.paints[Int($0.paint)].effect }
        #expect(effects.contains(.letterpress) && effects.contains(.outline) && effects.contains(.none))
        let letterpress = try #require(reply.paints.first { $0.effect == .letterpress })
        #expect(letterpress.effectLayers.map(\.mode) == [.fill, .fill, .innerEdge, .innerEdge, .innerEdge])
        #expect(letterpress.effectLayers[0].offsetY == 2 && letterpress.effectLayers[4].offsetY == 2)
        var render = Layoutd_V1_RenderRequest()
        render.layout = request
        #expect(try !client.call(.render(render)).renderReply.image.isEmpty)
    }

    /// A picture that names no canvas is the surface the text is pressed into; one that names a
    /// canvas keeps it.
    @Test func letterpressedTextIsDrawnOnItsSurface() throws {
        var render = Layoutd_V1_RenderRequest()
        render.layout = layoutRequest("Pressed into blue paper", width: 300)
        render.layout.defaultStyle.effect = .with { $0.kind = .letterpress; $0.surface = .with { $0.red = 0.2; $0.green = 0.4; $0.blue = 0.6 } }
        render.format = .svg
        let client = try daemon.client()
        let onSurface = String(decoding: try client.call(.render(render)).renderReply.image, as: UTF8.self)
        render.canvas = .with { $0.red = 1; $0.green = 1; $0.blue = 0 }
        let onYellow = String(decoding: try client.call(.render(render)).renderReply.image, as: UTF8.self)
        // Cairo's SVG paints the canvas as a rect at the origin: its fill is the canvas colour.
        func canvas(_ svg: String) -> String? {
            guard let rect = svg.range(of: "<rect x=\"0\" y=\"0\"") else { return nil }
            let tail = svg[rect.upperBound...]
            guard let fill = tail.range(of: "fill:rgb(") else { return nil }
            return String(tail[fill.upperBound...].prefix { $0 != ")" })
        }
        #expect(canvas(onSurface)?.hasPrefix("20%,40") == true, "\(canvas(onSurface) ?? "no canvas")")
        #expect(canvas(onYellow) == "100%,100%,0%", "\(canvas(onYellow) ?? "no canvas")")
    }

    @Test func aPictureDrawsTheDecorations() throws {
        var render = Layoutd_V1_RenderRequest()
        render.layout = Self.decorated()
        var plain = render
        plain.layout.defaultStyle = .with { $0.family = "Noto Sans"; $0.size = 24 }
        plain.layout.spans = []
        let client = try daemon.client()
        for format in [Layoutd_V1_RenderRequest.Format.png, .svg, .pdf] {
            render.format = format
            plain.format = format
            // Each answer must be a render reply (an error reply's `renderReply` reads as empty).
            guard case .renderReply(let decorated)? = try client.call(.render(render)).body,
                  case .renderReply(let undecorated)? = try client.call(.render(plain)).body else {
                Issue.record("\(format): not a render reply")
                continue
            }
            #expect(decorated.image != undecorated.image)
            #expect(decorated.image.count > 100)
        }
    }

    @Test func badPaintIsRefusedByNameAndTheDaemonGoesOn() throws {
        let cases: [(String, (inout Layoutd_V1_LayoutRequest) -> Void)] = [
            ("layout.default_style.color.red", { $0.defaultStyle.color = .with { $0.red = .nan } }),
            ("layout.default_style.underline.style", { $0.defaultStyle.underline = .with { $0.style = .UNRECOGNIZED(99) } }),
            ("layout.spans[0].style.shadow.blur_radius", {
                $0.spans = [.with { $0.range = .with { $0.length = 1 }; $0.style.shadow = .with { $0.blurRadius = 1e9 } }]
            }),
            ("layout.spans[0].style.strikethrough.skip_ink", {
                $0.spans = [.with { $0.range = .with { $0.length = 1 }; $0.style.strikethrough = .with { $0.skipInk = true } }]
            }),
            ("layout.default_style.background.transparency", { $0.defaultStyle.background = .with { $0.transparency = 7 } }),
            ("layout.default_style.effect.depth", { $0.defaultStyle.effect = .with { $0.kind = .letterpress; $0.depth = -1 } }),
            ("layout.default_style.text_style", { $0.defaultStyle.textStyle = .UNRECOGNIZED(40) }),
        ]
        let client = try daemon.client()
        for (field, configure) in cases {
            var request = layoutRequest("hostile paint", width: 200)
            configure(&request)
            let reply = try client.call(.layout(request))
            #expect(reply.errorReply?.field == field, "\(field): \(reply)")
            #expect(reply.errorReply?.code == .invalidArgument)
        }
        #expect(try client.call(.layout(layoutRequest("still here", width: 200))).layoutReply?.lines.count == 1)
    }
}

/// Story frames through the daemon: the picture is the frame, and bad frames are refused by name.
@Suite struct StoryFrameServerTests {
    @Test func aFramedStoryIsTheFramesSize() throws {
        let daemon = try Daemon()
        var render = Layoutd_V1_RenderRequest()
        render.justify = .with { $0.text = "so\nHAPPY\nto see you"; $0.width = 300; $0.preset = "strong" }
        render.frame = .with {
            $0.width = 1080
            $0.height = 1920
            $0.fill.linearGradient = .with {
                $0.start = .with { $0.x = 0.5 }
                $0.end = .with { $0.x = 0.5; $0.y = 1 }
                $0.stops = [.with { $0.color = .with { $0.red = 1 } }, .with { $0.offset = 1; $0.color = .with { $0.blue = 1 } }]
            }
            $0.rotation = -8
            $0.scale = 2
        }
        render.scale = 0.5
        let client = try daemon.client()
        let reply = try client.call(.render(render))
        #expect(reply.errorReply == nil, "\(reply)")
        #expect(reply.renderReply.width == 1080 && reply.renderReply.height == 1920)
        #expect(reply.renderReply.image.count > 100)
        for format in [Layoutd_V1_RenderRequest.Format.svg, .pdf] {
            render.format = format
            #expect(try client.call(.render(render)).renderReply.image.count > 100)
        }
    }

    @Test func badFramesAreRefusedByName() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        let cases: [(String, (inout Layoutd_V1_StoryFrame) -> Void)] = [
            ("render.frame.width", { $0.width = 0 }),
            ("render.frame.height", { $0.height = 20_000 }),
            ("render.frame.rotation", { $0.rotation = 400 }),
            ("render.frame.scale", { $0.scale = -1 }),
            ("render.frame.position.x", { $0.position = .with { $0.x = .nan } }),
            ("render.frame.fill.linear_gradient.stops", { $0.fill.linearGradient = .with { $0.stops = [.init()] } }),
            ("render.frame.fill.radial_gradient.stops[1].offset", {
                $0.fill.radialGradient = .with { $0.stops = [.with { $0.offset = 0.5 }, .with { $0.offset = 0.2 }] }
            }),
            ("render.frame.fill.photo.png", { $0.fill.photo = .with { $0.png = Data("not a png".utf8) } }),
            ("render.frame.fill.color.red", { $0.fill.color = .with { $0.red = 3 } }),
        ]
        for (field, configure) in cases {
            var render = Layoutd_V1_RenderRequest()
            render.layout = layoutRequest("framed", width: 200)
            render.frame = .with { $0.width = 360; $0.height = 640 }
            configure(&render.frame)
            let reply = try client.call(.render(render))
            #expect(reply.errorReply?.field == field, "\(field): \(reply)")
        }
        var tags = Layoutd_V1_RenderRequest()
        tags.tags = .with { $0.photoWidth = 100; $0.photoHeight = 100 }
        tags.frame = .with { $0.width = 360; $0.height = 640 }
        #expect(try client.call(.render(tags)).errorReply?.field == "render.frame")
    }
}
