import CHarfBuzz
import Foundation
import LayoutEngine
import LayoutRules
import LayoutUnicode

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
        // The same captions with two attachments each: one after the first word, one at the end.
        let boxedRequests = captions.map { caption -> ParagraphRequest in
            var text = caption.text
            if let space = text.firstIndex(of: " ") { text.insert(contentsOf: "\u{FFFC} ", at: text.index(after: space)) } else {
                text = "\u{FFFC} " + text
            }
            text += " \u{FFFC}"
            return ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: Double(options.size))),
                                    width: Double(options.width),
                                    attachments: [InlineAttachment(width: 20, extent: .height(20), alignment: .fontCenter),
                                                  InlineAttachment(width: 24, extent: .height(24))])
        }
        // The same texts without the two U+FFFC: what the attachments themselves cost.
        let unboxedRequests = boxedRequests.map { boxed -> ParagraphRequest in
            let text = String(String.UnicodeScalarView(boxed.text.string.unicodeScalars.filter { $0 != "\u{FFFC}" }))
            return ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "Noto Sans", size: Double(options.size))),
                                    width: Double(options.width))
        }
        // The same captions with three decorated spans (issue 18's row): an underline over the
        // first third, a strikethrough over the second, a fill behind the last.
        let decoratedRequests = requests.map { plain -> ParagraphRequest in
            let count = plain.text.units.count, third = count / 3
            let spans = [AttributedText.Span(range: 0..<third, patch: StylePatch(underline: .set(DecorationLine()))),
                         AttributedText.Span(range: third..<2 * third, patch: StylePatch(strikethrough: .set(DecorationLine()))),
                         AttributedText.Span(range: 2 * third..<count, patch: StylePatch(background: Color(red: 1, green: 0.9, blue: 0.3)))]
            return ParagraphRequest(text: AttributedText(plain.text.string, style: plain.text.styles[0], spans: spans), width: plain.width)
        }
        // The same captions flowing around a picture at the top right (issue 19's row): an
        // ellipse 110 × 80 with a 6-point margin, so the first lines are cut into fragments.
        let flowedRequests = requests.map { plain -> ParagraphRequest in
            var request = plain
            request.flow = TextFlow(containers: [TextContainer(width: plain.width, exclusions: [
                Exclusion(FlowShape(.ellipse(Rect(x: plain.width - 130, y: 8, width: 110, height: 80))), margin: 6)])])
            return request
        }
        // The flowed row's captions broken balanced and by total fit: lines chosen over the
        // slots a greedy flow met, which costs a second flow.
        func flowed(breaking strategy: BreakStrategy) -> [ParagraphRequest] {
            flowedRequests.map { var request = $0; request.breakStrategy = strategy; return request }
        }
        let balancedFlowedRequests = flowed(breaking: .balanced), optimalFlowedRequests = flowed(breaking: .optimal)
        // Each caption around a picture's silhouette where the flowed row has an ellipse (issue
        // 40's image-shape row): a 100 × 80-pixel disc's alpha over the same box, made once.
        let silhouette: ImageSilhouette = {
            var alpha = [UInt8](repeating: 0, count: 100 * 80)
            for row in 0..<80 {
                for column in 0..<100 {
                    let (dx, dy) = ((Double(column) + 0.5 - 50) / 50, (Double(row) + 0.5 - 40) / 40)
                    if dx * dx + dy * dy < 1 { alpha[row * 100 + column] = 255 }
                }
            }
            return ImageSilhouette(width: 100, height: 80, alpha: alpha)
        }()
        let silhouettedRequests = requests.map { plain -> ParagraphRequest in
            var request = plain
            let shape = silhouette.shape(in: Rect(x: plain.width - 130, y: 8, width: 110, height: 80), threshold: 0)!
            request.flow = TextFlow(containers: [TextContainer(width: plain.width, exclusions: [Exclusion(shape, margin: 6)])])
            return request
        }
        // Each caption with its intrinsic widths and runs' bounds measured (issue 40's row).
        let intrinsicRequests = requests.map { plain -> ParagraphRequest in
            var request = plain
            request.measuresIntrinsics = true
            return request
        }
        // Each caption in a style with its own fallback families, tried before the daemon's
        // (CSS font-family's list): what matching through a list costs.
        let listedRequests = requests.map { plain -> ParagraphRequest in
            var style = plain.text.styles[0]
            style.fallbackFamilies = ["DejaVu Sans", "Noto Sans Thai"]
            var request = plain
            request.text = AttributedText(plain.text.string, style: style)
            return request
        }
        // Each caption bold and italic: Latin from Noto Sans Bold Italic, the scripts whose
        // families have no italic (Han, Arabic, Devanagari) from their Bold faces made oblique;
        // and the same with synthesis off, which draws those upright (what synthesis costs).
        func boldItalic(_ synthesis: FontSynthesis) -> [ParagraphRequest] {
            requests.map { plain -> ParagraphRequest in
                var style = plain.text.styles[0]
                (style.weight, style.italic, style.synthesis) = (700, true, synthesis)
                var request = plain
                request.text = AttributedText(plain.text.string, style: style)
                return request
            }
        }
        let synthesizedRequests = boldItalic(.all), unsynthesizedRequests = boldItalic([])
        // Each caption painted in layers: its first half filled with a gradient over its lines,
        // its second half with a glow, both under two shadows (what a fill's boxes cost to find).
        let paintedRequests = requests.map { plain -> ParagraphRequest in
            let count = plain.text.units.count
            let stops = [GradientStop(offset: 0, color: Color(red: 1, green: 0.2, blue: 0.3)),
                         GradientStop(offset: 1, color: Color(red: 0, green: 0.5, blue: 1))]
            let shadows = [TextShadow(offset: Point(x: 2, y: 2)), TextShadow(offset: Point(x: 4, y: 4), blurRadius: 3)]
            let spans = [AttributedText.Span(range: 0..<count / 2, patch: StylePatch(fill: .set(TextFill(.linearGradient(
                            start: Point(x: 0, y: 0.5), end: Point(x: 1, y: 0.5), stops: stops))))),
                         AttributedText.Span(range: count / 2..<count, patch: StylePatch(glow: .set(TextGlow(radius: 6))))]
            return ParagraphRequest(text: AttributedText(plain.text.string, style: plain.text.styles[0], paint: TextPaint(shadows: shadows),
                                                         spans: spans), width: plain.width)
        }
        // Each caption with sesame marks over its first half (issue 40's emphasis row): the
        // lines grow for them and the decorate stage places one per cluster.
        let emphasizedRequests = requests.map { plain -> ParagraphRequest in
            var marks = StylePatch()
            marks.emphasis = .set(EmphasisMarks(.sesame))
            let spans = [AttributedText.Span(range: 0..<plain.text.units.count / 2, patch: marks)]
            return ParagraphRequest(text: AttributedText(plain.text.string, style: plain.text.styles[0], spans: spans), width: plain.width)
        }
        // Each caption with ruby over its first character (issue 40's ruby row): four kana at
        // half the size, wider than nearly every base, which is spaced to hold them; the line
        // grows and the decorate stage sets the reading.
        let annotatedRequests = requests.map { plain -> ParagraphRequest in
            guard let first = plain.text.string.first, !first.isNewline else { return plain }
            var request = plain
            request.text = plain.text.withRuby([RubyAnnotation(base: 0..<first.utf16.count, reading: "ふりがな")])
            return request
        }
        // Each caption set along a wave (issue 40's text-on-a-path row): eight cubic humps, 2,400
        // points long in all, so most captions fit on it.
        let pathedRequests = requests.map { plain -> ParagraphRequest in
            var commands: [PathCommand] = [.move(Point(x: 0, y: 100))]
            for hump in 0..<8 {
                let x = Double(hump) * 300
                commands.append(.cubic(Point(x: x + 100, y: 0), Point(x: x + 200, y: 200), Point(x: x + 300, y: 100)))
            }
            var request = plain
            request.textPath = TextPath(path: Path(commands))
            return request
        }
        // Each caption broken by tailored rules (issue 40's line-break row): loose and keep-all,
        // Han captions as Chinese (the loose list applies); and as Japanese phrases, which runs
        // ICU's dictionary over every run of Han.
        func breakingRequests(_ lineBreak: LineBreakStrictness, _ wordBreak: WordBreakStyle, japanese: Bool) -> [ParagraphRequest] {
            zip(requests, captions).map { plain, caption -> ParagraphRequest in
                var style = plain.text.styles[0]
                (style.lineBreak, style.wordBreak) = (lineBreak, wordBreak)
                if caption.script == "Hani" { style.language = japanese ? "ja" : "zh" } else if japanese { style.language = "ja" }
                var request = plain
                request.text = AttributedText(plain.text.string, style: style)
                return request
            }
        }
        let tailoredRequests = breakingRequests(.loose, .keepAll, japanese: false)
        let phrasedRequests = breakingRequests(.auto, .autoPhrase, japanese: true)
        if let only = ProcessInfo.processInfo.environment["LAYOUTD_BENCH_PROFILE"] {
            // For a profiler: one kind of pass (floor, floor-bare, cold, framed, batch, warm, boxed, unboxed, decorated, flowed, flowed-balanced, flowed-optimal, intrinsic, listed, synthesized, unsynthesized, painted, pathed, emphasized, annotated, tailored, phrased, silhouetted, built or rules), many times, nothing
            // else; scripts/count-instructions.sh compares two of them under callgrind.
            // LAYOUTD_BENCH_SHAPING_CACHE=N runs the other passes with a cache of N entries, as the
            // daemon ships (20,000), new each repeat so every caption meets it cold.
            let shippedCache = ProcessInfo.processInfo.environment["LAYOUTD_BENCH_SHAPING_CACHE"].flatMap(Int.init)
            func layouterForRepeat() -> ParagraphLayouter {
                ParagraphLayouter(fonts: registry, cache: only == "warm" ? warmCache : shippedCache.map { ShapingCache(capacity: $0) })
            }
            let warmCache = ShapingCache()
            var layouter = layouterForRepeat()
            if only == "floor" {
                for _ in 0..<options.repeats { for caption in captions { _ = floorFonts.time(caption) } }
                return []
            }
            if only == "floor-bare" {
                // HarfBuzz alone: each caption's UTF-16 and face made before the pass, so nothing but
                // hb_shape and its buffer's calls is counted (the floor pass makes both per caption,
                // about 4,600 instructions of the benchmark's own).
                let prepared = captions.map { (floorFonts.font(for: $0), Array($0.text.utf16)) }
                for _ in 0..<options.repeats {
                    for (font, units) in prepared { _ = floorFonts.shape(units, font: font) }
                }
                return []
            }
            // The Han captions alone (issue 19's vertical row): their floor, and their layout
            // horizontal and vertical (columns 300 points long, right to left).
            let han = captions.filter { $0.script == "Hani" }
            if only == "floor-hani" || only == "floor-hani-vertical" {
                // The vertical floor: the same shaping top to bottom, as vertical layout shapes
                // upright text (HarfBuzz applies `vert`/`vrt2` and vertical origins and advances).
                let vertical = only == "floor-hani-vertical"
                for _ in 0..<options.repeats { for caption in han { _ = floorFonts.time(caption, vertical: vertical) } }
                return []
            }
            // Vertical with every character upright or on its side (CSS text-orientation), beside
            // UAX #50's mixed orientation.
            let orientations: [String: TextOrientation] = ["vertical-hani": .mixed, "upright-hani": .upright, "sideways-hani": .sideways]
            if only == "cold-hani" || orientations[only] != nil {
                let chosen = han.map { caption -> ParagraphRequest in
                    var request = ParagraphRequest(text: AttributedText(caption.text, style: TextStyle(family: "Noto Sans", size: Double(options.size))),
                                                   width: Double(options.width), height: orientations[only] != nil ? Double(options.width) : nil)
                    if let orientation = orientations[only] {
                        request.writingMode = .verticalRightToLeft
                        request.textOrientation = orientation
                    }
                    return request
                }
                for _ in 0..<options.repeats {
                    layouter = layouterForRepeat()
                    for request in chosen { _ = try time(request, layouter) }
                }
                return []
            }
            if only == "framed" {
                // The daemon's request path without its transport (`FramedPass`).
                let framed = try FramedPass(captions: captions, options: options, registry: registry)
                try framed.run(repeats: options.repeats)
                return []
            }
            if only == "batch" {
                // Every caption as one batch, answered in process as the daemon's workers answer it (`BatchPass`).
                try BatchPass(captions: captions, options: options, registry: registry).run(repeats: options.repeats)
                return []
            }
            if only == "tiny" {
                // A layout's fixed cost: one letter, as many times as there are captions.
                let tiny = ParagraphRequest(text: AttributedText("a", style: TextStyle(family: "Noto Sans", size: Double(options.size))),
                                            width: Double(options.width))
                for _ in 0..<options.repeats { for _ in captions { _ = try time(tiny, layouter) } }
                return []
            }
            if only == "built" || only == "rules" {
                // The text made from its string each time, with the built-in formatting rules or
                // without: what the rules add to a layout (issue 18's row).
                let rules = only == "rules" ? BuiltinRules.compiledNotes(hidesMarkers: true) : []
                for _ in 0..<options.repeats { for caption in captions { _ = try timeFormatted(caption.text, rules: rules, layouter) } }
                return []
            }
            let chosen = only == "boxed" ? boxedRequests : only == "unboxed" ? unboxedRequests
                : only == "decorated" ? decoratedRequests : only == "flowed" ? flowedRequests
                : only == "flowed-balanced" ? balancedFlowedRequests : only == "flowed-optimal" ? optimalFlowedRequests
                : only == "intrinsic" ? intrinsicRequests : only == "listed" ? listedRequests
                : only == "synthesized" ? synthesizedRequests : only == "unsynthesized" ? unsynthesizedRequests
                : only == "painted" ? paintedRequests : only == "pathed" ? pathedRequests
                : only == "emphasized" ? emphasizedRequests : only == "annotated" ? annotatedRequests
                : only == "tailored" ? tailoredRequests : only == "phrased" ? phrasedRequests
                : only == "silhouetted" ? silhouettedRequests : requests
            for _ in 0..<options.repeats {
                layouter = layouterForRepeat()
                for request in chosen { _ = try time(request, layouter) }
            }
            return []
        }
        // Every pass measures a caption back to back, in an order that rotates from caption to
        // caption, so a change in the machine's load hits all passes alike. The cold cache is new each round and fills as the round goes on;
        // "warm" lays the same caption out again right after, so its shapes are cached.
        var floor: [[Double]] = [], uncached: [[Double]] = [], cold: [[Double]] = [], warm: [[Double]] = []
        var justifyUncached: [[Double]] = [], justifyCold: [[Double]] = [], decorated: [[Double]] = [], flowed: [[Double]] = []
        var built: [[Double]] = [], ruled: [[Double]] = []
        let notes = BuiltinRules.compiledNotes(hidesMarkers: true)
        var attachmentPairs = AttachmentPairs(captions: captions.count)
        var coldShapes: [Int] = []
        var layoutCalls: UInt64 = 0, justifyCalls: UInt64 = 0
        let shuffled = ProcessInfo.processInfo.environment["LAYOUTD_BENCH_ORDER"] == "shuffled"
        var generator = SplitMix(seed: 0x5EED)
        let none = ParagraphLayouter(fonts: registry, cache: nil)
        let typeModeRequests = captions.map { caption in
            TypeModeRequest(text: caption.text, style: TextStyle(family: "Noto Sans"), width: Double(options.width),
                            minSize: 14, maxSize: 96)
        }
        for round in 0..<options.repeats {
            FileHandle.standardError.write(Data("in-process round \(round + 1)/\(options.repeats)\n".utf8))
            let cache = ShapingCache()
            let cached = ParagraphLayouter(fonts: registry, cache: cache)
            let justifyCache = ParagraphLayouter(fonts: registry, cache: ShapingCache())
            var f: [Double] = [], u: [Double] = [], c: [Double] = [], w: [Double] = [], ju: [Double] = [], jc: [Double] = []
            var d: [Double] = [], b: [Double] = [], r: [Double] = [], fl: [Double] = []
            for (index, caption) in captions.enumerated() {
                // The passes take turns going first: whichever runs first meets colder caches.
                let steps: [() throws -> Void] = [
                    { f.append(floorFonts.time(caption)) },
                    {
                        let calls = ParagraphLayouter.harfBuzzCalls
                        u.append(try time(requests[index], none))
                        layoutCalls += ParagraphLayouter.harfBuzzCalls - calls
                    },
                    {
                        c.append(try time(requests[index], cached))
                        w.append(try time(requests[index], cached))
                    },
                    {
                        let calls = ParagraphLayouter.harfBuzzCalls
                        ju.append(try timeJustify(typeModeRequests[index], none))
                        justifyCalls += ParagraphLayouter.harfBuzzCalls - calls
                    },
                    { jc.append(try timeJustify(typeModeRequests[index], justifyCache)) },
                    { d.append(try time(decoratedRequests[index], none)) },
                    { fl.append(try time(flowedRequests[index], none)) },
                    {
                        b.append(try timeFormatted(caption.text, rules: [], none))
                        r.append(try timeFormatted(caption.text, rules: notes, none))
                    },
                    {
                        // One step for the pair, its order alternating: the text laid out right
                        // after its twin finds the same glyphs in the CPU's caches.
                        let boxedFirst = (index + round) % 2 == 0
                        var boxedTime = 0.0, plainTime = 0.0
                        if boxedFirst { boxedTime = try time(boxedRequests[index], none) }
                        plainTime = try time(unboxedRequests[index], none)
                        if !boxedFirst { boxedTime = try time(boxedRequests[index], none) }
                        attachmentPairs.record(caption: index, boxed: boxedTime, plain: plainTime, boxedFirst: boxedFirst)
                    },
                ]
                if shuffled {
                    // Each caption's passes in an order of their own: no pass always follows the
                    // same neighbour, whose work on the same text would warm the caches for it.
                    var order = Array(steps.indices)
                    order.shuffle(using: &generator)
                    for k in order { try steps[k]() }
                } else {
                    for k in 0..<steps.count { try steps[(index + k) % steps.count]() }
                }
            }
            floor.append(f); uncached.append(u); cold.append(c); warm.append(w)
            justifyUncached.append(ju); justifyCold.append(jc); decorated.append(d); built.append(b); ruled.append(r)
            flowed.append(fl)
            coldShapes.append(Int(cache.misses))
        }
        let floorD = Distribution.perItemMedian(floor)
        let rows: [(String, Distribution)] = [
            ("HarfBuzz floor (hb_shape per caption, one font)", floorD),
            ("layout, no shaping cache", Distribution.perItemMedian(uncached)),
            ("layout, cold (cache empty at the start of the pass)", Distribution.perItemMedian(cold)),
            ("layout, warm (same caption again, its shapes cached)", Distribution.perItemMedian(warm)),
        ]
        var lines = ["| pass | median µs/caption | p99 µs/caption | captions/s | median ÷ floor | median of per-caption ratios |",
                     "|---|---|---|---|---|---|"]
        for (name, d) in rows {
            let total = d.values.reduce(0, +)
            let ratios = Distribution(values: zip(d.values, floorD.values).map { $0 / $1 })
            lines.append(String(format: "| %@ | %.2f | %.2f | %.0f | %.2f× | %.2f× |", name as NSString, d.median, d.p99,
                                Double(d.values.count) / (total / 1e6), d.median / floorD.median, ratios.median))
        }
        let shapesPerCaption = Double(coldShapes.reduce(0, +)) / Double(coldShapes.count) / Double(captions.count)
        lines.append("")
        lines.append(String(format: "Shaping calls per caption on the cold pass: %.2f (HarfBuzz runs: items plus reshapes at unsafe breaks).", shapesPerCaption))
        let plain = Distribution.perItemMedian(uncached)
        let plainCold = Distribution.perItemMedian(cold)
        let justified = Distribution.perItemMedian(justifyUncached)
        let justifiedCold = Distribution.perItemMedian(justifyCold)
        let passes = Double(options.repeats * captions.count)
        func ratio(_ a: Distribution, _ b: Distribution) -> Double { Distribution(values: zip(a.values, b.values).map { $0 / $1 }).median }
        lines += ["", "### Type Mode justify (per_line, 14–96 pt, same captions and width)", "",
                  "| pass | median µs/caption | p99 µs/caption | median of per-caption ratios to layout | HarfBuzz calls/caption |", "|---|---|---|---|---|",
                  String(format: "| layout, no cache | %.2f | %.2f | 1.00× | %.2f |", plain.median, plain.p99, Double(layoutCalls) / passes),
                  String(format: "| justify per_line, no cache | %.2f | %.2f | %.2f× | %.2f |", justified.median, justified.p99,
                         ratio(justified, plain), Double(justifyCalls) / passes),
                  String(format: "| justify per_line, cold | %.2f | %.2f | %.2f× (to layout cold) | — |", justifiedCold.median, justifiedCold.p99,
                         ratio(justifiedCold, plainCold))]
        let decoratedD = Distribution.perItemMedian(decorated)
        lines += ["", "### Three decorated spans (underline, strikethrough, fill; issue 18: target ≤ 1.1× plain)", "",
                  "| pass | median µs/caption | p99 µs/caption | median of per-caption ratios to plain layout |", "|---|---|---|---|",
                  String(format: "| layout, no cache | %.2f | %.2f | 1.00× |", plain.median, plain.p99),
                  String(format: "| three decorated spans, no cache | %.2f | %.2f | %.3f× |", decoratedD.median, decoratedD.p99,
                         ratio(decoratedD, plain))]
        let flowedD = Distribution.perItemMedian(flowed)
        lines += ["", "### Flowing around a picture (an ellipse at the top right, margin 6; issue 19)", "",
                  "| pass | median µs/caption | p99 µs/caption | median of per-caption ratios to plain layout |", "|---|---|---|---|",
                  String(format: "| layout, no cache | %.2f | %.2f | 1.00× |", plain.median, plain.p99),
                  String(format: "| around the ellipse, no cache | %.2f | %.2f | %.3f× |", flowedD.median, flowedD.p99,
                         ratio(flowedD, plain))]
        let builtD = Distribution.perItemMedian(built), ruledD = Distribution.perItemMedian(ruled)
        lines += ["", "### Built-in formatting rules (the note editor's six, markers hidden; issue 18: target ≤ 1.3× plain)", "",
                  "| pass | median µs/caption | p99 µs/caption | median of per-caption ratios to the plain pass |", "|---|---|---|---|",
                  String(format: "| text made from its string, laid out, no cache | %.2f | %.2f | 1.00× |", builtD.median, builtD.p99),
                  String(format: "| the same with the built-in rules | %.2f | %.2f | %.3f× |", ruledD.median, ruledD.p99, ratio(ruledD, builtD))]
        lines += attachmentPairs.table(captionAlone: plain)
        return [Section(title: "In-process paragraph layout (one thread, width \(Int(saturating: options.width)), size \(Int(saturating: options.size)), Noto Sans with fallback)", lines: lines)]
    }

    private func timeJustify(_ request: TypeModeRequest, _ layouter: ParagraphLayouter) throws -> Double {
        let start = nanoseconds()
        let layout = try layouter.justify(request)
        let elapsed = Double(nanoseconds() - start) / 1000
        precondition(!layout.lineSizes.isEmpty)
        return elapsed
    }

    /// A caption's text made from its string, the rules applied (none for the plain pass), laid out.
    private func timeFormatted(_ string: String, rules: [CompiledRule], _ layouter: ParagraphLayouter) throws -> Double {
        let start = nanoseconds()
        let units = AttributedText.utf16(string)
        let spans = try FormattingRules.apply(rules, to: units).spans
        let text = AttributedText(string, units: units, style: TextStyle(family: "Noto Sans", size: Double(options.size)), spans: spans)
        let layout = try layouter.layout(ParagraphRequest(text: text, width: Double(options.width)))
        let elapsed = Double(nanoseconds() - start) / 1000
        precondition(!layout.lines.isEmpty)
        return elapsed
    }

    private func time(_ request: ParagraphRequest, _ layouter: ParagraphLayouter) throws -> Double {
        let start = nanoseconds()
        let layout = try layouter.layout(request)
        let elapsed = Double(nanoseconds() - start) / 1000
        precondition(!layout.lines.isEmpty)
        return elapsed
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

    /// The default set's face for the caption's dominant script.
    func font(for caption: Caption) -> OpaquePointer { fonts[caption.script] ?? fonts["Latn"]! }

    /// `units` shaped whole with `font` (top to bottom when `vertical`); the glyph count.
    func shape(_ units: [UInt16], font: OpaquePointer, vertical: Bool = false) -> UInt32 {
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_utf16(buffer, units, Int32(units.count), 0, Int32(units.count))
        hb_buffer_guess_segment_properties(buffer)
        if vertical { hb_buffer_set_direction(buffer, HB_DIRECTION_TTB) }
        hb_shape(font, buffer, nil, 0)
        return hb_buffer_get_length(buffer)
    }

    func time(_ caption: Caption, vertical: Bool = false) -> Double {
        let font = font(for: caption)
        let units = Array(caption.text.utf16)
        let start = nanoseconds()
        let glyphs = shape(units, font: font, vertical: vertical)
        let elapsed = Double(nanoseconds() - start) / 1000
        precondition(glyphs > 0)
        return elapsed
    }
}

/// A seeded generator (SplitMix64), so a shuffled order is the same from run to run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
