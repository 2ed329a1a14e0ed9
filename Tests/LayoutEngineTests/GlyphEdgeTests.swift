@testable import LayoutEngine
import Testing
import TestSupport

/// `edge` gallops from a guess; it must find what a plain bisection finds.
@Suite struct GlyphEdgeTests {
    static func glyph(_ cluster: Int, unsafe: Bool = false) -> ShapedGlyph {
        ShapedGlyph(id: 1, cluster: Int32(cluster), advance: 1, xOffset: 0, yOffset: 0, unsafeToBreak: unsafe)
    }

    static func bisect(_ glyphs: [ShapedGlyph], _ offset: Int, rtl: Bool) -> Int {
        var low = 0, high = glyphs.count
        while low < high {
            let mid = (low + high) / 2
            let cluster = Int(glyphs[mid].cluster)
            if rtl ? cluster < offset : cluster >= offset { high = mid } else { low = mid + 1 }
        }
        return low
    }

    @Test func findsTheSameEdgeAsBisection() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<3_000 {
            // Clusters rise (some units share a glyph, some glyphs share a cluster), then a
            // right-to-left run is the same reversed.
            var clusters: [Int] = []
            var unit = 0
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                unit += Int.random(in: 0...3, using: &generator)
                clusters.append(unit)
            }
            for rtl in [false, true] {
                let glyphs = (rtl ? clusters.reversed() : clusters).map { Self.glyph($0) }
                let storage = ShapedGlyphs.make(glyphs)
                for offset in 0...(unit + 2) {
                    // A slice reads its storage without holding it: the storage is kept alive here.
                    let found = withExtendedLifetime(storage) { ShapedParagraph.edge(storage.slice, offset, rtl: rtl) }
                    #expect(found.index == Self.bisect(glyphs, offset, rtl: rtl), "\(clusters) rtl \(rtl) offset \(offset)")
                    #expect(found.safe == glyphs.contains { Int($0.cluster) == offset })
                }
            }
        }
    }

    @Test func aClusterFlaggedUnsafeIsNotASafeEdge() {
        let glyphs = [Self.glyph(0), Self.glyph(1), Self.glyph(2, unsafe: true), Self.glyph(3)]
        let storage = ShapedGlyphs.make(glyphs)
        withExtendedLifetime(storage) {
            #expect(ShapedParagraph.edge(storage.slice, 2, rtl: false) == (2, false))
            #expect(ShapedParagraph.edge(storage.slice, 3, rtl: false) == (3, true))
        }
    }
}
