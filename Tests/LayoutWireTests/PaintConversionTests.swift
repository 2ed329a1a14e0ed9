import LayoutEngine
import LayoutWire
import Testing
import LayoutUnicode

/// A style's paint on the wire (in `ConversionTests`, whose request and helpers it shares): colour, fill, underline, strikethrough and shadow come through
/// as the engine's paint, and every bad value is refused by name with nothing half-applied.
extension ConversionTests {
    static let wireRed = Layoutd_V1_Color.with { $0.red = 1 }

    @Test func theDefaultStylesPaintAndASpansComeThrough() throws {
        let request = try convert {
            $0.defaultStyle.color = Self.wireRed
            $0.defaultStyle.underline = .with { $0.style = .dashed; $0.skipInk = true; $0.position = .left }
            $0.spans = [.with {
                $0.range = .with { $0.start = 8; $0.length = 6 }
                $0.style.underline = .with { $0.style = .none }
                $0.style.strikethrough = .with { $0.color = .with { $0.blue = 1 } }
                $0.style.background = .with { $0.green = 1; $0.transparency = 0.5 }
                $0.style.shadow = .with { $0.offsetX = 2; $0.offsetY = 3; $0.blurRadius = 4 }
            }]
        }.get()
        let red = Color(red: 1, green: 0, blue: 0)
        #expect(request.text.paints == [
            TextPaint(color: red, underline: DecorationLine(style: .dashed, skipsInk: true, position: .left)),
            TextPaint(color: red, background: Color(red: 0, green: 1, blue: 0, alpha: 0.5),
                      strikethrough: DecorationLine(color: Color(red: 0, green: 0, blue: 1)),
                      shadows: [TextShadow(offset: Point(x: 2, y: 3), blurRadius: 4)]),
        ])
        #expect(request.text.paintRuns.map(\.range) == [0..<8, 8..<14])
        // Paint never splits what is shaped.
        #expect(request.text.styles.count == 1)
    }

    /// An underline's side comes back on the reply's paints (engine to wire) as it was asked for (wire to engine).
    @Test func anUnderlinesPositionComesBackOnThePaints() throws {
        for position in DecorationLine.UnderlinePosition.allCases {
            let wire = Layoutd_V1_DecorationLine(DecorationLine(position: position))
            let request = try convert { $0.defaultStyle.underline = wire }.get()
            #expect(request.text.paints.first?.underline == DecorationLine(position: position))
        }
    }

    @Test func aShadowCanBeCleared() throws {
        let request = try convert {
            $0.defaultStyle.shadow = .with { $0.offsetX = 1 }
            $0.spans = [.with { $0.range = .with { $0.start = 0; $0.length = 6 }; $0.style.shadow = .with { $0.none = true } }]
        }.get()
        #expect(request.text.paints.map(\.shadow) == [nil, TextShadow(offset: Point(x: 1, y: 0))])
    }

    @Test func everyBadPaintValueIsNamed() {
        func failure(_ configure: (inout Layoutd_V1_LayoutRequest) -> Void) -> LayoutError? {
            if case .failure(let error) = convert(configure) { return error }
            return nil
        }
        #expect(failure { $0.defaultStyle.color = .with { $0.red = 2 } }?.field == "default_style.color.red")
        #expect(failure { $0.defaultStyle.background = .with { $0.transparency = .nan } }?.field == "default_style.background.transparency")
        #expect(failure { $0.defaultStyle.underline = .with { $0.style = .UNRECOGNIZED(42) } }?.field == "default_style.underline.style")
        #expect(failure { $0.defaultStyle.underline = .with { $0.color = .with { $0.blue = -1 } } }?.field
                == "default_style.underline.color.blue")
        #expect(failure { $0.defaultStyle.strikethrough = .with { $0.skipInk = true } }?.field == "default_style.strikethrough.skip_ink")
        #expect(failure { $0.defaultStyle.underline = .with { $0.position = .UNRECOGNIZED(3) } }?.field == "default_style.underline.position")
        #expect(failure { $0.defaultStyle.strikethrough = .with { $0.position = .right } }?.field == "default_style.strikethrough.position")
        #expect(failure { $0.defaultStyle.shadow = .with { $0.blurRadius = 101 } }?.field == "default_style.shadow.blur_radius")
        #expect(failure { $0.defaultStyle.shadow = .with { $0.offsetY = .infinity } }?.field == "default_style.shadow.offset_y")
        #expect(failure { $0.defaultStyle.shadow = .with { $0.color = .with { $0.green = 9 } } }?.field == "default_style.shadow.color.green")
        #expect(failure {
            $0.spans = [.with { $0.range = .with { $0.start = 0; $0.length = 1 }; $0.style.strikethrough = .with { $0.style = .UNRECOGNIZED(-3) } }]
        }?.field == "spans[0].style.strikethrough.style")
        // The message says what was wrong, not only where.
        #expect(failure { $0.defaultStyle.shadow = .with { $0.blurRadius = -1 } }?.message.contains("[0, 100]") == true)
    }
}

