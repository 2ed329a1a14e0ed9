import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Text that flows, through a real daemon: exclusions, a shaped box and linked containers in
/// the reply (fragments, containers, the overflow), drawn, and hostile shapes refused by name
/// with the daemon answering the next request.
@Suite struct FlowServerTests {
    let daemon: Daemon
    init() throws { daemon = try Daemon() }

    static let text = "Text flows around a picture as a river flows around a stone: it parts, runs past on both sides "
        + "and joins again below. Each band of lines is cut into the intervals the shapes leave free."

    static func rect(_ x: Float, _ y: Float, _ w: Float, _ h: Float) -> Layoutd_V1_Rect {
        .with { $0.x = x; $0.y = y; $0.width = w; $0.height = h }
    }

    @Test func anExclusionCutsBandsIntoFragments() throws {
        var request = layoutRequest(Self.text, width: 300)
        request.exclusions = [.with { $0.shape.ellipse = Self.rect(100, 30, 100, 100); $0.margin = 6 }]
        let reply = try #require(try daemon.client().call(.layout(request)).layoutReply)
        #expect(reply.lines.allSatisfy { $0.hasFragmentRect })
        // Some band holds two fragments: same top, the second to the right of the picture.
        let pairs = zip(reply.lines, reply.lines.dropFirst()).filter { $0.fragmentRect.y == $1.fragmentRect.y }
        #expect(!pairs.isEmpty)
        for (left, right) in pairs {
            // Apart by the ellipse's chord there and the margin on both sides; the band's ends are the box's.
            #expect(right.fragmentRect.x - (left.fragmentRect.x + left.fragmentRect.width) >= 12)
            #expect(left.fragmentRect.x == 0 && right.fragmentRect.x + right.fragmentRect.width == 300)
        }
        #expect(reply.containers.count == 1 && reply.containers[0].lineCount == UInt32(reply.lines.count))
        #expect(!reply.hasOverflowRange)
    }

    @Test func columnsHandTheTextOnAndReportWhatDidNotFit() throws {
        var request = layoutRequest(Self.text, width: 0)
        request.containers = [0, 1].map { index in
            .with { $0.origin = .with { $0.x = Float(index) * 160 }; $0.width = 140; $0.height = 60 }
        }
        let client = try daemon.client()
        let reply = try #require(try client.call(.layout(request)).layoutReply)
        #expect(reply.containers.count == 2)
        let first = reply.containers[0], second = reply.containers[1]
        #expect(first.range.start == 0 && first.range.start + first.range.length == second.range.start)
        #expect(reply.lines[Int(second.firstLine)...].allSatisfy { $0.container == 1 && $0.baselineOrigin.x >= 160 })
        #expect(reply.hasOverflowRange)
        #expect(reply.overflowRange.start == reply.visibleRange.length)
        #expect(reply.overflowRange.start + reply.overflowRange.length == UInt32(Self.text.utf16.count))
        // Drawn: the picture is the frame of both columns, with the margin a plain box's picture has.
        var render = Layoutd_V1_RenderRequest()
        render.layout = request
        let picture = try client.call(.render(render)).renderReply
        var box = Layoutd_V1_RenderRequest()
        box.layout = layoutRequest(Self.text, width: 300)
        box.layout.height = 60
        box.layout.maxLines = 2
        let plain = try client.call(.render(box)).renderReply
        #expect(picture.width == plain.width)
        #expect(picture.height - 60 == plain.width - 300)
    }

    @Test func aPictureShowsTheShapesFaintlyWhenAsked() throws {
        var render = Layoutd_V1_RenderRequest()
        render.layout = layoutRequest(Self.text, width: 300)
        render.layout.exclusions = [.with { $0.shape.ellipse = Self.rect(100, 30, 100, 100) }]
        let client = try daemon.client()
        let plain = try client.call(.render(render)).renderReply
        render.showShapes = true
        let shown = try client.call(.render(render)).renderReply
        #expect(shown.image != plain.image)
        #expect(shown.width == plain.width && shown.height == plain.height)
    }

