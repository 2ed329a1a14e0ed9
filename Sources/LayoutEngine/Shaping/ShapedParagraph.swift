/// The width-independent stage: analyze → itemize → shape → measure, once per text and style.
///
/// Any number of layouts at any width start from one shaped paragraph, as Skia keeps `kShaped`
/// apart from `kFormatted` and minikin keeps `MeasuredText` apart from `breakIntoLines`: Type
/// Mode breaks it at many sizes, truncation and re-layout at another width reuse it.
///
/// A value: it holds the analysis, the items, the shaped runs and the prefix widths, and none
/// of the request's working state — the shaper, the scratch it took its arrays from and the
/// budget travel in the caller's `LayoutContext`.
///
/// **Lifetime rule.** The glyph buffers its line pieces point into (`ShapedGlyphs`, by unsafe
/// pointer) live as long as some copy of the paragraph does. Whatever is made from it —
/// pieces, planned lines, a positioner — must not outlive it: a `ParagraphPositioner` holds a
/// copy for as long as it runs. When the request is done with it, `LayoutContext.recycle` gives
/// its arrays back to the scratch.
struct ShapedParagraph {
    /// The arrays, behind one reference: a paragraph is copied into its positioner and passed
    /// around, and as a struct of a dozen arrays each copy cost a dozen reference counts.
    final class Storage {
        let text: AttributedText
        var analysis: TextAnalysis
        /// Fonts, fallback and HarfBuzz forms of the text's styles: shared with the scratch's memo
        /// and the text's other paragraphs.
        let styles: ResolvedStyles
        var shapingUnits: ContiguousArray<UInt16>
        var items: [Item]
        var runs: [ShapedRun]
        let boxes: [InlineBox]
        var prefix: [Double]
        let prefixRises: Bool
        /// The styles' `hasLineHeights`, kept here: read for every line, where reaching it
        /// through `styles` took a reference count.
        let hasLineHeights: Bool
        /// Vertical text with an underline: its lines grow to hold it (`VerticalUnderline`).
        let holdsUnderlines: Bool

        init(text: AttributedText, analysis: TextAnalysis, styles: ResolvedStyles,
             shapingUnits: ContiguousArray<UInt16>, items: [Item], runs: [ShapedRun], boxes: [InlineBox], prefix: [Double],
             prefixRises: Bool, vertical: Bool) {
            self.text = text
            self.analysis = analysis
            self.styles = styles
            self.shapingUnits = shapingUnits
            self.items = items
            self.runs = runs
            self.boxes = boxes
            self.prefix = prefix
            self.prefixRises = prefixRises
            self.hasLineHeights = styles.hasLineHeights
            // Each paint's field read in place: `contains` on the paints copied each one.
            self.holdsUnderlines = vertical && text.paints.indices.contains { text.paints[$0].underline != nil }
        }
    }
    private var storage: Storage

    // Borrowed, not copied (`_read`): a getter returning the text copied its six arrays' counts
    // at every `shaped.text.styles[…]`.

    var text: AttributedText { _read { yield storage.text } }
    /// The text's length in UTF-16 units, read without borrowing the text (`AttributedText.unitCount`).
    var unitCount: Int { storage.text.unitCount }
    /// Which shaping this is: copies share it, shaping again makes another.
    var identity: ObjectIdentifier { ObjectIdentifier(storage) }
    var analysis: TextAnalysis { _read { yield storage.analysis } }
    var fallback: FontFallback { _read { yield storage.styles.fallback } }
    var shapingStyles: [ShapingStyle] { _read { yield storage.styles.shaping } }
    /// The text HarfBuzz sees: tabs and attachments become spaces, other controls zero-width spaces.
    var shapingUnits: ContiguousArray<UInt16> { _read { yield storage.shapingUnits } }
    /// Runs of text of one font, style, script and level; attachments are in `boxes` (an item may
    /// span one: it is shaped through, and its glyph is never placed).
    var items: [Item] { _read { yield storage.items } }
    var runs: [ShapedRun] { _read { yield storage.runs } }
    /// The attachments' boxes, in text order, each at its U+FFFC.
    var boxes: [InlineBox] { _read { yield storage.boxes } }
    /// prefix[i] is the advance of units 0..<i in points, letter spacing included.
    var prefix: [Double] { _read { yield storage.prefix } }
    /// No unit's advance is negative (no negative letter spacing or kerning pulled one back),
    /// so `prefix` never falls: a width can be found in it by bisection.
    var prefixRises: Bool { storage.prefixRises }
    /// Some style spaces its letters: positioning must look at every glyph's extra advance.
    var hasLetterSpacing: Bool { storage.styles.hasLetterSpacing }

