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
}
