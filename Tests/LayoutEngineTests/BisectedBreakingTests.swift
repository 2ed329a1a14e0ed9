import Testing
@testable import LayoutEngine

/// The greedy breaker's bisection (`LineBreaker.bisects`) must give the lines its walk over
/// every unit gives, and be taken only where its two conditions hold.
@Suite struct BisectedBreakingTests {
    static let widths: [Double] = [0, 1, 14, 40, 97.5, 120, 180, 300, 1_000]

    /// Lines of the whole paragraph at `width`, walked or bisected.
    static func lines(_ shaped: ShapedParagraph, width: Double, bisects: Bool) -> [BrokenLine] {
        LineBreaker(flags: shaped.analysis.flags, prefix: shaped.prefix, bisects: bisects)
            .breakLines(in: 0..<shaped.text.units.count, width: width)
    }

    static func shaped(_ text: String, letterSpacing: Double = 0, context: LayoutContext) throws -> ShapedParagraph {
        try ShapedParagraph(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 17, letterSpacing: letterSpacing)),
                            direction: .auto, fonts: Fixtures.registry, context: context)
    }

    static let texts = [
        "The quick brown fox jumps over the lazy dog and keeps on running far away",
        "spaces   between    words      hang     at       line ends",
        "Antidisestablishmentarianism is long; so is pneumonoultramicroscopicsilicovolcanoconiosis.",
        "مرحبا بالعالم، هذا نص عربي طويل بما يكفي ليلتف على عدة أسطر",
        "中文文本没有空格但是每个字之间都可以换行，标点符号除外。",
        "emoji 👩‍👩‍👧‍👦 clusters 🇫🇷 and flags stay whole 🙂🙂🙂",
        "x",
        " leading space and trailing space ",
        // A paragraph ending with its separator, as each of a document's does: it bisects too.
        "a paragraph of a document, which ends with its own separator\n",
        "another that ends with a carriage return and a line feed\r\n",
        "and one that ends with a paragraph separator\u{2029}",
    ]

    @Test func bisectionGivesTheWalksLines() throws {
        let context = LayoutContext(layouter: Fixtures.layouter)
        for text in Self.texts {
            let shaped = try Self.shaped(text, context: context)
            #expect(shaped.prefixRises)
            for width in Self.widths {
                let walked = Self.lines(shaped, width: width, bisects: false)
                #expect(Self.lines(shaped, width: width, bisects: true) == walked, "\(text) at \(width)")
            }
        }
    }

    @Test(.enabled(if: Fixtures.corpus != nil, "no ../shared/corpus beside the repository"))
    func bisectionGivesTheWalksLinesOnTheCorpus() throws {
        let (compared, asParagraphs) = try Self.compareBisection(Fixtures.corpus ?? [])
        #expect(compared > 3 * 3_000 && asParagraphs > 1_500)
    }

    @Test func bisectionGivesTheWalksLinesOnOwnCaptions() throws {
        let (compared, asParagraphs) = try Self.compareBisection(Fixtures.ownCaptions)
        #expect(compared > 3 * 30 && asParagraphs > 15)
    }

    /// Holds bisected lines equal to walked ones over `captions`; returns how many layouts were
    /// compared, and how many texts were document paragraphs.
    static func compareBisection(_ captions: [Fixtures.Caption]) throws -> (Int, Int) {
        let context = LayoutContext(layouter: Fixtures.layouter)
        var compared = 0
        // Each caption as it is, and as a document's paragraph: on one line, ending with "\n".
        let texts = captions.flatMap { [($0.id, $0.text), ($0.id, $0.text.replacingOccurrences(of: "\n", with: " ") + "\n")] }
        var asParagraphs = 0
        for (id, text) in texts {
            let shaped = try Self.shaped(text, context: context)
            guard shaped.prefixRises && (!shaped.analysis.hasHardBreaks || shaped.analysis.hardBreaksEndParagraphs),
                  shaped.analysis.paragraphs.count == 1 else { continue }
            if shaped.analysis.hasHardBreaks { asParagraphs += 1 }
            for width in [40.0, 120, 300] {
                #expect(Self.lines(shaped, width: width, bisects: true) == Self.lines(shaped, width: width, bisects: false),
                        "caption \(id) at \(width)")
                compared += 1
            }
        }
        return (compared, asParagraphs)
    }

    @Test func theBreakerBisectsOnlyWhereItMay() throws {
        let context = LayoutContext(layouter: Fixtures.layouter)
        func bisects(_ text: String, letterSpacing: Double = 0) throws -> Bool {
            let request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 17,
                                                                                      letterSpacing: letterSpacing)), width: 100)
            let shaped = try Fixtures.layouter.shape(request.text, direction: .auto, context: context)
            let positioner = TextPositioner(shaped: shaped, request: request, context: context)
            return positioner.paragraph(0).breaker().bisects
        }
        #expect(try bisects("plain words in a row"))
        // A mandatory break: the walk stops there, wherever the width is.
        #expect(try !bisects("one line\u{2028}and the next"))
        #expect(try !bisects("a form feed\u{0C}inside"))
        // A paragraph's own separator at its end: no mandatory break before it.
        #expect(try bisects("a paragraph that ends with its separator\n"))
        #expect(try bisects("one that ends with CR LF\r\n"))
        #expect(try bisects("and one that ends\u{2029}"))
        // Negative spacing pulls units back: the prefix falls, bisection could miss the overflow.
        #expect(try !bisects("tight letters", letterSpacing: -12))
        let tight = try Self.shaped("tight letters spaced to overlap", letterSpacing: -12, context: context)
        #expect(!tight.prefixRises)
    }

    /// Type Mode's uniform fit breaks prefixes scaled down from the largest size; where it
    /// bisects them, the lines are the walk's.
    @Test func scaledPrefixesBisectAsTheyWalk() throws {
        let context = LayoutContext(layouter: Fixtures.layouter)
        for spacing in [0.0, 2, -1] {
            for text in Self.texts {
                let request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: 40,
                                                                                          letterSpacing: spacing)), width: 200)
                let shaped = try Fixtures.layouter.shape(request.text, direction: .auto, context: context)
                let paragraph = TextPositioner(shaped: shaped, request: request, context: context).paragraph(0)
                for factor in [0.25, 0.6, 1.0, 1.5] {
                    let bisects = paragraph.bisects(scaledBy: factor)
                    #expect(bisects == (spacing == 0 || (spacing > 0 && factor <= 1)), "\(spacing) \(factor)")
                    guard bisects else { continue }
                    let prefix = paragraph.scaledPrefix(factor)
                    for width in Self.widths {
                        let count = paragraph.text.units.count
                        let walked = LineBreaker(flags: paragraph.analysis.flags, prefix: prefix).breakLines(in: 0..<count, width: width)
                        let bisected = LineBreaker(flags: paragraph.analysis.flags, prefix: prefix, bisects: true)
                            .breakLines(in: 0..<count, width: width)
                        #expect(bisected == walked, "\(text) spacing \(spacing) factor \(factor) width \(width)")
                    }
                }
            }
        }
    }
}
