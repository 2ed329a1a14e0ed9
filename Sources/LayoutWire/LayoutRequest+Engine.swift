import LayoutEngine

extension Layoutd_V1_LayoutRequest {
    /// The engine request this wire request describes, or the first thing wrong with it.
    /// Field paths are relative to the request ("spans[1].range"); callers prefix them.
    public func paragraphRequest(fonts: FontRegistry) throws(LayoutError) -> ParagraphRequest {
        try formattedRequest(fonts: fonts).request
    }

    /// The same, with the request's formatting rules applied (under `budget`, and their matches
    /// named for the reply): what the rules style comes before the request's own spans.
    public func formattedRequest(fonts: FontRegistry, budget: WorkBudget = .unlimited) throws(LayoutError)
        -> (request: ParagraphRequest, matches: [RuleMatch], ruleNames: [String]) {
        try Bounds.check(count: spans.count, limit: Bounds.maxSpans, field: "spans")
        try Bounds.check(count: backgrounds.count, limit: Bounds.maxBackgrounds, field: "backgrounds")
        let base = try hasDefaultStyle ? defaultStyle.patch(field: "default_style", fonts: fonts) : StylePatch()
        var style = base.applied(to: TextStyle(family: fonts.defaultFamily, size: 17))
        let paint = base.appliedPaint(to: TextPaint())
        if style.family.isEmpty { style.family = fonts.defaultFamily }
        let rules = try compiledRules(fonts: fonts)
        // Matched on the units the text is made of: they are made once, here.
        let textUnits = AttributedText.utf16(text)
        let formatted = try FormattingRules.apply(rules, to: textUnits, budget: budget)
        let spans = formatted.spans + (try self.spans.engineSpans(in: text, units: textUnits.count, fonts: fonts))
        let flow = try textFlow()
        // Containers carry their own widths and heights; the request's stay unset.
        if flow == nil || flow?.isOneBox == true {
            try Bounds.check(width, upTo: Bounds.maxLength, field: "width")
            try Bounds.check(height, upTo: Bounds.maxLength, field: "height", zero: "is unlimited")
        }
        try Bounds.check(lineHeightMultiple, upTo: Bounds.maxLineHeightMultiple, field: "line_height_multiple", unit: "", zero: "means 1")
        try Bounds.check(lineHeight, upTo: Bounds.maxLineHeight, field: "line_height", zero: "is unset")
        let alignment: TextAlignment
        switch self.alignment {
        case .natural: alignment = .natural
        case .left: alignment = .left
        case .right: alignment = .right
        case .center: alignment = .center
        case .justified: alignment = .justified
        case .UNRECOGNIZED(let value):
            throw LayoutError(.invalidArgument, "unknown alignment \(value)", field: "alignment")
        }
        let direction: BaseDirection
        switch self.direction {
        case .auto: direction = .auto
        case .ltr: direction = .leftToRight
        case .rtl: direction = .rightToLeft
        case .UNRECOGNIZED(let value):
            throw LayoutError(.invalidArgument, "unknown direction \(value)", field: "direction")
        }
        let attachments = try self.attachments.inlineAttachments(fonts: fonts)
        let truncationMode: TruncationMode
        switch truncation.mode {
        case .tail: truncationMode = .tail
        case .head: truncationMode = .head
        case .middle: truncationMode = .middle
        case .UNRECOGNIZED(let value):
            throw LayoutError(.invalidArgument, "unknown truncation mode \(value)", field: "truncation.mode")
        }
        var request = ParagraphRequest(
            text: try withRuby(AttributedText(text, units: textUnits, style: style, paint: paint, spans: spans)), width: Double(width),
            height: height > 0 ? Double(height) : nil, alignment: alignment, direction: direction,
            lineHeightMultiple: lineHeightMultiple > 0 ? Double(lineHeightMultiple) : 1,
            lineHeight: lineHeight > 0 ? Double(lineHeight) : nil,
            maxLines: maxLines > 0 ? Int(maxLines) : nil,
            truncationToken: hasTruncation ? (truncation.token.isEmpty ? nil : truncation.token) : ParagraphRequest.defaultTruncationToken,
            attachments: attachments)
        request.truncationMode = truncationMode
        request.measuresInk = inkBounds
        request.measuresIntrinsics = intrinsicMetrics
        request.reportsGlyphFlags = glyphFlags
        switch breakStrategy {
        case .greedy: request.breakStrategy = .greedy
        case .balanced: request.breakStrategy = .balanced
        case .optimal: request.breakStrategy = .optimal
        case .UNRECOGNIZED(let value): throw LayoutError(.invalidArgument, "unknown break strategy \(value)", field: "break_strategy")
        }
        if hasParagraphStyle {
            let style = paragraphStyle
            request.paragraphStyle = ParagraphStyle(
                firstLineHeadIndent: Double(style.firstLineHeadIndent), headIndent: Double(style.headIndent),
                tailIndent: Double(style.tailIndent), spacingBefore: Double(style.spacingBefore), spacingAfter: Double(style.spacingAfter),
                minimumLineHeight: Double(style.minLineHeight), maximumLineHeight: style.maxLineHeight > 0 ? Double(style.maxLineHeight) : nil)
            request.paragraphStyle.defaultTabInterval = Double(style.defaultTabInterval)
            request.paragraphStyle.hangingPunctuation = style.hangingPunctuation
            if style.hasList && style.list.marker != .none {
                let list = style.list
                let marker: ListMarker
                switch list.marker {
                case .none, .bullet: marker = .bullet(list.bullet.isEmpty ? "\u{2022}" : list.bullet)
                case .decimal: marker = .decimal
                case .lowerAlpha: marker = .lowerAlpha
                case .upperAlpha: marker = .upperAlpha
                case .lowerRoman: marker = .lowerRoman
                case .upperRoman: marker = .upperRoman
                case .UNRECOGNIZED(let value):
                    throw LayoutError(.invalidArgument, "unknown list marker \(value)", field: "paragraph_style.list.marker")
                }
                request.paragraphStyle.list = ListStyle(marker: marker, start: list.start == 0 ? 1 : Int(list.start),
                                                        indent: list.indent == 0 ? 24 : Double(list.indent))
            }
            request.paragraphStyle.tabStops = try style.tabStops.enumerated().map { index, stop throws(LayoutError) in
                let field = "paragraph_style.tab_stops[\(index)]"
                let alignment: TabAlignment
                switch stop.alignment {
                case .start: alignment = .start
                case .end: alignment = .end
                case .center: alignment = .center
                case .decimal:
                    let separator = stop.decimalSeparator.isEmpty ? "." : stop.decimalSeparator
                    guard separator.unicodeScalars.count == 1, let scalar = separator.unicodeScalars.first, scalar.value < 0x10000 else {
                        throw LayoutError(.invalidArgument, "a decimal separator is one character, got \"\(separator)\"",
                                          field: field + ".decimal_separator")
                    }
                    alignment = .decimal(separator: scalar)
                case .UNRECOGNIZED(let value): throw LayoutError(.invalidArgument, "unknown tab alignment \(value)", field: field + ".alignment")
                }
                return TabStop(location: Double(stop.location), alignment: alignment)
            }
        }
        if hasHyphenation {
            let h = hyphenation
            for (value, name, limit) in [(h.minWordLength, "min_word_length", 100), (h.minBefore, "min_before", 100),
                                         (h.minAfter, "min_after", 100), (h.maxConsecutiveLines, "max_consecutive_lines", 25)]
            where value > limit {
                throw LayoutError(.invalidArgument, "must be at most \(limit), got \(value)", field: "hyphenation.\(name)")
            }
            request.hyphenation = Hyphenation(minWordLength: h.minWordLength == 0 ? 5 : Int(h.minWordLength), minBefore: Int(h.minBefore),
                                              minAfter: Int(h.minAfter),
                                              maxConsecutiveLines: h.maxConsecutiveLines == 0 ? 2 : Int(h.maxConsecutiveLines))
        }
        if hasTextPath { request.textPath = try textPath.engine(refusingBackgrounds: !backgrounds.isEmpty) }
        if hasAutoSize {
            request.autoSize = AutoSize(minScale: autoSize.minScale == 0 ? 0.5 : Double(autoSize.minScale), step: Double(autoSize.step))
        }
        if var flow {
            // One em of the default style, whatever style the text starts with: a paragraph of a
            // document starts where the whole text does not, and must flow the same.
            flow.minimumFragmentWidth = flow.minimumFragmentWidth ?? style.size
            request.flow = flow
            request.width = flow.containers[0].width
        }
        try applyWritingMode(to: &request)
        return (request, formatted.matches, rules.map(\.rule.name))
    }
}