    /// Analyzes, itemizes, shapes and measures `text`, filling arrays taken from the context's
    /// scratch, checking the context's budget between items.
    /// `offset` is where the paragraph starts in the request's text and `firstAttachment` the
    /// request's index of `attachments[0]`: errors name places as the request has them.
    /// `analysis` is the text's, when the caller has it already; `styles`, what every paragraph
    /// of one text shares (made once: per paragraph, a text of many paragraphs and many spans
    /// paid their product).
    /// What is only read is borrowed: an initializer's arguments are otherwise passed owned,
    /// each retained by the caller and released here.
    init(text: AttributedText, direction: BaseDirection, attachments: borrowing [InlineAttachment] = [], firstAttachment: Int = 0,
         offset: Int = 0, analysis given: consuming TextAnalysis? = nil, styles shared: ResolvedStyles? = nil,
         vertical: VerticalSetting? = nil, fonts: borrowing FontRegistry, context: borrowing LayoutContext) throws {
        // A throw drops the arrays taken so far; the scratch refills them next time.
        let scratch = context.scratch
        let styles = try shared ?? scratch.resolved(text.styles, fonts: fonts, user: context.budget.user)
        // `styles.fallback` and `styles.shaping` are read in place below: copied into locals,
        // their four arrays and registry were counted on every layout.
        // Moved out of `given`: `??` copied it (its three arrays counted twice).
        var analysis: TextAnalysis
        switch consume given {
        case .some(let given): analysis = given
        case .none: analysis = TextAnalysis.analyze(text, direction: direction, unicode: context.unicode, scratch: scratch)
        }
        // Before anything is shaped.
        if let clusterOffset = analysis.overlongCluster { throw Self.overlongCluster(at: offset + clusterOffset) }
        // CSS text-orientation: upright takes every character as strong left-to-right.
        if vertical?.orientation == .upright && !analysis.isLeftToRightOnly { analysis.setLeftToRight() }
        // Asked only when there are attachments: the call copied the fallback chain (three
        // references counted) for the empty answer.
        let boxes = attachments.isEmpty ? []
            : try AttachmentResolver.boxes(for: attachments, firstIndex: firstAttachment, text: text, analysis: analysis,
                                           fallback: styles.fallback)
        // By index: a zip of the two arrays went through Swift's generic tuple code per box.
        for index in boxes.indices where !attachments[index].breaksAround {
            // Glued to its neighbours: the opportunities on either side go (not a hard break's).
            for edge in [boxes[index].range.lowerBound, boxes[index].range.upperBound] where edge > 0 && edge < text.units.count
                && !analysis.flags[edge].contains(.mustBreakBefore) {
                analysis.flags[edge].remove(.breakBefore)
            }
        }
        if text.hasRuby { try RubyBases.check(text.ruby, flags: &analysis.flags, offset: offset) }
        let shapingUnits: ContiguousArray<UInt16>
        if Self.shapesACopy(analysis, boxes) || !text.hidden.isEmpty {
            // A copy into the scratch's array, not a new one: the text's own units stay as sent.
            var copy = scratch.shapingUnits.movedOut().emptied()
            copy.append(contentsOf: text.units)
            if let first = analysis.firstControl { Self.replaceControls(in: &copy, from: first) }
            // HarfBuzz sees a box as a space: an object between words, which breaks joining and
            // contextual forms as U+FFFC does, but which every font has (U+FFFC, missing from most,
            // sent shaping down a slower path).
            for box in boxes { copy[box.range.lowerBound] = 0x20 }
            // Hidden units are shaped as zero-width spaces: default ignorables, which HarfBuzz
            // gives an invisible glyph of no advance, and which break joining as the marker did.
            for range in text.hidden { for i in range { copy[i] = 0x200B } }
            shapingUnits = copy
        } else {
            shapingUnits = text.units
        }
        var items = scratch.items.movedOut().emptied()
        Itemizer.itemize(text, analysis: analysis, fallback: styles.fallback, boxes: boxes, into: &items, scalars: &scratch.scalars)
        // Cut where the orientation changes, and strict kinsoku applied (the same walk).
        if let vertical {
            var pieces = scratch.verticalItems.movedOut().emptied()
            VerticalItems.split(items, into: &pieces, units: text.units, flags: &analysis.flags, setting: vertical)
            // The itemizer's array waits in the scratch for the next vertical layout's pieces.
            scratch.verticalItems = items
            items = pieces
        }
        var runs = scratch.runs.movedOut().emptied()
        if let vertical {
            try Self.shape(items, units: shapingUnits, styles: styles, joining: true, context: context, into: &runs)
            // Combined runs wider than the em, in the font's narrower glyphs where it has them.
            if vertical.combineUpTo > 1 { Self.narrowCombined(items, units: shapingUnits, styles: styles, context: context, runs: &runs) }
        } else {
            try Self.shape(items, units: shapingUnits, styles: styles, joining: false, context: context, into: &runs)
        }
        if text.hasRuby { RubyBases.space(&runs, items: items, text: text, flags: analysis.flags) }
        var prefix = scratch.prefix.movedOut().emptied()
        let prefixRises = Self.measure(items: items, runs: runs, boxes: boxes, text: text, flags: analysis.flags, into: &prefix)
        // The locals moved in: passed as they were, the analysis was copied into the storage
        // (its three arrays counted) and the local destroyed.
        storage = Storage(text: text, analysis: consume analysis, styles: styles, shapingUnits: shapingUnits, items: consume items,
                          runs: consume runs, boxes: boxes, prefix: consume prefix, prefixRises: prefixRises, vertical: vertical != nil)
    }

