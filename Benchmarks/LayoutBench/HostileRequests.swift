import Foundation
import LayoutWire

/// Small requests built to cost as much as possible: each is what an attacker would try against
/// one stage (decoding, span resolution, analysis, shaping, breaking, decoration, rendering).
/// The benchmark's hostile table times each against a corpus caption, per byte of request.
enum HostileRequests {
    struct Case {
        var name: String
        var envelope: Layoutd_V1_Envelope
        /// The body as sent, when it is not one serialized Envelope (fields repeated to be merged).
        var body: [UInt8]? = nil

        func bytes() throws -> [UInt8] { try body ?? envelope.serializedBytes() }
    }

    /// `layout` written `count` times in one Envelope, each with one span: protobuf merges them.
    static func mergedLayouts(_ count: Int) throws -> [UInt8] {
        var first = layout("merge me")
        first.requestID = 1
        var more = Layoutd_V1_Envelope()
        more.layout.spans = [.with { $0.range = range(0, 1); $0.style.size = 20 }]
        let occurrence: [UInt8] = try more.serializedBytes()
        var body: [UInt8] = try first.serializedBytes()
        for _ in 1..<count { body += occurrence }
        return body
    }

    static func layout(_ text: String, width: Float = 300, size: Float = 24, _ configure: (inout Layoutd_V1_LayoutRequest) -> Void = { _ in })
        -> Layoutd_V1_Envelope {
        var request = Layoutd_V1_LayoutRequest()
        request.text = text
        request.width = width
        request.defaultStyle.size = size
        configure(&request)
        return .with { $0.requestID = 1; $0.layout = request }
    }

    static func range(_ start: Int, _ length: Int) -> Layoutd_V1_Range {
        .with { $0.start = UInt32(start); $0.length = UInt32(length) }
    }

