import CHarfBuzz
import Testing
@testable import LayoutEngine
import LayoutUnicode

/// Vertical text shapes the pieces of its items that shape alike in one HarfBuzz call
/// (`Shaper.shapeJoined`): every glyph must come out as shaping each piece alone gives it.
@Suite struct JoinedShapingTests {
    static let joined = ParagraphLayouter(fonts: Fixtures.registry, unicode: SystemUnicode.shared, cache: nil, maxTextLength: 1 << 20, joinsRuns: true)
    static let alone = ParagraphLayouter(fonts: Fixtures.registry, unicode: SystemUnicode.shared, cache: nil, maxTextLength: 1 << 20, joinsRuns: false)

    /// One glyph as shaped, every field.
    struct Glyph: Equatable, CustomStringConvertible {
        var id: UInt32, cluster: Int32, advance: Int32, xOffset: Int32, yOffset: Int32, unsafeToBreak: Bool
        init(_ g: ShapedGlyph) {
            (id, cluster, advance, xOffset, yOffset, unsafeToBreak) = (g.id, g.cluster, g.advance, g.xOffset, g.yOffset, g.unsafeToBreak)
        }
        var description: String { "\(id)@\(cluster) +\(advance) (\(xOffset),\(yOffset))\(unsafeToBreak ? " unsafe" : "")" }
    }

    /// Every run of `text` shaped for vertical text by `layouter`: its range and glyphs.
    static func runs(_ text: AttributedText, _ layouter: ParagraphLayouter,
                     setting: VerticalSetting = VerticalSetting(combineUpTo: 0, combinesLetters: false)) throws -> [[Glyph]] {
        let context = LayoutContext(layouter: layouter)
        let shaped = try ShapedText(text: text, direction: .auto, vertical: setting, fonts: Fixtures.registry, context: context)
        var runs: [[Glyph]] = []
        for index in 0..<shaped.paragraphCount {
            for run in shaped.paragraph(index).runs {
                runs.append(run.slice.map(Glyph.init))
            }
        }
        return runs
    }

    static func text(_ string: String, family: String = "Noto Sans CJK JP") -> AttributedText {
        AttributedText(string, style: TextStyle(family: family, size: 20))
    }

    static let texts = [
        "縦書きの文章、ABCと2024年。「括弧」と（丸括弧）、ー長音と…三点",
        "不识庐山真面目，只缘身在此山中。 -- 苏轼《题西林壁》",
        "中文 -- 苏轼《题西林壁》 and English words, Debian 12 and gdb(1)",
        "emoji 🙂 among 漢字 and 👍🏽 skin tones, 한국어 텍스트와 ひらがな",
        "中AV中AV中To中Ta中",  // Latin pieces that kern across their edge when joined
        "مرحبا 漢字 עברית 字 mixed directions",
        "a\u{0301} combining, 字\u{FE00} variation, line\nbreak and 𠀀𠀁 supplementary",
        "",
        "字",
    ]

    @Test(arguments: texts) func joinedPiecesShapeAsAlone(_ string: String) throws {
        for family in ["Noto Sans CJK JP", "Noto Sans", "Noto Sans CJK SC"] {
            let text = Self.text(string, family: family)
            #expect(try Self.runs(text, Self.joined) == Self.runs(text, Self.alone), "\(family)")
        }
    }

    /// Styles that differ in size or colour shape alike (joined); another language does not.
    @Test func spansOfOtherSizesJoinAndOtherLanguagesStayApart() throws {
        let string = "直角の文字 -- 大きな文字 -- 中文的字 -- 太字の字 -- 終わり"
        func range(_ part: String) -> Range<Int> {
            let start = string.range(of: part)!.lowerBound.utf16Offset(in: string)
            return start..<start + part.utf16.count
        }
        var larger = StylePatch(), chinese = StylePatch(), bold = StylePatch()
        larger.size = 30
        chinese.language = "zh-Hans"
        bold.weight = 700
        let text = AttributedText(string, style: TextStyle(family: "Noto Sans CJK JP", size: 20), spans: [
            .init(range: range("大きな文字"), patch: larger), .init(range: range("中文的字"), patch: chinese),
            .init(range: range("太字の字"), patch: bold),
        ])
        #expect(try Self.runs(text, Self.joined) == Self.runs(text, Self.alone))
    }

