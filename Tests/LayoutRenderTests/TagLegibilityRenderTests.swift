import Foundation
import Testing
@testable import LayoutEngine
@testable import LayoutRender

/// White labels on a white photo, as a person sees them: with the default legibility shadow the
/// text is ringed by darker pixels; with the shadow off it vanishes; a backing darkens its rect.
@Suite struct TagLegibilityRenderTests {
    static let white = Color(red: 1, green: 1, blue: 1)
    static let tag = ImageTag(position: Point(x: 0.3, y: 0.5), labels: [TagLabel(name: "Nike", value: "Air Max"), TagLabel(name: "$129")])

    /// The standard table with the two-label style 0 given `legibility` (JSON).
    static func table(legibility json: String) throws -> TagStyleTable {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data/tag-styles.json")
        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var styles = try #require(file["styles"] as? [String: [[String: Any]]])
        styles["2"]?[0]["legibility"] = try JSONSerialization.jsonObject(with: Data(json.utf8))
        return try TagStyleTable(json: Array(try JSONSerialization.data(withJSONObject: ["styles": styles])))
    }

    static func scene(legibility json: String? = nil) throws -> TagScene {
        let table = try json.map { try Self.table(legibility: $0) } ?? .standard
        let layout = try Fixtures.layouter.layoutTags(TagsRequest(photo: Size(width: 400, height: 500), tags: [Self.tag], table: table))
        return TagScene(layout: layout, state: .shown(shadowOpacity: 0.3), background: white)
    }

    /// Pixels of the labels' text rects (grown by 3 points) that are not white, and the darkest one's red.
    static func marks(_ scene: TagScene) throws -> (count: Int, darkest: Int) {
        let pixels = try #require(RenderTests.pixels(try RenderTests.renderer.render(scene, format: .png, scale: 1)))
        var count = 0, darkest = 255
        for label in scene.layout.tags[0].labels {
            let rect = label.textRect
            for y in Int(saturating: rect.y - 3)..<Int(saturating: rect.maxY + 3) {
                for x in Int(saturating: rect.x - 3)..<Int(saturating: rect.maxX + 3) {
                    let red = Int((pixels.data[y * pixels.width + x] >> 16) & 0xFF)
                    if red < 250 { count += 1 }
                    darkest = min(darkest, red)
                }
            }
        }
        return (count, darkest)
    }

    @Test func theDefaultShadowMakesWhiteTextReadOnWhite() throws {
        let shadowed = try Self.marks(Self.scene())
        let bare = try Self.marks(Self.scene(legibility: #"{"shadowBlur": 0}"#))
        #expect(bare.count == 0, "white on white with no shadow: \(bare)")
        #expect(shadowed.count > 200 && shadowed.darkest < 200, "\(shadowed)")
    }

    @Test func aBackingFillsItsRectBehindTheText() throws {
        let scene = try Self.scene(legibility: ##"{"backing": "#000000cc", "shadowBlur": 0}"##)
        let pixels = try #require(RenderTests.pixels(try RenderTests.renderer.render(scene, format: .png, scale: 1)))
        let label = scene.layout.tags[0].labels[0]
        let backing = try #require(label.backingRect)
        // Inside the backing, left of the text (its padding): the backing's dark grey (white under 80% black).
        let middle = Int(saturating: backing.y + backing.height / 2)
        let inside = pixels.data[middle * pixels.width + Int(saturating: backing.x + 2)]
        #expect(abs(Int((inside >> 16) & 0xFF) - 51) <= 3, "\(String(inside, radix: 16))")
        // Just outside it, the white photo.
        let outside = pixels.data[middle * pixels.width + Int(saturating: backing.x - 3)]
        #expect((outside >> 16) & 0xFF == 0xFF)
    }

    @Test func theAnimatedSVGCastsTheSameShadowAndBacking() throws {
        let scene = try Self.scene(legibility: ##"{"backing": "#00000066"}"##)
        let svg = String(decoding: try RenderTests.renderer.animatedSVG(scene, .show, timeline: TagTimeline()), as: UTF8.self)
        #expect(svg.contains("<feDropShadow dx=\"0\" dy=\"0\" stdDeviation=\"1.5\"") && svg.contains("filter=\"url(#legible-0)\""))
        #expect(svg.contains("fill-opacity=\"0.4\""))
        let plain = String(decoding: try RenderTests.renderer.animatedSVG(try Self.scene(legibility: #"{"shadowBlur": 0}"#), .show,
                                                                          timeline: TagTimeline()), as: UTF8.self)
        #expect(!plain.contains("feDropShadow") && !plain.contains("<rect x="))
    }
}