    /// A ring container, a square with a square hole drawn even-odd, shown under its text: the
    /// picture fills the shape by its own rule, so the hole stays the canvas; non-zero fills it.
    @Test(arguments: [Layoutd_V1_FillRule.evenOdd, .nonzero])
    func aShownShapeKeepsItsFillRule(_ rule: Layoutd_V1_FillRule) throws {
        func square(_ x: Float, _ y: Float, _ side: Float) -> [Layoutd_V1_PathCommand] {
            [.with { $0.verb = .move; $0.points = [x, y] }, .with { $0.verb = .line; $0.points = [x + side, y] },
             .with { $0.verb = .line; $0.points = [x + side, y + side] }, .with { $0.verb = .line; $0.points = [x, y + side] },
             .with { $0.verb = .close }]
        }
        var render = Layoutd_V1_RenderRequest()
        render.layout = layoutRequest("A ring of text around a hole.", width: 200)
        render.layout.height = 200
        render.layout.shape.path.commands = square(0, 0, 200) + square(50, 50, 100)
        render.layout.shape.fillRule = rule
        render.format = .svg
        render.showShapes = true
        let svg = String(decoding: try daemon.client().call(.render(render)).renderReply.image, as: UTF8.self)
        #expect(svg.contains("fill-rule:evenodd") == (rule == .evenOdd), "\(svg.prefix(600))")
    }

    @Test func aShapedBoxCentresItsLinesThroughTheDaemon() throws {
        var request = layoutRequest("A few words inside a circle.", width: 200)
        request.height = 200
        request.shape.ellipse = Self.rect(0, 0, 200, 200)
        request.shapeInset = 4
        request.verticalAlignment = .center
        let reply = try #require(try daemon.client().call(.layout(request)).layoutReply)
        let top = reply.lines.first!.usedRect.y, bottom = 200 - (reply.lines.last!.usedRect.y + reply.lines.last!.usedRect.height)
        #expect(top > 20 && abs(top - bottom) < 1, "above \(top), below \(bottom)")
    }

    @Test func hostileShapesAreRefusedByNameAndTheDaemonGoesOn() throws {
        let cases: [(String, Layoutd_V1_Error.Code, (inout Layoutd_V1_LayoutRequest) -> Void)] = [
            ("layout.exclusions[0].shape", .invalidArgument, { $0.exclusions = [.init()] }),
            ("layout.exclusions[0].shape.rect", .invalidArgument, { $0.exclusions = [.with { $0.shape.rect = Self.rect(.nan, 0, 1, 1) }] }),
            ("layout.exclusions[0].shape.rect", .invalidArgument, { $0.exclusions = [.with { $0.shape.rect = Self.rect(0, 0, -1, 1) }] }),
            ("layout.exclusions[0].margin", .invalidArgument, { $0.exclusions = [.with { $0.shape.rect = Self.rect(0, 0, 1, 1); $0.margin = 1e9 }] }),
            ("layout.exclusions[0].wrap", .invalidArgument, { $0.exclusions = [.with { $0.shape.rect = Self.rect(0, 0, 1, 1); $0.wrap = .UNRECOGNIZED(9) }] }),
            ("layout.exclusions[0].shape.fill_rule", .invalidArgument, {
                $0.exclusions = [.with { $0.shape.rect = Self.rect(0, 0, 1, 1); $0.shape.fillRule = .UNRECOGNIZED(3) }]
            }),
            ("layout.exclusions[0].shape.polygon.points", .invalidArgument, {
                $0.exclusions = [.with { $0.shape.polygon.points = [.init(), .init()] }]
            }),
            ("layout.exclusions[0].shape.polygon.points", .resourceExhausted, {
                $0.exclusions = [.with { $0.shape.polygon.points = Array(repeating: .init(), count: 5_000) }]
            }),
            ("layout.exclusions[0].shape.path.commands[1].points", .invalidArgument, {
                $0.exclusions = [.with { $0.shape.path.commands = [.with { $0.verb = .move; $0.points = [0, 0] }, .with { $0.verb = .cubic; $0.points = [1, 2] }] }]
            }),
            ("layout.exclusions[0].shape.path.commands[0].verb", .invalidArgument, {
                $0.exclusions = [.with { $0.shape.path.commands = [.with { $0.verb = .UNRECOGNIZED(7) }] }]
            }),
            ("layout.exclusions", .resourceExhausted, {
                $0.exclusions = Array(repeating: .with { $0.shape.rect = Self.rect(0, 0, 1, 1) }, count: 65)
            }),
            ("layout.exclusions", .resourceExhausted, {
                // 20 ellipses of 4,096 edges each pass the edge limit.
                $0.exclusions = Array(repeating: .with { $0.shape.ellipse = Self.rect(0, 0, 10, 10) }, count: 20)
            }),
            ("layout.shape_inset", .invalidArgument, { $0.shapeInset = 5 }),
            ("layout.vertical_alignment", .invalidArgument, { $0.verticalAlignment = .UNRECOGNIZED(12) }),
            ("layout.min_fragment_width", .invalidArgument, { $0.minFragmentWidth = -3 }),
            ("layout.width", .invalidArgument, { $0.containers = [.with { $0.width = 100 }] }),
            ("layout.containers[0].width", .invalidArgument, { $0.width = 0; $0.containers = [.with { $0.width = .infinity }] }),
            ("layout.containers[1].origin", .invalidArgument, {
                $0.width = 0
                $0.containers = [.with { $0.width = 100 }, .with { $0.width = 100; $0.origin.x = 1e12 }]
            }),
            ("layout.containers[0].exclusions[0].shape.ellipse", .invalidArgument, {
                $0.width = 0
                $0.containers = [.with { $0.width = 100; $0.exclusions = [.with { $0.shape.ellipse = Self.rect(0, 0, 1, .infinity) }] }]
            }),
            ("layout.containers", .resourceExhausted, {
                $0.width = 0
                $0.containers = Array(repeating: .with { $0.width = 10; $0.height = 10 }, count: 65)
            }),
        ]
        let client = try daemon.client()
        for (field, code, configure) in cases {
            var request = layoutRequest("hostile shapes", width: 200)
            configure(&request)
            let reply = try client.call(.layout(request))
            #expect(reply.errorReply?.field == field, "\(field): \(reply)")
            #expect(reply.errorReply?.code == code, "\(field): \(reply)")
        }
        #expect(try client.call(.layout(layoutRequest("still here", width: 200))).layoutReply?.lines.count == 1)
    }
}

