import Foundation
import Testing

/// Comments keep the reason for a choice, not the figure it was measured at: a figure in a
/// comment goes stale with the next compiler or change around it, unseen. The figures live in
/// `Benchmarks/results/code-figures.md`, with the place in the code they explain.
@Suite struct SourceCommentTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// An instruction count, or a time something cost or took.
    static let figure = try! NSRegularExpression(
        pattern: #"\d[\d,.]*\s*[KkM]?\s+instructions|\b(cost|costs|took|takes)\b.{0,80}?\d\s*(µs|ms)\b"#)

    static func figures(in line: String) -> Bool {
        guard let comment = line.range(of: "//") else { return false }
        let text = String(line[comment.lowerBound...])
        return figure.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    @Test func theRuleSeesAFigure() {
        #expect(Self.figures(in: "    // a copy cost 1,600 instructions a request"))
        #expect(Self.figures(in: "    /// (+1.9K instructions a caption)."))
        #expect(Self.figures(in: "    // it took 2.6 times as long (0.57 against 0.22 µs a caption)"))
        #expect(!Self.figures(in: "    /// From 50 µs (a warm caption) to 5 s (the request budget)."))
        #expect(!Self.figures(in: "    let instructions = 3  // counted by callgrind"))
    }

    @Test func noCommentUnderSourcesQuotesAFigure() throws {
        var found: [String] = []
        for root in ["Sources", "clients/swift/Sources"] {
            let url = Self.repository.appendingPathComponent(root)
            let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            #expect(!files.isEmpty, "no Swift files under \(root)")
            for file in files {
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                for (number, line) in lines.enumerated() where Self.figures(in: String(line)) {
                    found.append("\(file.path.replacingOccurrences(of: Self.repository.path + "/", with: "")):\(number + 1)")
                }
            }
        }
        #expect(found.isEmpty, "figures belong in Benchmarks/results/code-figures.md: \(found)")
        let table = try String(contentsOf: Self.repository.appendingPathComponent("Benchmarks/results/code-figures.md"), encoding: .utf8)
        #expect(table.contains("| where | what it cost |"))
    }
}
