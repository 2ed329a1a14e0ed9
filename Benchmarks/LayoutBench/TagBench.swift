import CHarfBuzz
import Foundation
import LayoutEngine
import LayoutWire
import LayoutUnicode

/// A tag of three labels per caption: the labels are the caption's first words (real text in
/// every script of the corpus), padded with a price and a product when it has too few.
enum TagCorpus {
    static func labels(_ caption: Caption) -> [String] {
        let words = caption.text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        var labels = stride(from: 0, to: min(words.count, 6), by: 2).map { words[$0..<min($0 + 2, words.count)].joined(separator: " ") }
        for filler in ["¥899", "Air Max 90"] where labels.count < 3 { labels.append(filler) }
        return Array(labels.prefix(3))
    }

    static func request(_ caption: Caption, index: Int) -> TagsRequest {
        let labels = labels(caption).map { TagLabel(name: $0) }
        return TagsRequest(photo: Size(width: 1080, height: 1350),
                           tags: [ImageTag(position: Point(x: 0.45, y: 0.55), labels: labels, style: index % 4)])
    }

    static func wireRequest(_ caption: Caption, index: Int) -> Layoutd_V1_TagsRequest {
        var request = Layoutd_V1_TagsRequest()
        request.photoWidth = 1080
        request.photoHeight = 1350
        request.tags = [Layoutd_V1_ImageTag.with {
            $0.at = .with { $0.x = 0.45; $0.y = 0.55 }
            $0.style = UInt32(index % 4)
            $0.labels = labels(caption).map { name in .with { $0.name = name } }
        }]
        return request
    }
}

/// In process, one thread: a tag of three labels (label layout and geometry) beside its three
/// labels laid out as plain paragraphs and beside HarfBuzz shaping them, interleaved per caption.
struct TagBench {
    let captions: [Caption]
    let options: BenchOptions

    func run() throws -> [Section] {
        let registry = try FontRegistry.load(paths: DefaultFonts.paths)
        let layouter = ParagraphLayouter(fonts: registry, cache: nil)
        let floorFonts = try FloorFonts()
        let tagRequests = captions.indices.map { TagCorpus.request(captions[$0], index: $0) }
        let labelRequests = tagRequests.map { request in
            request.tags[0].labels.map { label in
                ParagraphRequest(text: AttributedText(label.name, style: request.textStyle), width: request.metrics.maxLabelWidth, maxLines: 1)
            }
        }
        let labelCaptions = captions.indices.map { index in
            tagRequests[index].tags[0].labels.map { Caption(id: "", script: captions[index].script, text: $0.name) }
        }
        if let only = ProcessInfo.processInfo.environment["LAYOUTD_BENCH_PROFILE"], only.hasPrefix("tag") {
            // For a profiler: tags only ("tags") or their labels only ("tag-labels"), many times.
            for _ in 0..<options.repeats {
                for index in captions.indices {
                    if only == "tags" { _ = try layouter.layoutTags(tagRequests[index]) } else {
                        for request in labelRequests[index] { _ = try layouter.layout(request) }
                    }
                }
            }
            return []
        }
        var tags: [[Double]] = [], labels: [[Double]] = [], floor: [[Double]] = []
        for round in 0..<options.repeats {
            FileHandle.standardError.write(Data("tags round \(round + 1)/\(options.repeats)\n".utf8))
            var t: [Double] = [], l: [Double] = [], f: [Double] = []
            for index in captions.indices {
                let steps: [() throws -> Void] = [
                    {
                        let start = nanoseconds()
                        let placed = try layouter.layoutTags(tagRequests[index])
                        t.append(Double(nanoseconds() - start) / 1000)
                        precondition(placed.tags[0].labels.count == 3)
                    },
                    {
                        let start = nanoseconds()
                        for request in labelRequests[index] {
                            let layout = try layouter.layout(request)
                            precondition(!layout.lines.isEmpty)
                        }
                        l.append(Double(nanoseconds() - start) / 1000)
                    },
                    { f.append(labelCaptions[index].reduce(0) { $0 + floorFonts.time($1) }) },
                ]
                for k in 0..<steps.count { try steps[(index + k) % steps.count]() }
            }
            tags.append(t); labels.append(l); floor.append(f)
        }
        let tagD = Distribution.perItemMedian(tags), labelD = Distribution.perItemMedian(labels), floorD = Distribution.perItemMedian(floor)
        func ratio(_ a: Distribution, _ b: Distribution) -> Double { Distribution(values: zip(a.values, b.values).map { $0 / $1 }).median }
        let lines = [
            "| pass | median µs/tag | p99 µs/tag | tags/s | median of per-tag ratios to the floor |", "|---|---|---|---|---|",
            String(format: "| HarfBuzz floor (hb_shape of the three labels, one font) | %.2f | %.2f | %.0f | 1.00× |", floorD.median, floorD.p99,
                   Double(floorD.values.count) / (floorD.values.reduce(0, +) / 1e6)),
            String(format: "| the three labels as paragraphs, no cache | %.2f | %.2f | %.0f | %.2f× |", labelD.median, labelD.p99,
                   Double(labelD.values.count) / (labelD.values.reduce(0, +) / 1e6), ratio(labelD, floorD)),
            String(format: "| a tag of three labels (label layout and geometry), no cache | %.2f | %.2f | %.0f | %.2f× (%.2f× the labels alone) |",
                   tagD.median, tagD.p99, Double(tagD.values.count) / (tagD.values.reduce(0, +) / 1e6), ratio(tagD, floorD), ratio(tagD, labelD)),
            "", "Labels: each caption's first words in pairs (every script of the corpus), padded with \"¥899\" and \"Air Max 90\"; the style rotates through the four.",
        ]
        return [Section(title: "Image tags in process (one tag of three labels per caption, one thread)", lines: lines)]
    }
}
