import CCairo
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import LayoutEngine
import LayoutRender

/// Tags drawn over a photo: reference pictures for Latin, Chinese and Arabic labels, frames of
/// the animation, and the animated SVG.
@Suite struct TagRenderTests {
    static let renderer = Renderer(fonts: Fixtures.registry)
    static let photoSize = Size(width: 360, height: 450)

    /// A stand-in photo: a diagonal gradient, 180 x 225 pixels (half the points: scaled up to fit).
    static let photo = TestPictures.png(CAIRO_FORMAT_RGB24, width: 180, height: 225) { cr in
        TestPictures.paintDiagonalGradient(cr, width: 180, height: 225, from: (0.85, 0.55, 0.35), to: (0.15, 0.25, 0.45))
    }

    static let cases: [(name: String, tags: [ImageTag])] = [
        ("tags-latin", [ImageTag(position: Point(x: 0.3, y: 0.35), labels: [TagLabel(name: "Nike", value: "Air Max 90"), TagLabel(name: "$129")], style: 2),
                        ImageTag(position: Point(x: 0.75, y: 0.7), labels: [TagLabel(name: "Brooklyn"), TagLabel(name: "Café", value: "☕ 🥐"), TagLabel(name: "Open late")], style: 1)]),
        ("tags-chinese", [ImageTag(position: Point(x: 0.42, y: 0.61), labels: [TagLabel(name: "耐克", value: "Air Max 90"), TagLabel(name: "¥899")], style: 0),
                          ImageTag(position: Point(x: 0.7, y: 0.25), labels: [TagLabel(name: "上海", value: "外滩")], style: 3)]),
        ("tags-arabic", [ImageTag(position: Point(x: 0.7, y: 0.4), labels: [TagLabel(name: "مقهى", value: "الرياض"), TagLabel(name: "٢٥ ريال"), TagLabel(name: "قهوة عربية")], style: 3),
                         ImageTag(position: Point(x: 0.25, y: 0.8), labels: [TagLabel(name: "عطر", value: "عود")], style: 0)]),
    ]

    static func scene(_ name: String, state: TagPartState = .shown(shadowOpacity: 0.3)) throws -> TagScene {
        let c = try #require(cases.first { $0.name == name })
        let layout = try Fixtures.layouter.layoutTags(TagsRequest(photo: photoSize, tags: c.tags))
        return TagScene(layout: layout, state: state, photo: photo)
    }

    @Test(arguments: cases.map(\.name))
    func tagsMatchTheirReference(_ name: String) throws {
        let png = try Self.renderer.render(try Self.scene(name), format: .png, scale: 2)
        let file = RenderTests.references.appendingPathComponent("\(name).png")
        if ProcessInfo.processInfo.environment["LAYOUTD_UPDATE_REFERENCES"] == "1" {
            try Data(png).write(to: file)
        }
        let reference = try #require(RenderTests.pixels(Array(try Data(contentsOf: file))), "missing reference \(file.path)")
        let produced = try #require(RenderTests.pixels(png))
        #expect(produced.width == 720 && produced.height == 900)
        #expect(produced.width == reference.width && produced.height == reference.height)
        let share = RenderTests.difference(produced.data, reference.data)
        #expect(share < 0.002, "\(name): \(share * 100)% of pixels differ")
    }

    @Test func framesFollowTheTimeline() throws {
        let timeline = TagTimeline(phaseDuration: 0.2)
        let rest = try #require(RenderTests.pixels(try Self.renderer.render(try Self.scene("tags-latin"), format: .png, scale: 1)))
        let textGone = try #require(RenderTests.pixels(try Self.renderer.render(
            try Self.scene("tags-latin", state: timeline.state(.hide, elapsed: 0.2)), format: .png, scale: 1)))
        let hidden = try #require(RenderTests.pixels(try Self.renderer.render(
            try Self.scene("tags-latin", state: timeline.state(.hide, elapsed: 0.6)), format: .png, scale: 1)))
        var bare = try Self.scene("tags-latin")
        bare.layout.tags = []
        let photoOnly = try #require(RenderTests.pixels(try Self.renderer.render(bare, format: .png, scale: 1)))
        #expect(RenderTests.difference(rest.data, textGone.data) > 0.002, "the text faded")
        #expect(RenderTests.difference(textGone.data, photoOnly.data) > 0, "lines and dots remain")
        #expect(hidden.data == photoOnly.data, "fully hidden is the photo alone")
    }

    @Test func aStrokeRetractsTowardTheDot() throws {
        let label = try Self.scene("tags-latin").layout.tags[0].labels[0]
        #expect(TagScene.stroke(label, upTo: 1) == [label.leader.from, label.leader.to, label.underline.to])
        #expect(TagScene.stroke(label, upTo: 0) == [label.leader.from])
        let total = label.leader.length + label.underline.length
        let half = TagScene.stroke(label, upTo: 0.5)
        let kept = zip(half, half.dropFirst()).reduce(0) { $0 + LineSegment(from: $1.0, to: $1.1).length }
        #expect(abs(kept - total / 2) < 1e-9)
    }

    @Test(arguments: [TagAnimationKind.hide, .show])
    func theAnimatedSVGCarriesTheTimeline(_ kind: TagAnimationKind) throws {
        let timeline = TagTimeline(phaseDuration: 0.25)
        let svg = String(decoding: try Self.renderer.animatedSVG(try Self.scene("tags-latin"), kind, timeline: timeline), as: UTF8.self)
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "well-formed XML: \(String(describing: parser.parserError))")
        let rules = kind == .hide
            ? [".text{animation:text_opacity-hide 0.25s cubic-bezier(0,0,.58,1) 0s both}",
               ".line{animation:stroke_end-hide 0.25s cubic-bezier(0,0,.58,1) 0.25s both}",
               ".dot{animation:dot_opacity-hide 0.25s cubic-bezier(0,0,.58,1) 0.5s both}",
               ".shadow{animation:shadow_opacity-hide 0.25s cubic-bezier(0,0,.58,1) 0.5s both}",
               "@keyframes stroke_end-hide{from{stroke-dashoffset:0}to{stroke-dashoffset:1}}"]
            : [".dot{animation:dot_opacity-show 0.25s cubic-bezier(0,0,.58,1) 0s both}",
               ".line{animation:stroke_end-show 0.25s cubic-bezier(0,0,.58,1) 0.25s both}",
               ".text{animation:text_opacity-show 0.25s cubic-bezier(0,0,.58,1) 0.5s both}",
               "@keyframes shadow_opacity-show{from{opacity:0}to{opacity:0.3}}"]
        for rule in rules { #expect(svg.contains(rule), "\(rule)") }
        #expect(svg.components(separatedBy: "class=\"line\"").count - 1 == 5, "one stroke per label")
        #expect(svg.contains("data:image/png;base64,"), "the photo, and the emoji drawn as pictures")
        #expect(svg.contains("<title>Nike Air Max 90</title>"))
        // The glyphs are outlines: every label's fill path has drawing commands.
        #expect(!svg.contains("<path d=\"\" fill"))
    }
}
