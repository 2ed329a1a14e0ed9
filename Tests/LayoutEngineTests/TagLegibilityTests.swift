import Foundation
import Testing
@testable import LayoutEngine

/// A tag's legibility: the default soft shadow, a style table's own (JSON, every key optional),
/// a backing behind each label's text, and bad values refused by name.
@Suite struct TagLegibilityTests {
    static let photo = Size(width: 400, height: 500)
    static let tag = ImageTag(position: Point(x: 0.3, y: 0.5), labels: [TagLabel(name: "Nike", value: "Air Max"), TagLabel(name: "$129")])

    /// The standard table with the two-label style 0 given `legibility` (JSON).
    static func table(legibility json: String) throws -> TagStyleTable {
        let file = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data/tag-styles.json"))) as! [String: Any]
        var styles = file["styles"] as! [String: [[String: Any]]]
        styles["2"]![0]["legibility"] = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let data = try JSONSerialization.data(withJSONObject: ["styles": styles])
        return try TagStyleTable(json: Array(data))
    }

    @Test func tagsTakeTheDefaultSoftShadow() throws {
        let placed = try Fixtures.layouter.layoutTags(TagsRequest(photo: Self.photo, tags: [Self.tag]))
        #expect(placed.tags[0].legibility == .default && TagLegibility.default.shadowBlur == 3 && TagLegibility.default.backing == nil)
        #expect(placed.tags[0].labels.allSatisfy { $0.backingRect == nil })
    }

    @Test func aStyleSetsItsOwnAndLeftOutKeysKeepTheDefault() throws {
        let table = try Self.table(legibility: ##"{"backing": "#00000066", "backingPadding": 6}"##)
        let style = try table.style(0, labelCount: 2, field: "style")
        let legibility = try #require(style.legibility)
        #expect(legibility.shadowBlur == 3 && legibility.shadowOpacity == 0.6 && legibility.backingPadding == 6)
        #expect(legibility.backing == Color(red: 0, green: 0, blue: 0, alpha: 0x66 / 255.0))
        let placed = try Fixtures.layouter.layoutTags(TagsRequest(photo: Self.photo, tags: [Self.tag], table: table))
        for label in placed.tags[0].labels {
            let backing = try #require(label.backingRect)
            #expect(backing == Rect(x: label.textRect.x - 6, y: label.textRect.y - 6, width: label.textRect.width + 12,
                                    height: label.textRect.height + 12))
            #expect(placed.tags[0].bounds.union(backing) == placed.tags[0].bounds)  // the bounds hold it
        }
        // Another style of the table keeps the default.
        let other = try Fixtures.layouter.layoutTags(TagsRequest(photo: Self.photo, tags: [ImageTag(position: Self.tag.position,
                                                                  labels: Self.tag.labels, style: 1)], table: table))
        #expect(other.tags[0].legibility == .default)
        let off = try Self.table(legibility: #"{"shadowBlur": 0}"#)
        #expect(try off.style(0, labelCount: 2, field: "style").legibility?.shadowBlur == 0)
    }

    @Test func badLegibilityIsRefusedByName() throws {
        for (json, field) in [(#"{"shadowOpacity": 2}"#, "style_table_json.styles.2[0].legibility.shadowOpacity"),
                              (#"{"shadowBlur": -1}"#, "style_table_json.styles.2[0].legibility.shadowBlur"),
                              (#"{"backingRadius": 1000}"#, "style_table_json.styles.2[0].legibility.backingRadius")] {
            #expect { try Self.table(legibility: json) } throws: { ($0 as? LayoutError)?.field == field }
        }
        #expect { try Self.table(legibility: #"{"backing": "grey"}"#) } throws: {
            ($0 as? LayoutError)?.field == "style_table_json" && "\($0)".contains("#rrggbb")
        }
    }
}
