import Foundation
import Testing
import TestSupport
@testable import LayoutEngine

/// Vertical text: UAX #50 orientations from Unicode's own file, columns top to bottom and right
/// to left (or left to right), upright glyphs shaped top to bottom with their vertical forms,
/// Latin on its side, digits combined in one em, and everything turned onto the page.
@Suite struct VerticalTests {
    static let text = "縦書きの文章、ABCと2024年。"

    static func layout(_ text: String = text, mode: WritingMode = .verticalRightToLeft, combine: Int = 0, width: Double = 200,
                       height: Double = 200, size: Double = 20, configure: (inout ParagraphRequest) -> Void = { _ in })
        throws -> ParagraphLayout {
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans CJK JP", size: size)),
                                       width: width, height: height)
        request.writingMode = mode
        request.combineUpright = combine
        configure(&request)
        return try Fixtures.layouter.layout(request)
    }

    @Test func orientationsComeFromUnicodesTable() throws {
        #expect(VerticalOrientation(0x3042) == .upright)            // あ
        #expect(VerticalOrientation(0x41) == .rotated)              // A
        #expect(VerticalOrientation(0x3001) == .transformedUpright)  // 、
        #expect(VerticalOrientation(0xFF08) == .transformedRotated)  // （
        #expect(VerticalOrientation(0x1F600) == .upright)           // an emoji
        #expect(VerticalOrientation(0x0627) == .rotated)            // ا
        // Every code point of the file, where Debian's unicode-data is installed (scripts/setup.sh installs it).
        let path = "/usr/share/unicode/VerticalOrientation.txt"
        guard let file = try? String(contentsOfFile: path, encoding: .utf8) else { return }
        var checked = 0
        for line in file.split(separator: "\n") {
            let data = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let fields = data.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2 else { continue }
            let bounds = fields[0].components(separatedBy: "..").compactMap { UInt32($0, radix: 16) }
            let expected: VerticalOrientation = ["U": .upright, "Tu": .transformedUpright, "Tr": .transformedRotated][fields[1]] ?? .rotated
            for scalar in bounds[0]...(bounds.last ?? bounds[0]) {
                if VerticalOrientation(scalar) != expected { Issue.record("U+\(String(scalar, radix: 16)): not \(expected)"); return }
                checked += 1
            }
        }
        #expect(checked > 300_000)  // every code point the file lists (the rest default to R, as the table does)
    }

    @Test func columnsRunDownAndStackRightToLeft() throws {
        let layout = try Self.layout("縦書きの文章は上から下へ、右から左へ進みます。", height: 100)
        #expect(layout.writingMode == .verticalRightToLeft)
        #expect(layout.lines.count >= 2)
        for line in layout.lines {
            #expect(line.usedRect.maxY <= 100 + 1e-6, "a column is as long as the height at most")
            #expect(line.usedRect.height > line.usedRect.width)
        }
        #expect(layout.lines[0].usedRect.x > layout.lines[1].usedRect.x)
        // The first column's right edge is the layout's.
        #expect(abs(layout.lines[0].usedRect.maxX - layout.size.width) < 1e-9)
        // Upright ideographs advance one em down the column, each drawn from its horizontal
        // origin half an em left of the column's centre line.
        let run = try #require(layout.runs.first { $0.lineIndex == 0 && $0.orientation == .upright })
        let glyphs = Array(run.glyphs)
        let centre = layout.lines[0].baselineOrigin.x
        for (a, b) in zip(glyphs, glyphs.dropFirst()) { #expect(abs((b.position.y - a.position.y) - 20) < 1e-9) }
        #expect(abs(glyphs[0].position.x - (centre - 10)) < 0.5)
        let ltr = try Self.layout("縦書きの文章は上から下へ、右から左へ進みます。", mode: .verticalLeftToRight, height: 100)
        #expect(ltr.lines[0].usedRect.x < ltr.lines[1].usedRect.x && ltr.lines[0].usedRect.x == 0)
    }

    @Test func punctuationTakesItsVerticalFormAndLatinLiesOnItsSide() throws {
        let vertical = try Self.layout()
        let horizontal = try Fixtures.layout(Self.text, width: 600, size: 20, family: "Noto Sans CJK JP")
        let comma = Self.text.utf16.distance(from: Self.text.utf16.startIndex, to: Self.text.firstIndex(of: "、")!.samePosition(in: Self.text.utf16)!)
        func glyph(_ layout: ParagraphLayout, at offset: Int) -> PositionedGlyph? {
            layout.runs.flatMap { Array($0.glyphs) }.first { $0.cluster == offset }
        }
        #expect(try #require(glyph(vertical, at: comma)).id != (try #require(glyph(horizontal, at: comma))).id)
        let latin = try #require(vertical.runs.first { $0.range.contains(7) })  // "ABC"
        #expect(latin.orientation == .sideways)
        // Sideways glyphs advance down the column too.
        let positions = latin.glyphs.map(\.position)
        #expect(positions.count == 3 && positions[1].y > positions[0].y && positions[1].x == positions[0].x)
    }

    @Test func shortDigitRunsCombineInOneEm() throws {
        let layout = try Self.layout(combine: 4, height: 400)
        #expect(layout.lines.count == 1)
        let digits = try #require(layout.runs.first { $0.orientation == .combined })
        #expect(digits.glyphs.count == 4)
        // Across the column, side by side, centred on its centre line.
        let xs = digits.glyphs.map(\.position.x)
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $0 < $1 })
        let centre = layout.lines[digits.lineIndex].baselineOrigin.x
        let last = digits.glyphs.last!
        #expect(abs((xs[0] + last.position.x + last.advance) / 2 - centre) < 0.5)
        // The next character starts one em below the run's start.
        let next = try #require(layout.runs.first { $0.range.lowerBound == digits.range.upperBound })
        let cellTop = try #require(layout.runs.first { $0.range.upperBound == digits.range.lowerBound }).glyphs.last!.position.y + 20
        #expect(abs(next.glyphs.first!.position.y - (cellTop + 20)) < 0.5)
        // Five digits are too many for the setting: they lie on their side.
        let five = try Self.layout("年号は20245年。", combine: 4)
        #expect(!five.runs.contains { $0.orientation == .combined })
    }

    /// Combined text wider than the em is drawn smaller until it fits (CSS Writing Modes: it is
    /// compressed to one em), so it never reaches into the next column; text that fits keeps its size.
    @Test func combinedRunsWiderThanTheEmAreDrawnSmallerToFitIt() throws {
        for (text, digits) in [("令和2024年", "2024"), ("第123回", "123"), ("12月24日", "12"), ("第1回", "1")] {
            for mode in [WritingMode.verticalRightToLeft, .verticalLeftToRight] {
                let layout = try Self.layout(text, mode: mode, combine: 4, height: 400)
                let runs = layout.runs.filter { $0.orientation == .combined }
                #expect(runs.count == (digits == "12" ? 2 : 1), "\(text)")
                let run = try #require(runs.first)
                let font = try #require(Fixtures.registry.font(id: run.fontID))
                let natural = run.glyphs.reduce(0.0) { $0 + $1.advance } * 20 / run.size
                let width = run.glyphs.reduce(0.0) { $0 + $1.advance }
                if natural > 20 {
                    #expect(abs(width - 20) < 1e-9, "\(text): \(width) pt across, not the em")
                    #expect(abs(run.size - 20 * 20 / natural) < 1e-9, "\(text): drawn at \(run.size) pt")
                } else {
                    #expect(run.size == 20, "\(text)")
                }
                // Its ink stays inside the column.
                let column = layout.lines[run.lineIndex].usedRect
                for glyph in run.glyphs {
                    let ink = try #require(InkBounds.glyphInk(font.inkExtents(glyph.id), at: glyph.position,
                                                              scale: font.scale(for: run.size), sideways: false))
                    #expect(ink.x >= column.x - 1e-6 && ink.maxX <= column.maxX + 1e-6, "\(text) \(mode): \(ink) outside \(column)")
                }
            }
        }
    }

    /// CSS's compression rules: two combined characters wider than the em take the font's
    /// half-width glyphs (`hwid`), which Noto Sans CJK has for digits and letters, and so stand
    /// at full size in exactly one em. Three take thirds (`twid`), which it has not, and a font
    /// with no width variants (DejaVu Sans) keeps its glyphs: both are drawn smaller instead.
    @Test func twoCombinedCharactersTakeTheFontsHalfWidthGlyphs() throws {
        func combined(_ text: String, family: String = "Noto Sans CJK JP", mode: WritingMode = .verticalRightToLeft) throws
            -> [GlyphRunLayout] {
            let layout = try Self.layout(text, mode: mode, combine: 4, height: 400) {
                $0.text = AttributedText(text, style: TextStyle(family: family, size: 20))
                $0.combinesLetters = true
            }
            return layout.runs.filter { $0.orientation == .combined }
        }
        /// The glyphs a horizontal line shapes `text` into, with `features` on.
        func horizontal(_ text: String, family: String = "Noto Sans CJK JP", features: [FontFeature] = []) throws -> [UInt32] {
            var style = TextStyle(family: family, size: 20)
            style.features = features
            let layout = try Fixtures.layouter.layout(ParagraphRequest(text: AttributedText(text, style: style), width: 400))
            return layout.runs.flatMap { $0.glyphs.map(\.id) }
        }
        let halfWidth = [FontFeature(tag: "hwid", value: 1)]
        for mode in [WritingMode.verticalRightToLeft, .verticalLeftToRight] {
            for (text, pair) in [("12月24日", "12"), ("第AB号", "AB"), ("令和07年", "07")] {
                let run = try #require(try combined(text, mode: mode).first, "\(text)")
                #expect(run.glyphs.map(\.id) == (try horizontal(pair, features: halfWidth)), "\(text): \(pair) in half widths")
                #expect(run.glyphs.map(\.id) != (try horizontal(pair)), "\(text): not the proportional glyphs")
                #expect(run.size == 20, "\(text): drawn at full size, not \(run.size) pt")
                #expect(abs(run.glyphs.reduce(0.0) { $0 + $1.advance } - 20) < 1e-9, "\(text): one em across")
            }
            // No thirds in the font: the proportional glyphs, drawn smaller.
            let three = try #require(try combined("第123回", mode: mode).first)
            #expect(three.glyphs.map(\.id) == (try horizontal("123")))
            #expect(three.size < 20)
            // No width variants at all.
            let plain = try #require(try combined("12月", family: "DejaVu Sans", mode: mode).first)
            #expect(plain.glyphs.map(\.id) == (try horizontal("12", family: "DejaVu Sans")))
            #expect(plain.size < 20 && abs(plain.glyphs.reduce(0.0) { $0 + $1.advance } - 20) < 1e-9)
        }
        // Two letters narrow enough already: nothing changes.
        let narrow = try #require(try combined("第il号").first)
        #expect(narrow.glyphs.map(\.id) == (try horizontal("il")))
        #expect(narrow.size == 20)
    }

    @Test func truncationDecorationsAndAttachmentsTurnWithTheText() throws {
        let long = String(repeating: "縦書きの文章は上から下へ進みます。", count: 6)
        let cut = try Self.layout(long, height: 100) { $0.maxLines = 2 }
        #expect(cut.lines.count == 2 && cut.lines[1].truncated)
        #expect(cut.runs.contains { $0.isTruncationToken })
        let underlined = try Self.layout("下線のある縦書き", height: 200) {
            $0.text = AttributedText("下線のある縦書き", style: TextStyle(family: "Noto Sans CJK JP", size: 20),
                                     spans: [AttributedText.Span(range: 0..<2, patch: StylePatch(underline: .set(DecorationLine())))])
        }
        let line = try #require(underlined.decorations.first { $0.kind == .underline })
        let rect = try #require(line.rects.first)
        #expect(rect.height > rect.width, "a vertical line's underline runs down it")
        #expect(rect.x >= underlined.lines[0].baselineOrigin.x, "on the page's right, as CSS's auto places it (not Chinese)")
        let boxed = try Self.layout("画像\u{FFFC}の後", height: 200) { $0.attachments = [InlineAttachment(width: 30, extent: .height(16))] }
        let box = try #require(boxed.attachments.first)
        #expect(abs(box.rect.height - 30) < 1e-9 && abs(box.rect.width - 16) < 1e-9)
    }

    /// Left-to-right columns mirror the lines' frame: glyphs stand in their columns as in
    /// right-to-left ones, drawn alike about each column's centre line (upright ideographs,
    /// Latin and digits on their side, a word raised by a baseline offset), whether written onto
    /// the page as placed (plain text) or turned after decorating. They were drawn up to an em
    /// to the right of their columns.
    @Test func glyphsStandAlikeInTheirColumnsInBothModes() throws {
        let text = "縦書きの文章、gypsyと2024年。raised"
        let raised = AttributedText.Span(range: 19..<25, patch: StylePatch(baselineOffset: 6))
        for spans in [[], [raised], [raised, AttributedText.Span(range: 0..<2, patch: StylePatch(underline: .set(DecorationLine())))]] {
            var columns: [WritingMode: [(ink: Rect, used: Rect, centre: Double)]] = [:]
            for mode in [WritingMode.verticalRightToLeft, .verticalLeftToRight] {
                let layout = try Self.layout(text, mode: mode, height: 200) {
                    $0.text = AttributedText(text, style: TextStyle(family: "Noto Sans CJK JP", size: 20), spans: spans)
                    $0.measuresInk = true
                }
                let ink = try #require(layout.ink)
                columns[mode] = try layout.lines.indices.map { i in
                    (try #require(ink.lines[i]), layout.lines[i].usedRect, layout.lines[i].baselineOrigin.x)
                }
                for column in columns[mode]! {
                    #expect(column.ink.x >= column.used.x - 1e-6 && column.ink.maxX <= column.used.maxX + 1e-6,
                            "ink inside its column (\(mode), \(spans.count) spans)")
                }
            }
            let rtl = try #require(columns[.verticalRightToLeft]), ltr = try #require(columns[.verticalLeftToRight])
            #expect(rtl.count == ltr.count && rtl.count > 1)
            for (a, b) in zip(rtl, ltr) {
                #expect(abs((a.ink.x - a.centre) - (b.ink.x - b.centre)) < 1e-9 && abs(a.ink.width - b.ink.width) < 1e-9)
                #expect(abs((a.used.x - a.centre) - (b.used.x - b.centre)) < 1e-9 && abs(a.used.width - b.used.width) < 1e-9)
                #expect(abs(a.ink.y - b.ink.y) < 1e-9 && abs(a.ink.height - b.ink.height) < 1e-9)
            }
        }
    }

    static func decorated(_ text: String, mode: WritingMode, language: String = "", height: Double = 600, _ patch: StylePatch)
        throws -> ParagraphLayout {
        try layout(text, mode: mode, height: height, size: 40) {
            $0.text = AttributedText(text, style: TextStyle(family: "Noto Sans CJK JP", size: 40, language: language),
                                     spans: [AttributedText.Span(range: 0..<text.utf16.count, patch: patch)])
            $0.measuresInk = true
        }
    }

    /// An underline stands beside its column, clear of the ink of upright ideographs and of
    /// Latin on its side (descenders included), as CSS's `text-underline-position: auto` places
    /// it: on the page's right, or on the left for Chinese, in either mode. At the middle of a
    /// vertical line it crossed the ideographs. A strikethrough runs down the column's middle.
    @Test func underlinesStandBesideTheColumnAndStrikethroughsRunDownItsMiddle() throws {
        let text = "縦書きの下線、gypsy。"
        let cases: [(language: String, right: Bool)] = [("", true), ("ja", true), ("ko-KR", true), ("zh", false), ("zh-Hant-TW", false)]
        // Chinese in any case and either separator; Zhuang (`zha`) is not Chinese.
        #expect(!VerticalUnderline.standsRight(language: "ZH_tw") && !VerticalUnderline.standsRight(language: "Zh"))
        #expect(VerticalUnderline.standsRight(language: "zha") && VerticalUnderline.standsRight(language: "z"))
        for mode in [WritingMode.verticalRightToLeft, .verticalLeftToRight] {
            for (language, right) in cases {
                let label = "\(mode), \"\(language)\""
                let underlined = try Self.decorated(text, mode: mode, language: language, StylePatch(underline: .set(DecorationLine())))
                #expect(underlined.lines.count == 1)
                let ink = try #require(underlined.ink?.lines[0])
                for (name, patch) in [("single", DecorationLine()), ("thick", DecorationLine(style: .thick)),
                                      ("double", DecorationLine(style: .double)), ("skipping ink", DecorationLine(skipsInk: true))] {
                    let layout = try Self.decorated(text, mode: mode, language: language, StylePatch(underline: .set(patch)))
                    let rects = try #require(layout.decorations.first { $0.kind == .underline }).rects
                    #expect(!rects.isEmpty)
                    // Clear of the glyphs' ink, on its side, and beside it rather than far off.
                    let gaps = rects.map { right ? $0.x - ink.maxX : ink.x - $0.maxX }
                    #expect(gaps.allSatisfy { $0 > 0 && $0 < 40 * 0.5 }, "\(name), \(label): \(gaps)")
                }
            }
            let struck = try Self.decorated(text, mode: mode, StylePatch(strikethrough: .set(DecorationLine())))
            let strike = try #require(struck.decorations.first { $0.kind == .strikethrough }?.rects.first)
            #expect(abs(strike.x + strike.width / 2 - struck.lines[0].baselineOrigin.x) < 1e-9, "through the column's middle (\(mode))")
            #expect(strike.height > strike.width)
        }
    }

    /// `text-underline-position: left | right` puts an underline on that side of the column
    /// whatever the language says, in either mode, and the column grows on that side to hold it.
    @Test func anUnderlinesPositionChoosesItsSide() throws {
        let text = "漢字の東京漢字の東京漢字"
        for mode in [WritingMode.verticalRightToLeft, .verticalLeftToRight] {
            for language in ["ja", "zh"] {
                for position in DecorationLine.UnderlinePosition.allCases {
                    let right = position == .auto ? language != "zh" : position == .right
                    let layout = try Self.decorated(text, mode: mode, language: language, height: 200,
                                                    StylePatch(underline: .set(DecorationLine(position: position))))
                    let label = "\(mode), \"\(language)\", \(position)"
                    let ink = try #require(layout.ink)
                    #expect(layout.decorations.filter { $0.kind == .underline }.count == layout.lines.count, "\(label)")
                    for decoration in layout.decorations where decoration.kind == .underline {
                        let column = layout.lines[decoration.lineIndex].usedRect
                        let glyphs = try #require(ink.lines[decoration.lineIndex])
                        for rect in decoration.rects {
                            #expect(right ? rect.x > glyphs.maxX : rect.maxX < glyphs.x, "on its side: \(label)")
                            #expect(rect.x >= column.x - 1e-9 && rect.maxX <= column.maxX + 1e-9, "inside its column: \(label)")
                        }
                    }
                }
            }
        }
    }

    /// A column grows to hold its underline, as it does emphasis marks: columns of ideographs are
    /// an em thick, so an underline past the glyphs stood inside the next column, across its
    /// ideographs. Each underline lies inside its own column and clear of every other's ink.
    @Test func columnsHoldTheirUnderlines() throws {
        let text = "漢字の東京漢字の東京漢字"
        for mode in [WritingMode.verticalRightToLeft, .verticalLeftToRight] {
            for language in ["", "zh"] {
                for style in [DecorationLine.Style.single, .thick, .double] {
                    let layout = try Self.decorated(text, mode: mode, language: language, height: 200,
                                                    StylePatch(underline: .set(DecorationLine(style: style))))
                    let label = "\(mode), \"\(language)\", \(style)"
                    #expect(layout.lines.count == 3, "\(label)")
                    let ink = try #require(layout.ink)
                    for decoration in layout.decorations where decoration.kind == .underline {
                        let column = layout.lines[decoration.lineIndex].usedRect
                        for rect in decoration.rects {
                            #expect(rect.x >= column.x - 1e-9 && rect.maxX <= column.maxX + 1e-9, "inside its column: \(label)")
                            for (index, other) in ink.lines.enumerated() where index != decoration.lineIndex {
                                let other = try #require(other)
                                #expect(rect.maxX <= other.x || rect.x >= other.maxX, "clear of column \(index): \(label)")
                            }
                        }
                    }
                }
            }
        }
    }

    /// Emphasis marks and ruby over the text stand on the column's right, where CSS puts a
    /// Japanese underline too: the underline goes past them; on the left (Chinese) it keeps to
    /// the glyphs.
    @Test func anUnderlineGoesPastEmphasisMarksAndRubyOnItsSide() throws {
        let text = "漢字の東京"
        let size = 40.0
        for mode in [WritingMode.verticalRightToLeft, .verticalLeftToRight] {
            for (language, right) in [("ja", true), ("zh", false)] {
                for annotated in ["marks", "ruby"] {
                    var patch = StylePatch(underline: .set(DecorationLine()))
                    if annotated == "marks" { patch.emphasis = .set(EmphasisMarks(.sesame)) }
                    var styled = AttributedText(text, style: TextStyle(family: "Noto Sans CJK JP", size: size, language: language),
                                                spans: [AttributedText.Span(range: 0..<5, patch: patch)])
                    if annotated == "ruby" { styled = styled.withRuby([RubyAnnotation(base: 0..<2, reading: "かんじ")]) }
                    let layout = try Self.layout(text, mode: mode, height: 600, size: size) {
                        $0.text = styled
                        $0.measuresInk = true
                    }
                    let centre = layout.lines[0].baselineOrigin.x
                    let beside = try #require(layout.ink?.lines[0])
                    let rect = try #require(layout.decorations.first { $0.kind == .underline }?.rects.first)
                    if right {
                        // Past the marks' band (an em's half and the marks' size) or the ruby's reading.
                        var reach = size / 2 + size * EmphasisMarks.scale
                        if annotated == "ruby" {
                            // Upright readings: each glyph's em from its position rightward.
                            let readings = try #require(layout.rubyRuns.first)
                            reach = try #require(readings.glyphs.map(\.position.x).max()) + readings.size - centre
                        }
                        #expect(rect.x - centre >= reach - 1e-9, "\(mode), \(language), \(annotated): \(rect.x - centre) against \(reach)")
                    } else {
                        #expect(rect.maxX < beside.x && beside.x - rect.maxX < size / 2, "\(mode), \(language), \(annotated)")
                    }
                }
            }
        }
    }

    /// Upright glyphs stand unturned on the page, so the ink an underline skips is read from
    /// their outlines turned into the lines' frame: across the column's middle each ideograph's
    /// ink lies inside its own em along the column, as the page shows it.
    @Test func inkIsReadFromUprightGlyphsAsThePageShowsThem() throws {
        let text = "縦書き文章"
        for mode in [WritingMode.verticalRightToLeft, .verticalLeftToRight] {
            let page = try Self.decorated(text, mode: mode, StylePatch(underline: .set(DecorationLine(skipsInk: true))))
            let inLines = try #require(VerticalFrame(turned: page)).unturned(page)
            let run = try #require(inLines.runs.first)
            #expect(run.orientation == .upright && run.glyphs.count == 5)
            let font = try #require(Fixtures.registry.font(id: run.fontID))
            let middle = inLines.lines[0].baselineOrigin.y
            let ink = InkIntercepts.intervals(of: [(run, font)], top: middle - 1, bottom: middle + 1, clearance: 0, writingMode: mode)
            #expect(ink.count == 5, "every ideograph has ink across the middle")
            let pens = LinePens.starts(0..<inLines.runs.count, of: inLines, lineIndex: 0)
            var pen = pens[0]
            for (glyph, interval) in zip(run.glyphs, ink) {
                #expect(interval.0 >= pen - 1e-9 && interval.1 <= pen + glyph.advance + 1e-9, "inside its em (\(mode))")
                #expect(interval.1 - interval.0 > glyph.advance / 2, "across most of it (\(mode))")
                pen += glyph.advance
            }
        }
    }

    /// A truncation token stands as text does in its columns: its ideographs upright with their
    /// vertical glyphs and advances, its ellipsis on its side.
    @Test func truncationTokensStandAsTheTextDoes() throws {
        let long = String(repeating: "縦書きの文章は上から下へ進みます。", count: 6)
        let cut = try Self.layout(long, height: 100) {
            $0.maxLines = 2
            $0.truncationToken = "続く…"
        }
        // Glyph by glyph: the token's runs may be cut where its scripts change.
        func glyphs(_ runs: [GlyphRunLayout]) -> [String] {
            runs.flatMap { run in run.glyphs.map { "\($0.id) \(run.orientation) +\($0.advance)" } }
        }
        let token = cut.runs.filter(\.isTruncationToken)
        let alone = try Self.layout("続く…", height: 200)
        #expect(alone.runs.map(\.orientation) == [.upright, .sideways])
        #expect(glyphs(token) == glyphs(alone.runs))
    }

    /// Plain text's glyphs are written onto the page as they are placed; text with a paint is
    /// turned after decorating. Both ways put every glyph in the same place, in both modes, with
    /// Latin on its side and a truncated last column.
    @Test func glyphsPlacedOnThePageLieWhereTurnedGlyphsLie() throws {
        let text = String(repeating: "縦書きの文章、ABCと2024年。Latin words ", count: 5)
        for mode in [WritingMode.verticalRightToLeft, .verticalLeftToRight] {
            let plain = try Self.layout(text, mode: mode, height: 150) { $0.maxLines = 4 }
            let painted = try Self.layout(text, mode: mode, height: 150) {
                var red = TextPaint()
                red.color = Color(red: 1, green: 0, blue: 0, alpha: 1)
                $0.text = AttributedText(text, style: TextStyle(family: "Noto Sans CJK JP", size: 20), paint: red)
                $0.maxLines = 4
            }
            #expect(!plain.runs.isEmpty && plain.lines.count == 4 && plain.lines[3].truncated)
            #expect(plain.runs.map(\.glyphs) == painted.runs.map(\.glyphs), "\(mode)")
            #expect(plain.lines == painted.lines)
        }
    }

    @Test func noColumnStartsWithClosingPunctuationOrSmallKana() throws {
        let text = String(repeating: "「はい」と言った。ちょっと待って、", count: 10)
        let units = Array(text.utf16)
        let forbidden = Set("」。、）ょっ".utf16)
        for height in stride(from: 60.0, through: 240, by: 20) {
            let layout = try Self.layout(text, width: 10_000, height: height)
            #expect(layout.lines.count > 1)
            for line in layout.lines.dropFirst() {
                #expect(!forbidden.contains(units[line.range.lowerBound]), "a column of \(height) starts at \(line.range.lowerBound)")
            }
        }
    }

    @Test func verticalTextFlowsAroundAShapeAndThroughContainers() throws {
        let text = String(repeating: "縦書きの文章は絵を避けて流れます。", count: 4)
        // A picture in the top right of a 300 × 240 page: the first columns are cut short.
        let picture = Rect(x: 200, y: 0, width: 100, height: 90)
        let around = try Self.layout(text, width: 300, height: 240) {
            $0.flow = TextFlow(containers: [TextContainer(width: 300, height: 240, exclusions: [Exclusion(FlowShape(.rect(picture)))])])
        }
        #expect(around.lines.count > 3)
        for run in around.runs {
            for glyph in run.glyphs {
                let cell = Rect(x: glyph.position.x, y: glyph.position.y - 1, width: 20, height: glyph.advance)
                #expect(!(cell.x < picture.maxX - 1 && picture.x < cell.maxX - 1 && cell.y < picture.maxY - 1 && picture.y < cell.maxY - 1),
                        "a glyph at \(glyph.position) is on the picture")
            }
        }
        // The first column is beside the picture: it starts below it.
        #expect(around.lines[0].usedRect.y >= picture.maxY - 1e-6)
        #expect(around.lines[0].usedRect.maxX <= 300 + 1e-6)
        // Two pages side by side: the right one first, each column within its page.
        let pages = [TextContainer(origin: Point(x: 160, y: 0), width: 140, height: 120),
                     TextContainer(origin: Point(x: 0, y: 0), width: 140, height: 120)]
        let paged = try Self.layout(text, width: 300, height: 120) { $0.flow = TextFlow(containers: pages) }
        #expect(paged.containers.count == 2 && paged.containers[0].range.upperBound == paged.containers[1].range.lowerBound)
        for (index, container) in paged.containers.enumerated() {
            #expect(container.rect == Rect(x: pages[index].origin.x, y: 0, width: 140, height: 120))
            for line in paged.lines[container.lines] {
                #expect(line.usedRect.x >= container.rect.x - 1e-6 && line.usedRect.maxX <= container.rect.maxX + 1e-6)
                #expect(line.usedRect.maxY <= 120 + 1e-6)
            }
        }
        #expect(paged.lines[0].usedRect.maxX > 290)  // columns start at the right page's right edge
        #expect(paged.size == Size(width: 300, height: 120))
        #expect(throws: LayoutError.self) {
            _ = try Self.layout(text) { $0.flow = TextFlow(containers: [TextContainer(width: 100)]) }
        }
    }

    @Test func verticalTextNeedsAColumnLength() throws {
        #expect(throws: LayoutError.self) { _ = try Self.layout(height: 0) { $0.height = nil } }
    }

    /// A background behind vertical text stands around each column's text on the page: it holds
    /// every glyph's ink (upright, sideways and combined, read as the page shows them) padded
    /// along the column by the horizontal padding, and the column padded across by the vertical
    /// one, adjacent columns' rects meeting between them as adjacent lines' do.
    @Test func backgroundsStandAroundEachColumnsInk() throws {
        let text = "縦書きの文章、ABCと24年。\n二つ目の段落です"
        for mode in [WritingMode.verticalRightToLeft, .verticalLeftToRight] {
            let layout = try Self.layout(text, mode: mode, combine: 2, width: 400, height: 150) { $0.measuresInk = true }
            let ink = try #require(layout.ink)
            let background = try Decorator(layout: layout, text: text, fonts: Fixtures.registry)
                .decorate(BackgroundStyle(kind: .perLine, horizontalPadding: 5, verticalPadding: 3, cornerRadius: 4))
            let rects = background.rects
            #expect(rects.count == layout.lines.count)
            for (index, (rect, line)) in zip(rects, layout.lines).enumerated() {
                let (box, column) = (try #require(ink.lines[index]), line.usedRect)
                let name = "\(mode) column \(index): \(rect) around ink \(box) in \(column)"
                // Along the column: the ink, and a sideways run's advances, five points more at
                // each end, within the column's own length so padded.
                #expect(rect.y <= box.y - 5 + 1e-6 && rect.maxY >= box.maxY + 5 - 1e-6, "\(name)")
                #expect(rect.y >= column.y - 5 - 1e-6 && rect.maxY <= column.maxY + 5 + 1e-6, "\(name)")
                // Across: the column (its ink inside it), three points more on the block's outer sides.
                #expect(box.x >= column.x - 1e-6 && box.maxX <= column.maxX + 1e-6, "\(name)")
                let first = index == 0, last = index == rects.count - 1
                let (leftmost, rightmost) = mode == .verticalRightToLeft ? (last, first) : (first, last)
                #expect(abs(rect.x - (column.x - (leftmost ? 3 : 0))) < 1e-6, "\(name)")
                #expect(abs(rect.maxX - (column.maxX + (rightmost ? 3 : 0))) < 1e-6, "\(name)")
            }
        }
    }
}

