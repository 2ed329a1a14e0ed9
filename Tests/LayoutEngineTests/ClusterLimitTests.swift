import Testing
@testable import LayoutEngine

/// A grapheme cluster longer than 32 code points is refused before shaping (HarfBuzz's work
/// grows with the square of a cluster's length); every real cluster is far shorter.
@Suite struct ClusterLimitTests {
    @Test func thirtyOneMarksOnALetterAreLaidOut() throws {
        let text = "x a" + String(repeating: "\u{0301}", count: 31) + " b"
        let layout = try Fixtures.layout(text)
        #expect(layout.visibleRange == 0..<text.utf16.count)
    }

    @Test func thirtyTwoMarksOnALetterAreRefusedWithTheirOffset() {
        let text = "x a" + String(repeating: "\u{0301}", count: 32) + " b"
        #expect(throws: LayoutError(.invalidArgument, "the grapheme cluster at UTF-16 offset 2 holds more than 32 code points "
                                    + "(Unicode's Stream-Safe Text Format allows 30 marks in a row)", field: "text")) {
            try Fixtures.layout(text)
        }
    }

    @Test func longRunsOfJoinersOrSelectorsCountToo() {
        for joiner in ["\u{200D}", "\u{FE0F}", "\u{E0100}"] {
            let text = "a" + String(repeating: joiner, count: 40)
            #expect(throws: LayoutError.self) { try Fixtures.layout(text) }
        }
    }

    @Test func theLongestEmojiSequencesAndIndicClustersPass() throws {
        let family = "\u{1F468}\u{1F3FB}\u{200D}\u{1F469}\u{1F3FB}\u{200D}\u{1F467}\u{1F3FB}\u{200D}\u{1F466}\u{1F3FB}"
        let scotland = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        let devanagari = "क्ष्म्य्"
        for text in [family, scotland, devanagari, String(repeating: family, count: 50)] {
            #expect(try Fixtures.layout(text).lines.isEmpty == false)
        }
    }

    /// Type Mode shares the analysis, so it refuses the same text.
    @Test func typeModeRefusesItToo() {
        let request = TypeModeRequest(text: "a" + String(repeating: "\u{0301}", count: 40), style: TextStyle(family: "Noto Sans"), width: 300)
        #expect(throws: LayoutError.self) { try Fixtures.layouter.justify(request) }
    }
}
