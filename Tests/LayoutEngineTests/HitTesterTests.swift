import Foundation
import Testing
@testable import LayoutEngine

@Suite struct HitTesterTests {
    /// Every grapheme boundary of `text` (UTF-16 offsets), its end included.
    static func boundaries(_ text: String) -> [Int] {
        var offsets = [0], offset = 0
        for character in text {
            offset += character.utf16.count
            offsets.append(offset)
        }
        return offsets
    }

    static func centre(_ r: Rect) -> Point { Point(x: r.x + r.width / 2, y: r.y + r.height / 2) }

    /// For every grapheme boundary: its caret's centre hit-tests back to it, with the caret's
    /// affinity where the offset has two places. Returns the boundaries that failed.
    static func roundTripFailures(_ layout: ParagraphLayout, _ text: String) -> [String] {
        let tester = HitTester(layout: layout, text: text)
        var failures: [String] = []
        let visible = layout.visibleRange
        for offset in boundaries(text) where offset >= visible.lowerBound && offset <= visible.upperBound {
            for affinity in [Affinity.downstream, .upstream] {
                let position = TextPosition(offset: offset, affinity: affinity)
                guard let caret = tester.caret(position) else { failures.append("\(position): no caret"); continue }
                guard let hit = tester.hit(centre(caret.primary)) else { failures.append("\(position): no hit"); continue }
                if hit.position.offset != offset { failures.append("\(position) → \(hit.position)") }
            }
        }
        return failures
    }

    @Test func caretsOfLeftToRightTextHitBack() throws {
        let text = "The quick brown fox jumps over the lazy dog, again and again."
        let layout = try Fixtures.layout(text, width: 180)
        #expect(layout.lines.count > 1)
        #expect(Self.roundTripFailures(layout, text) == [])
    }