    /// Why a text with a grapheme cluster too long to shape is refused.
    static func overlongCluster(at offset: Int) -> LayoutError {
        LayoutError(.invalidArgument, "the grapheme cluster at UTF-16 offset \(offset) holds more than "
                    + "\(TextAnalysis.maxClusterScalars) code points (Unicode's Stream-Safe Text Format allows 30 marks in a row)",
                    field: "text")
    }

    /// Moves the arrays into `scratch` (see `LayoutContext.recycle`), when no other copy of this
    /// paragraph shares them: a paragraph someone keeps stays whole.
    mutating func giveBack(to scratch: LayoutScratch) {
        scratch.reshaped.removeAll(keepingCapacity: true)  // the request's pieces are gone, and so its re-shaped runs
        guard isKnownUniquelyReferenced(&storage) else { return }
        let storage = self.storage
        scratch.flags = storage.analysis.flags.movedOut()
        scratch.levels = storage.analysis.levels.movedOut()
        // Only a copy goes back: the text's own units belong to the request.
        if Self.shapesACopy(storage.analysis, storage.boxes) { scratch.shapingUnits = storage.shapingUnits.movedOut() }
        scratch.paragraphs = storage.analysis.paragraphs.movedOut()
        scratch.items = storage.items.movedOut()
        scratch.runs = storage.runs.movedOut()
        scratch.prefix = storage.prefix.movedOut()
    }

