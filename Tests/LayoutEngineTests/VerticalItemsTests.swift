import Testing
@testable import LayoutEngine
import LayoutUnicode

/// Vertical items are cut by one walk over each item's cluster starts; the cut must be the one
/// made from every unit's orientation (the path combining digits still takes).
@Suite struct VerticalItemsTests {
    struct Cut: Equatable, CustomStringConvertible {
        var range: Range<Int>, font: UInt32, orientation: GlyphOrientation
        var description: String { "\(range) font \(font) \(orientation)" }
    }

    /// The cut, and the break opportunities left after strict kinsoku.
    static func cuts(_ string: String, walk: Bool) throws -> ([Cut], [Bool]) {
        let text = AttributedText(string, style: TextStyle(family: "Noto Sans CJK JP", size: 20))
        let analysis = TextAnalysis.analyze(text, direction: .auto, unicode: SystemUnicode.shared)
        let fallback = try FontFallback(registry: Fixtures.registry, styles: text.styles, user: nil)
        var items: [Item] = []
        var scalars: [UInt32] = []
        Itemizer.itemize(text, analysis: analysis, fallback: fallback, into: &items, scalars: &scalars)
        let setting = VerticalSetting(combineUpTo: 0, combinesLetters: false)
        var flags = analysis.flags
        var cut: [Item] = []
        if walk {
            VerticalItems.split(items, into: &cut, units: text.units, flags: &flags, setting: setting)
        } else {
            StrictKinsoku.apply(to: &flags, units: text.units)
            cut = VerticalItems.splitUnitByUnit(items, units: text.units, flags: flags, setting: setting)
        }
        return (cut.map { Cut(range: $0.range, font: $0.font.id, orientation: $0.orientation) }, flags.map { $0.contains(.breakBefore) })
    }

    static let texts = [
        "縦書きの文章、ABCと2024年。",
        "「括弧」と（丸括弧）、ー長音と…三点",
        "中文 -- 苏轼《题西林壁》 and English words",
        "emoji 🙂 among 漢字 and 👍🏽 skin tones",
        "한국어 텍스트와 ひらがな と カタカナ",
        "a\u{0301} combining, e\u{0308}, 字\u{FE00} variation",
        "line\nbreak\u{2028}and 𠀀𠀁 supplementary ideographs",
        "",
        "A",
        "字",
        "ちょっと待ってー、キャッシュはァィゥェォ？ｧｨｩ",
        "っ starts, 改行\nっ after a break",
    ]

    @Test(arguments: texts) func walkCutsAsEveryUnitDoes(_ text: String) throws {
        let walked = try Self.cuts(text, walk: true)
        let reference = try Self.cuts(text, walk: false)
        #expect(walked.0 == reference.0)
        #expect(walked.1 == reference.1, "strict kinsoku")
        if !text.isEmpty { #expect(!walked.0.isEmpty) }
    }

    @Test(.enabled(if: Fixtures.corpus != nil, "../shared/corpus/captions.jsonl is not beside this clone"))
    func walkCutsTheCorpusAsEveryUnitDoes() throws {
        try Self.walkCutsAsEveryUnit(try #require(Fixtures.corpus))
    }

    @Test func walkCutsOwnCaptionsAsEveryUnitDoes() throws {
        try Self.walkCutsAsEveryUnit(Fixtures.ownCaptions)
    }

    static func walkCutsAsEveryUnit(_ captions: [Fixtures.Caption]) throws {
        var differing: [String] = []
        for caption in captions {
            let walked = try Self.cuts(caption.text, walk: true), reference = try Self.cuts(caption.text, walk: false)
            if walked.0 != reference.0 || walked.1 != reference.1 { differing.append(caption.text) }
        }
        #expect(differing.isEmpty, "captions cut differently: \(differing.prefix(5))")
    }
}

/// Strict kinsoku asks a table made from the conditional starters' list, passing ideographs and
/// the units below kana by without it.
@Suite struct StrictKinsokuTests {
    @Test func theUnitTableAgreesWithTheRangesAndTheList() {
        let table = VerticalUnitTable.shared
        for unit in UInt16(0)...UInt16.max {
            #expect(table.orientation(of: unit) == VerticalOrientation(UInt32(unit)), "U+\(String(unit, radix: 16))")
            let starter = table.isConditionalStarter(unit)
            #expect(starter == StrictKinsoku.isConditionalStarter(unit), "U+\(String(unit, radix: 16))")
        }
    }

    @Test func noConditionalStarterIsAmongTheUnitsPassedBy() {
        // `StrictKinsoku.keep` passes ideographs and everything below U+3041 by without the table.
        for unit in UInt16(0)...UInt16.max where StrictKinsoku.isConditionalStarter(unit) {
            #expect(unit >= 0x3041 && !(0x3400...0x9FFF).contains(unit), "U+\(String(unit, radix: 16))")
        }
    }

    @Test func smallKanaLoseTheirOpportunityAndOthersKeepIt() {
        let units = ContiguousArray(Array("あっかーキャ字。".utf16))
        var flags = ContiguousArray<UnitFlags>(repeating: [.breakBefore, .graphemeStart], count: units.count)
        StrictKinsoku.apply(to: &flags, units: units)
        // っ (1), ー (3) and ャ (5) are CJ: no break before them; the rest keep theirs.
        #expect(flags.map { $0.contains(.breakBefore) } == [true, false, true, false, true, false, true, true])
    }
}
