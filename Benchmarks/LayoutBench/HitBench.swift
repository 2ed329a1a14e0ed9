import Foundation
import LayoutEngine
import LayoutUnicode

/// Hit-testing a laid-out caption (issue 21): what building the tester costs once per layout,
/// and what one point, one caret and one selection cost after that, in process, one thread.
struct HitBench {
    let captions: [Caption]
    let options: BenchOptions

    func run() throws -> [Section] {
        let registry = try FontRegistry.load(paths: DefaultFonts.paths)
        let layouter = ParagraphLayouter(fonts: registry, cache: ShapingCache())
        let layouts = try captions.map { caption in
            try layouter.layout(ParagraphRequest(text: AttributedText(caption.text, style: TextStyle(family: "Noto Sans", size: Double(options.size))),
                                                 width: Double(options.width)))
        }
        var build: [[Double]] = [], hit: [[Double]] = [], caret: [[Double]] = [], selection: [[Double]] = [], layout: [[Double]] = []
        for round in 0..<options.repeats {
            FileHandle.standardError.write(Data("hit-testing round \(round + 1)/\(options.repeats)\n".utf8))
            var b: [Double] = [], h: [Double] = [], c: [Double] = [], s: [Double] = [], l: [Double] = []
            for (index, caption) in captions.enumerated() {
                let laid = layouts[index]
                var start = nanoseconds()
                _ = try layouter.layout(ParagraphRequest(text: AttributedText(caption.text, style: TextStyle(family: "Noto Sans",
                                                                                                                 size: Double(options.size))),
                                                         width: Double(options.width)))
                l.append(Double(nanoseconds() - start) / 1000)
                start = nanoseconds()
                let tester = HitTester(layout: laid, text: caption.text)
                b.append(Double(nanoseconds() - start) / 1000)
                // 32 points over the layout's box and a margin around it, timed together.
                let points = (0..<32).map { k in
                    Point(x: (Double(k % 8) / 7) * (laid.size.width + 40) - 20, y: (Double(k / 8) / 3) * (laid.size.height + 40) - 20)
                }
                var sink = 0
                start = nanoseconds()
                for point in points { sink &+= tester.hit(point)?.position.offset ?? 0 }
                h.append(Double(nanoseconds() - start) / 1000 / Double(points.count))
                let length = caption.text.utf16.count
                let offsets = (0..<32).map { $0 * length / 31 }
                start = nanoseconds()
                for offset in offsets { sink &+= Int(saturating: tester.caret(TextPosition(offset: offset))?.primary.x ?? 0) }
                c.append(Double(nanoseconds() - start) / 1000 / Double(offsets.count))
                start = nanoseconds()
                sink &+= tester.selection(length / 4..<(3 * length / 4)).count
                s.append(Double(nanoseconds() - start) / 1000)
                if sink == Int.min { print(sink) }
            }
            build.append(b); hit.append(h); caret.append(c); selection.append(s); layout.append(l)
        }
        var lines = ["In process, one thread, on each caption laid out at width \(Int(saturating: options.width)) (the tester built once per layout; "
                     + "32 points over the layout and a 20-pt margin around it, 32 carets, one selection of the middle half). "
                     + "Per-caption medians over \(options.repeats) rounds, then median and p99 over captions.", "",
                     "| what | median µs | p99 µs |", "|---|---|---|"]
        for (name, values) in [("layout, warm cache (for scale)", layout), ("build the tester (once per layout)", build),
                               ("hit-test one point", hit), ("one caret (both places)", caret), ("one selection", selection)] {
            let distribution = Distribution.perItemMedian(values)
            lines.append(String(format: "| %@ | %.3f | %.3f |", name, distribution.median, distribution.p99))
        }
        return [Section(title: "Hit-testing a laid-out caption", lines: lines)]
    }
}
