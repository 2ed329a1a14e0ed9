import Testing
@testable import LayoutEngine
import LayoutUnicode

@Suite struct ShapingCacheTests {
    @Test func repeatedRunsHitAndLongRunsAreNotKept() throws {
        let cache = ShapingCache()
        let layouter = ParagraphLayouter(fonts: Fixtures.registry, cache: cache)
        let short = ParagraphRequest(text: AttributedText("cache me", style: TextStyle(family: "Noto Sans")), width: 300)
        _ = try layouter.layout(short)
        let missesAfterFirst = cache.misses
        _ = try layouter.layout(short)
        #expect(cache.hits >= 1)
        #expect(cache.misses == missesAfterFirst)
        let long = ParagraphRequest(text: AttributedText(String(repeating: "long ", count: 400), style: TextStyle(family: "Noto Sans")),
                                    width: 300)
        let before = (cache.hits, cache.misses)
        let first = try layouter.layout(long)
        let second = try layouter.layout(long)
        #expect(cache.hits == before.0 && cache.misses == before.1, "a 2000-unit run must bypass the cache")
        #expect(first.runs == second.runs)
    }

    /// A cache split into shards (the shipped size) answers as one of a single shard: the same
    /// runs, hits and misses, and the same runs as shaping afresh; clearing empties every shard.
    @Test func shardsAnswerAsOneTable() throws {
        let sharded = ShapingCache(capacity: 20_000), single = ShapingCache(capacity: 16_383)
        let layouters = [sharded, single].map { ParagraphLayouter(fonts: Fixtures.registry, cache: $0) }
        let fresh = ParagraphLayouter(fonts: Fixtures.registry, cache: nil)
        let texts = (0..<60).map { "Caption \($0): words that come back, مرحبا \($0 % 7), 你好 \($0 % 5)" }
        for _ in 0..<2 {
            for text in texts {
                let request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 18)), width: 160)
                let expected = try fresh.layout(request).runs
                for layouter in layouters { #expect(try layouter.layout(request).runs == expected, "\(text)") }
            }
        }
        #expect(sharded.hits == single.hits && sharded.misses == single.misses)
        #expect(sharded.hits > 0 && sharded.misses > 0)
        sharded.removeAll()
        let missesBefore = sharded.misses
        _ = try layouters[0].layout(ParagraphRequest(text: AttributedText(texts[0], style: TextStyle(family: "Noto Sans", size: 18)),
                                                     width: 160))
        #expect(sharded.misses > missesBefore, "a cleared cache misses again")
    }

    /// Hits give exactly what shaping gives: the same runs at other offsets, in other texts, in
    /// a whole paragraph and as a small part of one, after the texts they were stored from are gone.
    @Test func hitsEqualFreshShaping() throws {
        let cache = ShapingCache()
        let cached = ParagraphLayouter(fonts: Fixtures.registry, cache: cache)
        let fresh = ParagraphLayouter(fonts: Fixtures.registry, cache: nil)
        let texts = ["Sunny day 😀 at the beach", "Sunny day", "A long text in which Sunny day 😀 at the beach is a small part, far from the start",
                     "مرحبا بالعالم", "قال مرحبا بالعالم ثم ذهب", "नमस्ते दुनिया", "你好，世界 hello"]
        func layout(_ text: String, _ layouter: ParagraphLayouter) throws -> [GlyphRunLayout] {
            try layouter.layout(ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 20)),
                                                 width: 120)).runs
        }
        for round in 0..<3 {
            for text in round == 1 ? texts.reversed() : texts {
                #expect(try layout(text, cached) == layout(text, fresh), "\(text)")
            }
        }
        #expect(cache.hits > 0)
    }

    /// A key keeps its text as a slice only when the slice is most of its array's allocation:
    /// the units shaped may be the scratch's reused array (a document paragraph's, with its
    /// separator replaced), whose room fits the longest text it held, and a slice of it kept by
    /// every entry pinned that room (issue 41's session memory).
    @Test func aKeyNeverPinsARoomyArray() {
        let style = ShapingCache.StyleKey(language: "", features: [])
        var roomy = ContiguousArray<UInt16>()
        roomy.reserveCapacity(4_096)
        roomy.append(contentsOf: Array("a caption of one script".utf16))
        let fromRoomy = ShapingCache.Key(roomy, range: 0..<roomy.count, context: 0..<roomy.count, font: 1, rtl: false,
                                         script: Script.latin.tag, style: style)
        #expect(fromRoomy.isSmallPart)
        #expect(fromRoomy.stored.text.capacity < 1_024 && Array(fromRoomy.stored.text) == Array(roomy))
        let exact = ContiguousArray(Array("a caption of one script".utf16))
        let fromExact = ShapingCache.Key(exact, range: 0..<exact.count, context: 0..<exact.count, font: 1, rtl: false,
                                         script: Script.latin.tag, style: style)
        #expect(!fromExact.isSmallPart, "a whole paragraph's own array is kept as it is")
        #expect(fromRoomy == fromExact && fromRoomy.stored == fromExact.stored)
    }
}