    /// Per-unit advances summed into prefix widths, appended to the empty `prefix`. A cluster's
    /// advance is charged to its first unit, a box's width to its unit; letter spacing to every
    /// grapheme start. Returns true when no unit's advance is negative (`prefixRises`).
    @inline(__always)  // into its one caller: left a call, it showed in the counts
    static func measure(items: [Item], runs: [ShapedRun], boxes: [InlineBox], text: AttributedText,
                        flags: ContiguousArray<UnitFlags>, into prefix: inout [Double]) -> Bool {
        let count = text.units.count
        prefix.appendZeros(count + 1)
        var prefix = prefix.mutableSpan
        // Told once, the prefix sums below need no bounds check per unit.
        precondition(prefix.count == count + 1)
        // By index, through spans: a zip of the two arrays, or an item and a run copied out of
        // them, retained and released their font and glyphs to read a few numbers.
        let items = items.span, runs = runs.span
        for index in items.indices {
            let item = items[index], run = runs[index]
            let scale = item.font.scale(for: text.styles[item.style].size)
            let letterSpacing = text.styles[item.style].letterSpacing
            let base = run.range.lowerBound + 1
            if item.orientation == .combined {
                // Tate-chu-yoko: the run stands across the line in one em, whatever its glyphs' width.
                prefix[item.range.lowerBound + 1] += text.styles[item.style].size
                continue
            }
            run.slice.addAdvances(scale: scale, at: base, of: run.range.count, into: &prefix)
            if letterSpacing != 0 {
                for unit in item.range where flags[unit].contains(.graphemeStart) {
                    prefix[unit + 1] += letterSpacing
                }
            }
        }
        // A box's units measure the box alone, whatever glyph an item shaped through it gave.
        for box in boxes {
            prefix[box.range.lowerBound + 1] = box.width + text.styles[box.style].letterSpacing
            for unit in box.range.dropFirst() { prefix[unit + 1] = 0 }
        }
        // The lowest step, kept without a branch per unit; a NaN anywhere leaves the total NaN.
        var lowest = 0.0
        for i in 0..<count {
            let step = prefix[i + 1]
            lowest = step < lowest ? step : lowest
            prefix[i + 1] = prefix[i] + step
        }
        return lowest >= 0 && prefix[count].isFinite
    }

    /// HarfBuzz sees other units than the text's (controls, attachments): `shapingUnits` is the
    /// scratch's copy, not the text's array. Static, so init can ask before `self` is complete.
    private static func shapesACopy(_ analysis: TextAnalysis, _ boxes: [InlineBox]) -> Bool {
        analysis.hasControls || !boxes.isEmpty
    }

    /// Tabs become spaces and other controls zero-width spaces: fonts have no glyph for them.
    /// `first`: the first control's offset (none comes before it).
    static func replaceControls(in units: inout ContiguousArray<UInt16>, from first: Int = 0) {
        for i in first..<units.count {
            let u = units[i]
            if u == 0x09 { units[i] = 0x20 } else if UnitClass.isControl(u) { units[i] = 0x200B }
        }
    }

    /// Style index of the unit at `offset`.
    func styleIndex(at offset: Int) -> Int { text.styleIndex(at: offset) }

    /// The paragraph's resolved base level (0 left-to-right, 1 right-to-left): a shaped
    /// paragraph is one bidi paragraph, so every line of it has this level.
    var baseLevel: UInt8 { analysis.paragraphs.first?.baseLevel ?? 0 }

    /// The first paragraph's resolved direction, which a layout reports.
    var firstDirection: BaseDirection { baseLevel == 1 ? .rightToLeft : .leftToRight }

    /// Of `count` sorted, gap-free ranges, the index of the one holding `offset` (the last one
    /// for an offset past them all), given each range's upper bound.
    @inline(__always)
    static func bisect(_ count: Int, holding offset: Int, upperBound: (Int) -> Int) -> Int {
        max(0, min(firstIndex(count) { upperBound($0) > offset }, count - 1))
    }

