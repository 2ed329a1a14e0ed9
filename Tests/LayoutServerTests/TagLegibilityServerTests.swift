import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// A tag's legibility through the daemon: the default soft shadow on every tag, a style table's
/// backing with each label's backing rect, a bad value refused by name.
@Suite struct TagLegibilityServerTests {
    @Test func theReplySaysHowEachTagStaysReadable() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = TagServerTests.sample
        guard case .tagsReply(let plain) = try client.request(.tags(request)) else { Issue.record("no tags reply"); return }
        for tag in plain.tags {
            #expect(tag.legibility.shadowBlur == 3 && abs(tag.legibility.shadowOpacity - 0.6) < 1e-6 && !tag.legibility.hasBacking)
            #expect(tag.labels.allSatisfy { !$0.hasBackingRect })
        }
        // Two-label style 3 with a translucent black backing, 5 points around each label's text.
        let url = repositoryRoot.appendingPathComponent("data/tag-styles.json")
        var table = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var styles = try #require(table["styles"] as? [String: [[String: Any]]])
        styles["2"]?[3]["legibility"] = ["backing": "#00000080", "backingPadding": 5, "backingRadius": 6]
        table["styles"] = styles
        request.styleTableJson = String(decoding: try JSONSerialization.data(withJSONObject: table), as: UTF8.self)
        guard case .tagsReply(let backed) = try client.request(.tags(request)) else { Issue.record("no tags reply"); return }
        let tag = backed.tags[0]
        #expect(tag.legibility.hasBacking && abs(tag.legibility.backing.transparency - (1 - 128.0 / 255)) < 1e-3 && tag.legibility.backingRadius == 6)
        for label in tag.labels {
            #expect(abs(label.backingRect.x - (label.textRect.x - 5)) < 1e-3 && abs(label.backingRect.width - (label.textRect.width + 10)) < 1e-3)
        }
        #expect(!backed.tags[1].legibility.hasBacking)  // the one-label tag's style keeps the default
        styles["2"]?[3]["legibility"] = ["shadowOpacity": 3]
        table["styles"] = styles
        request.styleTableJson = String(decoding: try JSONSerialization.data(withJSONObject: table), as: UTF8.self)
        let refused = try client.call(.tags(request)).errorReply
        #expect(refused?.code == .invalidArgument && refused?.field == "tags.style_table_json.styles.2[3].legibility.shadowOpacity",
                "\(String(describing: refused))")
    }
}