/// Dynamic Type on the wire: a text style and a category instead of a size.
extension ConversionTests {
    @Test func aTextStyleGivesSizeWeightAndLeading() throws {
        let body = try convert { $0.defaultStyle.textStyle = .textStyleBody; $0.defaultStyle.sizeCategory = .contentSizeAx5 }.get()
        #expect(body.text.styles[0].size == 53 && body.text.styles[0].weight == 400 && body.text.styles[0].lineHeight == 62)
        #expect(body.lineHeight == nil, "Dynamic Type's leading is the text's, not a fixed line height")
        let headline = try convert { $0.defaultStyle.textStyle = .textStyleHeadline }.get()
        #expect(headline.text.styles[0].size == 17 && headline.text.styles[0].weight == 600 && headline.text.styles[0].lineHeight == 22)
        // An explicit weight and line height win.
        let bold = try convert { $0.defaultStyle.textStyle = .textStyleHeadline; $0.defaultStyle.weight = 700; $0.lineHeight = 30 }.get()
        #expect(bold.text.styles[0].weight == 700 && bold.lineHeight == 30)
        #expect(try convert { $0.defaultStyle.textStyle = .textStyleBody; $0.lineHeightMultiple = 1.5 }.get().lineHeight == nil)
        // A span with an explicit size in Dynamic Type text has no line height of its own.
        let span = try convert {
            $0.defaultStyle.textStyle = .textStyleBody
            $0.spans = [.with { $0.range = .with { $0.length = 2 }; $0.style.size = 40 }]
        }.get()
        #expect(span.text.runs.map { span.text.styles[$0.style].lineHeight } == [nil, 22])
    }

    @Test func anExplicitSizeIsScaledAndCapped() throws {
        let scaled = try convert {
            $0.defaultStyle.size = 20
            $0.defaultStyle.textStyle = .textStyleTitle1
            $0.defaultStyle.sizeCategory = .contentSizeXxxLarge
        }.get()
        #expect(abs(scaled.text.styles[0].size - 20 * 34 / 28) < 1e-6)
        #expect(scaled.lineHeight == nil && scaled.text.styles[0].lineHeight == nil, "an explicit size keeps the font's own line height")
        let capped = try convert {
            $0.defaultStyle.textStyle = .textStyleLargeTitle
            $0.defaultStyle.sizeCategory = .contentSizeAx5
            $0.defaultStyle.maxScaledSize = 40
        }.get()
        #expect(capped.text.styles[0].size == 40 && abs(capped.text.styles[0].lineHeight! - 70.0 * 40 / 60) < 1e-9)
        // A span's text style sizes its range only.
        let spans = try convert {
            $0.spans = [.with { $0.range = .with { $0.start = 0; $0.length = 5 }; $0.style.textStyle = .textStyleCaption2 }]
        }.get()
        #expect(spans.text.runs.map { spans.text.styles[$0.style].size } == [11, 17])
    }