/// Vertical text through the daemon: columns in the reply, backgrounds turned with them,
/// pictures drawn, and what vertical text does not do refused by name.
@Suite struct VerticalServerTests {
    let daemon: Daemon
    init() throws { daemon = try Daemon() }

    static func vertical(_ text: String = "縦書きの文章、ABCと12月。背景も縦に並びます。") -> Layoutd_V1_LayoutRequest {
        var request = layoutRequest(text, width: 300)
        request.defaultStyle.family = "Noto Sans CJK JP"
        request.defaultStyle.size = 20
        request.height = 160
        request.writingMode = .verticalRl
        request.textCombineUpright = 2
        return request
    }

    @Test func columnsComeBackWithTheirOrientationsAndBackgroundsTurnWithThem() throws {
        var request = Self.vertical()
        request.backgrounds = [.with { $0.kind = .perLine; $0.fill = .with { $0.red = 1 } }]
        let client = try daemon.client()
        let reply = try #require(try client.call(.layout(request)).layoutReply)
        #expect(reply.writingMode == .verticalRl)
        #expect(reply.lines.count >= 2)
        #expect(reply.lines[0].usedRect.x > reply.lines[1].usedRect.x)
        let orientations = Set(reply.runs.map(\.orientation))
        #expect(orientations.isSuperset(of: [.upright, .sideways, .combined]))
        let rects = try #require(reply.backgrounds.first).rects
        #expect(rects.count == reply.lines.count)
        for (rect, line) in zip(rects, reply.lines) {
            // Each column's background is a column: taller than wide, around the column.
            #expect(rect.height > rect.width)
            #expect(rect.x <= line.usedRect.x + 0.01 && rect.x + rect.width >= line.usedRect.x + line.usedRect.width - 0.01)
        }
        for format in [Layoutd_V1_RenderRequest.Format.png, .svg, .pdf] {
            var render = Layoutd_V1_RenderRequest()
            render.layout = request
            render.format = format
            let picture = try client.call(.render(render)).renderReply
            #expect(picture.image.count > 100, "\(format)")
        }
    }

    @Test func whatVerticalTextDoesNotDoIsRefusedByName() throws {
        let cases: [(String, (inout Layoutd_V1_LayoutRequest) -> Void)] = [
            ("layout.height", { $0.height = 0 }),
            ("layout.writing_mode", { $0.writingMode = .UNRECOGNIZED(5) }),
            ("layout.text_combine_upright", { $0.textCombineUpright = 9 }),
            ("layout.containers[0].height", { $0.width = 0; $0.height = 0; $0.containers = [.with { $0.width = 100 }] }),
        ]
        let client = try daemon.client()
        for (field, configure) in cases {
            var request = Self.vertical()
            configure(&request)
            let reply = try client.call(.layout(request))
            #expect(reply.errorReply?.field == field, "\(field): \(reply)")
            #expect(reply.errorReply?.code == .invalidArgument)
        }
        #expect(try client.call(.layout(Self.vertical())).layoutReply?.lines.isEmpty == false)
    }
}
