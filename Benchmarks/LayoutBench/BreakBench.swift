import Foundation
import LayoutEngine
import LayoutUnicode

/// Breaking strategies (issue 22): each caption laid out greedy, balanced and total fit, in
/// process, one thread; cold (no shaping cache, as the floor is measured) and warm (the
/// cache filled, so breaking is a larger share). Ratios are per caption against greedy.
struct BreakBench {
    let captions: [Caption]
    let options: BenchOptions

    func run() throws -> [Section] {
        let registry = try FontRegistry.load(paths: DefaultFonts.paths)
        var lines = ["In process, one thread, every corpus caption at width \(Int(saturating: options.width)), size "
                     + "\(Int(saturating: options.size)). Per-caption medians over \(options.repeats) rounds; the ratio is each "
                     + "caption's time over its greedy time, median and p99 over captions; a pass over the corpus per "
                     + "strategy, the order turning each round.", "",
                     "| cache | strategy | median µs | ratio to greedy (median) | p99 ratio |", "|---|---|---|---|---|"]
        for (name, cache) in [("cold", nil as ShapingCache?), ("warm", ShapingCache())] {
            let layouter = ParagraphLayouter(fonts: registry, cache: cache)
            var times: [Variant: [[Double]]] = [:]
            for round in 0..<options.repeats {
                FileHandle.standardError.write(Data("breaking (\(name)) round \(round + 1)/\(options.repeats)\n".utf8))
                var row: [Variant: [Double]] = [:]
                // A pass over the corpus per strategy, in an order that turns each round, so no
                // strategy always runs first on a caption (the first pays the caches' misses).
                let order: [Variant] = [.greedy, .balanced, .optimal, .hyphenated, .optimalHyphenated, .fitOneLine, .fitTwoLines]
                for step in 0..<order.count {
                    let strategy = order[(step + round) % order.count]
                    for caption in captions {
                        var request = ParagraphRequest(text: AttributedText(caption.text, style: TextStyle(family: "Noto Sans",
                                                                                                        size: Double(options.size))),
                                                       width: Double(options.width))
                        strategy.apply(to: &request)
                        let start = nanoseconds()
                        _ = try layouter.layout(request)
                        row[strategy, default: []].append(Double(nanoseconds() - start) / 1000)
                    }
                }
                for (strategy, values) in row { times[strategy, default: []].append(values) }
            }
            let greedy = Distribution.perItemMedian(times[.greedy]!)
            for (label, strategy) in [("greedy", Variant.greedy), ("balanced", .balanced), ("optimal", .optimal),
                                      ("greedy, hyphenated (en-US patterns)", .hyphenated), ("optimal, hyphenated", .optimalHyphenated),
                                      ("auto-size to one line (closed form)", .fitOneLine), ("auto-size to two lines (bisection)", .fitTwoLines)] {
                let values = Distribution.perItemMedian(times[strategy]!)
                let ratios = Distribution(values: zip(values.values, greedy.values).map { $0 / $1 })
                lines.append(String(format: "| %@ | %@ | %.2f | %.2f× | %.2f× |", name, label, values.median, ratios.median, ratios.p99))
            }
        }
        return [Section(title: "Breaking strategies and auto-size against greedy", lines: lines)]
    }

    /// What each pass lays out: a breaking strategy (with hyphenation or without), or auto-size
    /// (min scale 0.3) into one line or two.
    enum Variant: Hashable {
        case greedy, balanced, optimal, hyphenated, optimalHyphenated, fitOneLine, fitTwoLines

        func apply(to request: inout ParagraphRequest) {
            switch self {
            case .greedy: break
            case .balanced: request.breakStrategy = .balanced
            case .optimal: request.breakStrategy = .optimal
            case .hyphenated: request.hyphenation = Hyphenation()
            case .optimalHyphenated:
                request.breakStrategy = .optimal
                request.hyphenation = Hyphenation()
            case .fitOneLine:
                request.maxLines = 1
                request.autoSize = AutoSize(minScale: 0.3)
            case .fitTwoLines:
                request.maxLines = 2
                request.autoSize = AutoSize(minScale: 0.3)
            }
        }
    }
}
