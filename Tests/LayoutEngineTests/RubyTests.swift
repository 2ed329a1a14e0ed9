import Foundation
import Testing
import TestSupport
@testable import LayoutEngine

/// Ruby, held to the W3C's "Rules for Simple Placement of Japanese Ruby" (the JLReq task
/// force's note): readings at half the base's size, flush against the base's frame, centred
/// (mono), spaced 1:2:1 across a wider base (group), spacing a narrower base 1:2:1 instead of
/// overhanging its neighbours, no break inside a mono or group base, jukugo placed per line.
/// The readings' glyphs are HarfBuzz's (`hb-shape`) on the same font.
@Suite struct RubyTests {
    /// Noto Sans CJK has 1,000 units per em: at 2,000 points the readings are at 1,000, and
    /// points are font units.
    static let em = 2_000.0
    static let han = TextStyle(family: "Noto Sans CJK JP", size: em)

    static func layout(_ text: String, _ ruby: [RubyAnnotation], width: Double = 100_000, style: TextStyle = han,
                       writingMode: WritingMode = .horizontal) throws -> ParagraphLayout {
        var request = ParagraphRequest(text: AttributedText(text, style: style).withRuby(ruby), width: width)
        if writingMode.isVertical {
            request.writingMode = writingMode
            (request.width, request.height) = (100_000, width)
        }
        return try Fixtures.layouter.layout(request)
    }

    /// Each text cluster's extent along the line (from pens: its glyphs' advances), by offset.
    static func clusters(_ layout: ParagraphLayout, line: Int = 0) -> [Int: (start: Double, end: Double)] {
        var extents: [Int: (start: Double, end: Double)] = [:]
        let runs = layout.runs.indices.filter { layout.runs[$0].lineIndex == line }
        guard let first = runs.first else { return [:] }
        let pens = LinePens.starts(first..<(runs.last! + 1), of: layout, lineIndex: line)
        for (k, index) in runs.enumerated() {
            var pen = pens[k]
            for glyph in layout.runs[index].glyphs {
                let old = extents[glyph.cluster] ?? (pen, pen)
                extents[glyph.cluster] = (min(old.start, pen), max(old.end, pen + glyph.advance))
                pen += glyph.advance
            }
        }
        return extents
    }

    static func readingGlyphs(_ layout: ParagraphLayout) -> [PositionedGlyph] { layout.rubyRuns.flatMap { Array($0.glyphs) } }

