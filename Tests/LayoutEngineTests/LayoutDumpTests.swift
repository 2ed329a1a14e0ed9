import Foundation
import Testing
@testable import LayoutEngine

/// Layouts written as readable lines and compared with the files in LayoutDumps/: a change in
/// layout shows up as a diff a reviewer can read (line, range, baseline, then each glyph run and
/// each attachment box in visual order). `LAYOUTD_UPDATE_DUMPS=1 swift test --filter LayoutDump`
/// writes the files anew.
@Suite struct LayoutDumpTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var text: String
        var width: Double
        var size: Double = 20
        var alignment: TextAlignment = .natural
        var direction: BaseDirection = .auto
        var maxLines: Int?
        var attachments: [InlineAttachment]
        var description: String { name }
    }

    static let box = "\u{FFFC}"
    static let cases: [Case] = [
        Case(name: "alignments", text: "top \(box) center \(box) bottom \(box) plain \(box) line \(box)", width: 260,
             attachments: [InlineAttachment(width: 24, extent: .height(24), alignment: .fontTop),
                           InlineAttachment(width: 24, extent: .height(24), alignment: .fontCenter),
                           InlineAttachment(width: 24, extent: .height(24), alignment: .fontBottom),
                           InlineAttachment(width: 16, extent: .metrics(ascent: 12, descent: 4)),
                           InlineAttachment(width: 30, extent: .height(44), alignment: .lineMiddle)]),
        Case(name: "bidi", text: "مرحبا \(box) بالعالم \(box) and English \(box)", width: 300, direction: .rightToLeft,
             attachments: Array(repeating: InlineAttachment(width: 20, extent: .height(20), alignment: .fontCenter), count: 3)),
        Case(name: "justified-and-cut", text: "A sticker \(box) in a justified paragraph that runs over lines \(box) until it is cut",
             width: 200, alignment: .justified, maxLines: 2,
             attachments: [InlineAttachment(width: 28, extent: .height(28), alignment: .fontBottom),
                           InlineAttachment(width: 28, extent: .height(28))]),
    ]

    static func dump(_ layout: ParagraphLayout, _ fonts: FontRegistry) -> String {
        func f(_ value: Double) -> String { String(format: "%.2f", value) }
        var out: [String] = []
        for (index, line) in layout.lines.enumerated() {
            out.append("line \(index) [\(line.range.lowerBound),\(line.range.upperBound)) baseline \(f(line.baselineOrigin.y)) "
                       + "x \(f(line.baselineOrigin.x)) width \(f(line.width)) ascent \(f(line.ascent)) descent \(f(line.descent))"
                       + (line.truncated ? " truncated" : ""))
            var items: [(x: Double, text: String)] = []
            for run in layout.runs where run.lineIndex == index {
                let first = run.glyphs.first.map(\.position.x) ?? 0
                let end = run.glyphs.last.map { $0.position.x + $0.advance } ?? first
                let family = fonts.font(id: run.fontID).map(\.family) ?? "?"
                items.append((first, "  run \(family) \(f(run.size)) level \(run.bidiLevel) [\(run.range.lowerBound),\(run.range.upperBound)) "
                              + "\(run.glyphs.count) glyphs x \(f(first))...\(f(end))" + (run.isTruncationToken ? " token" : "")))
            }
            for box in layout.attachments where box.lineIndex == index {
                items.append((box.rect.x, "  box #\(box.index) level \(box.bidiLevel) [\(box.range.lowerBound),\(box.range.upperBound)) "
                              + "rect \(f(box.rect.x)) \(f(box.rect.y)) \(f(box.rect.width)) \(f(box.rect.height)) "
                              + "ascent \(f(box.ascent)) descent \(f(box.descent))"))
            }
            out += items.sorted { $0.x < $1.x }.map(\.text)
        }
        out.append("size \(f(layout.size.width)) x \(f(layout.size.height)) visible [\(layout.visibleRange.lowerBound),\(layout.visibleRange.upperBound))")
        return out.joined(separator: "\n") + "\n"
    }

    @Test(arguments: cases)
    func layoutMatchesItsDump(_ item: Case) throws {
        let layout = try Fixtures.layout(item.text, width: item.width, size: item.size) {
            $0.alignment = item.alignment
            $0.direction = item.direction
            $0.maxLines = item.maxLines
            $0.attachments = item.attachments
        }
        let dumped = Self.dump(layout, Fixtures.registry)
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("LayoutDumps/\(item.name).txt")
        if ProcessInfo.processInfo.environment["LAYOUTD_UPDATE_DUMPS"] == "1" {
            try dumped.write(to: url, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(dumped == expected, "\(item.name) changed:\n\(dumped)")
    }
}