    @Test func boldTextHoldsForTheStyleAndItsSpans() throws {
        let request = try convert {
            $0.defaultStyle.textStyle = .textStyleHeadline
            $0.defaultStyle.boldText = true
            $0.spans = [.with { $0.range = .with { $0.length = 2 }; $0.style.weight = 300 }]
        }.get()
        #expect(request.text.styles.map(\.boldText) == [true, true])
        // Headline's semibold (600) is matched at 900; the span's 300 at 600.
        #expect(request.text.styles.map(\.effectiveWeight) == [600, 900])
        #expect(try convert { $0.defaultStyle.size = 12 }.get().text.styles[0].boldText == false)
    }

    @Test func badDynamicTypeIsNamed() {
        #expect(field { $0.defaultStyle.textStyle = .UNRECOGNIZED(12) } == "default_style.text_style")
        #expect(field { $0.defaultStyle.sizeCategory = .UNRECOGNIZED(-1) } == "default_style.size_category")
        #expect(field { $0.defaultStyle.maxScaledSize = -3 } == "default_style.max_scaled_size")
        #expect(field { $0.defaultStyle.maxScaledSize = .nan } == "default_style.max_scaled_size")
        #expect(field {
            $0.spans = [.with { $0.range = .with { $0.length = 1 }; $0.style.textStyle = .UNRECOGNIZED(99) }]
        } == "spans[0].style.text_style")
    }
}

/// Text effects on the wire: defaults filled in, bad values named.
extension ConversionTests {
    @Test func effectsComeThroughWithTheirDefaults() throws {
        let request = try convert {
            $0.defaultStyle.effect = .with { $0.kind = .letterpress }
            $0.spans = [.with { $0.range = .with { $0.start = 0; $0.length = 5 }; $0.style.effect = .with { $0.kind = .outline; $0.fill = true } },
                        .with { $0.range = .with { $0.start = 8; $0.length = 1 }; $0.style.effect = .with { $0.kind = .none } }]
        }.get()
        #expect(request.text.paints.map(\.effect) == [.outline(width: 1, color: nil, keepsFill: true),
                                                       .letterpress(surface: Color(red: 1, green: 1, blue: 1), depth: 1), nil])
    }

    @Test func badEffectsAreNamed() {
        #expect(field { $0.defaultStyle.effect = .with { $0.kind = .letterpress; $0.depth = 25 } } == "default_style.effect.depth")
        #expect(field { $0.defaultStyle.effect = .with { $0.kind = .outline; $0.strokeWidth = -1 } } == "default_style.effect.stroke_width")
        #expect(field { $0.defaultStyle.effect = .with { $0.kind = .UNRECOGNIZED(7) } } == "default_style.effect.kind")
        #expect(field { $0.defaultStyle.effect = .with { $0.kind = .letterpress; $0.surface = .with { $0.red = 4 } } }
                == "default_style.effect.surface.red")
        #expect(field { $0.defaultStyle.effect = .with { $0.kind = .outline; $0.strokeColor = .with { $0.blue = .nan } } }
                == "default_style.effect.stroke_color.blue")
    }
}

/// Formatting rules on the wire: built-in and the request's own, before the request's spans.
extension ConversionTests {
    func formatted(_ text: String, _ configure: (inout Layoutd_V1_LayoutRequest) -> Void)
        throws -> (request: ParagraphRequest, matches: [RuleMatch], ruleNames: [String]) {
        var request = Layoutd_V1_LayoutRequest()
        request.text = text
        request.width = 300
        configure(&request)
        return try request.formattedRequest(fonts: Self.fonts)
    }

    @Test func rulesStyleWhatTheyMatchAndSpansWin() throws {
        let result = try formatted("a *bold* #tag") {
            $0.builtinRules = .notes
            $0.hideBuiltinMarkers = true
            $0.rules = [.with { $0.pattern = "#(\\w+)"; $0.group = 1; $0.name = "tag"; $0.style.weight = 300 }]
            // The request's own span wins over the rule on "ta".
            $0.spans = [.with { $0.range = .with { $0.start = 10; $0.length = 2 }; $0.style.weight = 900 }]
        }
        #expect(result.ruleNames.prefix(6) == ["bold", "italic", "strikethrough", "script", "list-number", "capitals"])
        #expect(result.ruleNames.last == "tag")
        #expect(result.matches.map(\.range) == [3..<7, 10..<13])
        #expect(result.matches[0].hidden == [2..<3, 7..<8])
        #expect(result.request.text.hidden == [2..<3, 7..<8])
        let text = result.request.text
        let weights = text.runs.map { ($0.range, text.styles[$0.style].weight) }
        #expect(weights.map(\.0) == [0..<3, 3..<7, 7..<10, 10..<12, 12..<13])
        #expect(weights.map(\.1) == [400, 700, 400, 900, 300])
    }

