import Testing
@testable import LayoutEngine

/// Auto-size against brute force: the applied size is the largest, to 0.01 pt, at which the
/// text fits, found by stepping down a hundredth of a point at a time.
@Suite struct AutoSizeTests {
    static func request(_ text: String, width: Double, height: Double? = nil, maxLines: Int? = nil, size: Double = 30,
                        fit: AutoSize? = AutoSize()) -> ParagraphRequest {
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: size)), width: width,
                                       height: height, maxLines: maxLines)
        request.autoSize = fit
        return request
    }

    static func fits(_ layout: ParagraphLayout, width: Double) -> Bool {
        layout.overflowRange.isEmpty && layout.lines.allSatisfy { !$0.truncated && $0.width <= width + 1e-6 }
    }

    /// The largest size from `size` down, in hundredths of a point, at which the text fits.
    static func bruteForce(_ text: String, width: Double, height: Double?, maxLines: Int?, size: Double) throws -> Double {
        var hundredths = Int(saturating: (size * 100).rounded())
        while hundredths > 0 {
            let candidate = Double(hundredths) / 100
            let layout = try Fixtures.layouter.layout(request(text, width: width, height: height, maxLines: maxLines, size: candidate,
                                                              fit: nil))
            if fits(layout, width: width) { return candidate }
            hundredths -= 1
        }
        return 0
    }

    @Test(arguments: [
        ("A caption that must shrink to one line", 320.0, nil as Double?, 1 as Int?),
        ("A longer caption of several words that wraps onto three lines in this box", 200, 90, nil),
        ("مرحبا بالعالم، نص يصغر ليتسع في الصندوق", 180, 70, nil),
    ])
    func matchesBruteForceToAHundredthOfAPoint(_ text: String, _ width: Double, _ height: Double?, _ maxLines: Int?) throws {
        let fitted = try Fixtures.layouter.layout(Self.request(text, width: width, height: height, maxLines: maxLines))
        let scale = try #require(fitted.appliedScale)
        #expect(scale < 1 && scale >= 0.5)
        #expect(Self.fits(fitted, width: width))
        let expected = try Self.bruteForce(text, width: width, height: height, maxLines: maxLines, size: 30)
        #expect(abs(scale * 30 - expected) <= 0.01 + 1e-9, "auto-size \(scale * 30) pt, brute force \(expected) pt")
    }

    @Test func textThatFitsKeepsItsSizeAndSteppedSizesAreWholeSteps() throws {
        let fitting = try Fixtures.layouter.layout(Self.request("Short", width: 300, maxLines: 1))
        #expect(fitting.appliedScale == 1)
        let stepped = try Fixtures.layouter.layout(Self.request("A caption that must shrink to one line", width: 240, maxLines: 1,
                                                                fit: AutoSize(minScale: 0.3, step: 2)))
        let size = try #require(stepped.appliedScale) * 30
        #expect(abs(size - (size / 2).rounded() * 2) < 1e-6, "\(size) is not a whole number of 2-pt steps")
        let runSize = try #require(stepped.runs.first?.size)
        #expect(abs(runSize - size) < 1e-6)
    }

    @Test func tooMuchTextStopsAtTheMinimumScaleAndIsCut() throws {
        let long = String(repeating: "many words ", count: 60)
        let layout = try Fixtures.layouter.layout(Self.request(long, width: 200, height: 60, fit: AutoSize(minScale: 0.6)))
        #expect(layout.appliedScale == 0.6)
        #expect(!layout.overflowRange.isEmpty)
    }

    @Test func autoSizeNeedsABoxAndSaneValues() throws {
        for (fit, height, field) in [(AutoSize(), nil as Double?, "auto_size"), (AutoSize(minScale: 0), 50, "auto_size.min_scale"),
                                     (AutoSize(minScale: 0.5, step: -1), 50, "auto_size.step")] {
            do {
                _ = try Fixtures.layouter.layout(Self.request("x", width: 100, height: height, fit: fit))
                Issue.record("not refused: \(field)")
            } catch let error as LayoutError {
                #expect(error.field == field)
            }
        }
    }
}
