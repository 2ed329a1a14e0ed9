import Foundation
import Testing
@testable import LayoutEngine

/// The engine's glyphs, end to end through layout, against what hb-shape printed for the same
/// font and text (Golden/*.hb, written by scripts/update-golden.sh).
@Suite struct GoldenShapingTests {
    struct Fixture: CustomTestStringConvertible {
        var name: String
        var fontPath: String
        var faceIndex: Int
        var text: String
        var testDescription: String { name }
    }

    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static let fixtures: [Fixture] = {
        let table = (try? String(contentsOf: directory.appendingPathComponent("fixtures.tsv"), encoding: .utf8)) ?? ""
        return table.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Fixture(name: fields[0], fontPath: fields[1], faceIndex: Int(fields[2])!, text: fields[3])
        }
    }()

    @Test func everyFixtureHasAReference() {
        #expect(Self.fixtures.count >= 10)
        for fixture in Self.fixtures {
            #expect(FileManager.default.fileExists(atPath: Self.directory.appendingPathComponent(fixture.name + ".hb").path))
        }
    }

    @Test(arguments: fixtures)
    func glyphsMatchHBShape(_ fixture: Fixture) throws {
        let expected = try String(contentsOf: Self.directory.appendingPathComponent(fixture.name + ".hb"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let font = try #require(Fixtures.registry.fonts.first { $0.path == fixture.fontPath && $0.faceIndex == fixture.faceIndex })
        let style = TextStyle(family: font.family, weight: font.weight, italic: font.italic, size: Double(font.unitsPerEm))
        let request = ParagraphRequest(text: AttributedText(fixture.text, style: style), width: Bounds.maxLength)
        let layout = try Fixtures.layouter.layout(request)
        #expect(layout.lines.count == 1)
        #expect(layout.runs.allSatisfy { $0.fontID == font.id }, "fell back away from \(font.family)")
        #expect(Self.hbShapeLine(layout, text: fixture.text) == expected)
    }

    /// Prints a layout the way hb-shape --no-glyph-names does: gid=cluster@dx,dy+advance,
    /// clusters in code points, and with `flags` each glyph's as `--show-flags` prints them. At
    /// size = units-per-em, points are font units.
    static func hbShapeLine(_ layout: ParagraphLayout, text: String, flags: Bool = false) -> String {
        let codePointIndex = codePointIndex(text)
        var pen = layout.lines[0].usedRect.x
        let baseline = layout.lines[0].baselineOrigin.y
        var items: [String] = []
        for run in layout.runs {
            for k in run.glyphIDs.indices {
                let dx = Int(saturating: (run.positions[k].x - pen).rounded())
                let dy = Int(saturating: (baseline - run.positions[k].y).rounded())
                let offset = dx != 0 || dy != 0 ? "@\(dx),\(dy)" : ""
                let flag = flags && !run.glyphs[k].flags.isEmpty ? "#\(run.glyphs[k].flags.rawValue)" : ""
                items.append("\(run.glyphIDs[k])=\(codePointIndex[run.clusters[k]] ?? -1)\(offset)+\(Int(saturating: run.advances[k].rounded()))\(flag)")
                pen += run.advances[k]
            }
        }
        return "[" + items.joined(separator: "|") + "]"
    }

    /// A vertical layout printed as `hb-shape --direction=ttb` prints it: offsets from the
    /// column's centre and the pen, vertical advances downward negative.
    static func hbShapeVerticalLine(_ layout: ParagraphLayout, text: String, flags: Bool) -> String {
        let index = codePointIndex(text)
        let centre = layout.lines[0].baselineOrigin.x
        var pen = layout.lines[0].baselineOrigin.y
        var items: [String] = []
        for run in layout.runs {
            for glyph in run.glyphs {
                let dx = Int(saturating: (glyph.position.x - centre).rounded()), dy = Int(saturating: (pen - glyph.position.y).rounded())
                let flag = flags && !glyph.flags.isEmpty ? "#\(glyph.flags.rawValue)" : ""
                let offset = dx != 0 || dy != 0 ? "@\(dx),\(dy)" : ""
                items.append("\(glyph.id)=\(index[glyph.cluster] ?? -1)\(offset)+0,\(-Int(saturating: glyph.advance.rounded()))\(flag)")
                pen += glyph.advance
            }
        }
        return "[" + items.joined(separator: "|") + "]"
    }

    /// Each code point's index by its UTF-16 offset, the unit the engine's clusters count in.
    static func codePointIndex(_ text: String) -> [Int: Int] {
        var index: [Int: Int] = [:]
        var utf16 = 0
        for (position, scalar) in text.unicodeScalars.enumerated() {
            index[utf16] = position
            utf16 += scalar.utf16.count
        }
        return index
    }
}
