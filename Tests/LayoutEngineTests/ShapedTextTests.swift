import Testing
@testable import LayoutEngine

/// A text is shaped as its bidi paragraphs, each a value with its own offsets: placing puts
/// them back at their place in the text, and errors name places as the request has them.
@Suite struct ShapedTextTests {
    static func shaped(_ string: String, attachments: [InlineAttachment] = []) throws -> ShapedText {
        try Fixtures.layouter.shape(AttributedText(string, style: TextStyle(family: "Noto Sans", size: 20)), direction: .auto,
                                    attachments: attachments, context: LayoutContext(layouter: Fixtures.layouter))
    }

    @Test func eachParagraphEndsAfterItsSeparator() throws {
        #expect(try Self.shaped("one\ntwo\r\nthree\u{2029}four").starts == [0, 4, 9, 15])
        #expect(try Self.shaped("ends with a break\n").starts == [0])
        #expect(try Self.shaped("").starts == [0])
        // U+2028 breaks the line, not the paragraph.
        #expect(try Self.shaped("a\u{2028}b").starts == [0])
        let four = try Self.shaped("one\ntwo\r\nthree\u{2029}four")
        #expect(four.paragraphs.map { String(decoding: $0.text.units, as: UTF16.self) } == ["one\n", "two\r\n", "three\u{2029}", "four"])
    }

    @Test func aParagraphIsTheSameValueWhereverItStands() throws {
        let alone = try Self.shaped("Shaped on its own, مرحبا")
        let later = try Self.shaped("A first paragraph before it\nShaped on its own, مرحبا")
        #expect(later.paragraphs.count == 2 && later.starts == [0, 28])
        let a = alone.paragraphs[0], b = later.paragraphs[1]
        #expect(a.items.map(\.range) == b.items.map(\.range))
        #expect(a.prefix == b.prefix)
        #expect(a.runs.map { $0.glyphs.slice.map(\.id) } == b.runs.map { $0.glyphs.slice.map(\.id) })
        #expect(a.analysis.levels == b.analysis.levels)
    }

    @Test func eachParagraphFindsItsOwnDirection() throws {
        let shaped = try Self.shaped("English first\nمرحبا بالعالم\nand English again")
        #expect(shaped.paragraphs.map { $0.analysis.paragraphs[0].baseLevel } == [0, 1, 0])
        let layout = try Fixtures.layout("English first\nمرحبا بالعالم\nand English again", width: 400)
        // Natural alignment: the Arabic paragraph's line sits at the right edge.
        #expect(layout.lines[0].baselineOrigin.x == 0)
        #expect(abs(layout.lines[1].baselineOrigin.x + layout.lines[1].width - 400) < 1e-6)
    }

    @Test func placingPutsOffsetsBackInTheText() throws {
        let text = "first line\nsecond \u{FFFC} line\nthird \u{FFFC}"
        let layouter = Fixtures.layouter
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 20)), width: 500)
        request.attachments = [InlineAttachment(width: 10, extent: .height(10)), InlineAttachment(width: 12, extent: .height(12))]
        let layout = try layouter.layout(request)
        let units = Array(text.utf16)
        #expect(layout.lines.map(\.range) == [0..<11, 11..<25, 25..<32])
        #expect(layout.attachments.map(\.index) == [0, 1])
        #expect(layout.attachments.map(\.range) == [18..<19, 31..<32])
        #expect(layout.attachments.allSatisfy { units[$0.range.lowerBound] == 0xFFFC })
        for run in layout.runs {
            let line = layout.lines[run.lineIndex]
            #expect(line.range.contains(run.range.lowerBound))
            #expect(run.glyphs.allSatisfy { run.range.contains($0.cluster) })
        }
        #expect(layout.visibleRange == 0..<units.count)
    }

    @Test func errorsNameThePlaceInTheWholeText() throws {
        // An attachment of the second paragraph is the request's attachments[1].
        var request = ParagraphRequest(text: AttributedText("a \u{FFFC}\nb \u{FFFC}", style: TextStyle(family: "Noto Sans")), width: 100)
        request.attachments = [InlineAttachment(width: 10, extent: .height(10)), InlineAttachment(width: -1, extent: .height(10))]
        #expect(throws: LayoutError.self) { try Fixtures.layouter.layout(request) }
        do { _ = try Fixtures.layouter.layout(request) } catch let error as LayoutError {
            #expect(error.field == "attachments[1].width")
        }
        // More attachments than U+FFFC, counted over the whole text.
        request.attachments.append(InlineAttachment(width: 1, extent: .height(1)))
        do { _ = try Fixtures.layouter.layout(request) } catch let error as LayoutError {
            #expect(error.message.hasPrefix("3 attachments but the text has 2"))
        }
        // An overlong cluster in the second paragraph: its offset in the whole text.
        let marks = String(repeating: "\u{0301}", count: 40)
        let overlong = ParagraphRequest(text: AttributedText("ok\ne" + marks, style: TextStyle(family: "Noto Sans")), width: 100)
        do {
            _ = try Fixtures.layouter.layout(overlong)
            Issue.record("accepted")
        } catch let error as LayoutError {
            #expect(error.message.contains("at UTF-16 offset 3 "))
        }
    }

    @Test func truncationAndMaxLinesWorkAcrossParagraphs() throws {
        let text = "one two three\nfour five six\nseven eight nine"
        let layout = try Fixtures.layout(text, width: 1000) { $0.maxLines = 2 }
        #expect(layout.lines.count == 2)
        #expect(layout.lines[1].truncated)
        #expect(layout.lines[1].range.lowerBound == 14)
        #expect(layout.visibleRange.upperBound <= 27)
    }

    @Test func paragraphsShareWhatTheirStylesResolveTo() throws {
        // Resolved per paragraph, a text of many paragraphs and many spans cost their product.
        let text = AttributedText("one\ntwo\nthree", style: TextStyle(family: "Noto Sans"),
                                  spans: [.init(range: 1..<2, patch: StylePatch(weight: 700)), .init(range: 5..<6, patch: StylePatch(size: 30))])
        let shaped = try Fixtures.layouter.shape(text, direction: .auto, context: LayoutContext(layouter: Fixtures.layouter))
        #expect(shaped.paragraphs.count == 3 && text.styles.count == 3)
        for paragraph in shaped.paragraphs.dropFirst() {
            #expect(paragraph.shapingStyles.count == 3)
            #expect(zip(paragraph.shapingStyles, shaped.paragraphs[0].shapingStyles).allSatisfy { $0 === $1 })
            #expect(paragraph.fallback.primary.map(\.id) == shaped.paragraphs[0].fallback.primary.map(\.id))
        }
    }

    @Test func aParagraphsPartOfTheAnalysisEqualsItsOwn() throws {
        let string = "Hello 👋🏽 world\r\nمرحبا بالعالم 123\n\nend"
        let whole = try Self.shaped(string)
        let units = Array(string.utf16)
        for (paragraph, start) in zip(whole.paragraphs, whole.starts) {
            let alone = try Self.shaped(String(decoding: units[start..<start + paragraph.text.units.count], as: UTF16.self))
            let own = alone.paragraphs[0].analysis
            #expect(paragraph.analysis.levels == own.levels)
            // The first unit may carry the break opportunity after the separator; nothing reads it.
            #expect(Array(paragraph.analysis.flags.dropFirst()) == Array(own.flags.dropFirst()))
            #expect(paragraph.analysis.paragraphs.map(\.baseLevel) == own.paragraphs.map(\.baseLevel))
        }
    }
}
