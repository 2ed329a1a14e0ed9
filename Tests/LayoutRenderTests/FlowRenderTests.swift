import Foundation
import Testing
@testable import LayoutEngine
import LayoutRender

/// Pictures of text that flows and of vertical text, compared with stored references
/// (RenderReferences/flow-*.png, vertical-*.png; LAYOUTD_UPDATE_REFERENCES=1 rewrites them).
@Suite struct FlowRenderTests {
    static let flowing = "Text flows around a picture as a river flows around a stone: it parts, runs past on both sides and "
        + "joins again below. Each band of lines is cut into the intervals the shapes leave free."

    static func scene(_ layout: ParagraphLayout, shapes: [(path: Path, fillRule: FillRule)] = []) -> RenderScene {
        let faint = shapes.map { Background(rects: [], path: $0.path, fill: Color(red: 0.5, green: 0.55, blue: 0.6, alpha: 0.18), fillRule: $0.fillRule) }
        return RenderScene(size: Size(width: layout.size.width + 40, height: layout.size.height + 40), canvas: Color(red: 1, green: 1, blue: 1),
                           origin: Point(x: 20, y: 20), backgrounds: faint, runs: layout.runs, textColor: Color(red: 0, green: 0, blue: 0),
                           paints: layout.paints, decorations: layout.decorations)
    }

    static func pictures() throws -> [(String, RenderScene)] {
        let around = TextFlow(containers: [TextContainer(width: 300, exclusions: [
            Exclusion(FlowShape(.ellipse(Rect(x: 100, y: 30, width: 100, height: 100))), margin: 6)])])
        let circle = TextFlow(containers: [TextContainer(width: 260, height: 260, shape: FlowShape(.ellipse(Rect(x: 0, y: 0, width: 260, height: 260))),
                                                         inset: 6)], verticalAlignment: .center)
        let columns = TextFlow(containers: (0..<3).map { TextContainer(origin: Point(x: Double($0) * 150, y: 0), width: 138, height: 90) })
        var scenes: [(String, RenderScene)] = []
        for (name, flow, size) in [("flow-around", around, 15.0), ("flow-circle", circle, 13.0), ("flow-columns", columns, 13.0)] {
            var request = ParagraphRequest(text: AttributedText(Self.flowing, style: TextStyle(family: "Noto Sans", size: size)), width: 300)
            request.flow = flow
            if name == "flow-circle" { request.alignment = .center }
            scenes.append((name, scene(try Fixtures.layouter.layout(request), shapes: flow.shapeOutlines)))
        }
        for (name, text) in [("vertical-japanese", "縦書きの文章は上から下へ、右から左へ進みます。「括弧」と長音ー、ABCは横倒し、12月24日。"),
                             ("vertical-chinese", "中文竖排从上到下，从右到左。标点符号：『引号』，数字2024年，English词语横躺。")] {
            var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: name.hasSuffix("japanese") ? "Noto Sans CJK JP" : "Noto Sans CJK SC",
                                                                                     size: 20)), width: 400, height: 220)
            request.writingMode = .verticalRightToLeft
            request.combineUpright = 2
            scenes.append((name, scene(try Fixtures.layouter.layout(request))))
        }
        return scenes
    }

    @Test(arguments: ["flow-around", "flow-circle", "flow-columns", "vertical-japanese", "vertical-chinese"])
    func pictureMatchesItsReference(_ name: String) throws {
        let scene = try #require(try Self.pictures().first { $0.0 == name }).1
        let png = try RenderTests.renderer.render(scene, format: .png, scale: 2)
        let file = RenderTests.references.appendingPathComponent("\(name).png")
        if ProcessInfo.processInfo.environment["LAYOUTD_UPDATE_REFERENCES"] == "1" { try Data(png).write(to: file) }
        let reference = try #require(RenderTests.pixels(Array(try Data(contentsOf: file))), "missing reference \(file.path)")
        let produced = try #require(RenderTests.pixels(png))
        #expect(produced.width == reference.width && produced.height == reference.height)
        let share = RenderTests.difference(produced.data, reference.data)
        #expect(share < 0.002, "\(name): \(share * 100)% of pixels differ")
    }
}
