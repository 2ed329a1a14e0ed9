import Foundation
import Testing
import TestSupport
@testable import LayoutEngine
import LayoutUnicode
import LayoutFonts

/// HarfBuzz's own in-house shaping tests (`HarfBuzzInHouse/`: their fonts and texts, copied from
/// HarfBuzz's repository), each line laid out by the engine with the line's font given as a
/// client font and fallback off, and held to what Debian's `hb-shape` prints for the same line on
/// the same HarfBuzz: glyphs, clusters, offsets, advances, and flags where the line shows them.
/// (The files' own expectations are for a newer HarfBuzz than Debian's, so the oracle is run.)
/// A line with an option layoutd has no counterpart for is skipped, and the reasons are counted.
@Suite struct HarfBuzzInHouseTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("HarfBuzzInHouse")
    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("tests").path)) ?? [])
        .filter { $0.hasSuffix(".tests") }.sorted()

    /// What became of one line.
    enum Outcome: Equatable {
        case matched
        case skipped(String)
        case differs(ours: String, hbShape: String)
        case refused(String)
    }

    static let family = "HarfBuzz Test"

    /// The line laid out and printed as hb-shape prints it, held to hb-shape: with fallback off
    /// (the font draws everything, as hb-shape draws with it), and with fallback on where
    /// hb-shape draws no .notdef (the font draws every cluster, so fallback must keep it).
    static func outcomes(_ line: HarfBuzzTestLine, registries: inout [String: Result<FontRegistry, LayoutError>]) throws -> [Outcome] {
        let key = "\(line.fontPath)#\(line.faceIndex)"
        if registries[key] == nil {
            let bytes = FontBytes([UInt8](try Data(contentsOf: URL(fileURLWithPath: line.fontPath))))
            let client = ClientFont(family: family, bytes: bytes, faceIndices: [line.faceIndex])
            registries[key] = Result { () throws(LayoutError) in try Fixtures.registry.adding([client], field: "fonts") }
        }
        let registry: FontRegistry
        switch registries[key]! {
        case .success(let found): registry = found
        case .failure(let error): return [.refused("the font: \(error.message)")]
        }
        guard let font = registry.clientFaces(after: Fixtures.registry).first else { return [.refused("no face")] }
        var expected: String?
        var outcomes: [Outcome] = []
        for fallback in [false, true] {
            let request = try request(line, font: font, fallback: fallback)
            let layout: ParagraphLayout
            do {
                layout = try ParagraphLayouter(fonts: registry).layout(request)
            } catch {
                outcomes.append(.refused("the layout: \(error)"))
                continue
            }
            guard layout.lines.count == 1 else {
                outcomes.append(.refused("\(layout.lines.count) lines"))
                continue
            }
            var oracle = line
            let vertical = request.writingMode.isVertical
            if vertical {
                guard layout.runs.allSatisfy({ $0.orientation == .upright }) else {
                    return [.skipped("UAX #50 sets some of it sideways, where hb-shape --direction=ttb sets every glyph upright")]
                }
            } else {
                // HarfBuzz shapes the line in one direction, its own guess or the line's; layoutd
                // orders it by the bidi algorithm (UAX #9), and shapes each run in its resolved
                // direction. Text at two levels is shaped apart, as browsers shape it.
                guard Set(layout.runs.map(\.bidiLevel)).count == 1, let level = layout.runs.first?.bidiLevel else {
                    return [.skipped("UAX #9 sets it at more than one bidi level, shaped apart, where hb-shape shapes it as one")]
                }
                let resolved = level & 1 == 1 ? "rtl" : "ltr"
                if let forced = line.direction {
                    guard forced.prefix(1) == resolved.prefix(1) else {
                        return [.skipped("a direction forced against UAX #9's (layoutd takes bidi controls for that)")]
                    }
                } else {
                    oracle.options.append("--direction=" + resolved)
                }
            }
            if expected == nil {
                guard let printed = try HBShape.output(arguments: hbShapeArguments(oracle)) else { return [.skipped("hb-shape is missing")] }
                expected = printed
            }
            if fallback && (expected!.hasPrefix("[0=") || expected!.contains("|0=")) {
                outcomes.append(.skipped("with fallback: HarfBuzz draws .notdef, so another font rightly draws it"))
                continue
            }
            let ours = vertical ? GoldenShapingTests.hbShapeVerticalLine(layout, text: line.text, flags: line.glyphFlags)
                                : GoldenShapingTests.hbShapeLine(layout, text: line.text, flags: line.glyphFlags)
            outcomes.append(ours == expected ? .matched : .differs(ours: (fallback ? "with fallback " : "") + ours, hbShape: expected!))
        }
        return outcomes
    }

    /// The request for the line: its font at units-per-em (points are font units), its options.
    static func request(_ line: HarfBuzzTestLine, font: Font, fallback: Bool) throws -> ParagraphRequest {
        var style = TextStyle(family: family, weight: font.weight, italic: font.italic, size: Double(font.unitsPerEm))
        style.fontFallback = fallback
        style.features = line.features
        // hb-shape leaves every axis at its default but those the line sets (where a style's
        // weight would move `wght`), and sets no point size but the line's.
        let defaults = font.axes.map { FontVariation(tag: $0.tag, value: $0.defaultValue) }
        style.variations = FontVariationSettings(axes: defaults + line.variations, opticalSizing: line.pointSize != nil,
                                                 opticalSize: line.pointSize.map(Double.init))
        if let language = line.language { style.language = language }
        if let script = line.script { style.script = try StyleRules.script(script, field: "script") }
        var request = ParagraphRequest(text: AttributedText(line.text, style: style), width: Bounds.maxLength)
        request.reportsGlyphFlags = line.glyphFlags
        switch line.direction {
        case "l", "ltr": request.direction = .leftToRight
        case "r", "rtl": request.direction = .rightToLeft
        case "t", "ttb":
            // hb-shape sets every glyph upright: CSS text-orientation: upright.
            request.writingMode = .verticalRightToLeft
            request.textOrientation = .upright
            request.width = 100_000
            request.height = Bounds.maxLength
        default: break
        }
        return request
    }

    /// hb-shape's arguments for the line: its options but how it prints, glyph ids rather than
    /// names, HarfBuzz's own OpenType font functions (as the engine shapes with).
    static func hbShapeArguments(_ line: HarfBuzzTestLine) -> [String] {
        let printing: Set<String> = ["--no-glyph-names", "--no-positions", "--no-clusters", "--ned", "--show-flags", "--unsafe-to-concat"]
        let unicodes = line.text.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: ",")
        return ["--font-funcs=ot", "--no-glyph-names", "--font-file=\(line.fontPath)", "--unicodes=\(unicodes)"]
            + line.options.filter { !printing.contains(String($0.prefix { $0 != "=" })) && !$0.hasPrefix("--font-funcs") }
            + (line.glyphFlags ? ["--unsafe-to-concat", "--show-flags"] : [])
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: HBShape.path), "hb-shape (libharfbuzz-bin) is missing"),
          arguments: files)
    func everyLineShapesAsHBShape(_ file: String) throws {
        let lines = try HarfBuzzTestLine.read(Self.directory.appendingPathComponent("tests").appendingPathComponent(file),
                                              fonts: Self.directory.appendingPathComponent("fonts"))
        var registries: [String: Result<FontRegistry, LayoutError>] = [:]
        var outcomes: [String: Int] = [:]
        for entry in lines {
            switch entry {
            case .failure(let skip):
                outcomes["skipped: " + skip.reason, default: 0] += 1
            case .success(let line):
                for outcome in try Self.outcomes(line, registries: &registries) {
                switch outcome {
                case .matched: outcomes["matched", default: 0] += 1
                case .skipped(let why): outcomes["skipped: " + why, default: 0] += 1
                case .refused(let why):
                    outcomes["refused", default: 0] += 1
                    Issue.record("\(line.testDescription): refused \(why)")
                case .differs(let ours, let hbShape):
                    outcomes["differs", default: 0] += 1
                    Issue.record("\(line.testDescription) \(line.options.joined(separator: " ")): ours \(ours), hb-shape \(hbShape)")
                }
                }
            }
        }
        print("HarfBuzzInHouse \(file): " + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "; "))
        let compared = outcomes.filter { !$0.key.hasPrefix("skipped") }.values.reduce(0, +)
        #expect(compared > 0 || lines.allSatisfy { (try? $0.get()) == nil } || file == "macos.tests", "nothing in \(file) was compared")
    }

    /// The suite is all there: a test that skipped every line could not fail.
    @Test func theSuiteIsWhole() throws {
        #expect(Self.files.count == 86)
        var parsed = 0, total = 0
        for file in Self.files {
            let lines = try HarfBuzzTestLine.read(Self.directory.appendingPathComponent("tests").appendingPathComponent(file),
                                                  fonts: Self.directory.appendingPathComponent("fonts"))
            total += lines.count
            parsed += lines.filter { (try? $0.get()) != nil }.count
        }
        // 5,158 lines; the macOS fonts' 145, the other shapers' files and the options layoutd
        // has no counterpart for are the rest.
        #expect(total >= 5_000 && parsed >= 4_950, "\(parsed) of \(total) lines laid out")
    }
}
