import Foundation
import Testing
@testable import LayoutEngine
import LayoutRender

/// Ruby drawn: the reading's ink stands in a band above the base's ink, no wider than the
/// spaced base, and nothing is drawn above the base where no reading is.
@Suite struct RubyRenderTests {
    /// 日本 with に over 日, at 80 points on a white canvas, and the same without ruby.
    static func picture(ruby: Bool) throws -> (pixels: (width: Int, height: Int, data: [UInt32]), layout: ParagraphLayout) {
        let text = AttributedText("日本", style: TextStyle(family: "Noto Sans CJK JP", size: 80))
        let layout = try Fixtures.layouter.layout(ParagraphRequest(text: ruby ? text.withRuby([RubyAnnotation(base: 0..<1, reading: "に")]) : text,
                                                                   width: 1000))
        let scene = RenderScene(size: Size(width: layout.size.width + 40, height: layout.size.height + 20),
                                canvas: Color(red: 1, green: 1, blue: 1), origin: Point(x: 20, y: 10), backgrounds: [],
                                runs: layout.runs + layout.rubyRuns, textColor: Color(red: 0, green: 0, blue: 0))
        let png = try RenderTests.renderer.render(scene, format: .png, scale: 1)
        return (try #require(RenderTests.pixels(png)), layout)
    }

    /// The box of dark pixels among columns `columns` (nil: none).
    static func ink(_ pixels: (width: Int, height: Int, data: [UInt32]), columns: Range<Int>, rows: Range<Int>)
        -> (top: Int, bottom: Int, left: Int, right: Int)? {
        var box: (top: Int, bottom: Int, left: Int, right: Int)?
        for y in rows where y >= 0 && y < pixels.height {
            for x in columns where x >= 0 && x < pixels.width && pixels.data[y * pixels.width + x] & 0xFF < 128 {
                box = (min(box?.top ?? y, y), max(box?.bottom ?? y, y), min(box?.left ?? x, x), max(box?.right ?? x, x))
            }
        }
        return box
    }

    @Test func theReadingIsDrawnOverItsBaseAndNowhereElse() throws {
        let (pixels, layout) = try Self.picture(ruby: true)
        let baseline = 10 + Int(saturating: layout.lines[0].baselineOrigin.y)
        // 日 stands in the 80 columns after x = 20, 本 in the next 80.
        let base = try #require(Self.ink(pixels, columns: 20..<100, rows: 0..<pixels.height))
        let kanji = try #require(Self.ink(pixels, columns: 20..<100, rows: (baseline - 80)..<(baseline + 20)))
        // Above the ideograph's ink: the reading's, about half its height, centred on it.
        let reading = try #require(Self.ink(pixels, columns: 20..<100, rows: 0..<(kanji.top - 1)))
        #expect(base.top == reading.top)
        #expect(reading.bottom < kanji.top && kanji.top - reading.bottom < 16, "the frames touch: a gap of \(kanji.top - reading.bottom) px")
        #expect(Double(reading.bottom - reading.top) > 0.25 * 80 && Double(reading.bottom - reading.top) < 0.55 * 80)
        let readingMiddle = Double(reading.left + reading.right) / 2, kanjiMiddle = Double(kanji.left + kanji.right) / 2
        #expect(abs(readingMiddle - kanjiMiddle) < 4, "centred: \(readingMiddle) over \(kanjiMiddle)")
        // Nothing above 本.
        #expect(Self.ink(pixels, columns: 100..<180, rows: 0..<(kanji.top - 1)) == nil)
        // Without ruby, nothing stands above the ideographs.
        let (plain, plainLayout) = try Self.picture(ruby: false)
        let plainBaseline = 10 + Int(saturating: plainLayout.lines[0].baselineOrigin.y)
        #expect(Self.ink(plain, columns: 0..<plain.width, rows: 0..<(plainBaseline - 80)) == nil)
    }
}
