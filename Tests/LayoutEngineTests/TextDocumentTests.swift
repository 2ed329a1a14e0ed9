import Foundation
import Testing
import TestSupport
@testable import LayoutEngine

@Suite struct TextDocumentTests {
    static let style = TextStyle(family: "Noto Sans", size: 20)
    static let boldRule = CompiledRule(rule: FormattingRule(name: "bold", pattern: #"\*([^*\n\r\x{2029}]+)\*"#, group: 1,
                                                            patch: StylePatch(weight: 700), hidesMarkers: true),
                                       pattern: EnclosedPattern())

    static func settings(width: Double = 260, alignment: TextAlignment = .natural, rules: [CompiledRule] = []) -> DocumentSettings {
        DocumentSettings(request: ParagraphRequest(text: AttributedText("", style: style), width: width, alignment: alignment),
                         style: style, rules: rules)
    }

    static func document(_ text: String, spans: [AttributedText.Span] = [], attachments: [InlineAttachment] = [],
                         settings: DocumentSettings = settings()) throws -> TextDocument {
        try TextDocument(units: AttributedText.utf16(text), spans: spans, attachments: attachments, settings: settings,
                         layouter: Fixtures.layouter)
    }

    /// The document's text laid out afresh as one request: what every edit must leave.
    static func freshLayout(of document: TextDocument) throws -> ParagraphLayout {
        let units = document.units
        let settings = document.settings
        // Rules match within paragraphs in a document; these tests' rules never cross one, so
        // matching the whole text finds the same.
        let ruled = try FormattingRules.apply(settings.rules, to: units)
        var request = settings.request
        request.text = AttributedText(String(decoding: units, as: UTF16.self), units: units, style: settings.style,
                                      paint: settings.paint, spans: ruled.spans + document.spans)
        request.attachments = document.attachments
        // As the wire sets it: fragments of at least one em of the default style.
        if var flow = request.flow, flow.minimumFragmentWidth == nil {
            flow.minimumFragmentWidth = settings.style.size
            request.flow = flow
        }
        return try Fixtures.layouter.layout(request)
    }

    /// Where `document` differs from a fresh layout of its text (empty when it does not).
    static func differences(_ document: TextDocument) throws -> [String] {
        differences(kept: document.assembled(), fresh: try freshLayout(of: document))
    }