    /// The first of `count` indices where `isPast` holds, by bisection: it must be false up to
    /// some index and true from there on (`count` when it never holds).
    @inline(__always)
    static func firstIndex(_ count: Int, where isPast: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let mid = (low &+ high) >> 1  // both non-negative: a shift, not a signed division
            if isPast(mid) { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Grows a line for the emphasis marks over or under `piece`'s text: past its font's ascent
    /// or descent in horizontal text; in vertical text past half its em on the column's right
    /// (over) or left (under), which is the frame's ascent side as right-to-left columns turn
    /// it (a left-to-right line's metrics are mirrored after, `LineMetrics.mirror`). Kept out
    /// of line: inlined, it slowed the loop over every line's items.
    @inline(never)
    private func includeMarks(of piece: LinePiece, in metrics: inout LineMetrics, _ styled: inout StyledLineHeight,
                              _ lineHeights: Bool) {
        let sides = emphasisSides(piece.range)
        guard sides.over || sides.under else { return }
        if piece.orientation == .horizontal {
            metrics.includeMarks(piece.font, size: piece.size, shift: piece.shift, over: sides.over, under: sides.under)
            if lineHeights {
                styled.content.includeMarks(piece.font, size: piece.size, shift: piece.shift, over: sides.over, under: sides.under)
            }
        } else {
            metrics.includeMarksAcross(size: piece.size, ascentSide: sides.over, descentSide: sides.under)
            if lineHeights { styled.content.includeMarksAcross(size: piece.size, ascentSide: sides.over, descentSide: sides.under) }
        }
    }

    /// Grows a line for the ruby over or beside `piece`'s text (see `includeMarks`).
    private func includeRuby(of piece: LinePiece, in metrics: inout LineMetrics, _ styled: inout StyledLineHeight,
                             _ lineHeights: Bool) {
        let ruby = text.ruby
        var index = Self.firstIndex(ruby.count) { ruby[$0].base.upperBound > piece.range.lowerBound }
        while index < ruby.count && ruby[index].base.lowerBound < piece.range.upperBound {
            let annotation = ruby[index]
            index += 1
            guard let band = annotation.laid?.thickness else { continue }
            if piece.orientation == .horizontal {
                metrics.includeRuby(piece.font, size: piece.size, shift: piece.shift, band: band, under: annotation.under)
                if lineHeights { styled.content.includeRuby(piece.font, size: piece.size, shift: piece.shift, band: band, under: annotation.under) }
            } else {
                // Over is the column's right: the frame's ascent side as right-to-left columns turn it.
                let ascentSide = !annotation.under
                metrics.includeRubyAcross(size: piece.size, band: band, ascentSide: ascentSide)
                if lineHeights { styled.content.includeRubyAcross(size: piece.size, band: band, ascentSide: ascentSide) }
            }
        }
    }

    /// Whether some text of `range` (this paragraph's offsets) has emphasis marks over it, and
    /// whether some has them under it.
    func emphasisSides(_ range: Range<Int>) -> (over: Bool, under: Bool) {
        var sides = (over: false, under: false)
        var offset = range.lowerBound
        while offset < range.upperBound {
            let run = text.paintRun(at: offset)
            if let emphasis = text.paints[run.paint].emphasis {
                if emphasis.over { sides.over = true } else { sides.under = true }
            }
            offset = run.range.upperBound
        }
        return sides
    }

    /// The vertical metrics of a line holding `items`, whose boxes get their place on it.
    ///
    /// Glyph runs set the text's metrics, as CoreText does (the tallest font sets each); a line
    /// without glyphs (only a hard break, or only boxes) takes the font of the style at
    /// `offset`. Boxes aligned to the baseline then grow the line to hold them, and last the
    /// boxes aligned to the line's top, bottom or middle are placed against those metrics
    /// (as SkParagraph's placeholders are) and grow it too. A vertical line grows to hold its
    /// underlines too. Its metrics are as right-to-left columns turn its frame; left-to-right
    /// ones mirror them (`LineMetrics.mirror`).
    func metrics(of items: inout [LineItem], at offset: Int, emptyLineSizeFactor: Double = 1) -> LineMetrics {
        var metrics = LineMetrics()
        var hasGlyphs = false
        var hasBoxes = false
        let lineHeights = storage.hasLineHeights, marks = text.hasEmphasis
        var styled = StyledLineHeight()
        for item in items {
            switch item {
            case .glyphs(let piece) where piece.orientation == .upright || piece.orientation == .combined:
                // Across a vertical line an upright glyph takes its em, half on either side of the centre.
                metrics.includeEm(size: piece.size)
                if lineHeights { styled.includeEm(size: piece.size) }
                hasGlyphs = true
            case .glyphs(let piece):
                metrics.include(piece.font, size: piece.size, shift: piece.shift)
                if lineHeights {
                    styled.include(text.styles[piece.style].lineHeight.map { $0 * piece.sizeFactor }, piece.font,
                                   size: piece.size, shift: piece.shift)
                }
                hasGlyphs = true
            case .box: hasBoxes = true
            }
        }
        // Emphasis marks grow the line past the text they mark: a pass of its own, so that the
        // loop above stays as it is for the texts without (nearly all).
        if marks {
            for item in items {
                if case .glyphs(let piece) = item, !piece.isToken { includeMarks(of: piece, in: &metrics, &styled, lineHeights) }
            }
        }
        if text.hasRuby {
            for item in items {
                if case .glyphs(let piece) = item, !piece.isToken { includeRuby(of: piece, in: &metrics, &styled, lineHeights) }
            }
        }
        if storage.holdsUnderlines { VerticalUnderline.hold(items, text: text, in: &metrics) }
        if !hasGlyphs {
            let style = styleIndex(at: min(offset, text.units.count - 1))
            metrics.include(fallback.primary[style], size: text.styles[style].size * emptyLineSizeFactor)
            if lineHeights {
                styled.include(text.styles[style].lineHeight.map { $0 * emptyLineSizeFactor }, fallback.primary[style],
                               size: text.styles[style].size * emptyLineSizeFactor)
            }
        }
        if hasBoxes {
            metrics.settle(&items)
            if lineHeights { styled.include(boxesOf: items) }
        }
        if styled.isSet { metrics.styledHeight = styled.height }
        return metrics
    }
}

/// What a text's styles resolve to once for all its paragraphs: each style's fonts (the
/// fallback chain starts from them) and its HarfBuzz form. An object, as the shaped paragraphs
/// and the scratch's memo share it: one reference where a struct of its arrays counted five.
final class ResolvedStyles {
    let fallback: FontFallback
    let shaping: [ShapingStyle]
    let hasLetterSpacing: Bool
    /// Some style asks for a line height of its own (Dynamic Type): lines weigh it.
    let hasLineHeights: Bool

    init(_ styles: [TextStyle], fonts: FontRegistry, user: UInt32?) throws {
        fallback = try FontFallback(registry: fonts, styles: styles, user: user)
        shaping = styles.map { ShapingStyle($0, library: fonts.shapingLibrary, user: user) }
        hasLetterSpacing = styles.contains { $0.letterSpacing != 0 }
        hasLineHeights = styles.contains { $0.lineHeight != nil }
    }

    /// Style `index`'s shaping with `feature` on as well: made when asked, for the rare run that
    /// needs it (a combined run's width variants, `ShapedParagraph.narrowCombined`), and not kept.
    func shaping(_ index: Int, with feature: FontFeature) -> ShapingStyle {
        let style = shaping[index]
        return ShapingStyle(language: style.language, features: style.features + [feature],
                            library: fallback.registry.shapingLibrary, user: fallback.user)
    }
}
