import Foundation
import LayoutEngine
import LayoutWire
import Testing

/// Fills, several shadows and glows on the wire (in `ConversionTests`, whose request and helpers
/// it shares): a style's come through as the engine's paint, every bad value is refused by
/// name, and the reply carries each paint's layers and each fill's box as swift-protobuf writes them.
extension ConversionTests {
    static func gradient(_ start: (Float, Float), _ end: (Float, Float), stops: [(Float, Layoutd_V1_Color)]) -> Layoutd_V1_Gradient {
        .with { gradient in
            gradient.start = .with { $0.x = start.0; $0.y = start.1 }
            gradient.end = .with { $0.x = end.0; $0.y = end.1 }
            gradient.stops = stops.map { stop in .with { $0.offset = stop.0; $0.color = stop.1 } }
        }
    }

    static let wireBlue = Layoutd_V1_Color.with { $0.blue = 1 }

    @Test func fillsShadowsAndGlowsComeThrough() throws {
        let request = try convert {
            $0.defaultStyle.fill = .with { $0.linearGradient = Self.gradient((0, 0.5), (1, 0.5), stops: [(0, Self.wireRed), (1, Self.wireBlue)]) }
            $0.defaultStyle.shadow = .with { $0.offsetX = 1 }
            $0.defaultStyle.shadows = [.with { $0.offsetY = 4; $0.blurRadius = 2 }]
            $0.spans = [.with {
                $0.range = .with { $0.start = 0; $0.length = 5 }
                $0.style.fill = .with { $0.image = .with { $0.image = 2; $0.contentMode = .aspectFill }; $0.box = .line }
                $0.style.glow = .with { $0.radius = 6; $0.strength = 3 }
                $0.style.shadows = [.with { $0.none = true }]
            }, .with {
                $0.range = .with { $0.start = 8; $0.length = 2 }
                $0.style.fill = .with { $0.none = true }
                $0.style.glow = .with { $0.radius = 2; $0.color = Self.wireRed }
            }]
        }.get()
        let red = Color(red: 1, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 1)
        let linear = TextFill(.linearGradient(start: Point(x: 0, y: 0.5), end: Point(x: 1, y: 0.5),
                                              stops: [GradientStop(offset: 0, color: red), GradientStop(offset: 1, color: blue)]))
        let shadows = [TextShadow(offset: Point(x: 1, y: 0)), TextShadow(offset: Point(x: 0, y: 4), blurRadius: 2)]
        #expect(request.text.paints == [
            TextPaint(glow: TextGlow(radius: 6, strength: 3), fill: TextFill(.image(index: 2, mode: .aspectFill), box: .line)),
            TextPaint(shadows: shadows, fill: linear),
            TextPaint(shadows: shadows, glow: TextGlow(radius: 2, color: red)),
        ])
        #expect(request.text.paintRuns.map(\.range) == [0..<5, 5..<8, 8..<10, 10..<14])
    }

    @Test func everyBadFillShadowAndGlowIsNamed() {
        let two = [(Float(0), Self.wireRed), (Float(1), Self.wireBlue)]
        #expect(field { $0.defaultStyle.fill = Layoutd_V1_TextFill() } == "default_style.fill")
        #expect(field { $0.defaultStyle.fill = .with { $0.linearGradient = Self.gradient((0, 0), (1, 0), stops: [two[0]]) } }
                == "default_style.fill.linear_gradient.stops")
        #expect(field { $0.defaultStyle.fill = .with { $0.linearGradient = Self.gradient((0, 0), (1, 0), stops: [(0.7, Self.wireRed), (0.2, Self.wireBlue)]) } }
                == "default_style.fill.linear_gradient.stops[1].offset")
        #expect(field { $0.defaultStyle.fill = .with { $0.radialGradient = Self.gradient((0.5, 0.5), (0.5, 0.5), stops: two) } }
                == "default_style.fill.radial_gradient.end")
        #expect(field { $0.defaultStyle.fill = .with { $0.linearGradient = Self.gradient((.infinity, 0), (1, 0), stops: two) } }
                == "default_style.fill.linear_gradient.start.x")
        #expect(field { $0.defaultStyle.fill = .with { $0.linearGradient = Self.gradient((0, 0), (1, 0), stops: [(0, .with { $0.red = 3 }), two[1]]) } }
                == "default_style.fill.linear_gradient.stops[0].color.red")
        #expect(field { $0.defaultStyle.fill = .with { $0.image = .with { $0.image = 64 } } } == "default_style.fill.image.image")
        #expect(field { $0.defaultStyle.fill = .with { $0.image = .with { $0.contentMode = .UNRECOGNIZED(9) } } }
                == "default_style.fill.image.content_mode")
        #expect(field { $0.defaultStyle.fill = .with { $0.box = .UNRECOGNIZED(7); $0.linearGradient = Self.gradient((0, 0), (1, 0), stops: two) } }
                == "default_style.fill.box")
        #expect(field { $0.defaultStyle.glow = .with { $0.radius = 0 } } == "default_style.glow.radius")
        #expect(field { $0.defaultStyle.glow = .with { $0.radius = 3; $0.strength = 9 } } == "default_style.glow.strength")
        #expect(field { $0.defaultStyle.glow = .with { $0.radius = 3; $0.color = .with { $0.blue = .nan } } } == "default_style.glow.color.blue")
        #expect(field { $0.defaultStyle.shadows = [.with { $0.offsetX = 1 }, .with { $0.blurRadius = 500 }] } == "default_style.shadows[1].blur_radius")
        #expect(field { $0.defaultStyle.shadows = Array(repeating: .with { $0.offsetX = 1 }, count: 9) } == "default_style.shadows")
        #expect(field { $0.defaultStyle.shadow = .with { $0.offsetX = 1 }; $0.defaultStyle.shadows = Array(repeating: .with { $0.offsetX = 1 }, count: 8) }
                == "default_style.shadows")
        #expect(field {
            $0.spans = [.with { $0.range = .with { $0.length = 1 }; $0.style.glow = .with { $0.radius = -1 } }]
        } == "spans[0].style.glow.radius")
    }
}

