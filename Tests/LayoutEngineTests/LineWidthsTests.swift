import Synchronization
import Testing
@testable import LayoutEngine

/// The engine's stages driven directly, as minikin tests its breaker with a rectangle width:
/// the shaped paragraph, the breaker with widths that vary per line, and the positioner with a
/// provider that depends on each line's top (what exclusion paths and shaped containers are).
@Suite struct LineWidthsTests {
    static let text = "Breaking with a width per line is what flowing text stands on: a column that narrows "
        + "beside a picture, a circle, a speech bubble. Each line must fit its own slot, and take as much as fits."

    static func shaped(_ text: String, size: Double = 17, context: LayoutContext) throws -> ShapedParagraph {
        try ShapedParagraph(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: size)), direction: .auto,
                            fonts: Fixtures.registry, context: context)
    }

    static func shapedText(_ text: String, size: Double = 17, context: LayoutContext) throws -> ShapedText {
        try Fixtures.layouter.shape(AttributedText(text, style: TextStyle(family: "Noto Sans", size: size)),
                                    direction: .auto, context: context)
    }

    /// Widths by line index, cycling.
    struct Cycling: LineWidths {
        let widths: [Double]
        func slot(line: Int, top: Double) -> LineSlot { LineSlot(start: 0, width: widths[line % widths.count]) }
        var dependsOnTop: Bool { false }
    }

    /// A band of the container, from `bandTop` to `bandBottom`, is narrowed from the left by
    /// `inset`, as text beside a picture is; it records every top it is asked about.
    final class Band: LineWidths, @unchecked Sendable {
        let width: Double, inset: Double, bandTop: Double, bandBottom: Double
        var asked: [Double] = []
        init(width: Double, inset: Double, bandTop: Double, bandBottom: Double) {
            (self.width, self.inset, self.bandTop, self.bandBottom) = (width, inset, bandTop, bandBottom)
        }
        func inBand(_ top: Double) -> Bool { top >= bandTop && top < bandBottom }
        func slot(line: Int, top: Double) -> LineSlot {
            asked.append(top)
            return inBand(top) ? LineSlot(start: inset, width: width - inset) : LineSlot(start: 0, width: width)
        }
        var dependsOnTop: Bool { true }
    }

    @Test func aShapedParagraphMeasuresWhatItShaped() throws {
        let context = LayoutContext(layouter: Fixtures.layouter)
        let text = "Tab\there, مرحبا بالعالم, 👋🏽 done"
        let shaped = try Self.shaped(text, context: context)
        let count = shaped.text.units.count
        // Items cover the text without gaps, each shaped into its run.
        #expect(shaped.items.first?.range.lowerBound == 0 && shaped.items.last?.range.upperBound == count)
        for (item, next) in zip(shaped.items, shaped.items.dropFirst()) { #expect(item.range.upperBound == next.range.lowerBound) }
        #expect(shaped.runs.map(\.range) == shaped.items.map(\.range))
        #expect(shaped.items.contains { $0.isRTL } && shaped.items.contains { !$0.isRTL })
        // HarfBuzz sees the tab as a space; the text keeps it.
        let tab = Array(text.utf16).firstIndex(of: 9)!
        #expect(shaped.shapingUnits[tab] == 0x20 && shaped.text.units[tab] == 9)
        // The prefix widths sum the runs' advances at the style's size.
        var total = 0.0
        for (item, run) in zip(shaped.items, shaped.runs) {
            total += run.glyphs.slice.reduce(0.0) { $0 + Double($1.advance) } * item.font.scale(for: 17)
        }
        #expect(abs(shaped.prefix[count] - total) < 1e-6)
        #expect(zip(shaped.prefix, shaped.prefix.dropFirst()).allSatisfy { $0 <= $1 })
        context.recycle(shaped)
    }

    @Test func theBreakerFitsEachLineToItsOwnWidth() throws {
        let context = LayoutContext(layouter: Fixtures.layouter)
        let shaped = try Self.shaped(Self.text, context: context)
        let count = shaped.text.units.count
        let breaker = LineBreaker(flags: shaped.analysis.flags, prefix: shaped.prefix)
        let widths = Cycling(widths: [80, 260, 140, 400])
        var lines: [BrokenLine] = []
        breaker.breakLines(in: 0..<count, widths: widths, into: &lines)
        #expect(lines.count > 4)
        #expect(lines.first?.range.lowerBound == 0 && lines.last?.range.upperBound == count)
        for (index, line) in lines.enumerated() {
            let width = widths.widths[index % 4]
            #expect(line.slot.width == width)
            let content = shaped.prefix[line.contentEnd] - shaped.prefix[line.range.lowerBound]
            #expect(content <= width + LineBreaker.tolerance, "line \(index) is \(content) wide in \(width)")
            // Greedy: the next line's first word would not have fitted on this one.
            if index + 1 < lines.count {
                let next = lines[index + 1]
                let nextWordEnd = shaped.analysis.flags.contentEnd(
                    (next.range.lowerBound + 1...count).first { $0 == count || shaped.analysis.flags[$0].contains(.breakBefore) }!,
                    from: next.range.lowerBound)
                #expect(shaped.prefix[nextWordEnd] - shaped.prefix[line.range.lowerBound] > width, "line \(index) could take more")
            }
        }
        // The same text at one width breaks differently: the widths were really used.
        var fixed: [BrokenLine] = []
        breaker.breakLines(in: 0..<count, widths: FixedWidth(width: 80), into: &fixed)
        #expect(fixed.map(\.range) != lines.map(\.range))
        context.recycle(shaped)
    }

    @Test func thePositionerAsksEachLineItsRealTop() throws {
        let context = LayoutContext(layouter: Fixtures.layouter)
        // Two paragraphs: the provider's questions go on across the paragraph separator.
        var shaped = try Self.shapedText(Self.text + "\n" + Self.text, context: context)
        #expect(shaped.paragraphs.count == 2)
        let request = ParagraphRequest(text: shaped.text, width: 300)
        let band = Band(width: 300, inset: 120, bandTop: 40, bandBottom: 110)
        let layout = try TextPositioner(shaped: shaped, request: request, context: context).run(widths: band)
        // One question per line, at the top where the line was then placed.
        #expect(band.asked == layout.lines.map(\.usedRect.y))
        #expect(band.asked.count > 5 && Set(band.asked).count == band.asked.count, "tops \(band.asked)")
        var narrowed = 0
        for line in layout.lines {
            if band.inBand(line.usedRect.y) {
                narrowed += 1
                #expect(line.baselineOrigin.x >= 120 - 1e-9)
                #expect(line.width <= 180 + LineBreaker.tolerance)
            } else {
                #expect(line.baselineOrigin.x == 0)
            }
            // Glyphs sit in their line's slot.
            let start = band.inBand(line.usedRect.y) ? 120.0 : 0
            for run in layout.runs where run.range.overlaps(line.range) {
                for glyph in run.glyphs { #expect(glyph.position.x >= start - 1e-9) }
            }
        }
        #expect(narrowed >= 2, "the band held \(narrowed) lines")
        shaped.recycle(into: context)
    }

    @Test func positioningStopsBreakingPastTheLastShownLine() throws {
        let context = LayoutContext(layouter: Fixtures.layouter)
        let long = String(repeating: Self.text + " ", count: 50)
        var shaped = try Self.shapedText(long, context: context)
        var request = ParagraphRequest(text: shaped.text, width: 300)
        request.maxLines = 3
        let band = Band(width: 300, inset: 0, bandTop: 0, bandBottom: 0)
        let layout = try TextPositioner(shaped: shaped, request: request, context: context).run(widths: band)
        #expect(layout.lines.count == 3 && layout.lines[2].truncated)
        // Three lines shown and one more to know the third is truncated: not the whole text's.
        #expect(band.asked.count == 4)
        shaped.recycle(into: context)
    }
}
