import Testing
@testable import LayoutEngine

@Suite struct TruncationTests {
    let text = "Truncation cuts the text at the last line that is allowed and shows an ellipsis there"

    @Test func maxLinesCutsWithTheToken() throws {
        let layout = try Fixtures.layout(text, width: 200) { $0.maxLines = 2 }
        #expect(layout.lines.count == 2)
        let last = layout.lines[1]
        #expect(last.truncated)
        #expect(last.width <= 200 + 1e-6)
        let token = try #require(layout.runs.last)
        #expect(token.isTruncationToken)
        #expect(token.lineIndex == 1)
        #expect(layout.visibleRange.upperBound == last.range.upperBound)
        #expect(layout.visibleRange.upperBound < text.utf16.count)
    }

    @Test func customAndEmptyTokens() throws {
        let custom = try Fixtures.layout(text, width: 200) { $0.maxLines = 1; $0.truncationToken = " more" }
        #expect(custom.runs.last?.isTruncationToken == true)
        #expect(custom.runs.last?.glyphIDs.count == 5)
        let none = try Fixtures.layout(text, width: 200) { $0.maxLines = 1; $0.truncationToken = nil }
        #expect(none.runs.allSatisfy { !$0.isTruncationToken })
    }

    @Test func heightLimitsVisibleLines() throws {
        let full = try Fixtures.layout(text, width: 200)
        let oneLine = full.lines[0].usedRect.height
        let layout = try Fixtures.layout(text, width: 200) { $0.height = oneLine * 2.5 }
        #expect(layout.lines.count == 2)
        #expect(layout.lines[1].truncated)
        #expect(layout.size.height <= oneLine * 2.5)
    }

    @Test func textThatFitsIsNotTruncated() throws {
        let layout = try Fixtures.layout("short", width: 200) { $0.maxLines = 1 }
        #expect(!layout.lines[0].truncated)
        #expect(layout.runs.allSatisfy { !$0.isTruncationToken })
    }

    @Test func rightToLeftTokenSitsOnTheLeft() throws {
        let arabic = String(repeating: "كلمة ", count: 40)
        let layout = try Fixtures.layout(arabic, width: 200) { $0.maxLines = 1 }
        let token = try #require(layout.runs.first { $0.isTruncationToken })
        let others = layout.runs.filter { !$0.isTruncationToken }.flatMap { $0.positions.map(\.x) }
        #expect(token.positions[0].x < others.min()!)
    }

    /// The token's run is an empty range where the text was cut, and its clusters point there.
    @Test func theTokenSitsWhereTheTextWasCut() throws {
        let layout = try Fixtures.layout(text, width: 200) { $0.maxLines = 2 }
        let token = try #require(layout.runs.first { $0.isTruncationToken })
        #expect(token.range == layout.visibleRange.upperBound..<layout.visibleRange.upperBound)
        #expect(token.clusters.allSatisfy { $0 == layout.visibleRange.upperBound })
    }

    /// Head truncation keeps the end of the text the last line stands for; middle keeps both ends.
    @Test func headAndMiddleTruncationKeepTheEnd() throws {
        let units = Array(text.utf16)
        func shown(_ layout: ParagraphLayout, line: Int) -> String {
            layout.runs.filter { $0.lineIndex == line && !$0.isTruncationToken }.sorted { $0.range.lowerBound < $1.range.lowerBound }
                .map { String(decoding: units[$0.range], as: UTF16.self) }.joined(separator: "|")
        }
        let tail = try Fixtures.layout(text, width: 200) { $0.maxLines = 2 }
        let head = try Fixtures.layout(text, width: 200) { $0.maxLines = 2; $0.truncationMode = .head }
        let middle = try Fixtures.layout(text, width: 200) { $0.maxLines = 2; $0.truncationMode = .middle }
        for layout in [head, middle] {
            #expect(layout.lines.count == 2 && layout.lines[1].truncated)
            #expect(layout.lines[1].width <= 200 + 1e-6)
            #expect(layout.visibleRange.upperBound == units.count, "the end of the text is shown")
            #expect(shown(layout, line: 0) == shown(tail, line: 0), "only the last line changes")
        }
        #expect(shown(head, line: 1).hasSuffix("ellipsis there"))
        let headToken = try #require(head.runs.first { $0.isTruncationToken })
        let firstKept = head.runs.filter { $0.lineIndex == 1 && !$0.isTruncationToken }.map(\.range.lowerBound).min()!
        #expect(headToken.range == firstKept..<firstKept, "the token stands where the hidden start ends")
        #expect(headToken.glyphs.first!.position.x < head.runs.filter { $0.lineIndex == 1 && !$0.isTruncationToken }
            .flatMap(\.glyphs).map(\.position.x).min()!, "and is drawn first")
        let middleText = shown(middle, line: 1)
        #expect(middleText.hasSuffix("there") && middleText.hasPrefix(shown(tail, line: 1).prefix(4)), "\(middleText)")
        let middleToken = try #require(middle.runs.first { $0.isTruncationToken })
        let pieces = middle.runs.filter { $0.lineIndex == 1 }.sorted { $0.glyphs.first!.position.x < $1.glyphs.first!.position.x }
        #expect(pieces.count >= 3 && pieces.first!.isTruncationToken == false && pieces.last!.isTruncationToken == false)
        #expect(pieces.contains { $0.isTruncationToken } && middleToken.range.isEmpty)
    }

    @Test func aTruncatedRightToLeftLineKeepsItsToken() throws {
        let arabic = "هذا نص عربي طويل بما يكفي ليلتف على أكثر من سطر واحد في هذا العرض الضيق جدا"
        for mode in [TruncationMode.tail, .head, .middle] {
            let layout = try Fixtures.layout(arabic, width: 160) { $0.maxLines = 2; $0.truncationMode = mode }
            #expect(layout.lines[1].truncated && layout.lines[1].width <= 160 + 1e-6, "\(mode)")
            #expect(layout.runs.contains { $0.isTruncationToken && $0.lineIndex == 1 }, "\(mode)")
        }
    }

    /// The token is at most 256 UTF-16 units, counted as UTF-16 whatever its UTF-8 length.
    @Test func tokenLengthIsCountedInUTF16Units() throws {
        func lays(_ token: String) -> Bool {
            var request = ParagraphRequest(text: AttributedText("one two three four", style: TextStyle(family: "Noto Sans")),
                                           width: 40, maxLines: 1, truncationToken: token)
            request.alignment = .natural
            return (try? Fixtures.layouter.layout(request)) != nil
        }
        #expect(lays(String(repeating: "x", count: 256)))
        #expect(!lays(String(repeating: "x", count: 257)))
        // 200 euro signs: 600 UTF-8 bytes, 200 UTF-16 units.
        #expect(lays(String(repeating: "€", count: 200)))
        // 129 emoji: 258 UTF-16 units.
        #expect(!lays(String(repeating: "🙂", count: 129)))
        #expect(lays(String(repeating: "🙂", count: 128)))
    }
}
