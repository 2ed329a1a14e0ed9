import Testing
@testable import LayoutEngine

/// Inline attachments: boxes at U+FFFC with YYText's and SkParagraph's alignments.
@Suite struct AttachmentTests {
    static let box = "\u{FFFC}"

    static func layout(_ text: String, _ attachments: [InlineAttachment], width: Double = 300, size: Double = 24,
                       family: String = "Noto Sans", configure: (inout ParagraphRequest) -> Void = { _ in }) throws -> ParagraphLayout {
        try Fixtures.layout(text, width: width, size: size, family: family) {
            $0.attachments = attachments
            configure(&$0)
        }
    }

    /// The font's ascender (positive) and descender (negative, as UIFont gives it) at `size`.
    static func metrics(_ family: String, size: Double) -> (ascender: Double, descender: Double) {
        let font = Fixtures.registry.match(family: family, weight: 400, italic: false)!
        let scale = font.scale(for: size)
        return (Double(font.ascender) * scale, -Double(font.descender) * scale)
    }

    static func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }

    /// YYText's arithmetic, written out as the issue gives it, against the engine's, for a box
    /// shorter than the font (the clamp branches) and one taller, in three fonts.
    @Test(arguments: ["Noto Sans", "Noto Serif", "DejaVu Sans"])
    func yyTextAlignmentsFollowTheirFormulas(_ family: String) throws {
        let (ascender, descender) = Self.metrics(family, size: 24)
        for height in [3.0, 80.0] {
            for alignment in [AttachmentAlignment.fontTop, .fontCenter, .fontBottom] {
                var ascent: Double
                var descent: Double
                switch alignment {
                case .fontTop:
                    ascent = ascender
                    descent = height - ascender
                    if descent < 0 { descent = 0; ascent = height }
                case .fontCenter:
                    let fontHeight = ascender - descender
                    let yOffset = ascender - fontHeight / 2
                    ascent = height / 2 + yOffset
                    descent = height - ascent
                    if descent < 0 { descent = 0; ascent = height }
                default:
                    ascent = height + descender
                    descent = -descender
                    if ascent < 0 { ascent = 0; descent = height }
                }
                let layout = try Self.layout("a\(Self.box)b", [InlineAttachment(width: 20, extent: .height(height), alignment: alignment)],
                                             family: family)
                let placed = try #require(layout.attachments.first)
                #expect(Self.near(placed.ascent, ascent) && Self.near(placed.descent, descent),
                        "\(family) \(alignment) h=\(height): \(placed.ascent)/\(placed.descent), want \(ascent)/\(descent)")
                let line = layout.lines[0]
                #expect(Self.near(placed.rect.y, line.baselineOrigin.y - ascent))
                #expect(Self.near(placed.rect.height, height))
                #expect(line.ascent >= ascent - 1e-9 && line.descent >= descent - 1e-9)
            }
        }
        // Both clamps are reached: a 3 pt box is shorter than the ascender and than −descender.
        #expect(ascender > 3 && -descender > 3)
    }

    @Test func aReferenceFontReplacesTheStyles() throws {
        let (ascender, _) = Self.metrics("Noto Serif", size: 40)
        let layout = try Self.layout("a\(Self.box)", [InlineAttachment(width: 20, extent: .height(60), alignment: .fontTop,
                                                                        referenceFont: FontReference(family: "Noto Serif", size: 40))])
        #expect(Self.near(layout.attachments[0].ascent, ascender))
        #expect(throws: LayoutError.self) {
            try Self.layout("a\(Self.box)", [InlineAttachment(width: 20, extent: .height(60), alignment: .fontTop,
                                                               referenceFont: FontReference(family: "No Such Family"))])
        }
    }

    @Test func plainBoxesSitOnTheBaseline() throws {
        let layout = try Self.layout("x\(Self.box)y\(Self.box)", [InlineAttachment(width: 30, extent: .height(12)),
                                                                  InlineAttachment(width: 10, extent: .metrics(ascent: 5, descent: 4))])
        #expect(layout.attachments.map(\.ascent) == [12, 5])
        #expect(layout.attachments.map(\.descent) == [0, 4])
        #expect(layout.attachments.map(\.index) == [0, 1])
        #expect(layout.attachments.map(\.range) == [1..<2, 3..<4])
        // The boxes advance the pen by their width: each sits right after the glyph before it.
        let glyphs = layout.runs.flatMap(\.glyphs)
        let x = glyphs.first { $0.cluster == 0 }!
        #expect(Self.near(layout.attachments[0].rect.x, x.position.x + x.advance))
        let y = glyphs.first { $0.cluster == 2 }!
        #expect(Self.near(y.position.x, layout.attachments[0].rect.maxX))
    }

    /// SkParagraph's placeholders, against the line's text metrics (Noto Sans at 24 pt).
    @Test func placeholderAlignments() throws {
        let (ascender, descender) = Self.metrics("Noto Sans", size: 24)
        func placed(_ alignment: AttachmentAlignment, height: Double = 10) throws -> AttachmentLayout {
            try Self.layout("a\(Self.box)", [InlineAttachment(width: 10, extent: .height(height), alignment: alignment)]).attachments[0]
        }
        let baseline = try placed(.placeholderBaseline(offset: 7))
        #expect(baseline.ascent == 7 && baseline.descent == 3)
        let above = try placed(.aboveBaseline)
        #expect(above.ascent == 10 && above.descent == 0)
        let below = try placed(.belowBaseline)
        #expect(below.ascent == 0 && below.descent == 10)
        let top = try placed(.lineTop)
        #expect(Self.near(top.ascent, ascender) && Self.near(top.descent, 10 - ascender))
        let bottom = try placed(.lineBottom)
        #expect(Self.near(bottom.descent, -descender) && Self.near(bottom.ascent, 10 + descender))
        let middle = try placed(.lineMiddle)
        let center = (ascender + descender) / 2  // the text's middle, above the baseline
        #expect(Self.near(middle.ascent, center + 5) && Self.near(middle.descent, 5 - center))
        // A box taller than the line grows it from the top it is aligned to.
        let tall = try Self.layout("a\(Self.box)", [InlineAttachment(width: 10, extent: .height(100), alignment: .lineTop)])
        #expect(Self.near(tall.lines[0].ascent, ascender) && Self.near(tall.lines[0].descent, 100 - ascender))
    }

    @Test func aTallBoxGrowsItsLineAndMovesTheNext() throws {
        let text = "one \(Self.box) two\nthree"
        let plain = try Fixtures.layout(text.replacingOccurrences(of: Self.box, with: "x"))
        let tall = try Self.layout(text, [InlineAttachment(width: 40, extent: .height(90))])
        #expect(tall.lines[0].ascent == 90)
        #expect(tall.lines[0].usedRect.height > plain.lines[0].usedRect.height + 50)
        #expect(tall.lines[0].baselineOrigin.y >= 90, "the baseline sits under the box")
        #expect(tall.lines[1].baselineOrigin.y - plain.lines[1].baselineOrigin.y > 50, "the next line moves down")
        #expect(Self.near(tall.attachments[0].rect.y, 0), "the box's top is the line's top")
        #expect(tall.size.height > plain.size.height + 50)
    }

    @Test func boxesBreakLikeObjectReplacementCharacters() throws {
        // Room for "aaaa" and the box, not the "aaaa" after it: a break opportunity on both
        // sides of U+FFFC (UAX #14 class CB).
        let attachment = InlineAttachment(width: 20, extent: .height(20))
        let probe = try Fixtures.layout("aaaa")
        let layout = try Self.layout("aaaa\(Self.box)aaaa", [attachment], width: probe.lines[0].width + 25)
        #expect(layout.lines.map(\.range) == [0..<5, 5..<9])
        #expect(layout.attachments[0].lineIndex == 0)
        let narrower = try Self.layout("aaaa\(Self.box)aaaa", [attachment], width: probe.lines[0].width + 5)
        #expect(narrower.lines.map(\.range) == [0..<4, 4..<5, 5..<9])
        #expect(narrower.attachments[0].lineIndex == 1)
    }

    /// Kept with its text, a box offers no break on either side: the word and the box move together.
    @Test func aBoxKeptWithItsTextDoesNotBreak() throws {
        let probe = try Fixtures.layout("bb aaaa")
        let width = probe.lines[0].width + 25  // "bb aaaa" and the box, not the "aaaa" after it
        let free = try Self.layout("bb aaaa\(Self.box)aaaa", [InlineAttachment(width: 20, extent: .height(20))], width: width)
        #expect(free.lines.map(\.range) == [0..<8, 8..<12])
        let glued = try Self.layout("bb aaaa\(Self.box)aaaa", [InlineAttachment(width: 20, extent: .height(20), breaksAround: false)],
                                    width: width)
        #expect(glued.lines.first?.range == 0..<3, "the word with its box moves to the next line whole: \(glued.lines.map(\.range))")
    }

    /// A box is a neutral in bidi: between Arabic letters it reads right to left with them.
    @Test func boxesReorderWithBidi() throws {
        let attachment = InlineAttachment(width: 20, extent: .height(20))
        for (text, expectLeftOfText) in [("\(Self.box)مرحبا", false), ("مرحبا\(Self.box)", true), ("مر\(Self.box)حبا", false)] {
            let layout = try Self.layout(text, [attachment], configure: { $0.direction = .rightToLeft })
            let box = layout.attachments[0]
            #expect(box.bidiLevel == 1)
            let glyphs = layout.runs.flatMap(\.glyphs)
            let textLeft = glyphs.map(\.position.x).min()!
            let textRight = glyphs.map { $0.position.x + $0.advance }.max()!
            if text.hasPrefix(Self.box) { #expect(Self.near(box.rect.x, textRight), "first in the text, rightmost") }
            if expectLeftOfText { #expect(Self.near(box.rect.maxX, textLeft), "last in the text, leftmost") }
            if !text.hasPrefix(Self.box) && !expectLeftOfText { #expect(box.rect.x > textLeft && box.rect.maxX < textRight) }
            #expect(Self.near(layout.lines[0].usedRect.maxX, 300), "right-aligned as its paragraph")
        }
        // In a left-to-right paragraph it stays where it is in the text.
        let ltr = try Self.layout("ab\(Self.box)مرحبا", [attachment])
        #expect(ltr.attachments[0].bidiLevel == 0)
    }

    @Test func aBoxCutByTruncationDisappearsWithItsText() throws {
        let text = "first line\n\(Self.box) second line"
        let layout = try Self.layout(text, [InlineAttachment(width: 20, extent: .height(20))], configure: { $0.maxLines = 1 })
        #expect(layout.lines.count == 1)
        #expect(layout.attachments.isEmpty)
        let shown = try Self.layout(text, [InlineAttachment(width: 20, extent: .height(20))])
        #expect(shown.attachments.count == 1 && shown.attachments[0].lineIndex == 1)
    }

    @Test func justificationTreatsABoxAsOneUnit() throws {
        let text = "word \(Self.box) word word word word word word word word word word word"
        let layout = try Self.layout(text, [InlineAttachment(width: 30, extent: .height(10))], configure: { $0.alignment = .justified })
        #expect(layout.lines.count > 1)
        #expect(Self.near(layout.lines[0].width, 300))
        #expect(Self.near(layout.attachments[0].rect.width, 30), "the box is not stretched")
    }

    @Test func moreAttachmentsThanCharactersIsAnError() throws {
        #expect(throws: LayoutError.self) {
            try Self.layout("one \(Self.box)", [InlineAttachment(width: 1, extent: .height(1)), InlineAttachment(width: 1, extent: .height(1))])
        }
        #expect(throws: LayoutError.self) { try Self.layout("\(Self.box)", [InlineAttachment(width: .nan, extent: .height(1))]) }
        #expect(throws: LayoutError.self) { try Self.layout("\(Self.box)", [InlineAttachment(width: 1, extent: .height(-1))]) }
        // A U+FFFC without an attachment stays a character.
        let layout = try Self.layout("a\(Self.box)b\(Self.box)", [InlineAttachment(width: 5, extent: .height(5))])
        #expect(layout.attachments.count == 1)
        #expect(layout.runs.flatMap(\.glyphs).contains { $0.cluster == 3 })
    }

    /// In Type Mode a box given in ems grows with its line; one in points keeps its size.
    @Test func typeModeScalesBoxesGivenInEms() throws {
        var request = TypeModeRequest(text: "Big \(Self.box)\nsmaller line of text \(Self.box)", style: TextStyle(family: "Noto Sans"),
                                      width: 300, minSize: 14, maxSize: 96)
        request.attachments = [InlineAttachment(width: 1, extent: .height(1), inEms: true),
                               InlineAttachment(width: 1, extent: .height(1), inEms: true)]
        let layout = try Fixtures.layouter.justify(request)
        let boxes = layout.paragraph.attachments
        #expect(boxes.count == 2)
        for box in boxes {
            let size = layout.lineSizes[box.lineIndex]
            #expect(Self.near(box.rect.width, size) && Self.near(box.rect.height, size), "one em at \(size) pt")
            #expect(layout.paragraph.lines[box.lineIndex].width <= 300 + 1e-6)
        }
        #expect(layout.lineSizes[0] > layout.lineSizes[1])
        request.attachments = [InlineAttachment(width: 40, extent: .height(40)), InlineAttachment(width: 40, extent: .height(40))]
        let fixed = try Fixtures.layouter.justify(request)
        #expect(fixed.paragraph.attachments.allSatisfy { $0.rect.width == 40 && $0.rect.height == 40 })
        #expect(fixed.paragraph.lines.allSatisfy { $0.width <= 300 + 1e-6 })
    }
}

/// Baseline offsets on style spans: superscripts, subscripts, raised boxes.
@Suite struct BaselineOffsetTests {
    @Test func raisedAndLoweredGlyphsGrowTheLine() throws {
        let text = "E = mc2 and H2O"
        let plain = try Fixtures.layout(text)
        func layout(_ spans: [AttributedText.Span]) throws -> ParagraphLayout {
            try Fixtures.layouter.layout(ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 24),
                                                                               spans: spans), width: 300))
        }
        let styled = try layout([AttributedText.Span(range: 6..<7, patch: StylePatch(size: 14, baselineOffset: 12)),
                                 AttributedText.Span(range: 13..<14, patch: StylePatch(size: 14, baselineOffset: -5))])
        let glyphs = styled.runs.flatMap(\.glyphs)
        let baseline = styled.lines[0].baselineOrigin.y
        let superscript = glyphs.first { $0.cluster == 6 }!
        let subscriptGlyph = glyphs.first { $0.cluster == 13 }!
        #expect(abs(superscript.position.y - (baseline - 12)) < 1e-9)
        #expect(abs(subscriptGlyph.position.y - (baseline + 5)) < 1e-9)
        #expect(glyphs.first { $0.cluster == 0 }!.position.y == baseline)
        // 14 pt Noto Sans raised 12 pt reaches above 24 pt text; lowered 5 pt, below it.
        let font = Fixtures.registry.match(family: "Noto Sans", weight: 400, italic: false)!
        let raisedTop = Double(font.ascender) * font.scale(for: 14) + 12
        let loweredBottom = Double(font.descender) * font.scale(for: 14) + 5
        #expect(abs(styled.lines[0].ascent - max(plain.lines[0].ascent, raisedTop)) < 1e-9)
        #expect(abs(styled.lines[0].descent - max(plain.lines[0].descent, loweredBottom)) < 1e-9)
        #expect(styled.lines[0].ascent > plain.lines[0].ascent)
    }

    @Test func aBoxRisesWithItsStyle() throws {
        let text = "a \(AttachmentTests.box) b"
        let request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 24),
                                                            spans: [AttributedText.Span(range: 2..<3, patch: StylePatch(baselineOffset: 6))]),
                                       width: 300, attachments: [InlineAttachment(width: 10, extent: .height(10))])
        let layout = try Fixtures.layouter.layout(request)
        #expect(layout.attachments[0].ascent == 16 && layout.attachments[0].descent == -6)
        #expect(abs(layout.attachments[0].rect.maxY - (layout.lines[0].baselineOrigin.y - 6)) < 1e-9)
    }
}

