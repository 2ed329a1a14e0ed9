import LayoutEngine
import LayoutWire
import Testing

/// Text on a path on the wire (in `ConversionTests`, whose request and helpers it shares): the
/// path comes through as the engine's, every bad value is refused by name, and each run's
/// angles come back in degrees as swift-protobuf writes them.
extension ConversionTests {
    static func wirePath(_ commands: [(Layoutd_V1_PathVerb, [Float])]) -> Layoutd_V1_PathData {
        .with { data in data.commands = commands.map { command in .with { $0.verb = command.0; $0.points = command.1 } } }
    }

    @Test func aTextPathComesThrough() throws {
        let request = try convert {
            $0.textPath = .with {
                $0.path = Self.wirePath([(.move, [10, 20]), (.quad, [50, 0, 90, 20]), (.close, [])])
                $0.startOffset = 12
                $0.anchor = .middle
                $0.side = .right
            }
        }.get()
        #expect(request.textPath == TextPath(path: Path([.move(Point(x: 10, y: 20)), .quad(Point(x: 50, y: 0), Point(x: 90, y: 20)), .close]),
                                             startOffset: 12, anchor: .middle, side: .right))
        #expect(try convert { _ in }.get().textPath == nil)
    }

    @Test func everyBadTextPathIsNamed() {
        let line = Self.wirePath([(.move, [0, 0]), (.line, [100, 0])])
        #expect(field { $0.textPath = .with { $0.path = line; $0.anchor = .UNRECOGNIZED(5) } } == "text_path.anchor")
        #expect(field { $0.textPath = .with { $0.path = line; $0.side = .UNRECOGNIZED(-1) } } == "text_path.side")
        #expect(field { $0.textPath = .with { $0.path = Self.wirePath([(.move, [0, 0]), (.cubic, [1, 2])]) } } == "text_path.path.commands[1].points")
        #expect(field { $0.textPath = .with { $0.path = line }; $0.backgrounds = [.with { $0.kind = .perLine }] } == "backgrounds")
        // What the rest of the request may not set with a path, and the path's own shape, the
        // engine refuses as it lays out (`TextPathTests`).
    }
}

extension LayoutReplyFrameTests {
    @Test func writesEachRunsAnglesAsSwiftProtobufWritesThem() throws {
        var request = ParagraphRequest(text: AttributedText("Round the bend", style: TextStyle(family: "Noto Sans", size: 20)), width: 300)
        request.textPath = TextPath(path: Path([.move(Point(x: 0, y: 100)), .quad(Point(x: 150, y: -50), Point(x: 300, y: 100))]))
        let layout = try Self.layouter.layout(request)
        #expect(layout.glyphAngles.count == layout.runs.count)
        let ours = LayoutReplyFrame.encode(requestID: 13, layout: layout)
        #expect(ours == (try Self.swiftProtobufFrame(13, layout, [])))
        let decoded = try #require(LayoutReplyReader.envelope(Array(ours.dropFirst(Framing.headerBytes))))
        guard case .layoutReply(let reply) = decoded.body else { Issue.record("not a layout reply"); return }
        let angles = reply.runs.flatMap(\.angles)
        #expect(angles.count == layout.runs.reduce(0) { $0 + $1.glyphs.count })
        // Up the curve's left side towards its top: degrees, clockwise, turning the other way.
        #expect(angles.first! < -20 && zip(angles, angles.dropFirst()).allSatisfy { $0 <= $1 + 1e-4 })
        #expect(abs(Double(angles[0]) - layout.glyphAngles[0][0] * 180 / .pi) < 1e-3)
    }
}
