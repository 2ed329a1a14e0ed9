import Foundation
@testable import LayoutEngine

/// Fonts and helpers shared by the engine tests: Debian's default font set, loaded once.
enum Fixtures {
    static let registry: FontRegistry = {
        do { return try FontRegistry.load(paths: DefaultFonts.paths) } catch {
            fatalError("default fonts missing (run scripts/setup.sh): \(error)")
        }
    }()
    static let layouter = ParagraphLayouter(fonts: registry)

    static func layout(_ text: String, width: Double = 300, size: Double = 24, family: String = "Noto Sans",
                       configure: (inout ParagraphRequest) -> Void = { _ in }) throws -> ParagraphLayout {
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: family, size: size)), width: width)
        configure(&request)
        return try layouter.layout(request)
    }

    /// The text of each line, from its UTF-16 range.
    static func lineTexts(_ layout: ParagraphLayout, _ text: String) -> [String] {
        let units = Array(text.utf16)
        return layout.lines.map { String(decoding: units[$0.range], as: UTF16.self) }
    }

    static func family(of run: GlyphRunLayout) -> String { registry.font(id: run.fontID)!.family }

    struct Caption: Decodable {
        var id: String
        var script: String
        var text: String
    }

    /// The caption corpus beside the repository, or nil in a clone without ../shared.
    static let corpus: [Caption]? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("shared/corpus/captions.jsonl")
        guard let data = try? Data(contentsOf: path) else { return nil }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(Caption.self, from: Data($0)) }
    }()
}