    @Test func combinedDigitsStayAlone() throws {
        let text = Self.text("令和6年12月25日、第3回と24時間")
        let setting = VerticalSetting(combineUpTo: 2, combinesLetters: false)
        #expect(try Self.runs(text, Self.joined, setting: setting) == Self.runs(text, Self.alone, setting: setting))
    }

    /// With a shaping cache (as the daemon ships), joined pieces are kept as slices of their
    /// group's glyphs and found again: cold and warm, every run equals the item shaped alone,
    /// and a piece kept by vertical text serves the same text laid out again.
    @Test(arguments: texts) func joinedPiecesWithACacheShapeAsAlone(_ string: String) throws {
        let cache = ShapingCache(capacity: 64)
        let cached = ParagraphLayouter(fonts: Fixtures.registry, unicode: SystemUnicode.shared, cache: cache, maxTextLength: 1 << 20, joinsRuns: true)
        for family in ["Noto Sans CJK JP", "Noto Sans"] {
            let text = Self.text(string, family: family)
            let expected = try Self.runs(text, Self.alone)
            let misses = cache.misses
            #expect(try Self.runs(text, cached) == expected, "cold, \(family)")
            let hits = cache.hits
            #expect(try Self.runs(text, cached) == expected, "warm, \(family)")
            if !string.isEmpty { #expect(cache.hits > hits, "nothing found again: \(family)") }
            #expect(cache.misses >= misses)
        }
    }

    /// Whole layouts too, columns and glyph places, with truncation cutting the last column.
    @Test(arguments: texts) func joinedLayoutsEqualLayoutsShapedAlone(_ string: String) throws {
        var request = ParagraphRequest(text: Self.text(string), width: 120, height: 160)
        request.writingMode = .verticalRightToLeft
        let a = try Self.joined.layout(request), b = try Self.alone.layout(request)
        #expect(a.lines == b.lines)
        #expect(a.runs == b.runs)
    }

    /// HarfBuzz's word on each edge: upright Han pieces with nothing between them to kern join;
    /// Latin pieces that kern across the edge ("AV" then "AV": V and A kern) are shaped alone.
    @Test func theJoinKeepsOnlyPiecesWithSafeEdges() throws {
        let layouter = Self.joined
        let context = LayoutContext(layouter: layouter)
        func stored(_ string: String, upright: Bool, family: String) throws -> [Int] {
            let text = Self.text(string, family: family)
            let units = text.units
            let style = try #require(context.scratch.resolved(text.styles, fonts: Fixtures.registry, user: nil).shaping.first)
            let font = try #require(Fixtures.registry.match(family: family, weight: 400, italic: false))
            // The pieces: the ideographs (upright) or the letters between them (sideways).
            var pieces: [Range<Int>] = []
            var start: Int?
            for (index, unit) in units.enumerated() {
                let inPiece = (unit >= 0x4E00 && unit <= 0x9FFF) == upright
                if inPiece, start == nil { start = index }
                if !inPiece, let from = start { pieces.append(from..<index); start = nil }
            }
            if let from = start { pieces.append(from..<units.count) }
            var kept: [Int] = []
            context.shaper.shapeJoined(units, pieces: pieces.span, context: 0..<units.count, font: font, upright: upright,
                                       script: upright ? .han : .latin, style: style) { index, _ in kept.append(index) }
            return kept
        }
        #expect(try stored("A中文B字体C漢字D", upright: true, family: "Noto Sans CJK JP") == [0, 1, 2])
        #expect(try stored("中AV中AV中", upright: false, family: "Noto Sans") == [])
        #expect(try stored("中ll中ll中", upright: false, family: "Noto Sans") == [0, 1])
    }

    /// A piece kept in the cache holds at most twice its glyphs: a small piece of a large group
    /// is kept as a copy, a piece that is most of its group as its slice.
    @Test func aKeptPieceNeverHoldsItsWholeGroup() throws {
        let cache = ShapingCache(capacity: 64)
        let layouter = ParagraphLayouter(fonts: Fixtures.registry, unicode: SystemUnicode.shared, cache: cache, maxTextLength: 1 << 20, joinsRuns: true)
        let context = LayoutContext(layouter: layouter)
        let text = Self.text("字" + String(repeating: "漢", count: 40))
        let style = try #require(context.scratch.resolved(text.styles, fonts: Fixtures.registry, user: nil).shaping.first)
        let font = try #require(Fixtures.registry.match(family: "Noto Sans CJK JP", weight: 400, italic: false))
        let group = context.shaper.shapeJoinedForTest(text.units, font: font, style: style)
        for (small, run) in [(true, ShapedRun(range: 0..<1, glyphs: group, first: 0, count: 1)),
                             (false, ShapedRun(range: 1..<41, glyphs: group, first: 1, count: 40))] {
            context.shaper.keep(run, units: text.units, context: 0..<text.units.count, font: font, rtl: false, upright: true,
                                script: .han, style: style)
            let found = try #require(context.shaper.cached(text.units, range: run.range, context: 0..<text.units.count, font: font,
                                                           rtl: false, upright: true, script: .han, style: style))
            #expect(found.slice.map(Glyph.init) == run.slice.map(Glyph.init))
            #expect(small ? found.glyphs.header == 1 : found.glyphs === group, "small \(small): holds \(found.glyphs.header) glyphs")
        }
    }

    @Test(.enabled(if: Fixtures.corpus != nil, "../shared/corpus/captions.jsonl is not beside this clone"))
    func theCorpusShapesJoinedAsAlone() throws {
        try Self.shapeJoinedAsAlone(try #require(Fixtures.corpus))
    }

    @Test func ownCaptionsShapeJoinedAsAlone() throws {
        try Self.shapeJoinedAsAlone(Fixtures.ownCaptions)
    }

    static func shapeJoinedAsAlone(_ captions: [Fixtures.Caption]) throws {
        var differing: [String] = []
        for caption in captions {
            let text = Self.text(caption.text, family: "Noto Sans")
            if try Self.runs(text, Self.joined) != Self.runs(text, Self.alone) { differing.append(caption.text) }
        }
        #expect(differing.isEmpty, "\(differing.count) captions differ, first: \(differing.first ?? "")")
    }

    /// The corpus as vertical text through a small cache that evicts as it goes: its layouts
    /// equal the layouts shaped alone without one.
    @Test(.enabled(if: Fixtures.corpus != nil, "../shared/corpus/captions.jsonl is not beside this clone"))
    func theCorpusThroughACacheLaysOutAsAlone() throws {
        let corpus = try #require(Fixtures.corpus)
        try Self.layOutThroughACacheAsAlone(corpus + corpus.prefix(200), capacity: 256)
    }

    /// The cache small enough for the captions' runs to evict one another.
    @Test func ownCaptionsThroughACacheLayOutAsAlone() throws {
        try Self.layOutThroughACacheAsAlone(Fixtures.ownCaptions + Fixtures.ownCaptions.prefix(10), capacity: 16)
    }

    static func layOutThroughACacheAsAlone(_ captions: [Fixtures.Caption], capacity: Int) throws {
        let cached = ParagraphLayouter(fonts: Fixtures.registry, unicode: SystemUnicode.shared, cache: ShapingCache(capacity: capacity), maxTextLength: 1 << 20,
                                       joinsRuns: true)
        var differing: [String] = []
        for caption in captions {
            var request = ParagraphRequest(text: Self.text(caption.text), width: 300, height: 300)
            request.writingMode = .verticalRightToLeft
            let a = try cached.layout(request), b = try Self.alone.layout(request)
            if a.runs != b.runs || a.lines != b.lines { differing.append(caption.text) }
        }
        #expect(differing.isEmpty, "\(differing.count) captions differ, first: \(differing.first ?? "")")
    }
}

extension Shaper {
    /// `units` shaped top to bottom in one piece: a group's glyph buffer for the tests above.
    func shapeJoinedForTest(_ units: ContiguousArray<UInt16>, font: Font, style: ShapingStyle) -> ShapedGlyphs {
        var whole: ShapedGlyphs?
        let pieces = [0..<units.count]
        shapeJoined(units, pieces: pieces.span, context: 0..<units.count, font: font, upright: true, script: .han, style: style) { _, run in
            whole = run.glyphs
        }
        return whole ?? .unshaped
    }
}
