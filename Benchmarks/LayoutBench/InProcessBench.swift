import CHarfBuzz
import Foundation
import LayoutEngine

/// In-process figures on one thread: the HarfBuzz floor, and the whole pipeline with no cache,
/// from an empty cache, and warm, interleaved pass by pass so noise hits them alike.
struct InProcessBench {
    let captions: [Caption]
    let options: BenchOptions
    let registry: FontRegistry
    let floorFonts: FloorFonts

    init(captions: [Caption], options: BenchOptions) throws {
        self.captions = captions
        self.options = options
        registry = try FontRegistry.load(paths: DefaultFonts.paths)
        floorFonts = try FloorFonts()
    }

    func run() throws -> [Section] {
        let requests = captions.map { caption in
            ParagraphRequest(text: AttributedText(caption.text, style: TextStyle(family: "Noto Sans", size: Double(options.size))),
                             width: Double(options.width))
        }
        if let only = ProcessInfo.processInfo.environment["LAYOUTD_BENCH_PROFILE"] {
            // For a profiler: one kind of pass, many times, nothing else.
            let layouter = ParagraphLayouter(fonts: registry, cache: only == "warm" ? ShapingCache() : nil)
            for _ in 0..<options.repeats { _ = try time(requests, layouter) }
            return []
        }
        var floor: [[Double]] = [], uncached: [[Double]] = [], cold: [[Double]] = [], warm: [[Double]] = []
        var justifyUncached: [[Double]] = [], justifyCold: [[Double]] = []
        var coldShapes: [Int] = []
        var layoutCalls: UInt64 = 0, justifyCalls: UInt64 = 0
        for round in 0..<options.repeats {
            FileHandle.standardError.write(Data("in-process round \(round + 1)/\(options.repeats)\n".utf8))
            floor.append(floorFonts.timeEach(captions))
            let none = ParagraphLayouter(fonts: registry, cache: nil)
            var calls = ParagraphLayouter.harfBuzzCalls
            uncached.append(try time(requests, none))
            layoutCalls += ParagraphLayouter.harfBuzzCalls - calls
            calls = ParagraphLayouter.harfBuzzCalls
            justifyUncached.append(try timeJustify(none))
            justifyCalls += ParagraphLayouter.harfBuzzCalls - calls
            justifyCold.append(try timeJustify(ParagraphLayouter(fonts: registry, cache: ShapingCache())))
            let cache = ShapingCache()
            let cached = ParagraphLayouter(fonts: registry, cache: cache)
            cold.append(try time(requests, cached))
            coldShapes.append(Int(cache.misses))
            warm.append(try time(requests, cached))
        }
        let floorD = Distribution.perItemMedian(floor)
        let rows: [(String, Distribution)] = [
            ("HarfBuzz floor (hb_shape per caption, one font)", floorD),
            ("layout, no shaping cache", Distribution.perItemMedian(uncached)),
            ("layout, cold (cache empty at the start of the pass)", Distribution.perItemMedian(cold)),
            ("layout, warm (second pass, same cache)", Distribution.perItemMedian(warm)),
        ]
        var lines = ["| pass | median µs/caption | p99 µs/caption | captions/s | median ÷ floor |", "|---|---|---|---|---|"]
        for (name, d) in rows {
            let total = d.values.reduce(0, +)
            lines.append(String(format: "| %@ | %.2f | %.2f | %.0f | %.2f× |", name as NSString, d.median, d.p99,
                                Double(d.values.count) / (total / 1e6), d.median / floorD.median))
        }
        let shapesPerCaption = Double(coldShapes.reduce(0, +)) / Double(coldShapes.count) / Double(captions.count)
        lines.append("")
        lines.append(String(format: "Shaping calls per caption on the cold pass: %.2f (HarfBuzz runs: items plus reshapes at unsafe breaks).", shapesPerCaption))
        let plain = Distribution.perItemMedian(uncached)
        let justified = Distribution.perItemMedian(justifyUncached)
        let justifiedCold = Distribution.perItemMedian(justifyCold)
        let passes = Double(options.repeats * captions.count)
        lines += ["", "### Type Mode justify (per_line, 14–96 pt, same captions and width)", "",
                  "| pass | median µs/caption | p99 µs/caption | ÷ layout (same cache state) | HarfBuzz calls/caption |", "|---|---|---|---|---|",
                  String(format: "| layout, no cache | %.2f | %.2f | 1.00× | %.2f |", plain.median, plain.p99, Double(layoutCalls) / passes),
                  String(format: "| justify per_line, no cache | %.2f | %.2f | %.2f× | %.2f |", justified.median, justified.p99,
                         justified.median / plain.median, Double(justifyCalls) / passes),
                  String(format: "| justify per_line, cold | %.2f | %.2f | %.2f× (vs layout cold) | — |", justifiedCold.median, justifiedCold.p99,
                         justifiedCold.median / Distribution.perItemMedian(cold).median)]
        return [Section(title: "In-process paragraph layout (one thread, width \(Int(options.width)), size \(Int(options.size)), Noto Sans with fallback)", lines: lines)]
    }

