import Testing
@testable import LayoutEngine
import LayoutUnicode

@Suite struct TypeModeTests {
    static let width = 300.0
    static let minSize = 14.0
    static let maxSize = 96.0

    static func justify(_ text: String, sizing: TypeModeSizing = .perLine,
                        configure: (inout TypeModeRequest) -> Void = { _ in }) throws -> TypeModeLayout {
        var request = TypeModeRequest(text: text, style: TextStyle(family: "Noto Sans"), width: width,
                                      minSize: minSize, maxSize: maxSize, sizing: sizing)
        configure(&request)
        return try Fixtures.layouter.justify(request)
    }

    /// The largest size at which line `index` fits the width, by bisection over real layouts
    /// of that line's text alone, each run pinned (as a style span) to the face the paragraph
    /// chose for it: fallback sees the paragraph's context, shaping sees only the line's, as
    /// the laid-out line does.
    static func bruteForceSize(_ text: String, line index: Int, of layout: ParagraphLayout, contentEnd: Int) throws -> Double {
        let units = Array(text.utf16)
        let start = layout.lines[index].range.lowerBound
        let lineText = String(decoding: units[start..<contentEnd], as: UTF16.self)
        let spans = layout.runs.filter { $0.lineIndex == index && !$0.isTruncationToken }.compactMap { run -> AttributedText.Span? in
            let font = Fixtures.registry.font(id: run.fontID)!
            let range = max(run.range.lowerBound, start)..<min(run.range.upperBound, contentEnd)
            guard !range.isEmpty else { return nil }
            return AttributedText.Span(range: (range.lowerBound - start)..<(range.upperBound - start),
                                       patch: StylePatch(family: font.family, weight: font.weight, italic: font.italic))
        }
        func width(at size: Double) throws -> Double {
            let request = ParagraphRequest(text: AttributedText(lineText, style: TextStyle(family: "Noto Sans", size: size), spans: spans),
                                           width: Bounds.maxLength)
            return try Fixtures.layouter.layout(request).lines.first?.width ?? 0
        }
        if try width(at: maxSize) <= Self.width { return maxSize }
        var low = minSize
        var high = maxSize
        while high - low > 0.001 {
            let mid = (low + high) / 2
            if try width(at: mid) <= Self.width { low = mid } else { high = mid }
        }
        return low
    }

    @Test func unitsGivenWithTheTextAreUsedAndNewTextDropsThem() throws {
        var request = TypeModeRequest(text: "Units made before", style: TextStyle(family: "Noto Sans"), width: 300)
        request.units = AttributedText.utf16(request.text)
        let given = try Fixtures.layouter.justify(request)
        request.text = "Another text, longer than the one the units were made from"
        #expect(request.units == nil)
        let retyped = try Fixtures.layouter.justify(request)
        #expect(given.paragraph.visibleRange == 0..<17)
        #expect(retyped.paragraph.visibleRange == 0..<request.text.utf16.count)
    }

    @Test func emphasizedWordsOnTheirOwnLineComeOutLarge() throws {
        let layout = try Self.justify("so\nHAPPY\nto see you all here tonight")
        #expect(layout.paragraph.lines.count >= 3)
        #expect(layout.lineSizes[1] > layout.lineSizes[2])
        #expect(layout.lineSizes[0] == Self.maxSize)  // "so" is short: clamped at the maximum
        for (line, size) in zip(layout.paragraph.lines, layout.lineSizes) where size < Self.maxSize {
            #expect(abs(line.width - Self.width) < 0.01)
        }
        // Lines stack: each baseline is below the previous one.
        let baselines = layout.paragraph.lines.map(\.baselineOrigin.y)
        #expect(baselines == baselines.sorted())
    }

    @Test func lastLineCanStayUnscaled() throws {
        let layout = try Self.justify("a caption that wraps over more than one line in the end") { $0.lastLineUnscaled = true }
        #expect(layout.lineSizes.last == Self.minSize)
        #expect(layout.lineSizes.dropLast().allSatisfy { $0 > Self.minSize })
    }

    @Test func narrowLinesFollowTheAlignment() throws {
        let layout = try Self.justify("hi") { $0.alignment = .center }
        let line = layout.paragraph.lines[0]
        #expect(layout.lineSizes[0] == Self.maxSize)
        #expect(abs(line.usedRect.x - (Self.width - line.width) / 2) < 1e-6)
    }

