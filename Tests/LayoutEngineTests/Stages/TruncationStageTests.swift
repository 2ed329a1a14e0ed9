import Testing
@testable import LayoutEngine

/// Truncation over fixed-advance faces: a letter and the ellipsis 5 points, a space 2.5 at size
/// 10. "aaaa bbbb" with the ellipsis is 47.5 points, over 45; "aaaa bbb…" is 42.5.
@Suite struct TruncationStageTests {
    let text = "aaaa bbbb cccc dddd"

    func shown(_ layout: ParagraphLayout) -> String {
        String(decoding: Array(text.utf16)[layout.visibleRange], as: UTF16.self)
    }

    @Test func tailKeepsWhatFitsBesideTheToken() throws {
        let layout = try FixedAdvance.layout(text, width: 45) { $0.maxLines = 1 }
        #expect(layout.lines.count == 1)
        #expect(layout.lines[0].truncated)
        #expect(shown(layout) == "aaaa bbb")
        let token = try #require(layout.runs.first { $0.isTruncationToken })
        #expect(token.glyphs.map(\.position.x) == [37.5])
        #expect(layout.lines[0].width == 42.5)
        #expect(layout.overflowRange == 8..<19)
    }

    /// The second line shows "cccc dddd" only when it is the last: cut to one more line, the
    /// token ends it in place of what does not fit.
    @Test func theLastLineShownCarriesTheToken() throws {
        let whole = try FixedAdvance.layout(text, width: 45)
        #expect(FixedAdvance.lineTexts(whole, text) == ["aaaa bbbb", "cccc dddd"])
        let cut = try FixedAdvance.layout(text + " eeee", width: 45) { $0.maxLines = 2 }
        #expect(cut.lines.map(\.truncated) == [false, true])
        #expect(cut.runs.first { $0.isTruncationToken }?.lineIndex == 1)
        #expect(cut.lines[1].width <= 45)
    }

    /// The height allows two lines of 10 points and part of a third.
    @Test func aHeightCutsAsALineLimitDoes() throws {
        let layout = try FixedAdvance.layout(text + " eeee ffff", width: 45) { $0.height = 25 }
        #expect(layout.lines.count == 2)
        #expect(layout.lines[1].truncated)
        #expect(layout.size.height == 20)
    }

    /// Head truncation keeps the end: the token, then as much of the end as fits in 40 points
    /// ("…ccc dddd" is 5 + 37.5 = 42.5, over 40; "…cc dddd" is 5 + 32.5).
    @Test func headKeepsTheEnd() throws {
        let layout = try FixedAdvance.layout("cccc dddd", width: 40) { $0.maxLines = 1; $0.truncationMode = .head }
        let token = try #require(layout.runs.first { $0.isTruncationToken })
        #expect(token.glyphs.map(\.position.x) == [0])
        let others = layout.runs.filter { !$0.isTruncationToken }.flatMap(\.glyphs)
        #expect(others.map(\.cluster) == [2, 3, 4, 5, 6, 7, 8])
        #expect(others.first?.position.x == 5)
    }

    /// A custom token is shaped like text: " more" is 2.5 + 4 × 5 = 22.5 points.
    @Test func aCustomTokenTakesItsWidth() throws {
        let layout = try FixedAdvance.layout(text, width: 45) { $0.maxLines = 1; $0.truncationToken = " more" }
        let token = try #require(layout.runs.first { $0.isTruncationToken })
        #expect(token.glyphs.count == 5)
        // 45 − 22.5 leaves 22.5: "aaaa" (20), with its space it would be 22.5 and hang.
        #expect(shown(layout).hasPrefix("aaaa"))
        #expect(layout.lines[0].width <= 45)
        #expect(token.glyphs.first!.position.x + 22.5 <= 45)
    }
}
