import Testing
@testable import LayoutEngine

/// How positioning cuts a line's glyphs into runs: one run per font, size and level that
/// continue each other, every run a slice of one array.
@Suite struct GlyphRunTests {
    @Test func aLatinLineIsOneRunWithItsTrailingSpace() throws {
        let text = "The quick brown fox jumps over the lazy dog and keeps running far away"
        let layout = try Fixtures.layout(text, width: 200)
        #expect(layout.lines.count > 2)
        #expect(layout.runs.count == layout.lines.count)
        for (index, line) in layout.lines.enumerated() {
            let run = layout.runs[index]
            #expect(run.lineIndex == index)
            #expect(run.range == line.range)
            // The hanging space is drawn in the same run, after the content.
            #expect(run.clusters.first == line.range.lowerBound)
            #expect(run.clusters == run.clusters.sorted())
        }
    }

    @Test func anArabicLineIsOneRunReadRightToLeft() throws {
        let text = "مرحبا بالعالم هذا نص طويل يكفي لعدة أسطر في الفقرة الواحدة هنا"
        let layout = try Fixtures.layout(text, width: 150)
        #expect(layout.lines.count > 2)
        #expect(layout.runs.count == layout.lines.count)
        for (line, run) in zip(layout.lines, layout.runs) {
            #expect(run.range == line.range)
            #expect(run.clusters == run.clusters.sorted(by: >))
        }
    }

    @Test func differentFontsAndLevelsStaySeparate() throws {
        let text = "abc \u{05E9}\u{05DC}\u{05D5}\u{05DD} def 😀 ghi"
        // Noto Sans maps neither Hebrew nor the emoji (DejaVu Sans maps both, and a family that
        // maps an emoji draws it, as CSS has it): Latin, Hebrew, Latin, emoji, Latin.
        let layout = try Fixtures.layout(text, width: 1000, family: "Noto Sans")
        // No two neighbours share font and level.
        for (a, b) in zip(layout.runs, layout.runs.dropFirst()) {
            #expect(a.fontID != b.fontID || a.bidiLevel != b.bidiLevel)
        }
        #expect(layout.runs.count == 5)
    }

    @Test func runsSliceOneArrayInOrder() throws {
        let layout = try Fixtures.layout("One two three four five six seven eight nine ten", width: 120)
        var next = layout.runs.first?.glyphs.startIndex ?? 0
        for run in layout.runs {
            // Slices keep their parent's indices: each run starts where the last one ended.
            #expect(run.glyphs.startIndex == next)
            next = run.glyphs.endIndex
        }
    }

    @Test func linesWithoutGlyphsLayOut() throws {
        for text in ["\n", "\n\n\n", "\r\n", "\u{2029}", "\u{200B}"] {
            let layout = try Fixtures.layout(text)
            #expect(!layout.lines.isEmpty, "\(text.unicodeScalars.map(\.value))")
            #expect(layout.runs.allSatisfy { $0.glyphs.count <= 1 })
        }
    }
}