extension [Layoutd_V1_StyleSpan] {
    /// The engine's spans, each range checked against `text` (`units` long) and each style's
    /// values against the rules; `check` sees each wire style first (Type Mode refuses sizes).
    func engineSpans(in text: String, units: Int, fonts: FontRegistry,
                     check: (Layoutd_V1_Style, String) throws(LayoutError) -> Void = { _, _ in }) throws(LayoutError) -> [AttributedText.Span] {
        var spans: [AttributedText.Span] = []
        spans.reserveCapacity(count)
        for (index, span) in enumerated() {
            let field = "spans[\(index)]"
            guard span.hasRange else { throw LayoutError(.invalidArgument, "a span needs a range", field: field + ".range") }
            let range = try span.range.checked(in: text, units: units, field: field + ".range")
            try check(span.style, field + ".style")
            spans.append(AttributedText.Span(range: range, patch: try span.style.patch(field: field + ".style", fonts: fonts)))
        }
        return spans
    }
}

extension Layoutd_V1_Range {
    /// The range as UTF-16 offsets, if it lies in the text and cuts no surrogate pair.
    func checked(in text: String, units: Int, field: String) throws(LayoutError) -> Range<Int> {
        let start = Int(self.start)
        let end = start + Int(length)
        guard end <= units else {
            throw LayoutError(.invalidArgument, "range \(start)..<\(end) ends past the text's \(units) UTF-16 units", field: field)
        }
        for offset in [start, end] where offset > 0 && offset < units {
            let utf16 = text.utf16
            let unit = utf16[utf16.index(utf16.startIndex, offsetBy: offset)]
            if UTF16.isTrailSurrogate(unit) {
                throw LayoutError(.invalidArgument, "range edge \(offset) falls inside a surrogate pair", field: field)
            }
        }
        return start..<end
    }
}