/// Upright vertical glyphs against HarfBuzz's own vertical shaping, `hb-shape --direction=ttb`,
/// for the same font and text: glyph ids, clusters, offsets and vertical advances.
@Suite struct VerticalShapingTests {
    /// Every character upright by UAX #50 (curly quotes are R there: they lie on their side, as
    /// a test of `punctuationTakesItsVerticalFormAndLatinLiesOnItsSide`'s kind would show).
    static let samples = ["縦書きの文章、「括弧」とー。", "中文竖排，标点符号：『引号』。", "日本語の縦組みでは句読点が右上に寄る。"]

    static func hbShape(_ text: String, font: Font) throws -> String? {
        try HBShape.output(text, ["--direction=ttb", "--no-glyph-names", "--font-file=\(font.path)", "--face-index=\(font.faceIndex)"])
    }

    @Test(arguments: samples)
    func uprightGlyphsMatchHBShape(_ text: String) throws {
        let font = try #require(Fixtures.registry.fonts.first { $0.family == "Noto Sans CJK JP" && $0.weight == 400 })
        guard let expected = try Self.hbShape(text, font: font) else {
            Issue.record("hb-shape is missing: scripts/setup.sh installs libharfbuzz-bin")
            return
        }
        // At a size of units-per-em, points are font units; one column long enough for the text.
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: font.family, size: Double(font.unitsPerEm))),
                                       width: 10_000, height: 100_000)
        request.writingMode = .verticalRightToLeft
        let layout = try Fixtures.layouter.layout(request)
        #expect(layout.lines.count == 1)
        #expect(layout.runs.allSatisfy { $0.orientation == .upright && $0.fontID == font.id })
        #expect(GoldenShapingTests.hbShapeVerticalLine(layout, text: text, flags: false) == expected)
    }
}