    /// Where `kept` (a document's paragraphs put together) differs from `fresh`.
    static func differences(kept: ParagraphLayout, fresh: ParagraphLayout) -> [String] {
        var found: [String] = []
        func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 }
        func close(_ a: Rect, _ b: Rect) -> Bool { close(a.x, b.x) && close(a.y, b.y) && close(a.width, b.width) && close(a.height, b.height) }
        if fresh.lines.count != kept.lines.count { return ["\(kept.lines.count) lines, fresh \(fresh.lines.count)"] }
        for (index, (a, b)) in zip(kept.lines, fresh.lines).enumerated() {
            if a.range != b.range || a.hardBreak != b.hardBreak || a.container != b.container || !close(a.width, b.width)
                || !close(a.baselineOrigin.x, b.baselineOrigin.x)
                || !close(a.baselineOrigin.y, b.baselineOrigin.y) || !close(a.usedRect, b.usedRect) || !close(a.ascent, b.ascent)
                || !close(a.descent, b.descent) || !close(a.trailingWhitespaceWidth, b.trailingWhitespaceWidth) {
                found.append("line \(index): \(a) against \(b)")
            }
        }
        if fresh.runs.count != kept.runs.count { return found + ["\(kept.runs.count) runs, fresh \(fresh.runs.count)"] }
        for (index, (a, b)) in zip(kept.runs, fresh.runs).enumerated() {
            let same = a.fontID == b.fontID && a.size == b.size && a.bidiLevel == b.bidiLevel && a.range == b.range
                && a.lineIndex == b.lineIndex && kept.paints[a.paint] == fresh.paints[b.paint] && a.glyphs.count == b.glyphs.count
                && zip(a.glyphs, b.glyphs).allSatisfy { g, h in
                    g.id == h.id && g.cluster == h.cluster && close(g.advance, h.advance) && close(g.position.x, h.position.x)
                        && close(g.position.y, h.position.y)
                }
            if !same { found.append("run \(index) differs") }
        }
        if kept.attachments.count != fresh.attachments.count
            || zip(kept.attachments, fresh.attachments).contains(where: { $0.index != $1.index || $0.range != $1.range || !close($0.rect, $1.rect) }) {
            found.append("attachments differ")
        }
        if kept.decorations.count != fresh.decorations.count
            || zip(kept.decorations, fresh.decorations).contains(where: {
                $0.range != $1.range || $0.lineIndex != $1.lineIndex || $0.rects.count != $1.rects.count
                    || zip($0.rects, $1.rects).contains { !close($0, $1) }
            }) {
            found.append("decorations differ")
        }
        if !close(kept.size.width, fresh.size.width) || !close(kept.size.height, fresh.size.height) {
            found.append("size \(kept.size) against \(fresh.size)")
        }
        return found
    }

    // MARK: Edits against fresh layouts

    @Test func typingInTheMiddleRelaysOnlyItsParagraph() throws {
        let document = try Self.document("First paragraph of the note.\nSecond one, which we edit.\nThird, which moves.\n")
        let thirdBefore = document.placed(2)
        let change = try document.replace(36..<36, with: AttributedText.utf16(" a much longer phrase that wraps onto a new line"))
        #expect(change.first == 1 && change.removed == 1 && change.inserted == 1)
        #expect(change.deltaLines >= 1 && document.lineCount == document.firstLine(of: 2) + thirdBefore.lines.count)
        #expect(change.deltaY > 0 && abs(change.deltaY - (document.top(of: 2) - thirdBefore.lines[0].usedRect.y)) < 1e-9)
        #expect(change.deltaOffset == 48)
        #expect(change.caret == TextPosition(offset: 36 + 48))
        // The third paragraph's lines are the old ones, moved.
        let thirdAfter = document.placed(2)
        #expect(thirdAfter.lines.map(\.range) == thirdBefore.lines.map { $0.range.shifted(by: 48) })
        #expect(try Self.differences(document) == [])
    }

    /// Spacing between paragraphs is one gap everywhere: an edit moves what follows by its
    /// lines' change alone, and a new paragraph brings a gap with it.
    @Test func spacedParagraphsKeepTheirGaps() throws {
        var settings = Self.settings()
        settings.request.paragraphStyle.spacingBefore = 6
        settings.request.paragraphStyle.spacingAfter = 10
        let document = try Self.document("First paragraph.\nSecond one.\nThird.", settings: settings)
        #expect(try Self.differences(document) == [])
        let lineHeight = document.placed(0).lines[0].usedRect.height
        #expect(abs(document.top(of: 1) - (lineHeight + 16)) < 1e-9, "the gap is after plus before")
        #expect(abs(document.height - (3 * lineHeight + 2 * 16)) < 1e-9, "no gap below the last paragraph")
        let split = try document.replace(6..<6, with: AttributedText.utf16("\n"))
        #expect(split.inserted == 2 && abs(split.deltaY - (lineHeight + 16)) < 1e-9)
        #expect(try Self.differences(document) == [])
        _ = try document.replace(0..<document.length, with: [])
        #expect(document.height == 0)
        #expect(try Self.differences(document) == [])
    }

    /// In a numbered list a split or a join renumbers every item after it (they come back as
    /// replaced); typing inside an item, or any edit of a bulleted list, does not.
    @Test func listItemsKeepTheirNumbers() throws {
        var settings = Self.settings()
        settings.request.paragraphStyle.list = ListStyle(marker: .decimal, start: 3)
        let document = try Self.document("one\ntwo\nthree\nfour", settings: settings)
        #expect(try Self.differences(document) == [])
        let typed = try document.replace(5..<5, with: AttributedText.utf16("o"))
        #expect(typed.first == 1 && typed.removed == 1 && typed.inserted == 1)
        let split = try document.replace(2..<2, with: AttributedText.utf16("\n"))
        #expect(split.first == 0 && split.removed == 4 && split.inserted == 5, "\(split)")
        #expect(try Self.differences(document) == [])
        let join = try document.replace(2..<3, with: [])
        #expect(join.first == 0 && join.removed == 5 && join.inserted == 4)
        #expect(try Self.differences(document) == [])
        #expect(document.relayoutUnits(replacing: 0..<0, inserted: "x".utf16) == 4 + 1, "typing: its item alone")
        #expect(document.relayoutUnits(replacing: 0..<0, inserted: "\n".utf16) == document.length + 1, "a split: every item after")

        settings.request.paragraphStyle.list = ListStyle(marker: .bullet("–"))
        let bullets = try Self.document("one\ntwo\nthree", settings: settings)
        let bulletSplit = try bullets.replace(2..<2, with: AttributedText.utf16("\n"))
        #expect(bulletSplit.removed == 1 && bulletSplit.inserted == 2)
        #expect(try Self.differences(bullets) == [])
    }

    /// The settings' list and spacing read in place (`isNumberedList`, `paragraphSpacing`)
    /// equal the paragraph style's, whatever the style holds.
    @Test func theSettingsReadInPlaceEqualTheParagraphStyle() {
        var request = Self.settings().request
        let styles: [ParagraphStyle?] = [
            nil, ParagraphStyle(spacingBefore: 4), ParagraphStyle(spacingAfter: 6), ParagraphStyle(spacingBefore: 3, spacingAfter: 9),
        ]
        let lists: [ListStyle?] = [nil, ListStyle(marker: .bullet("–")), ListStyle(marker: .decimal, start: 3), ListStyle(marker: .lowerRoman)]
        for style in styles {
            for list in lists {
                if var style {
                    style.list = list
                    request.paragraphStyle = style
                } else {
                    request.paragraphStyle = .plain
                    request.paragraphStyle.list = list
                }
                #expect(request.isNumberedList == (request.paragraphStyle.list?.isNumbered ?? false))
                #expect(request.paragraphSpacing == request.paragraphStyle.spacingBefore + request.paragraphStyle.spacingAfter)
            }
        }
        var numbered = request
        numbered.paragraphStyle.list = ListStyle(marker: .decimal)
        #expect(numbered.isNumberedList && !Self.settings().request.isNumberedList)
    }

    // MARK: Text that flows

    /// An ellipse at the top right of one growing box, text on both sides of it.
    static func aroundPicture(width: Double) -> TextFlow {
        TextFlow(containers: [TextContainer(width: width, exclusions: [
            Exclusion(FlowShape(.ellipse(Rect(x: width * 0.45, y: 10, width: width * 0.4, height: 70))), margin: 4)])],
                 isOneBox: true)
    }

    /// A column of `height` and one beside it that grows.
    static func twoColumns(height: Double) -> TextFlow {
        TextFlow(containers: [TextContainer(width: 150, height: height), TextContainer(origin: Point(x: 170, y: 0), width: 150)])
    }

    /// A paragraph that grows moves the ones below it (around the picture, into the next
    /// column) until one starts where it did; from there the old lines stay.
    @Test(arguments: [0, 1])
    func flowingParagraphsAreLaidAgainUntilTheyLineUp(kind: Int) throws {
        var settings = Self.settings(width: 300)
        settings.request.flow = kind == 0 ? Self.aroundPicture(width: 300) : Self.twoColumns(height: 120)
        let text = "A first paragraph that flows beside the picture.\nA second.\nA third, longer one, which goes on past the "
            + "picture and below it, as far as it needs.\nLast."
        let document = try Self.document(text, settings: settings)
        #expect(try Self.differences(document) == [])
        if kind == 1 { #expect(document.paragraphs.last!.layout.lines.last!.container == 1, "the text reaches the second column") }
        // A letter that leaves its paragraph's lines as many changes nothing below.
        let linesBefore = document.paragraphs[1].layout.lines.count
        let typed = try document.replace(document.start(of: 1) + 1..<document.start(of: 1) + 1, with: AttributedText.utf16("x"))
        #expect(document.paragraphs[1].layout.lines.count == linesBefore)
        #expect(typed.first == 1 && typed.removed == 1 && typed.inserted == 1 && typed.deltaY == 0)
        #expect(try Self.differences(document) == [])
        // A new line's worth moves what follows until it lines up again.
        let grown = try document.replace(50..<50, with: AttributedText.utf16(" and more words, enough to make a new line here"))
        #expect(grown.inserted == grown.removed && (grown.removed >= 2 || grown.deltaY > 0), "\(grown)")
        #expect(try Self.differences(document) == [])
        let styled = try document.style(0..<10, patch: StylePatch(size: 34))
        #expect(try Self.differences(document) == [])
        #expect(styled.first == 0)
        // Hits agree with the whole layout's, beside the picture and across the columns.
        let whole = HitTester(layout: document.assembled(), units: document.units)
        for y in stride(from: -5.0, through: document.height + 5, by: 7) {
            for x in stride(from: -5.0, through: 330, by: 23) {
                let point = Point(x: x, y: y)
                #expect(document.hit(point)?.position == whole.hit(point)?.position, "point \(point)")
            }
        }
    }

    /// Below the last exclusion of a growing box every band is the box's width: a paragraph
    /// that gains a line there moves the ones after it down, as in a plain box, instead of
    /// laying them out again.
    @Test func belowTheLastExclusionParagraphsMoveInsteadOfBeingLaidAgain() throws {
        var settings = Self.settings(width: 300)
        settings.request.flow = Self.aroundPicture(width: 300)
        let text = (0..<40).map { "Paragraph \($0) of a long note, which wraps." }.joined(separator: "\n")
        let document = try Self.document(text, settings: settings)
        let index = 20
        let lineHeight = document.placed(index).lines[0].usedRect.height
        let before = document.placed(index + 1).lines[0].usedRect.y
        let change = try document.replace(document.start(of: index) + 5..<document.start(of: index) + 5,
                                          with: AttributedText.utf16(" and enough words to take one more line"))
        #expect(change.first == index && change.removed == 1 && change.inserted == 1, "\(change)")
        #expect(abs(change.deltaY - lineHeight) < 1e-9)
        #expect(abs(document.placed(index + 1).lines[0].usedRect.y - (before + lineHeight)) < 1e-9)
        #expect(try Self.differences(document) == [])
        // An edit near the top, beside the picture, lays out what follows until it is past it.
        let top = try document.replace(3..<3, with: AttributedText.utf16(" more words beside the picture to wrap"))
        #expect(top.first == 0 && top.removed >= 1)
        #expect(try Self.differences(document) == [])
    }

    /// Paragraphs laid out again only because they start elsewhere keep their analysis and
    /// glyphs: they are broken and positioned again, not shaped again.
    @Test func paragraphsThatOnlyMoveAreNotShapedAgain() throws {
        var settings = Self.settings(width: 300)
        settings.request.flow = Self.twoColumns(height: 2_000)  // every position counts in a column with a bottom
        let text = (0..<12).map { "Paragraph \($0) of a long note, which wraps over two lines here." }.joined(separator: "\n")
        let document = try Self.document(text, settings: settings)
        let before = document.paragraphs.map { $0.keptShaping }
        let change = try document.replace(3..<3, with: AttributedText.utf16(" and enough words to take one more line at least"))
        #expect(change.first == 0 && change.removed == 12, "every paragraph after the first starts lower: \(change)")
        #expect(document.paragraphs[0].keptShaping != before[0], "the edited paragraph is shaped again")
        for index in 1..<12 { #expect(document.paragraphs[index].keptShaping == before[index], "paragraph \(index) was shaped again") }
        #expect(try Self.differences(document) == [])
    }

    @Test func flowThatWouldTieParagraphsToLaterOnesIsRefused() throws {
        var settings = Self.settings(width: 300)
        settings.request.flow = TextFlow(containers: [TextContainer(width: 150, height: 100)])
        #expect(Self.refusal(settings) == "containers[0].height")
        settings.request.flow = TextFlow(containers: [TextContainer(width: 150), TextContainer(origin: Point(x: 170, y: 0), width: 150)])
        #expect(Self.refusal(settings) == "containers[0].height")
        settings.request.flow = TextFlow(containers: [TextContainer(width: 150)], verticalAlignment: .center)
        #expect(Self.refusal(settings) == "vertical_alignment")
    }

    static func refusal(_ settings: DocumentSettings) -> String? {
        do { _ = try Self.document("a\nb", settings: settings); return nil } catch { return (error as? LayoutError)?.field }
    }

    @Test func separatorsSplitAndJoinParagraphs() throws {
        let document = try Self.document("one two three\nfour five six")
        #expect(document.paragraphs.count == 2)
        let split = try document.replace(4..<4, with: AttributedText.utf16("\n"))
        #expect(split.first == 0 && split.removed == 1 && split.inserted == 2)
        #expect(document.paragraphs.count == 3)
        #expect(try Self.differences(document) == [])
        // Deleting a paragraph's separator joins it with the next one.
        let join = try document.replace(14..<15, with: [])
        #expect(join.removed == 2 && join.inserted == 1)
        #expect(document.paragraphs.count == 2)
        #expect(try Self.differences(document) == [])
        // A LF typed after a lone CR joins them into one separator.
        _ = try document.replace(4..<5, with: AttributedText.utf16("\r"))
        _ = try document.replace(5..<5, with: AttributedText.utf16("\n"))
        #expect(document.paragraphs.count == 2)
        #expect(try Self.differences(document) == [])
    }

    @Test func styleEditsRelayTheParagraphsTheyCross() throws {
        let document = try Self.document("alpha beta\ngamma delta\nepsilon zeta")
        let change = try document.style(6..<17, patch: StylePatch(weight: 700, color: Color(red: 1, green: 0, blue: 0)))
        #expect(change.first == 0 && change.removed == 2 && change.inserted == 2 && change.deltaOffset == 0)
        #expect(document.spans.map(\.range) == [6..<11, 11..<17])
        #expect(try Self.differences(document) == [])
        // Typing inside the styled range extends it; typing at its edge does not.
        _ = try document.replace(8..<8, with: AttributedText.utf16("XX"))
        _ = try document.replace(6..<6, with: AttributedText.utf16("Y"))
        #expect(document.spans.map(\.range) == [7..<14, 14..<20])
        #expect(try Self.differences(document) == [])
    }

    @Test func attachmentsFollowTheirCharacters() throws {
        let box = InlineAttachment(width: 30, extent: .height(20))
        let wide = InlineAttachment(width: 60, extent: .height(10))
        let document = try Self.document("a \u{FFFC} b\nc \u{FFFC} d", attachments: [box, box])
        _ = try document.replace(0..<0, with: AttributedText.utf16("\u{FFFC}\n"), attachments: [wide])
        #expect(document.attachments == [wide, box, box])
        #expect(try Self.differences(document) == [])
        _ = try document.replace(2..<6, with: [])  // the first paragraph's box goes
        #expect(document.attachments == [wide, box])
        #expect(try Self.differences(document) == [])
        #expect(document.assembled().attachments.map(\.index) == [0, 1])
    }

    @Test func rulesAreAppliedAgainWhereTextChanges() throws {
        let document = try Self.document("plain *bold* text\nand more", settings: Self.settings(rules: [Self.boldRule]))
        #expect(document.paragraphs[0].matches.map(\.range) == [7..<11])
        _ = try document.replace(13..<13, with: AttributedText.utf16("*x*"))
        #expect(document.paragraphs[0].matches.map(\.range) == [7..<11, 14..<15])
        #expect(try Self.differences(document) == [])
    }

    @Test func anEmptyDocumentTakesText() throws {
        let document = try Self.document("")
        #expect(document.paragraphs.count == 1 && document.lineCount == 0 && document.height == 0)
        _ = try document.replace(0..<0, with: AttributedText.utf16("hello\n"))
        _ = try document.replace(6..<6, with: AttributedText.utf16("world"))
        #expect(document.paragraphs.count == 2)
        #expect(try Self.differences(document) == [])
        _ = try document.replace(0..<11, with: [])
        #expect(document.length == 0 && document.lineCount == 0)
    }

    // MARK: Refusals

    @Test func badEditsAreRefusedAndChangeNothing() throws {
        let document = try Self.document("a 😀 b\nc")
        let before = document.assembled().lines
        func refusal(_ edit: () throws -> DocumentChange) -> LayoutError? {
            do { _ = try edit(); return nil } catch { return error as? LayoutError }
        }
        #expect(refusal { try document.replace(3..<3, with: AttributedText.utf16("x")) }?.field == "range")  // inside the pair
        #expect(refusal { try document.replace(0..<99, with: []) }?.field == "range")
        #expect(refusal { try document.style(3..<4, patch: StylePatch(weight: 700)) }?.field == "range")
        #expect(refusal { try document.replace(0..<0, with: AttributedText.utf16("\u{FFFC}")) }?.field == "attachments")
        let long = ContiguousArray<UInt16>(repeating: 0x61, count: Fixtures.layouter.maxTextLength)
        let tooLong = refusal { try document.replace(0..<0, with: long) }
        #expect(tooLong?.code == .resourceExhausted && tooLong?.field == "text")
        let budget = WorkBudget(deadline: 0)
        #expect(refusal { try document.replace(0..<0, with: AttributedText.utf16("x"), budget: budget) }?.code == .deadlineExceeded)
        #expect(document.assembled().lines == before)
        #expect(document.units == AttributedText.utf16("a 😀 b\nc"))
    }

    @Test func documentsRefuseWhatWouldTieParagraphsTogether() throws {
        var settings = Self.settings()
        settings.request.maxLines = 3
        #expect(throws: LayoutError.self) { try Self.document("x", settings: settings) }
        settings = Self.settings()
        settings.request.height = 100
        #expect(throws: LayoutError.self) { try Self.document("x", settings: settings) }
        #expect(throws: LayoutError.self) { try Self.document("a \u{FFFC}", attachments: []) }
    }

    // MARK: Hit-testing a document

    @Test(arguments: [0.0, 14.0])
    func hitsAndCaretsAgreeWithTheWholeLayout(spacing: Double) throws {
        let text = "The first paragraph wraps over a few lines here.\nمرحبا بالعالم and English.\nLast one."
        var settings = Self.settings(width: 180)
        settings.request.paragraphStyle.spacingAfter = spacing
        let document = try Self.document(text, settings: settings)
        let whole = HitTester(layout: document.assembled(), text: text)
        for offset in HitTesterTests.boundaries(text) {
            for affinity in [Affinity.downstream, .upstream] {
                let position = TextPosition(offset: offset, affinity: affinity)
                let mine = try #require(document.caret(position))
                let theirs = try #require(whole.caret(position))
                #expect(mine.line == theirs.line && abs(mine.primary.x - theirs.primary.x) < 1e-6
                        && abs(mine.primary.y - theirs.primary.y) < 1e-6, "caret \(position)")
                let hit = try #require(document.hit(HitTesterTests.centre(mine.primary)))
                #expect(hit.position.offset == offset, "hit back from \(position)")
            }
        }
        // Above the text and below it clamp to the first and last paragraphs.
        #expect(document.hit(Point(x: 0, y: -50))?.position.offset == 0)
        #expect(document.hit(Point(x: 1_000, y: document.height + 50))?.position.offset == text.utf16.count)
        // Down the left edge, every few points (gaps between paragraphs included), the document
        // answers as the whole layout does.
        var y = -5.0
        while y < document.height + 5 {
            let point = Point(x: 3, y: y)
            #expect(document.hit(point)?.position == whole.hit(point)?.position, "y \(y)")
            y += 1.5
        }
    }

    /// Deleting the last paragraph leaves an empty one at the end, with no lines: a point below
    /// the text still lands on the last line.
    @Test func aPointBelowAnEmptyLastParagraphLandsOnTheText() throws {
        let document = try Self.document("one\ntwo")
        _ = try document.replace(4..<7, with: [])
        #expect(document.paragraphs.count == 2 && document.paragraphs[1].layout.lines.isEmpty)
        let whole = HitTester(layout: document.assembled(), text: "one\n")
        let below = Point(x: 500, y: document.height + 40)
        #expect(document.hit(below) != nil && document.hit(below)?.position == whole.hit(below)?.position)
        #expect(document.hit(below)?.position.offset == 3, "before the hard break, as at any line's end")
    }

    // MARK: Random edits

    /// Texts to build documents from: corpus captions when ../shared is here, else our own.
    static let pieces: [String] = {
        let own = ["Hello there, how are you today?", "مرحبا بالعالم، كيف حالك؟", "Привет, как дела у тебя сегодня?",
                   "今天天气很好，我们去公园散步吧。", "नमस्ते, आप कैसे हैं?", "Emoji 👩‍👩‍👧 and flags 🇯🇵 mixed in 😀.",
                   "*bold* words and *more bold* here", "Mixed English עם עברית inside"]
        return own + (Fixtures.corpus?.map(\.text) ?? [])
    }()

    static let insertions = ["a", " ", "\n", "word ", "مرحبا ", "漢字", "😀", "\r", "\r\n", "\u{2029}", "*x*", "👩‍👩‍👧", "e\u{301}"]

    /// Runs `count` seeded edits on a document of several pieces and checks it against a fresh
    /// layout after each. Returns the number of edits checked.
    static func randomSession(seed: UInt64, edits count: Int) throws -> Int {
        var random = SeededGenerator(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        let separators = ["\n", "\n", "\r\n", "\u{2029}"]
        var text = ""
        for index in 0..<(2 + Int(random.next() % 6)) {
            if index > 0 { text += pick(separators) }
            text += pick(pieces)
        }
        let alignment = pick([TextAlignment.natural, .justified, .center, .right])
        var settings = Self.settings(width: Double(120 + random.next() % 300), alignment: alignment,
                                     rules: random.next() % 2 == 0 ? [boldRule] : [])
        // Every third session parts its paragraphs, and every third makes them a list.
        if random.next() % 3 == 0 {
            settings.request.paragraphStyle.spacingBefore = Double(random.next() % 9)
            settings.request.paragraphStyle.spacingAfter = Double(random.next() % 13)
        }
        // Every fourth flows around a picture, or through two columns (the second growing).
        switch random.next() % 8 {
        case 0: settings.request.flow = Self.aroundPicture(width: settings.request.width)
        case 1: settings.request.flow = Self.twoColumns(height: Double(40 + random.next() % 120))
        default: break
        }
        if settings.request.flow != nil { settings.request.paragraphStyle.spacingBefore = 0; settings.request.paragraphStyle.spacingAfter = 0 }
        if random.next() % 3 == 0 {
            settings.request.paragraphStyle.list = ListStyle(marker: pick([.bullet("\u{2022}"), .decimal, .lowerRoman, .upperAlpha]),
                                                             start: Int(random.next() % 12))
        }
        let document = try Self.document(text, settings: settings)
        // An offset at a grapheme boundary of the document's text.
        func offset() -> Int {
            let string = String(decoding: document.units, as: UTF16.self)
            let bounds = HitTesterTests.boundaries(string)
            return pick(bounds)
        }
        var checked = 0
        let tracing = ProcessInfo.processInfo.environment["LAYOUTD_EDIT_TRACE"] == "all"
        for step in 0..<count {
            let a = offset(), b = offset()
            let range = min(a, b)..<max(a, b)
            let kind = random.next() % 10
            if tracing { print("TRACE seed \(seed) step \(step) kind \(kind) range \(range) text \(String(decoding: document.units, as: UTF16.self).debugDescription) spans \(document.spans.map { ($0.range, $0.patch) }) width \(settings.request.width) \(settings.request.alignment) rules \(settings.rules.count)") }
            switch kind {
            case 0...3:
                _ = try document.replace(range.lowerBound..<range.lowerBound, with: AttributedText.utf16(pick(insertions + [pick(pieces)])))
            case 4...5:
                _ = try document.replace(range.count > 40 ? range.lowerBound..<(range.lowerBound) : range, with: [])
            case 6...7:
                _ = try document.replace(range, with: AttributedText.utf16(pick(insertions)))
            default:
                let patch = pick([StylePatch(weight: 700), StylePatch(size: 30), StylePatch(italic: true),
                                  StylePatch(color: Color(red: 0, green: 0.5, blue: 1)), StylePatch(letterSpacing: 2),
                                  StylePatch(underline: .set(DecorationLine()))])
                if tracing { print("TRACE style \(patch)") }
                _ = try document.style(range, patch: patch)
            }
            let differences = try Self.differences(document)
            if ProcessInfo.processInfo.environment["LAYOUTD_EDIT_TRACE"] != nil, !differences.isEmpty {
                print("TRACE units \(Array(document.units).enumerated().filter { $0.element < 0x20 || $0.element == 0x85 || $0.element == 0x2029 }) range \(range) text \(String(decoding: document.units, as: UTF16.self).debugDescription) paragraphs \((0...document.paragraphs.count).map(document.start(of:))) kept \(document.assembled().lines.map(\.range)) fresh \(try Self.freshLayout(of: document).lines.map(\.range)) spans \(document.spans.map { ($0.range, $0.patch) })")
            }
            #expect(differences == [], "seed \(seed), edit \(step): \(differences.prefix(3))")
            if !differences.isEmpty { break }
            // The paragraph found for an offset (the last answer tried first) is the one a walk
            // over the starts finds, asked near the last answer and far from it.
            for asked in [range.lowerBound, range.lowerBound, offset(), range.upperBound, -1, document.length, document.length + 1] {
                let walked = min((0..<document.paragraphs.count).first { document.start(of: $0 + 1) > asked } ?? document.paragraphs.count,
                                 document.paragraphs.count - 1)
                #expect(document.paragraphIndex(containing: asked) == walked, "seed \(seed), edit \(step), offset \(asked)")
            }
            checked += 1
        }
        return checked
    }

    /// 40 sessions of 60 edits; `scripts/random-edits.sh` runs many more (LAYOUTD_EDIT_SESSIONS).
    @Test func randomEditsEqualFreshLayouts() throws {
        let sessions = ProcessInfo.processInfo.environment["LAYOUTD_EDIT_SESSIONS"].flatMap { UInt64($0) } ?? 40
        let firstSeed = ProcessInfo.processInfo.environment["LAYOUTD_EDIT_FIRST_SEED"].flatMap { UInt64($0) } ?? 1
        var checked = 0
        for seed in firstSeed..<(firstSeed + sessions) { checked += try Self.randomSession(seed: seed, edits: 60) }
        #expect(checked == 60 * Int(sessions))
    }
}