extension LayoutReplyFrameTests {
    @Test func carriesFillRegionsAndPaintLayersAsSwiftProtobufWritesThem() throws {
        let red = Color(red: 1, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 1)
        let stops = [GradientStop(offset: 0, color: red), GradientStop(offset: 1, color: blue)]
        let spans = [AttributedText.Span(range: 0..<9, patch: StylePatch(fill: .set(TextFill(.linearGradient(start: Point(x: 0, y: 0),
                                                                                                              end: Point(x: 1, y: 1), stops: stops))))),
                     AttributedText.Span(range: 10..<20, patch: StylePatch(shadows: .set([TextShadow(offset: Point(x: 1, y: 1)),
                                                                                          TextShadow(offset: Point(x: 3, y: 3), blurRadius: 2)]),
                                                                           glow: .set(TextGlow(radius: 5)),
                                                                           fill: .set(TextFill(.image(index: 0, mode: .aspectFit), box: .line))))]
        let text = AttributedText("Gradients and pictures fill glyphs", style: TextStyle(family: "Noto Sans", size: 24), spans: spans)
        let layout = try Self.layouter.layout(ParagraphRequest(text: text, width: 160))
        #expect(layout.fillRegions.count >= 2)
        let ours = LayoutReplyFrame.encode(requestID: 12, layout: layout)
        #expect(ours == (try Self.swiftProtobufFrame(12, layout, [])))
        let decoded = try #require(LayoutReplyReader.envelope(Array(ours.dropFirst(Framing.headerBytes))))
        guard case .layoutReply(let reply) = decoded.body else { Issue.record("not a layout reply"); return }
        #expect(reply.fillRegions.count == layout.fillRegions.count)
        let region = reply.fillRegions[0]
        #expect(region.range.start == 0 && region.range.length == 9 && !region.perLine)
        #expect(region.box.width == Float(layout.fillRegions[0].box.width) && region.end.y == Float(layout.fillRegions[0].end.y))
        let layered = reply.paints[Int(reply.fillRegions.last!.paint)]
        #expect(layered.shadows.map(\.offsetX) == [1, 3] && layered.shadow.offsetX == 1)
        #expect(layered.glow.radius == 5 && layered.glow.strength == 1 && !layered.glow.hasColor)
        #expect(layered.fill.image.contentMode == .aspectFit && layered.fill.box == .line)
        #expect(reply.fillRegions.last!.perLine)
    }
}