    private func timeJustify(_ layouter: ParagraphLayouter) throws -> [Double] {
        try captions.map { caption in
            let request = TypeModeRequest(text: caption.text, style: TextStyle(family: "Noto Sans"), width: Double(options.width),
                                          minSize: 14, maxSize: 96)
            let start = nanoseconds()
            let layout = try layouter.justify(request)
            let elapsed = Double(nanoseconds() - start) / 1000
            precondition(!layout.lineSizes.isEmpty)
            return elapsed
        }
    }

    private func time(_ requests: [ParagraphRequest], _ layouter: ParagraphLayouter) throws -> [Double] {
        try requests.map { request in
            let start = nanoseconds()
            let layout = try layouter.layout(request)
            let elapsed = Double(nanoseconds() - start) / 1000
            precondition(!layout.lines.isEmpty)
            return elapsed
        }
    }
}

/// The floor: what calling HarfBuzz directly costs. Each caption is shaped once, whole, with
/// the default font set's face for its dominant script, on a reused buffer with segment
/// properties guessed — no analysis, fallback, breaking or positioning.
struct FloorFonts {
    let fonts: [String: OpaquePointer]
    let buffer: OpaquePointer

    init() throws {
        let noto = "/usr/share/fonts/truetype/noto/"
        let files: [String: (String, UInt32)] = [
            "Latn": (noto + "NotoSans-Regular.ttf", 0), "Cyrl": (noto + "NotoSans-Regular.ttf", 0),
            "Arab": (noto + "NotoNaskhArabic-Regular.ttf", 0), "Deva": (noto + "NotoSansDevanagari-Regular.ttf", 0),
            "Hani": ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),
        ]
        var fonts: [String: OpaquePointer] = [:]
        for (script, (path, index)) in files {
            let blob = hb_blob_create_from_file(path)
            let face = hb_face_create(blob, index)
            let font = hb_font_create(face)!
            hb_ot_font_set_funcs(font)
            hb_font_make_immutable(font)
            fonts[script] = font
        }
        self.fonts = fonts
        buffer = hb_buffer_create()
    }

    func timeEach(_ captions: [Caption]) -> [Double] {
        captions.map { caption in
            let font = fonts[caption.script] ?? fonts["Latn"]!
            let units = Array(caption.text.utf16)
            let start = nanoseconds()
            hb_buffer_clear_contents(buffer)
            hb_buffer_add_utf16(buffer, units, Int32(units.count), 0, Int32(units.count))
            hb_buffer_guess_segment_properties(buffer)
            hb_shape(font, buffer, nil, 0)
            let elapsed = Double(nanoseconds() - start) / 1000
            precondition(hb_buffer_get_length(buffer) > 0)
            return elapsed
        }
    }
}