    @Test func caretsOfArabicInAnEnglishLineHitBack() throws {
        let text = "Say مرحبا بالعالم to the world, and שלום too."
        let layout = try Fixtures.layout(text, width: 400)
        #expect(Self.roundTripFailures(layout, text) == [])
        // A point on the Arabic word lands at its logical offsets: the word's right edge is its start.
        let tester = HitTester(layout: layout, text: text)
        let start = (text as NSString).range(of: "مرحبا").location
        let caret = try #require(tester.caret(TextPosition(offset: start)))
        let word = tester.selection(start..<(start + 5))
        #expect(word.count == 1)
        #expect(abs(caret.primary.x + caret.primary.width - (word[0].x + word[0].width)) < 1e-6,
                "the caret before an Arabic word stands at its right edge")
        let hitNearRight = try #require(tester.hit(Point(x: word[0].x + word[0].width - 0.5, y: caret.primary.y + 5)))
        #expect(hitNearRight.position.offset == start)
        let hitNearLeft = try #require(tester.hit(Point(x: word[0].x + 0.5, y: caret.primary.y + 5)))
        #expect(hitNearLeft.position.offset == start + 5)
    }

    @Test func aRightToLeftParagraphHitsBack() throws {
        let text = "השועל החום המהיר קופץ מעל הכלב העצל 123 פעמים."
        let layout = try Fixtures.layout(text, width: 200) { $0.direction = .rightToLeft }
        #expect(Self.roundTripFailures(layout, text) == [])
    }

    @Test func aSoftLineEndHasTwoPlacesTellApartByAffinity() throws {
        let text = "alpha beta gamma delta epsilon"
        let layout = try Fixtures.layout(text, width: 90)
        let tester = HitTester(layout: layout, text: text)
        let second = layout.lines[1].range.lowerBound
        let down = try #require(tester.caret(TextPosition(offset: second)))
        let up = try #require(tester.caret(TextPosition(offset: second, affinity: .upstream)))
        #expect(down.line == 1 && up.line == 0)
        #expect(up.secondary == down.primary)
        // Past the end of the first line: its end, upstream.
        let past = try #require(tester.hit(Point(x: 1000, y: Self.centre(up.primary).y)))
        #expect(past.position == TextPosition(offset: second, affinity: .upstream))
    }

    @Test func pointsAboveBelowAndBesideTheTextClamp() throws {
        let text = "one two three four five six"
        let layout = try Fixtures.layout(text, width: 100)
        let tester = HitTester(layout: layout, text: text)
        #expect(tester.hit(Point(x: -50, y: -50))?.position.offset == 0)
        #expect(tester.hit(Point(x: 5, y: -500))?.line == 0)
        let below = try #require(tester.hit(Point(x: 10_000, y: 10_000)))
        #expect(below.position.offset == text.utf16.count && below.line == layout.lines.count - 1)
        let beside = try #require(tester.hit(Point(x: -20, y: Self.centre(layout.lines[1].usedRect).y)))
        #expect(beside.position.offset == layout.lines[1].range.lowerBound && beside.line == 1)
    }

    @Test func aHardBreakEndsTheLineBeforeIt() throws {
        let text = "first\nsecond\n\nfourth"
        let layout = try Fixtures.layout(text)
        let tester = HitTester(layout: layout, text: text)
        let endOfFirst = try #require(tester.hit(Point(x: 1000, y: Self.centre(layout.lines[0].usedRect).y)))
        #expect(endOfFirst.position == TextPosition(offset: 5))
        let empty = try #require(tester.hit(Point(x: 100, y: Self.centre(layout.lines[2].usedRect).y)))
        #expect(empty.position.offset == 13 && empty.line == 2)
        #expect(Self.roundTripFailures(layout, text) == [])
    }

    @Test func aLigatureSharesItsWidthAmongItsCharacters() throws {
        let text = "office fluffy"
        let layout = try Fixtures.layout(text, family: "Noto Serif")
        let tester = HitTester(layout: layout, text: text)
        // "ffi" is one glyph in Noto Serif: three carets inside it, evenly spaced.
        let xs = (1...4).compactMap { tester.caret(TextPosition(offset: $0))?.primary.x }
        #expect(xs.count == 4)
        #expect(abs((xs[1] - xs[0]) - (xs[2] - xs[1])) < 1e-6)
        #expect(Self.roundTripFailures(layout, text) == [])
    }

    @Test func anAttachmentIsOneUnit() throws {
        let text = "a \u{FFFC} b"
        let layout = try AttachmentTests.layout(text, [InlineAttachment(width: 40, extent: .height(20))])
        let tester = HitTester(layout: layout, text: text)
        let box = try #require(layout.attachments.first?.rect)
        #expect(tester.hit(Point(x: box.x + 5, y: box.y + 5))?.position.offset == 2)
        #expect(tester.hit(Point(x: box.x + 35, y: box.y + 5))?.position.offset == 3)
        #expect(tester.selection(2..<3) == [Rect(x: box.x, y: layout.lines[0].usedRect.y, width: 40, height: layout.lines[0].usedRect.height)])
    }

    /// A selection covers its clusters' advances and nothing else: the rects of every single
    /// cluster of a line add up to the line's whole selection, and to the glyphs' advances.
    @Test func selectionsCoverExactlyTheirGlyphs() throws {
        let text = "Mixed עברית and English, then العربية again."
        let layout = try Fixtures.layout(text, width: 500)
        let tester = HitTester(layout: layout, text: text)
        let all = tester.selection(0..<text.utf16.count)
        let advances = layout.runs.filter { !$0.isTruncationToken }.reduce(0.0) { $0 + $1.advances.reduce(0, +) }
        #expect(abs(all.reduce(0) { $0 + $1.width } - advances) < 1e-6)
        let bounds = Self.boundaries(text)
        let pieces = zip(bounds, bounds.dropFirst()).flatMap { tester.selection($0..<$1) }
        #expect(abs(pieces.reduce(0) { $0 + $1.width } - advances) < 1e-6)
        // The end of the Hebrew word and the word after it: in the text they are neighbours, on
        // the line the rest of the Hebrew word lies between them, so the selection is two pieces.
        let hebrew = (text as NSString).range(of: "עברית and")
        #expect(tester.selection((hebrew.location + 3)..<(hebrew.location + hebrew.length)).count == 2)
        #expect(tester.selection(hebrew.location..<(hebrew.location + hebrew.length)).count == 1)
    }

    @Test func verticalTextHitsBack() throws {
        let text = "縦書きの文章、二〇二六年。テスト"
        let layout = try Fixtures.layout(text, width: 300, family: "Noto Sans CJK JP") {
            $0.writingMode = .verticalRightToLeft
            $0.height = 120
        }
        #expect(layout.lines.count > 1)
        #expect(Self.roundTripFailures(layout, text) == [])
        // Carets lie across the column: wider than tall.
        let caret = try #require(HitTester(layout: layout, text: text).caret(TextPosition(offset: 1)))
        #expect(caret.primary.width > caret.primary.height)
    }

    @Test(.enabled(if: Fixtures.corpus != nil, "no ../shared/corpus beside the repository"))
    func everyCaptionsCaretsHitBack() throws {
        #expect(try Self.caretsHitBack(Fixtures.corpus ?? [], vertical: false) > 100_000)
    }

    @Test func ownCaptionsCaretsHitBack() throws {
        #expect(try Self.caretsHitBack(Fixtures.ownCaptions, vertical: false) > 1_000)
    }

    /// Holds every boundary's caret of `captions` to hit back to it, laid out 300 wide or in
    /// columns 300 tall; returns how many boundaries were checked.
    static func caretsHitBack(_ captions: [Fixtures.Caption], vertical: Bool) throws -> Int {
        var failed: [String] = []
        var checked = 0
        for caption in captions {
            let layout = vertical
                ? try Fixtures.layout(caption.text, width: 300, family: "Noto Sans CJK JP") {
                    $0.writingMode = .verticalRightToLeft
                    $0.height = 300
                }
                : try Fixtures.layout(caption.text, width: 300)
            let failures = Self.roundTripFailures(layout, caption.text)
            checked += Self.boundaries(caption.text).count
            if !failures.isEmpty { failed.append("\(caption.id) (\(caption.script)): \(failures.prefix(3))") }
        }
        #expect(failed.isEmpty, "\(failed.count) captions: \(failed.prefix(10))")
        return checked
    }

    /// The same in vertical text: every caption set in columns 300 pt tall, right to left (Latin,
    /// Arabic and the rest on their side, CJK upright).
    @Test(.enabled(if: Fixtures.corpus != nil, "no ../shared/corpus beside the repository"))
    func everyCaptionsCaretsHitBackInVerticalText() throws {
        #expect(try Self.caretsHitBack(Fixtures.corpus ?? [], vertical: true) > 100_000)
    }

    @Test func ownCaptionsCaretsHitBackInVerticalText() throws {
        #expect(try Self.caretsHitBack(Fixtures.ownCaptions, vertical: true) > 1_000)
    }
}
