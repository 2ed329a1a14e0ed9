import Foundation

/// A titled part of the results.
struct Section {
    var title: String
    var lines: [String]
}

/// Collects the sections and writes them, with the machine and the command, to
/// Benchmarks/results/latest.md and a dated copy.
struct Report {
    let options: BenchOptions
    let captionCount: Int
    var sections: [Section] = []

    init(options: BenchOptions, captionCount: Int) {
        self.options = options
        self.captionCount = captionCount
    }

    mutating func add(_ more: [Section]) { sections += more }

    func write() throws {
        let date = ISO8601DateFormatter().string(from: Date())
        var text = ["# layoutd benchmark", "",
                    "- date: \(date)",
                    "- machine: \(Self.machine())",
                    "- command: `swift run -c release \(options.command)`",
                    "- corpus: \(captionCount) captions (\(options.corpusPath.split(separator: "/").suffix(3).joined(separator: "/"))), \(options.repeats) repeats; per-caption medians across repeats, then median and p99 across captions", ""]
        for section in sections {
            text += ["## \(section.title)", ""] + section.lines + [""]
        }
        let output = text.joined(separator: "\n")
        print(output)
        try FileManager.default.createDirectory(atPath: options.resultsDirectory, withIntermediateDirectories: true)
        try output.write(toFile: options.resultsDirectory + "/latest.md", atomically: true, encoding: .utf8)
        let day = String(date.prefix(10))
        try output.write(toFile: options.resultsDirectory + "/\(day).md", atomically: true, encoding: .utf8)
    }

    static func machine() -> String {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let memory = ProcessInfo.processInfo.physicalMemory / (1 << 30)
        return "\(model), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(memory) GiB, \(ProcessInfo.processInfo.operatingSystemVersionString)"
    }
}