extension Layoutd_V1_Style {
    /// The overrides this style sets; zero and empty fields inherit. Values obey `StyleRules`.
    public func patch(field: String, fonts: FontRegistry) throws(LayoutError) -> StylePatch {
        var patch = StylePatch()
        if !family.isEmpty {
            try Self.checkFamily(family, in: fonts, field: field + ".family")
            patch.family = family
        }
        if weight != 0 {
            try StyleRules.checkWeight(Int(weight), field: field + ".weight")
            patch.weight = Int(weight)
        }
        switch slant {
        case .inherit: break
        case .upright: patch.italic = false
        case .italic: patch.italic = true
        case .UNRECOGNIZED(let value): throw LayoutError(.invalidArgument, "unknown slant \(value)", field: field + ".slant")
        }
        if size != 0 {
            try StyleRules.checkSize(Double(size), field: field + ".size")
            patch.size = Double(size)
        }
        if hasLetterSpacing {
            let points = Double(letterSpacing.points)
            try StyleRules.checkSignedPoints(points, name: "letter_spacing", field: field + ".letter_spacing.points")
            patch.letterSpacing = points
        }
        if hasBaselineOffset {
            let points = Double(baselineOffset.points)
            try StyleRules.checkSignedPoints(points, name: "baseline_offset", field: field + ".baseline_offset.points")
            patch.baselineOffset = points
        }
        if !features.isEmpty {
            let engineFeatures = features.map { FontFeature(tag: $0.tag, value: $0.value) }
            try StyleRules.checkFeatures(engineFeatures, field: field + ".features")
            patch.features = engineFeatures
        }
        if !language.isEmpty {
            try StyleRules.checkLanguage(language, field: field + ".language")
            patch.language = language
        }
        if !variations.isEmpty || !namedInstance.isEmpty || fixedOpticalSize || opticalSize != 0 {
            let axes = variations.map { FontVariation(tag: $0.tag, value: $0.value) }
            let settings = FontVariationSettings(axes: axes, namedInstance: namedInstance, opticalSizing: !fixedOpticalSize,
                                                 opticalSize: opticalSize == 0 ? nil : Double(opticalSize))
            try StyleRules.checkVariations(settings, field: field)
            patch.variations = settings
        }
        if noFontFallback { patch.fontFallback = false }
        if !script.isEmpty { patch.script = try StyleRules.script(script, field: field + ".script") }
        if !fallbackFamilies.isEmpty {
            guard fallbackFamilies.count <= StyleRules.maxFallbackFamilies else {
                throw LayoutError(.resourceExhausted, "\(fallbackFamilies.count) fallback families; at most \(StyleRules.maxFallbackFamilies)",
                                  field: field + ".fallback_families")
            }
            for (index, name) in fallbackFamilies.enumerated() {
                try Self.checkFamily(name, in: fonts, field: field + ".fallback_families[\(index)]")
            }
            patch.fallbackFamilies = fallbackFamilies
        }
        switch fontSynthesis {
        case .inherit: break
        case .weightAndStyle: patch.synthesis = .all
        case .none: patch.synthesis = []
        case .weight: patch.synthesis = .weight
        case .style: patch.synthesis = .style
        case .UNRECOGNIZED(let value):
            throw LayoutError(.invalidArgument, "unknown font synthesis \(value)", field: field + ".font_synthesis")
        }
        if boldText { patch.boldText = true }
        try addLineBreaking(to: &patch, field: field)
        try addPaint(to: &patch, field: field)
        try addDynamicType(to: &patch, field: field)
        return patch
    }
}