    @Test func maxHeightScalesTheBlockDown() throws {
        let free = try Self.justify("one\ntwo\nthree\nfour")
        let capped = try Self.justify("one\ntwo\nthree\nfour") { $0.maxHeight = free.paragraph.size.height / 2 }
        #expect(capped.paragraph.size.height <= free.paragraph.size.height / 2 + 1e-6)
        for (a, b) in zip(free.lineSizes, capped.lineSizes) { #expect(abs(b - a / 2) < 1e-6) }
    }

    @Test func uniformPicksOneSizeThatWrapsWithoutBreakingWords() throws {
        let text = "Uniform sizing finds one size for the whole block"
        let layout = try Self.justify(text, sizing: .uniform)
        #expect(Set(layout.lineSizes).count == 1)
        let size = layout.lineSizes[0]
        #expect(size > Self.minSize && size < Self.maxSize)
        // The longest word just fits at that size, and would not at a slightly larger one.
        let word = try Fixtures.layout("sizing", width: Bounds.maxLength, size: size + 0.02).lines[0].width
        #expect(layout.paragraph.lines.allSatisfy { $0.width <= Self.width + 1e-6 })
        #expect(word > Self.width || layout.paragraph.lines.count > 1)
        let capped = try Self.justify(text, sizing: .uniform) { $0.maxHeight = 80 }
        #expect(capped.paragraph.size.height <= 80 + 1e-6)
        #expect(capped.lineSizes[0] < size)
    }

    @Test func badRequestsAreRefused() {
        #expect(throws: LayoutError.self) { try Self.justify("x") { $0.minSize = 30; $0.maxSize = 20 } }
        #expect(throws: LayoutError.self) { try Self.justify("x") { $0.minSize = 0 } }
        #expect(throws: LayoutError.self) { try Self.justify("x") { $0.width = -1 } }
        #expect(throws: LayoutError.self) { try Self.justify("x") { $0.alignment = .justified } }
    }

    @Test(.enabled(if: Fixtures.corpus != nil, "../shared/corpus/captions.jsonl is not beside this clone"))
    func everyCorpusCaptionFitsPerLine() throws {
        #expect(try Self.fitsPerLine(try #require(Fixtures.corpus)) > 3000)
    }

    @Test func ownCaptionsFitPerLine() throws {
        #expect(try Self.fitsPerLine(Fixtures.ownCaptions) > 30)
    }

    /// Checks every line of `captions` fitted per line; returns how many were held to a brute-force size.
    static func fitsPerLine(_ captions: [Fixtures.Caption]) throws -> Int {
        var bruteForceChecked = 0
        for caption in captions {
            let layout = try Self.justify(caption.text)
            let text = AttributedText(caption.text, style: TextStyle())
            let analysis = TextAnalysis.analyze(text, direction: .auto, unicode: SystemUnicode.shared)
            let units = Array(caption.text.utf16)
            for (lineIndex, line) in layout.paragraph.lines.enumerated() {
                let size = layout.lineSizes[lineIndex]
                #expect(line.width <= Self.width + 1e-6, "\(caption.id) line \(lineIndex) is too wide")
                if size < Self.maxSize && !layout.clamped[lineIndex] {
                    #expect(abs(line.width - Self.width) < 0.01, "\(caption.id) line \(lineIndex) does not fill")
                }
                let end = line.range.upperBound
                guard end < units.count else { continue }
                #expect(analysis.flags[end].contains(.graphemeStart), "\(caption.id) breaks inside a cluster")
                if !analysis.flags[end].contains(.breakBefore) {
                    // Only a word too wide for the line at the minimum size may be broken.
                    let inside = (line.range.lowerBound + 1..<end).contains { analysis.flags[$0].contains(.breakBefore) }
                    #expect(!inside, "\(caption.id) breaks inside a word that would fit")
                }
            }
            // Brute force: each line's size is the largest at which its text fits the width.
            for (lineIndex, line) in layout.paragraph.lines.enumerated() {
                var contentEnd = line.range.upperBound
                while contentEnd > line.range.lowerBound && [0x20, 0x0A].contains(units[contentEnd - 1]) { contentEnd -= 1 }
                guard contentEnd > line.range.lowerBound, !layout.clamped[lineIndex] else { continue }
                let expected = try Self.bruteForceSize(caption.text, line: lineIndex, of: layout.paragraph, contentEnd: contentEnd)
                #expect(abs(expected - layout.lineSizes[lineIndex]) < 0.01,
                        "\(caption.id) line \(lineIndex): \(layout.lineSizes[lineIndex]) vs \(expected)")
                bruteForceChecked += 1
            }
        }
        return bruteForceChecked
    }

    @Test func manualBreaksAreKept() throws {
        let text = "first line\nsecond\n\nfourth after an empty one"
        let layout = try Self.justify(text)
        let texts = Fixtures.lineTexts(layout.paragraph, text)
        #expect(texts.filter { $0.hasSuffix("\n") }.count == 3)
        #expect(texts.contains("\n"))
        #expect(layout.lineSizes[texts.firstIndex(of: "\n")!] == Self.minSize)
    }

    /// The Instagram article sizes Modern, Neon and Strong line by line.
    @Test func neonSizesEachLine() throws {
        for name in ["modern", "neon", "strong"] { #expect(TypeModePreset.named(name)?.sizing == .perLine, "\(name)") }
        let neon = try #require(TypeModePreset.named("neon"))
        let layout = try Self.justify("Neon\nlights all night long") {
            $0.style = neon.style
            $0.minSize = neon.minSize
            $0.maxSize = neon.maxSize
            $0.sizing = neon.sizing
        }
        #expect(layout.lineSizes.count == 2 && layout.lineSizes[0] > layout.lineSizes[1] + 10, "\(layout.lineSizes)")
    }

    /// Whole-point sizes: each line at the largest whole size that fits, as Android's search gives.
    @Test func wholePointSizesRoundDown() throws {
        let text = "so\nHAPPY\nto see you all here today"
        let exact = try Self.justify(text)
        let whole = try Self.justify(text) { $0.wholePointSizes = true }
        #expect(whole.lineSizes.count == exact.lineSizes.count)
        for (w, e) in zip(whole.lineSizes, exact.lineSizes) {
            #expect(w == w.rounded() && w <= e && e - w < 1, "\(w) from \(e)")
        }
        #expect(whole.paragraph.lines.allSatisfy { $0.width <= Self.width + 1e-6 })
        #expect(whole.clamped == exact.clamped)
        #expect(exact.clamped.first == true, "\"so\" would fill the width far past 96 pt")
    }
}
