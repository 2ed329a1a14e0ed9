import Foundation

extension FillRegions {
    /// The runs each region fills (indices into `runs`): a paint's regions hold disjoint
    /// stretches of text, so each filled run finds its own by a binary search among its
    /// paint's, and every run is looked at once however many regions there are.
    public static func runs(_ runs: [GlyphRunLayout], by regions: [FillRegion]) -> [[Int]] {
        var byPaint: [Int: [Int]] = [:]  // region indices by paint, in text order
        for (index, region) in regions.enumerated() { byPaint[region.paint, default: []].append(index) }
        for paint in byPaint.keys { byPaint[paint]!.sort { regions[$0].range.lowerBound < regions[$1].range.lowerBound } }
        var held = [[Int]](repeating: [], count: regions.count)
        for (index, run) in runs.enumerated() {
            guard let candidates = byPaint[run.paint] else { continue }
            // The last region starting at or before the run.
            var low = 0, high = candidates.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if regions[candidates[middle]].range.lowerBound <= run.range.lowerBound { low = middle } else { high = middle - 1 }
            }
            let region = regions[candidates[low]]
            let inside = run.range.isEmpty ? region.range.lowerBound <= run.range.lowerBound && run.range.lowerBound <= region.range.upperBound
                : region.range.lowerBound <= run.range.lowerBound && run.range.upperBound <= region.range.upperBound
            if inside && (region.lineIndex.map { $0 == run.lineIndex } ?? true) { held[candidates[low]].append(index) }
        }
        return held
    }

    /// The regions of text set on a path (`TextPathPlacer`): each box the turned boxes of its
    /// runs' glyphs where they stand on the path, the points found again in it (a layout's box
    /// is the placed layout's size).
    static func placed(_ regions: [FillRegion], in layout: ParagraphLayout) -> [FillRegion] {
        let held = runs(layout.runs, by: regions)
        let angles = layout.glyphAngles
        var result = regions
        for index in result.indices {
            guard let fill = layout.paints[result[index].paint].fill else { continue }
            var box: Rect?
            for runIndex in held[index] {
                let run = layout.runs[runIndex], line = layout.lines[run.lineIndex]
                for (k, glyph) in run.glyphs.enumerated() {
                    let angle = angles[runIndex][k]
                    let turned = TextPathPlacer.box(of: glyph, cos: cos(angle), sin: sin(angle), ascent: line.ascent, descent: line.descent)
                    box = box?.union(turned) ?? turned
                }
            }
            result[index].settle(fill, box: box ?? result[index].box, layoutSize: layout.size)
        }
        return result
    }
}