extension Layoutd_V1_Style {
    /// CSS `line-break` and `word-break` onto the patch; unset inherits.
    func addLineBreaking(to patch: inout StylePatch, field: String) throws(LayoutError) {
        switch lineBreak {
        case .inherit: break
        case .strict: patch.lineBreak = .strict
        case .normal: patch.lineBreak = .normal
        case .loose: patch.lineBreak = .loose
        case .anywhere: patch.lineBreak = .anywhere
        case .UNRECOGNIZED(let value): throw LayoutError(.invalidArgument, "unknown line break \(value)", field: field + ".line_break")
        }
        switch wordBreak {
        case .inherit: break
        case .normal: patch.wordBreak = .normal
        case .breakAll: patch.wordBreak = .breakAll
        case .keepAll: patch.wordBreak = .keepAll
        case .autoPhrase: patch.wordBreak = .autoPhrase
        case .UNRECOGNIZED(let value): throw LayoutError(.invalidArgument, "unknown word break \(value)", field: field + ".word_break")
        }
    }

    /// Refuses a family the registry does not have, by name: a style's own and each of its fallback families.
    static func checkFamily(_ name: String, in fonts: FontRegistry, field: String) throws(LayoutError) {
        guard fonts.hasFamily(name) else { throw LayoutError(.notFound, "no loaded font family named \"\(name)\"", field: field) }
    }
}

extension Layoutd_V1_LayoutRequest {
    /// Vertical text's fields onto the engine's request.
    func applyWritingMode(to request: inout ParagraphRequest) throws(LayoutError) {
        let fields = try VerticalFields(self)
        request.writingMode = fields.writingMode
        request.combineUpright = fields.combineUpright
        request.combinesLetters = fields.combinesLetters
        request.textOrientation = fields.textOrientation
        // The columns' length (the height, or each container's) is the engine's to check.
    }
}

/// Vertical text's fields, as layout and justify requests carry them, in the engine's terms;
/// a value out of range names its field.
struct VerticalFields {
    var writingMode: WritingMode
    var textOrientation: TextOrientation
    var combineUpright: Int
    var combinesLetters: Bool

    init(_ request: some VerticalTextFields) throws(LayoutError) {
        switch request.writingMode {
        case .horizontalTb: writingMode = .horizontal
        case .verticalRl: writingMode = .verticalRightToLeft
        case .verticalLr: writingMode = .verticalLeftToRight
        case .UNRECOGNIZED(let value): throw LayoutError(.invalidArgument, "unknown writing mode \(value)", field: "writing_mode")
        }
        guard request.textCombineUpright <= 4 else {
            throw LayoutError(.invalidArgument, "must be in [0, 4] characters, got \(request.textCombineUpright)",
                              field: "text_combine_upright")
        }
        combineUpright = Int(request.textCombineUpright)
        combinesLetters = request.combineLetters
        switch request.textOrientation {
        case .mixed: textOrientation = .mixed
        case .upright: textOrientation = .upright
        case .sideways: textOrientation = .sideways
        case .UNRECOGNIZED(let value): throw LayoutError(.invalidArgument, "unknown text orientation \(value)", field: "text_orientation")
        }
    }
}

extension Layoutd_V1_TextPath {
    /// The engine's path to set text along, or the first thing wrong with it (the engine checks
    /// the path's coordinates and what the rest of the request may not set with it).
    public func engine(refusingBackgrounds: Bool) throws(LayoutError) -> TextPath {
        guard !refusingBackgrounds else {
            throw LayoutError(.invalidArgument, "text on a path is one line along it: backgrounds cannot be set on it", field: "backgrounds")
        }
        let path = try self.path.engine(field: "text_path.path", limit: TextPath.maxCommands)
        let anchor: TextPath.Anchor
        switch self.anchor {
        case .start: anchor = .start
        case .middle: anchor = .middle
        case .end: anchor = .end
        case .UNRECOGNIZED(let value):
            throw LayoutError(.invalidArgument, "unknown anchor \(value); ANCHOR_START, ANCHOR_MIDDLE or ANCHOR_END", field: "text_path.anchor")
        }
        let side: TextPath.Side
        switch self.side {
        case .left: side = .left
        case .right: side = .right
        case .UNRECOGNIZED(let value):
            throw LayoutError(.invalidArgument, "unknown side \(value); SIDE_LEFT or SIDE_RIGHT", field: "text_path.side")
        }
        return TextPath(path: path, startOffset: Double(startOffset), anchor: anchor, side: side)
    }
}