/// Backgrounds and highlights hold the attachments in their range.
@Suite struct AttachmentBackgroundTests {
    @Test func backgroundsHoldTheirBoxes() throws {
        let text = "a tall \(AttachmentTests.box) box and text after it"
        let layout = try AttachmentTests.layout(text, [InlineAttachment(width: 30, extent: .height(70))], width: 400)
        let box = try #require(layout.attachments.first)
        let decorator = Decorator(layout: layout, text: text, fonts: Fixtures.registry)
        let perLine = try decorator.decorate(BackgroundStyle(kind: .perLine, horizontalPadding: 4, verticalPadding: 2))
        let rect = try #require(perLine.rects.first)
        #expect(rect.y <= box.rect.y - 2 + 1e-9 && rect.maxY >= box.rect.maxY + 2 - 1e-9, "the line's background holds the box")
        // A highlight of the box alone is the box plus padding; one of the word before it leaves it out.
        let onBox = try decorator.decorate(BackgroundStyle(kind: .highlight(box.range), horizontalPadding: 4, verticalPadding: 2))
        let only = try #require(onBox.rects.first)
        #expect(abs(only.x - (box.rect.x - 4)) < 1e-9 && abs(only.width - (box.rect.width + 8)) < 1e-9)
        let onWord = try decorator.decorate(BackgroundStyle(kind: .highlight(2..<6), horizontalPadding: 4, verticalPadding: 2))
        #expect(try #require(onWord.rects.first).maxX < box.rect.x)
    }
}