    @Test func readingGlyphsAreHarfBuzzsAtHalfTheBaseSize() throws {
        let layout = try Self.layout("漢字を読む", [RubyAnnotation(base: 0..<2, reading: "かんじ")])
        let run = try #require(layout.rubyRuns.first)
        #expect(run.size == Self.em / 2)
        #expect(run.range == 0..<2)
        let font = try #require(Fixtures.registry.font(id: run.instanceID))
        guard let expected = try HBShape.entries("かんじ", ["--no-glyph-names", "--no-positions", "--font-file=\(font.path)",
                                                           "--face-index=\(font.faceIndex)"]) else {
            Issue.record("hb-shape is missing: scripts/setup.sh installs libharfbuzz-bin")
            return
        }
        let glyphs = Self.readingGlyphs(layout)
        #expect(glyphs.map { "\($0.id)=\($0.cluster)" } == expected.map(String.init))
        // At 1,000 points, advances are font units: hb-shape's.
        let advances = try #require(try HBShape.entries("かんじ", ["--no-glyph-names", "--no-clusters", "--font-file=\(font.path)",
                                                                  "--face-index=\(font.faceIndex)"]))
        #expect(glyphs.map { "\($0.id)+\(Int(saturating: $0.advance.rounded()))" } == advances.map(String.init))
    }

    @Test func monoRubyIsCentredOnItsBaseAndSitsOnTheFontsAscent() throws {
        let plain = try Self.layout("日本", [])
        let layout = try Self.layout("日本", [RubyAnnotation(base: 0..<1, reading: "に")])
        let glyphs = Self.readingGlyphs(layout)
        #expect(glyphs.count == 1)
        let base = try #require(Self.clusters(layout)[0])
        let reading = glyphs[0]
        #expect(abs((reading.position.x + reading.advance / 2) - (base.start + base.end) / 2) < 1e-6, "centred")
        // The character frames touch: the reading's em box (its baseline 0.12 em above its bottom)
        // on the base's em box (0.88 em over the baseline), as Noto Sans CJK's BASE table gives them.
        let font = try #require(Fixtures.registry.font(id: layout.runs[0].instanceID))
        #expect(font.ideographicEmBox?.top == 880 && font.ideographicEmBox?.bottom == -120)
        let baseline = layout.runs[0].glyphs.first!.position.y
        #expect(abs(reading.position.y - (baseline - 0.88 * Self.em - 0.12 * Self.em / 2)) < 1e-6)
        // The line grows to hold the reading's em box; its own ascent (1.16 em) held less.
        let ascent = Double(font.ascender) * font.scale(for: Self.em)
        #expect(abs(layout.lines[0].ascent - (0.88 * Self.em + Self.em / 2)) < 1e-6)
        #expect(abs(plain.lines[0].ascent - ascent) < 1e-6 && ascent < 0.88 * Self.em + Self.em / 2)
        #expect(layout.lines[0].width == plain.lines[0].width, "a reading no wider than its base spaces nothing")
    }

    @Test func aWiderReadingSpacesItsBaseOneToTwoToOneAndOverhangsNothing() throws {
        // Six kana at half the size (3 em) over two ideographs (2 em): one em more, a quarter em
        // at each end of each ideograph.
        let text = "の明日は"
        let layout = try Self.layout(text, [RubyAnnotation(base: 1..<3, reading: "あしたのあさ")])
        let plain = try Self.layout(text, [])
        let clusters = Self.clusters(layout), plainClusters = Self.clusters(plain)
        let em = Self.em
        #expect(abs(clusters[1]!.end - clusters[1]!.start - 1.5 * em) < 1, "each ideograph takes its share")
        #expect(abs(clusters[2]!.end - clusters[2]!.start - 1.5 * em) < 1)
        #expect(abs(layout.lines[0].width - plain.lines[0].width - em) < 2)
        // Each ideograph's glyph stands in the middle of its widened cluster.
        let textGlyphs: [PositionedGlyph] = layout.runs.flatMap { Array($0.glyphs) }
        let glyphX: [Double] = textGlyphs.filter { $0.cluster == 1 || $0.cluster == 2 }.map(\.position.x)
        #expect(abs(glyphX[0] - (clusters[1]!.start + 0.25 * em)) < 1)
        #expect(abs(glyphX[1] - (clusters[2]!.start + 0.25 * em)) < 1)
        // The reading fills the spaced base, and the neighbours keep their own room.
        let glyphs = Self.readingGlyphs(layout)
        let first = try #require(glyphs.first), last = try #require(glyphs.last)
        #expect(first.position.x >= clusters[0]!.end - 1e-6)
        #expect(last.position.x + last.advance <= clusters[3]!.start + 1)
        #expect(abs(first.position.x - clusters[1]!.start) < 1)
        #expect(plainClusters[0]!.end == clusters[0]!.end, "the text before is where it was")
    }

    @Test func aNarrowerReadingIsSpacedOneToTwoToOneAcrossItsBase() throws {
        // Four kana (2 em) over three ideographs (3 em): a slack of 1 em over four characters,
        // an eighth at each end and a quarter between.
        let layout = try Self.layout("紫陽花", [RubyAnnotation(base: 0..<3, reading: "あじさい")])
        let glyphs = Self.readingGlyphs(layout)
        #expect(glyphs.count == 4)
        let em = Self.em, base = Self.clusters(layout)
        let start = base[0]!.start
        for (k, glyph) in glyphs.enumerated() {
            #expect(abs(glyph.position.x - (start + em / 8 + Double(k) * (em / 2 + em / 4))) < 1e-6, "character \(k)")
        }
        #expect(layout.lines[0].width == (try Self.layout("紫陽花", [])).lines[0].width)
    }

    @Test func theEndsOfASpacedReadingAreCappedAtHalfTheBasesEm() throws {
        // Two kana (1 em) over four ideographs (4 em): 1:2:1 would leave 3/4 em at the ends.
        let layout = try Self.layout("春夏秋冬", [RubyAnnotation(base: 0..<4, reading: "きせ")])
        let glyphs = Self.readingGlyphs(layout)
        let em = Self.em, start = Self.clusters(layout)[0]!.start
        #expect(abs(glyphs[0].position.x - (start + em / 2)) < 1e-6)
        #expect(abs(glyphs[1].position.x - (start + 4 * em - em / 2 - em / 2)) < 1e-6)
    }

    @Test func aLatinReadingStaysSolidAndCentred() throws {
        let layout = try Self.layout("東京", [RubyAnnotation(base: 0..<2, reading: "Tokyo")])
        let runs = layout.rubyRuns
        let glyphs = Self.readingGlyphs(layout)
        let clusters = Self.clusters(layout)
        let width = glyphs.reduce(0) { $0 + $1.advance }
        let middle = (clusters[0]!.start + clusters[1]!.end) / 2
        #expect(abs((glyphs[0].position.x + width / 2) - middle) < 1e-6)
        #expect(runs.allSatisfy { $0.size == Self.em / 2 })
        for k in 1..<glyphs.count { #expect(abs(glyphs[k].position.x - glyphs[k - 1].position.x - glyphs[k - 1].advance) < 1e-6) }
    }

    @Test func noLineBreaksInsideAGroupBaseButJukugoBreaksBetweenItsClusters() throws {
        // Four ideographs in a box three wide: plain text breaks after the third.
        let text = "東京都庁"
        let width = 3 * Self.em + 1
        #expect(try Self.layout(text, [], width: width).lines.map(\.range) == [0..<3, 3..<4])
        let group = try Self.layout(text, [RubyAnnotation(base: 2..<4, reading: "とちょう")], width: width)
        #expect(group.lines.map(\.range) == [0..<2, 2..<4], "the base goes whole to the next line")
        let jukugo = try Self.layout(text, [RubyAnnotation(base: 0..<4, readings: ["と", "きょう", "と", "ちょう"])], width: width)
        // Spaced by its own readings (きょう and ちょう are 1.5 em): 1 + 1.5 fit, then 1 + 1.5.
        #expect(jukugo.lines.map(\.range) == [0..<2, 2..<4])
        // Each line's readings are set as one over its part (a reading is wider than its cluster).
        // Each reading's run stands over its own cluster; clusters count in the readings joined.
        #expect(jukugo.rubyRuns.map(\.range) == [0..<1, 1..<2, 2..<3, 3..<4])
        #expect(jukugo.rubyRuns.map(\.lineIndex) == [0, 0, 1, 1])
        #expect(Self.readingGlyphs(jukugo).map(\.cluster) == [0, 1, 2, 3, 4, 5, 6, 7])
        // Set as one over the line's part, as group ruby: と and きょう (2 em) over 東 and the spaced
        // 京 (2.5 em), 1:2:1 — an eighth of the slack at the ends, a quarter between.
        let line0 = Self.readingGlyphs(jukugo).prefix(4), clusters = Self.clusters(jukugo)
        #expect(abs(line0.first!.position.x - (clusters[0]!.start + Self.em / 16)) < 1)
        for k in 1..<4 { #expect(abs(line0[k].position.x - line0[k - 1].position.x - line0[k - 1].advance - Self.em / 8) < 1) }
    }

    @Test func jukugoWhoseReadingsFitIsSetClusterByCluster() throws {
        // ひと (1 em) over 一, り (half an em) over 人: each centred on its own ideograph.
        let layout = try Self.layout("一人", [RubyAnnotation(base: 0..<2, readings: ["ひと", "り"])])
        let clusters = Self.clusters(layout)
        #expect(layout.rubyRuns.map(\.range) == [0..<1, 1..<2])
        let glyphs = Self.readingGlyphs(layout)
        #expect(glyphs.map(\.cluster) == [0, 1, 2])
        // ひと's own kerning pair leaves it a little short of an em: centred all the same.
        let hito = glyphs[0].advance + glyphs[1].advance
        #expect(abs(glyphs[0].position.x + hito / 2 - (clusters[0]!.start + clusters[0]!.end) / 2) < 1e-6)
        let ri = glyphs[2]
        #expect(abs(ri.position.x + ri.advance / 2 - (clusters[1]!.start + clusters[1]!.end) / 2) < 1e-6)
    }

    @Test func underPutsTheReadingBelowTheFontsDescent() throws {
        let layout = try Self.layout("漢字", [RubyAnnotation(base: 0..<2, reading: "Kanji", under: true)])
        // The reading's em box (0.88 of its em over its baseline) under the base's (0.12 em under its baseline).
        let baseline = layout.runs[0].glyphs.first!.position.y
        let reading = try #require(layout.rubyRuns.first)
        #expect(abs(reading.glyphs.first!.position.y - (baseline + 0.12 * Self.em + 0.88 * Self.em / 2)) < 1e-6)
        #expect(abs(layout.lines[0].descent - (0.12 * Self.em + Self.em / 2)) < 1e-6)
    }

    @Test(arguments: [WritingMode.verticalRightToLeft, .verticalLeftToRight])
    func verticalRubyStandsUprightOnTheColumnsRight(_ mode: WritingMode) throws {
        let layout = try Self.layout("今日は", [RubyAnnotation(base: 0..<2, reading: "きょう")], width: 100 * Self.em, writingMode: mode)
        let base = layout.runs.flatMap { Array($0.glyphs) }.filter { $0.cluster < 2 }
        let glyphs = Self.readingGlyphs(layout)
        #expect(layout.rubyRuns.allSatisfy { $0.orientation == .upright })
        // Right of the column: its x past the base's by half the base's em and half the reading's.
        let baseX = base[0].position.x
        // An upright glyph's origin stands as far from its column's centre as half its em (on the
        // side turning puts it): the reading's centre is half the base's em and half its own
        // right of the base's centre.
        let centre = layout.lines[0].baselineOrigin.x
        for glyph in glyphs {
            let readingCentre = glyph.position.x - (baseX - centre) / 2
            #expect(abs(readingCentre - (centre + Self.em / 2 + Self.em / 4)) < 1e-6)
        }
        // Down the column, spaced 1:2:1 over the two ideographs: a slack of half an em.
        let top = layout.lines[0].baselineOrigin.y
        let font = try #require(Fixtures.registry.font(id: layout.rubyRuns[0].instanceID))
        // The small kana ょ takes its vertical form, as hb-shape --direction=ttb gives it.
        guard let expected = try HBShape.entries("きょう", ["--direction=ttb", "--no-glyph-names", "--no-positions",
                                                          "--font-file=\(font.path)", "--face-index=\(font.faceIndex)"]) else {
            Issue.record("hb-shape is missing")
            return
        }
        #expect(glyphs.map { "\($0.id)=\($0.cluster)" } == expected.map(String.init))
        #expect(glyphs[0].position.y > top)
        #expect(glyphs.map(\.position.y) == glyphs.map(\.position.y).sorted())
    }

    @Test func thePlacedReadingsEqualThoseOfEachLineLaidAlone() throws {
        // Greedy breaking over a text of many annotations: each line's readings are where the
        // same line's text, laid out alone, puts them.
        let text = "漢字の読み方を学ぶ。東京と京都。"
        let ruby = [RubyAnnotation(base: 0..<2, reading: "かんじ"), RubyAnnotation(base: 3..<4, reading: "よ"),
                    RubyAnnotation(base: 5..<6, reading: "かた"), RubyAnnotation(base: 7..<8, reading: "まな"),
                    RubyAnnotation(base: 10..<12, readings: ["とう", "きょう"]), RubyAnnotation(base: 13..<15, readings: ["きょう", "と"])]
        let layout = try Self.layout(text, ruby, width: 5 * Self.em)
        #expect(layout.lines.count > 2)
        for (index, line) in layout.lines.enumerated() {
            let part = String(decoding: Array(text.utf16)[line.range], as: UTF16.self)
            // A jukugo split by the break keeps, on each line, the readings of its clusters there.
            let moved = ruby.compactMap { annotation -> RubyAnnotation? in
                let low = max(annotation.base.lowerBound, line.range.lowerBound), high = min(annotation.base.upperBound, line.range.upperBound)
                guard low < high else { return nil }
                let readings = annotation.isJukugo
                    ? Array(annotation.readings[(low - annotation.base.lowerBound)..<(high - annotation.base.lowerBound)]) : annotation.readings
                return RubyAnnotation(base: (low - line.range.lowerBound)..<(high - line.range.lowerBound), readings: readings)
            }
            let alone = try Self.layout(part, moved, width: 5 * Self.em)
            let here = layout.rubyRuns.filter { $0.lineIndex == index }.flatMap { Array($0.glyphs) }
            let there = Self.readingGlyphs(alone)
            #expect(here.map(\.id) == there.map(\.id), "line \(index)")
            let dx = line.baselineOrigin.x - alone.lines[0].baselineOrigin.x
            let dy = line.baselineOrigin.y - alone.lines[0].baselineOrigin.y
            for (a, b) in zip(here, there) {
                #expect(abs(a.position.x - (b.position.x + dx)) < 1e-6 && abs(a.position.y - (b.position.y + dy)) < 1e-6, "line \(index)")
            }
        }
    }

    @Test func hostileAnnotationsAreRefusedByName() throws {
        let text = "日本語\nの文"
        func refusal(_ ruby: [RubyAnnotation], _ change: (inout ParagraphRequest) -> Void = { _ in }) -> LayoutError? {
            var request = ParagraphRequest(text: AttributedText(text, style: Self.han).withRuby(ruby), width: 100_000)
            change(&request)
            do {
                _ = try Fixtures.layouter.layout(request)
                return nil
            } catch let error as LayoutError {
                return error
            } catch {
                return nil
            }
        }
        let cases: [([RubyAnnotation], String)] = [
            ([RubyAnnotation(base: 0..<9, reading: "x")], "ruby_annotations[0].range"),
            ([RubyAnnotation(base: 1..<1, reading: "x")], "ruby_annotations[0].range"),
            ([RubyAnnotation(base: 0..<2, reading: "x"), RubyAnnotation(base: 1..<3, reading: "y")], "ruby_annotations[1].range"),
            ([RubyAnnotation(base: 2..<5, reading: "x")], "ruby_annotations[0].range"),
            ([RubyAnnotation(base: 0..<2, readings: ["a", "b", "c"])], "ruby_annotations[0].readings"),
            ([RubyAnnotation(base: 0..<1, reading: "")], "ruby_annotations[0].text"),
            ([RubyAnnotation(base: 0..<1, reading: "a\nb")], "ruby_annotations[0].text"),
            ([RubyAnnotation(base: 0..<2, readings: ["a", ""])], "ruby_annotations[0].readings[1]"),
            ([RubyAnnotation(base: 0..<1, reading: "x", scale: .nan)], "ruby_annotations[0].scale"),
            ([RubyAnnotation(base: 0..<1, reading: "x", scale: 5)], "ruby_annotations[0].scale"),
        ]
        for (ruby, field) in cases {
            let error = refusal(ruby)
            #expect(error?.code == .invalidArgument && error?.field == field, "\(field): \(String(describing: error))")
        }
        // A base that cuts a cluster: e + combining acute.
        var request = ParagraphRequest(text: AttributedText("e\u{301}x", style: Self.han).withRuby([RubyAnnotation(base: 0..<1, reading: "x")]),
                                       width: 1_000)
        #expect(throws: LayoutError.self) { _ = try Fixtures.layouter.layout(request) }
        request.text = AttributedText("e\u{301}x", style: Self.han).withRuby([RubyAnnotation(base: 0..<2, reading: "x")])
        _ = try Fixtures.layouter.layout(request)
        let many = (0..<(RubyAnnotation.maxAnnotations + 1)).map { RubyAnnotation(base: $0..<($0 + 1), reading: "x") }
        let long = ParagraphRequest(text: AttributedText(String(repeating: "字", count: many.count), style: Self.han).withRuby(many),
                                    width: 1_000)
        #expect(throws: LayoutError.self) { _ = try Fixtures.layouter.layout(long) }
        #expect(refusal([RubyAnnotation(base: 0..<1, reading: "x")]) { $0.autoSize = AutoSize(minScale: 0.5); $0.maxLines = 1 }?.field
                == "ruby_annotations")
    }
}
