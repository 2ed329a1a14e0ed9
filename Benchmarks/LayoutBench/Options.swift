import Foundation
import LayoutEngine

/// Command-line options of the benchmark.
struct BenchOptions {
    var corpusPath: String
    var repeats = 5
    var width: Float = 300
    var size: Float = 24
    var daemon = true
    var inProcess = true
    var hostile = false
    /// The image-tag rows (in process), run with the in-process figures or alone.
    var tags = true
    /// The client libraries' rows (C, Python, Swift, layoutctl), run alone.
    var clients = false
    /// The hit-testing rows (in process), run alone.
    var hit = false
    /// The editing-session rows (in process), run alone.
    var edit = false
    /// The breaking-strategy rows (in process), run alone.
    var breaking = false
    /// Cost per character against length (in process), run alone.
    var scaling = false
    var resultsDirectory: String
    var command: String

    static func parse(_ arguments: ArraySlice<String>) -> BenchOptions {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var options = BenchOptions(corpusPath: root.deletingLastPathComponent().appendingPathComponent("shared/corpus/captions.jsonl").path,
                                   resultsDirectory: root.appendingPathComponent("Benchmarks/results").path,
                                   command: (["layoutd-bench"] + arguments).joined(separator: " "))
        var rest = arguments.makeIterator()
        while let argument = rest.next() {
            switch argument {
            case "--corpus": options.corpusPath = rest.next() ?? options.corpusPath
            case "--repeats": options.repeats = rest.next().flatMap(Int.init) ?? options.repeats
            case "--no-daemon": options.daemon = false
            case "--daemon-only": options.inProcess = false
            case "--results": options.resultsDirectory = rest.next() ?? options.resultsDirectory
            case "--hostile": options.hostile = true
            case "--hostile-only": options.hostile = true; options.inProcess = false; options.daemon = false; options.tags = false
            case "--tags-only": options.inProcess = false; options.daemon = false; options.hostile = false; options.tags = true
            case "--clients-only": options.inProcess = false; options.daemon = false; options.hostile = false; options.tags = false
                options.clients = true
            case "--hit-only": options.inProcess = false; options.daemon = false; options.hostile = false; options.tags = false
                options.hit = true
            case "--edit-only": options.inProcess = false; options.daemon = false; options.hostile = false; options.tags = false
                options.edit = true
            case "--scaling-only": options.inProcess = false; options.daemon = false; options.hostile = false; options.tags = false
                options.scaling = true
            case "--breaking-only": options.inProcess = false; options.daemon = false; options.hostile = false; options.tags = false
                options.breaking = true
            default:
                FileHandle.standardError.write(Data("usage: layoutd-bench [--corpus FILE] [--repeats N] [--no-daemon | --daemon-only] [--hostile | --hostile-only] [--tags-only] [--clients-only] [--hit-only] [--edit-only] [--breaking-only] [--scaling-only] [--results DIR]\n".utf8))
                exit(2)
            }
        }
        return options
    }
}

/// One caption of ../shared/corpus/captions.jsonl.
struct Caption: Decodable {
    var id: String
    var script: String
    var text: String
}

enum Corpus {
    static func load(_ path: String) throws -> [Caption] {
        guard let data = FileManager.default.contents(atPath: path) else {
            FileHandle.standardError.write(Data("layoutd-bench: no corpus at \(path) (pass --corpus FILE)\n".utf8))
            exit(1)
        }
        let decoder = JSONDecoder()
        return try data.split(separator: UInt8(ascii: "\n")).map { try decoder.decode(Caption.self, from: Data($0)) }
    }
}

/// Median and p99 of a sample, and helpers to time things.
struct Distribution {
    var values: [Double]
    var median: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }

    func percentile(_ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int(saturating: (Double(sorted.count - 1) * p).rounded()))]
    }

    /// Per-caption medians across repeats: each repeat gives one time per caption.
    static func perItemMedian(_ repeats: [[Double]]) -> Distribution {
        guard let first = repeats.first else { return Distribution(values: []) }
        return Distribution(values: first.indices.map { index in Distribution(values: repeats.map { $0[index] }).median })
    }
}

@inline(__always) func nanoseconds() -> UInt64 { Uptime.nanoseconds }