    @Test func badRulesAreNamed() {
        func failure(_ configure: @escaping (inout Layoutd_V1_LayoutRequest) -> Void) -> LayoutError? {
            do { _ = try formatted("text", configure); return nil } catch { return error as? LayoutError }
        }
        #expect(failure { $0.rules = [.with { $0.pattern = "(" }] }?.field == "rules[0].pattern")
        #expect(failure { $0.rules = [.with { $0.pattern = "(a)"; $0.group = 3 }] }?.field == "rules[0].group")
        #expect(failure { $0.rules = [.with { $0.pattern = "t"; $0.style.weight = 5000 }] }?.field == "rules[0].style.weight")
        #expect(failure { $0.rules = [.with { $0.pattern = "t"; $0.style.family = "Nope" }] }?.field == "rules[0].style.family")
        #expect(failure { $0.rules = Array(repeating: .with { $0.pattern = "t" }, count: 33) }?.field == "rules")
        #expect(failure { $0.builtinRules = .UNRECOGNIZED(5) }?.field == "builtin_rules")
        // Nothing half-applied: a bad rule after a good one refuses the whole request.
        #expect(failure { $0.rules = [.with { $0.pattern = "t"; $0.style.weight = 700 }, .with { $0.pattern = "[" }] }?.field == "rules[1].pattern")
    }
}

/// Type Mode's spans and rules: they style, they never size (the fit does).
extension ConversionTests {
    func plan(_ configure: (inout Layoutd_V1_JustifyRequest) -> Void) -> Result<JustifyPlan, LayoutError> {
        var request = Layoutd_V1_JustifyRequest()
        request.text = "so *HAPPY* to see you"
        request.width = 300
        configure(&request)
        return Result { () throws(LayoutError) in try request.plan(fonts: Self.fonts) }
    }

    @Test func typeModeSpansAndRulesStyleButDoNotSize() throws {
        let styled = try plan {
            $0.spans = [.with { $0.range = .with { $0.start = 0; $0.length = 2 }; $0.style.weight = 700; $0.style.underline = .init() }]
            $0.builtinRules = .notes
            $0.hideBuiltinMarkers = true
        }.get()
        #expect(styled.ruleMatches.map(\.name) == ["bold", "capitals"])
        #expect(styled.request.spans.count == 5, "bold, its two hidden markers, capitals; then the request's span")
        let layout = try ParagraphLayouter(fonts: Self.fonts).justify(styled.request)
        #expect(layout.paragraph.decorations.contains { $0.kind == .underline && $0.range == 0..<2 })
        func field(_ configure: (inout Layoutd_V1_JustifyRequest) -> Void) -> String? {
            if case .failure(let error) = plan(configure) { return error.field }
            return nil
        }
        #expect(field { $0.spans = [.with { $0.range = .with { $0.length = 2 }; $0.style.size = 30 }] } == "spans[0].style.size")
        #expect(field { $0.spans = [.with { $0.range = .with { $0.length = 2 }; $0.style.textStyle = .textStyleBody }] } == "spans[0].style.text_style")
        #expect(field { $0.rules = [.with { $0.pattern = "so"; $0.style.size = 12 }] } == "rules[0].style.size")
        #expect(field { $0.spans = [.with { $0.range = .with { $0.start = 90; $0.length = 2 } }] } == "spans[0].range")
        #expect(field { $0.rules = [.with { $0.pattern = "(" }] } == "rules[0].pattern")
    }
}