    static var all: [Case] {
        let lines1020 = Array(repeating: "word", count: 1_020).joined(separator: "\n")
        return [
            Case(name: "overlapping spans (limit of spans over 2,000 characters)", envelope: layout(String(repeating: "ab ", count: 667)) {
                $0.spans = (0..<16_384).map { k in .with { $0.range = range(k % 1_000, 2_000 - k % 1_000); $0.style.weight = UInt32(100 + k % 800) } }
            }),
            Case(name: "4 highlights over a 1,020-line text (4,080 rects, near the limit)", envelope: layout(lines1020) {
                $0.backgrounds = (0..<4).map { _ in .with { $0.kind = .highlight; $0.range = range(0, lines1020.utf16.count) } }
            }),
            Case(name: "64 highlights over a 1,020-line text (past the rect limit)", envelope: layout(lines1020) {
                $0.backgrounds = (0..<64).map { _ in .with { $0.kind = .highlight; $0.range = range(0, lines1020.utf16.count) } }
            }),
            Case(name: "connected background over 1,020 lines", envelope: layout(lines1020) {
                $0.backgrounds = [.with { $0.kind = .connected }]
            }),
            Case(name: "40,000 empty repeated spans (decoding)", envelope: layout("x") {
                $0.spans = Array(repeating: Layoutd_V1_StyleSpan(), count: 40_000)
            }),
            Case(name: "400,000 empty repeated spans (decoding)", envelope: layout("x") {
                $0.spans = Array(repeating: Layoutd_V1_StyleSpan(), count: 400_000)
            }),
            Case(name: "64,000 overlapping spans (past the span limit)", envelope: layout(String(repeating: "ab ", count: 667)) {
                $0.spans = (0..<64_000).map { k in .with { $0.range = range(k % 1_000, 2_000 - k % 1_000); $0.style.weight = UInt32(100 + k % 800) } }
            }),
            Case(name: "1,024 attachments aligned to their lines (boxes)", envelope: layout(String(repeating: "\u{FFFC}", count: 1_024), width: 50) {
                $0.attachments = (0..<1_024).map { k in .with { $0.width = 10; $0.height = 10; $0.alignment = k % 2 == 0 ? .lineMiddle : .fontCenter } }
            }),
            Case(name: "1,024 attachments, each with a reference font", envelope: layout(String(repeating: "a\u{FFFC}", count: 1_024)) {
                $0.attachments = (0..<1_024).map { _ in .with { $0.width = 10; $0.height = 10; $0.alignment = .fontTop
                    $0.referenceFont.family = "Noto Serif"; $0.referenceFont.size = 30 } }
            }),
            Case(name: "100,000 merged layout fields of one span each (decoding)", envelope: layout("x"),
                 body: (try? mergedLayouts(100_000)) ?? []),
            Case(name: "empty repeated features (decoding)", envelope: layout("x") {
                $0.defaultStyle.features = Array(repeating: Layoutd_V1_Feature(), count: 40_000)
            }),
            Case(name: "a base letter and 30 marks, repeated (shaping)", envelope: layout(String(repeating: "a" + String(repeating: "\u{0301}", count: 30), count: 4_000))),
            Case(name: "one letter and 262,143 combining marks (one cluster)", envelope: layout("a" + String(repeating: "\u{0301}", count: 262_143))),
            Case(name: "one letter and 262,143 variation selectors (one cluster)", envelope: layout("a" + String(repeating: "\u{FE0F}", count: 262_143))),
            Case(name: "262,143 line breaks (paragraphs)", envelope: layout(String(repeating: "\n", count: 262_143))),
            Case(name: "alternating scripts (items and fallback)", envelope: layout(String(repeating: "a你ب", count: 20_000))),
            Case(name: "one long word at a large size (breaking)", envelope: layout(String(repeating: "W", count: 100_000), width: 50, size: 200)),
            Case(name: "nested bidi embeddings", envelope: layout(String(repeating: "\u{202B}a\u{202A}ب", count: 20_000) + String(repeating: "\u{202C}", count: 40_000))),
            Case(name: "a double underline skipping ink under a long text (outline walking)", envelope: layout(String(repeating: "gypsy ", count: 40_000)) {
                $0.defaultStyle.underline = .with { $0.style = .double; $0.skipInk = true }
            }),
            Case(name: "16,384 spans of alternating decorations (paints, runs split by paint)", envelope: layout(String(repeating: "ab ", count: 5_462)) {
                $0.spans = (0..<16_384).map { k in .with {
                    $0.range = range(k, 1)
                    switch k % 4 {
                    case 0: $0.style.underline = .with { $0.style = .dotted; $0.skipInk = true }
                    case 1: $0.style.strikethrough = .with { $0.style = .double }
                    case 2: $0.style.background = .with { $0.green = 1 }
                    default: $0.style.shadow = .with { $0.offsetX = 1; $0.blurRadius = 100 }
                    }
                } }
            }),
            // Typography (issue 22): a client's fonts, each variation an instance, every word
            // hyphenated and weighed, a tab for every character.
            Case(name: "4 client fonts of 600 KB each (Inter VF, checked and loaded)", envelope: layout("Brand") {
                let inter = FileManager.default.contents(atPath: "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf") ?? Data()
                $0.fonts = (0..<4).map { k in .with { $0.family = "Brand\(k)"; $0.data = inter } }
                $0.defaultStyle.family = "Brand0"
            }),
            Case(name: "a client variable font and 2,000 spans of distinct weights (2,000 instances)",
                 envelope: layout(String(repeating: "a", count: 2_000)) {
                let inter = FileManager.default.contents(atPath: "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf") ?? Data()
                $0.fonts = [.with { $0.family = "Brand"; $0.data = inter }]
                $0.defaultStyle.family = "Brand"
                $0.spans = (0..<2_000).map { k in .with { $0.range = range(k, 1); $0.style.variations = [.with { $0.tag = "wght"; $0.value = 100 + Float(k) * 0.4 }] } }
            }),
            Case(name: "14,000 long words hyphenated in a narrow box, total fit", envelope: layout(
                String(repeating: "internationalization responsibility ", count: 7_000), width: 120) {
                $0.hyphenation = .with { $0.maxConsecutiveLines = 25 }
                $0.breakStrategy = .optimal
            }),
            // Every stage's worst input (issue 37): total fit in boxes wide enough for thousands
            // of words, widths that fall, soft hyphens, ideographs, auto-size over it, rules.
            Case(name: "total fit, \"a \" × 65,000 in a box 455,000 pt wide (thousands of starts a line)",
                 envelope: layout(String(repeating: "a ", count: 65_000), width: 455_000, size: 12) { $0.breakStrategy = .optimal }),
            Case(name: "total fit, \"a \" × 131,000 (262 KB) in a box 455,000 pt wide",
                 envelope: layout(String(repeating: "a ", count: 131_000), width: 455_000, size: 12) { $0.breakStrategy = .optimal }),
            Case(name: "total fit, 131,000 words in a box 3,000 pt wide (hundreds of starts a line)",
                 envelope: layout(String(repeating: "a ", count: 131_000), width: 3_000, size: 12) { $0.breakStrategy = .optimal }),
            Case(name: "total fit with widths that fall (letter spacing -4: the general way, 1,024 starts an end)",
                 envelope: layout(String(repeating: "aaaaaa i ", count: 25_000), width: 200_000, size: 12) {
                $0.breakStrategy = .optimal
                $0.defaultStyle.letterSpacing = .with { $0.points = -4 }
            }),
            Case(name: "total fit, soft hyphens in one long word (130,000 points)", envelope: layout(
                String(repeating: "ab\u{00AD}", count: 87_000), width: 400) { $0.breakStrategy = .optimal }),
            Case(name: "total fit, soft hyphens in one long word, wide box (a point per 3 units)", envelope: layout(
                String(repeating: "ab\u{00AD}", count: 87_000), width: 300_000, size: 12) { $0.breakStrategy = .optimal }),
            Case(name: "total fit, 262,000 ideographs in two lines (a break between each)", envelope: layout(
                String(repeating: "漢字", count: 65_000), width: 700_000, size: 12) { $0.breakStrategy = .optimal }),
            Case(name: "total fit with hyphenation, limit 25, 24 KB in a wide box", envelope: layout(
                String(repeating: "internationalization responsibility ", count: 700), width: 60_000, size: 12) {
                $0.hyphenation = .with { $0.maxConsecutiveLines = 25 }
                $0.breakStrategy = .optimal
            }),
            Case(name: "balanced, \"a \" × 131,000 in a box 455,000 pt wide (bisection)",
                 envelope: layout(String(repeating: "a ", count: 131_000), width: 455_000, size: 12) { $0.breakStrategy = .balanced }),
            Case(name: "auto-size over total fit, 65,000 words in a wide box", envelope: layout(
                String(repeating: "a ", count: 65_000), width: 455_000, size: 12) {
                $0.breakStrategy = .optimal
                $0.height = 40
                $0.autoSize = .with { $0.minScale = 0.1 }
            }),
            Case(name: "32 rules that match empty at every position, a thousand ways (4,000 letters)",
                 envelope: layout(String((0..<4_000).map { $0 % 3 == 0 ? "b" : "a" })) {
                $0.rules = (0..<32).map { k in .with { $0.name = "look\(k)"; $0.pattern = "(?=(?:a|[ab]){0,1000})"; $0.style.weight = 700 } }
            }),
            Case(name: "100,000 tabs among 256 stops (tab stops)", envelope: layout(String(repeating: "a\t", count: 50_000), width: 2_000) {
                $0.paragraphStyle.tabStops = (0..<256).map { k in .with { $0.location = Float(k) * 7; $0.alignment = k % 2 == 0 ? .decimal : .end } }
            }),
            // Text that flows (issue 19): the most edges a request may have, crossed by every band.
            Case(name: "a long text around 16 ellipses of 4,096 edges (the edge limit; every band scans them)",
                 envelope: layout(String(repeating: "flowing words ", count: 8_000)) { request in
                request.exclusions = (0..<16).map { k in .with {
                    $0.shape.ellipse = .with { $0.x = Float(k % 4) * 75; $0.y = Float(k / 4) * 2_000; $0.width = 60; $0.height = 1_800 }
                    $0.margin = 2
                } }
            }),
            Case(name: "a long text centred in a circle (bisection re-flows)", envelope: layout(String(repeating: "round ", count: 3_000)) {
                $0.height = 6_000
                $0.width = 6_000
                $0.shape.ellipse = .with { $0.width = 6_000; $0.height = 6_000 }
                $0.verticalAlignment = .center
            }),
            // Balanced and total fit in text that flows: a greedy flow, then lines chosen over its
            // slots, whose widths here change every few lines (total fit keeps a state per count).
            Case(name: "total fit, 65,000 words beside 64 exclusions of alternating widths", envelope: layout(
                String(repeating: "a ", count: 65_000), width: 3_000, size: 12) {
                $0.breakStrategy = .optimal
                $0.exclusions = (0..<64).map { k in .with { $0.shape.rect = .with { $0.y = Float(k) * 55; $0.width = k % 2 == 0 ? 500 : 1_500; $0.height = 55 } } }
            }),
            Case(name: "balanced, 65,000 words beside 64 exclusions of alternating widths", envelope: layout(
                String(repeating: "a ", count: 65_000), width: 3_000, size: 12) {
                $0.breakStrategy = .balanced
                $0.exclusions = (0..<64).map { k in .with { $0.shape.rect = .with { $0.y = Float(k) * 55; $0.width = k % 2 == 0 ? 500 : 1_500; $0.height = 55 } } }
            }),
            Case(name: "64 columns of one line each (linked containers)", envelope: layout(String(repeating: "column ", count: 10_000)) {
                $0.width = 0
                $0.containers = (0..<64).map { k in .with { $0.origin.x = Float(k) * 50; $0.width = 45; $0.height = 30 } }
            }),
            Case(name: "a narrow box beside a wide exclusion (bands pass the rect in one step)", envelope: layout(String(repeating: "a ", count: 2_000)) {
                $0.exclusions = [.with { $0.shape.rect = .with { $0.x = 5; $0.width = 300; $0.height = 100_000 }; $0.wrap = .both }]
            }),
            // Small requests whose bands once stepped a quarter line at a time down a huge shape.
            Case(name: "a word below a rect across the column, 1,000,000 points tall (bands jump to its bottom)",
                 envelope: layout("below") {
                $0.exclusions = [.with { $0.shape.rect = .with { $0.x = -5; $0.width = 310; $0.height = 1_000_000 } }]
            }),
            Case(name: "a word beside an ellipse 1,000,000 points tall (bands tried at 1/1,024 of its height)",
                 envelope: layout("beside") {
                $0.exclusions = [.with { $0.shape.ellipse = .with { $0.x = -100; $0.y = -500_000; $0.width = 500; $0.height = 1_000_000 } }]
            }),
            Case(name: "a word beside 16 stacked ellipses 1,000,000 points tall together (the edge limit)",
                 envelope: layout("beside") {
                $0.exclusions = (0..<16).map { k in .with {
                    $0.shape.ellipse = .with { $0.x = -100; $0.y = Float(k) * 62_500 - 31_250; $0.width = 500; $0.height = 62_500 }
                } }
            }),
            Case(name: "a word through 16 containers, each filled by an ellipse 1,000,000 points tall (no room anywhere)",
                 envelope: layout("nowhere") { request in
                request.width = 0
                request.containers = (0..<16).map { c in .with {
                    $0.origin.x = Float(c) * 310; $0.width = 300; $0.height = 1_000_000
                    $0.exclusions = [.with { $0.shape.ellipse = .with { $0.x = -9_850; $0.y = -500; $0.width = 20_000; $0.height = 1_001_000 } }]
                } }
            }),
            Case(name: "vertical text with digits combined (columns turned onto the page)",
                 envelope: layout(String(repeating: "縦書き12月、ABC。", count: 10_000)) {
                $0.height = 600
                $0.writingMode = .verticalRl
                $0.textCombineUpright = 2
            }),
            Case(name: "built-in rules over a long note of markers (matching and spans)", envelope: layout(String(repeating: "*a* _b_ -c- ~d~ EF ", count: 12_000)) {
                $0.builtinRules = .notes
                $0.hideBuiltinMarkers = true
            }),
            Case(name: "a backtracking rule, (a+)+$, over 100,000 a's (PCRE2's match limit)", envelope: layout(String(repeating: "a", count: 100_000) + "b") {
                $0.rules = [.with { $0.pattern = "(a+)+$"; $0.style.weight = 700 }]
            }),
            Case(name: "32 rules of nested quantifiers over 50,000 units", envelope: layout(String(repeating: "ab", count: 25_000)) {
                $0.rules = (0..<32).map { _ in .with { $0.pattern = "(?:a|ab)*(?:b|ba)*c"; $0.style.weight = 700 } }
            }),
            Case(name: "justified with letter spacing", envelope: layout(String(repeating: "a b ", count: 50_000)) {
                $0.alignment = .justified
                $0.defaultStyle.letterSpacing.points = 3
            }),
            Case(name: "truncated to one line", envelope: layout(String(repeating: "word ", count: 50_000)) {
                $0.maxLines = 1
                $0.truncation.token = String(repeating: "…", count: 256)
            }),
            Case(name: "uniform Type Mode over a long text", envelope: .with {
                $0.requestID = 1
                $0.justify = .with { $0.text = String(repeating: "word ", count: 50_000); $0.width = 300; $0.sizing = .uniform }
            }),
            Case(name: "per-line Type Mode over many lines", envelope: .with {
                $0.requestID = 1
                $0.justify = .with { $0.text = String(repeating: "a\n", count: 100_000); $0.width = 300 }
            }),
            Case(name: "1 KiB uniform Type Mode squeezed by a small max height (bisection)", envelope: .with {
                $0.requestID = 1
                $0.justify = .with {
                    $0.text = String(repeating: "go ", count: 330)
                    $0.width = 300
                    $0.sizing = .uniform
                    $0.maxHeight = 40
                }
            }),
            Case(name: "1 KiB per-line Type Mode of one-letter lines with a connected background", envelope: .with {
                $0.requestID = 1
                $0.justify = .with { $0.text = String(repeating: "a\n", count: 500); $0.width = 300; $0.preset = "strong" }
            }),
            Case(name: "render of a long layout (SVG, 1,000 lines)", envelope: .with {
                $0.requestID = 1
                $0.render = .with { $0.layout = layout(String(repeating: "word ", count: 6_000), size: 10).layout; $0.format = .svg; $0.scale = 1 }
            }),
            Case(name: "25 bytes asking for a 62-million-pixel PNG (refused past max-picture-pixels)", envelope: .with {
                $0.requestID = 1
                $0.render = .with { $0.layout.text = "a"; $0.layout.width = 1; $0.margin = 990; $0.scale = 3.95 }
            }),
            Case(name: "25 bytes asking for a PNG at the pixel cap (4,096 x 4,096, canvas and encoding)", envelope: .with {
                $0.requestID = 1
                $0.render = .with { $0.layout.text = "a"; $0.layout.width = 1; $0.margin = 1_000; $0.scale = 2 }
            }),
            Case(name: "render of a long text with a 100-point blurred shadow (PNG)", envelope: .with {
                $0.requestID = 1
                $0.render = .with {
                    $0.layout = layout(String(repeating: "shadow ", count: 400)) { $0.defaultStyle.shadow = .with { $0.blurRadius = 100 } }.layout
                    $0.format = .png
                    $0.scale = 1
                }
            }),
            Case(name: "render of a long text's per-line and connected backgrounds, dotted borders, 100-point shadows (SVG)", envelope: .with {
                $0.requestID = 1
                $0.render = .with {
                    $0.layout = layout(String(repeating: "word ", count: 6_000), size: 10) { request in
                        let backdrop = Layoutd_V1_BackgroundSpec.with {
                            $0.border = .with { $0.width = 1; $0.dashes = [1, 1] }
                            $0.shadow = .with { $0.offsetX = 3; $0.offsetY = 3; $0.blurRadius = 100 }
                        }
                        request.backgrounds = [Layoutd_V1_BackgroundSpec.Kind.perLine, .connected].map { kind in
                            var spec = backdrop
                            spec.kind = kind
                            return spec
                        }
                    }.layout
                    $0.format = .svg
                    $0.scale = 1
                }
            }),
            Case(name: "16,384 spans, every other one a gradient fill of its own per line (fill regions)",
                 envelope: layout(String(repeating: "ab ", count: 10_923)) { request in
                request.spans = (0..<16_384).map { k in
                    .with { span in
                        span.range = range(2 * k, 1)
                        span.style.fill = .with {
                            $0.box = .line
                            $0.linearGradient = .with { gradient in
                                gradient.end = .with { $0.x = 1 }
                                gradient.stops = [.with { $0.color = .with { $0.red = Float(k % 256) / 255 } }, .with { $0.offset = 1 }]
                            }
                        }
                    }
                }
            }),
            Case(name: "render of a long text in paint layers: 8 blurred shadows, a glow of strength 8, a fill (PNG)", envelope: .with {
                $0.requestID = 1
                $0.render = .with {
                    $0.layout = layout(String(repeating: "layers ", count: 400)) { request in
                        request.defaultStyle.shadows = (1...8).map { k in .with { $0.offsetY = Float(k); $0.blurRadius = Float(k) } }
                        request.defaultStyle.glow = .with { $0.radius = 8; $0.strength = 8 }
                        request.defaultStyle.fill = .with {
                            $0.radialGradient = .with { gradient in
                                gradient.start = .with { $0.x = 0.5; $0.y = 0.5 }
                                gradient.end = .with { $0.x = 1; $0.y = 1 }
                                gradient.stops = [.with { $0.color = .with { $0.red = 1 } }, .with { $0.offset = 1 }]
                            }
                        }
                    }.layout
                    $0.format = .png
                    $0.scale = 1
                }
            }),
            Case(name: "neon render of a long story (PNG, glow)", envelope: .with {
                $0.requestID = 1
                $0.render = .with {
                    $0.justify = .with { $0.text = String(repeating: "glow ", count: 400); $0.width = 300; $0.preset = "neon" }
                    $0.format = .png
                    $0.scale = 1
                }
            }),
            Case(name: "256 tags of three 500-unit labels (label layout)", envelope: .with {
                $0.requestID = 1
                $0.tags = manyTags(labelText: String(repeating: "long label ", count: 45))
            }),
            Case(name: "256 tags at one point (keep-inside tries and overlap pairs)", envelope: .with {
                $0.requestID = 1
                $0.tags = manyTags(labelText: "x", at: 0.99)
                $0.tags.keepInside = true
            }),
            Case(name: "a moment of 1,024 events", envelope: .with {
                $0.requestID = 1
                $0.tags = manyTags(labelText: "x", count: 1)
                $0.tags.moment.events = (0..<1_024).map { k in .with { $0.kind = k % 2 == 0 ? .hide : .show; $0.atSeconds = Double(k) } }
                $0.tags.moment.atSeconds = 1e9
            }),
            Case(name: "animated SVG of 256 tags of three labels", envelope: .with {
                $0.requestID = 1
                $0.render = .with { $0.tags = manyTags(labelText: "Nike Air Max 90"); $0.format = .svg; $0.animate = .hide }
            }),
            // Hit-testing: every question a pass over the lines of a long text.
            Case(name: "hit test: 4,096 whole-text selections over 1,020 lines", envelope: .with {
                $0.requestID = 1
                $0.hitTest = .with {
                    $0.layout = layout(lines1020).layout
                    $0.selections = Array(repeating: range(0, lines1020.utf16.count), count: 4_096)
                }
            }),
            Case(name: "hit test: 4,096 carets and 4,096 moves over 1,020 lines", envelope: .with {
                $0.requestID = 1
                $0.hitTest = .with {
                    $0.layout = layout(lines1020).layout
                    $0.carets = (0..<4_096).map { k in .with { $0.offset = UInt32(k * 5 % lines1020.utf16.count) } }
                    $0.moves = (0..<4_096).map { k in .with { $0.from.offset = UInt32(k * 5 % lines1020.utf16.count); $0.direction = .right } }
                }
            }),
            Case(name: "hit test: 4,096 points and 4,096 words over 1,020 lines", envelope: .with {
                $0.requestID = 1
                $0.hitTest = .with {
                    $0.layout = layout(lines1020).layout
                    $0.points = (0..<4_096).map { k in .with { $0.x = Float(k % 300); $0.y = Float(k * 7 % 30_000) } }
                    $0.around = (0..<4_096).map { UInt32($0 * 5 % lines1020.utf16.count) }
                }
            }),
        ]
    }

    static func manyTags(labelText: String, at point: Float? = nil, count: Int = 256) -> Layoutd_V1_TagsRequest {
        .with {
            $0.photoWidth = 1080
            $0.photoHeight = 1350
            $0.tags = (0..<count).map { k in .with {
                $0.at = .with { $0.x = point ?? Float(k % 16) / 16; $0.y = point ?? Float(k / 16) / 16 }
                $0.style = UInt32(k % 4)
                $0.labels = (0..<3).map { _ in .with { $0.name = String(labelText.prefix(500)) } }
            } }
        }
    }
}
