extension ParagraphPositioner {
    /// Truncation of the last visible line, as CoreText's kCTLineTruncationEnd, Start and Middle
    /// do: the line stands for its text up to its hard break (or the next one), and the part
    /// that does not fit beside the token goes — its end (tail), its start (head) or its middle
    /// — cut at grapheme boundaries. The token's run has an empty range where the text was cut.
    /// Attachments in the hidden part disappear with it.
    func truncate(_ line: PlannedLine) -> PlannedLine {
        let start = line.broken.range.lowerBound
        let flags = analysis.flags
        // The line may take text up to its hard break, or to the next hard break when it had none.
        var limit = line.broken.hardBreak ? line.broken.contentEnd : line.broken.range.upperBound
        if !line.broken.hardBreak {
            while limit < text.units.count && !flags[limit].contains(.hardBreak) { limit += 1 }
        }
        let end = flags.contentEnd(limit, from: start)  // the represented text without the spaces hanging after it
        let style = shaped.styleIndex(at: max(start, line.broken.contentEnd - 1))
        let token = truncationPieces(style: style, baseLevel: line.baseLevel)
        let tokenWidth = token.reduce(0.0) { $0 + $1.naturalWidth }
        let available = line.broken.slot.width - tokenWidth + LineBreaker.tolerance
        // What stays: [start, keepEnd) before the token and [resume, end) after it.
        var keepEnd = start
        var resume = end
        switch settings.truncationMode {
        case .tail:
            keepEnd = flags.contentEnd(graphemesFitting(from: start, to: limit, width: available), from: start)
        case .head:
            resume = flags.contentStart(graphemesFittingBackward(from: end, to: start, width: available), to: end)
        case .middle:
            keepEnd = graphemesFitting(from: start, to: end, width: available / 2)
            resume = graphemesFittingBackward(from: end, to: keepEnd, width: available - width(start, keepEnd))
            // What the end left unused goes back to the start.
            keepEnd = flags.contentEnd(graphemesFitting(from: start, to: resume, width: available - width(resume, end)), from: start)
            resume = flags.contentStart(resume, to: end)
        }
        let tailOnly = settings.truncationMode == .tail
        var truncated = cut(line, token: token, start: start, keepEnd: keepEnd, resume: resume, end: end, tailOnly: tailOnly)
        // The kept text was measured as shaped in the whole paragraph; cut, its edge letters can
        // take other forms (an Arabic letter becomes final, and wider). Give up a grapheme at a
        // time until the line fits.
        let spacing = Spacing(shaped, content: start..<end, extraPerSlot: 0, perCharacter: false)
        while spacing.contentWidth(truncated.pieces) - markerWidth(truncated.pieces) > line.broken.slot.width + LineBreaker.tolerance {
            if settings.truncationMode != .head && keepEnd > start {
                keepEnd = flags.contentEnd(analysis.previousGrapheme(before: keepEnd, start: start), from: start)
            } else if !tailOnly && resume < end {
                resume = analysis.nextGrapheme(after: resume, end: end)
            } else {
                break
            }
            truncated = cut(line, token: token, start: start, keepEnd: keepEnd, resume: resume, end: end, tailOnly: tailOnly)
        }
        return truncated
    }

    /// The truncated line: the kept text, the token at `keepEnd` (tail, middle) or `resume`
    /// (head), and the kept end of the text.
    private func cut(_ line: PlannedLine, token: [LineItem], start: Int, keepEnd: Int, resume: Int, end: Int,
                     tailOnly: Bool) -> PlannedLine {
        let tokenAt = settings.truncationMode == .head ? resume : keepEnd
        var truncated = line
        var pieces = keepEnd > start ? shaped.pieces(in: start..<keepEnd, contentEnd: keepEnd, baseLevel: line.baseLevel, context: context) : []
        for case .glyphs(var piece) in token {
            piece.range = tokenAt..<tokenAt
            piece.clusterBase = tokenAt
            pieces.append(.glyphs(piece))
        }
        if !tailOnly && resume < end {
            pieces += shaped.pieces(in: resume..<end, contentEnd: end, baseLevel: line.baseLevel, context: context)
        }
        if start == 0, let list = settings.list { pieces = markerPieces(list) + pieces }
        let shownEnd = tailOnly ? keepEnd : end
        truncated.broken = BrokenLine(range: start..<shownEnd, contentEnd: shownEnd, hardBreak: false, slot: line.broken.slot)
        truncated.pieces = pieces
        truncated.metrics = shaped.metrics(of: &truncated.pieces, at: start)
        if settings.writingMode == .verticalLeftToRight { truncated.metrics.mirror() }
        truncated.truncated = true
        return truncated
    }

    /// The furthest grapheme boundary after `start` (up to `limit`) with the text from `start`
    /// no wider than `width`; hanging spaces are not measured.
    private func graphemesFitting(from start: Int, to limit: Int, width: Double) -> Int {
        let prefix = shaped.prefix
        var end = start
        var unit = start
        while unit < limit {
            let next = analysis.nextGrapheme(after: unit, end: limit)
            if !analysis.flags[unit].contains(.hangingSpace) && prefix[next] - prefix[start] > width { break }
            unit = next
            end = next
        }
        return end
    }

    /// The earliest grapheme boundary before `end` (down to `floor`) with the text from it to
    /// `end` no wider than `width`.
    private func graphemesFittingBackward(from end: Int, to floor: Int, width: Double) -> Int {
        let prefix = shaped.prefix
        var start = end
        var unit = end
        while unit > floor {
            let previous = analysis.previousGrapheme(before: unit, start: floor)
            if prefix[end] - prefix[previous] > width { break }
            unit = previous
            start = previous
        }
        return start
    }

    private func width(_ start: Int, _ end: Int) -> Double { shaped.prefix[end] - shaped.prefix[start] }

    /// The token, shaped as a paragraph of its own in the style of the text it replaces; `cut`
    /// gives its pieces the offset where the text was cut.
    func truncationPieces(style: Int, baseLevel: UInt8) -> [LineItem] {
        guard let token = settings.truncationToken, !token.isEmpty else { return [] }
        return insertedPieces(token, style: style, baseLevel: baseLevel)
    }

    /// Text layout adds (a truncation token, a hyphen), shaped as a paragraph of its own in
    /// `style`: pieces that map to no text, their clusters counting from where they are put.
    /// In vertical text they stand as the text does: upright or on their side, by UAX #50.
    ///
    /// The scratch keeps the last such text shaped (`InsertedText`): nearly every truncated
    /// request ends with the same token in the same style, and shaping it as a paragraph of its
    /// own each time cost more than the rest of the truncation.
    func insertedPieces(_ token: String, style: Int, baseLevel: UInt8) -> [LineItem] {
        let registry = shaped.fallback.registry
        if let last = scratch.lastInserted,
           last.isFor(token, style: style, textStyle: text.styles[style], baseLevel: baseLevel, vertical: owner.vertical,
                      registry: registry) {
            // This request keeps the glyphs its pieces point into, whatever the scratch keeps next.
            scratch.reshaped.append(contentsOf: last.glyphs)
            return last.pieces
        }
        let tokenText = AttributedText(token, style: text.styles[style])
        let direction: BaseDirection = baseLevel == 1 ? .rightToLeft : .leftToRight
        guard let tokenShaped = try? ShapedParagraph(text: tokenText, direction: direction, vertical: owner.vertical,
                                                     fonts: registry, context: context) else { return [] }
        let count = tokenText.units.count
        var kept: [ShapedGlyphs] = []
        // The token's pieces point into its paragraph's storage: it must live while they are copied.
        let pieces: [LineItem] = withExtendedLifetime(tokenShaped) {
            tokenShaped.pieces(in: 0..<count, contentEnd: count, baseLevel: baseLevel, context: context).compactMap { item in
                guard case .glyphs(let piece) = item else { return nil }
                // Token glyphs map to no text: their clusters count from where `cut` puts them.
                var shifted = piece
                shifted.isToken = true
                shifted.level = baseLevel
                shifted.style = style
                shifted.styleSize = text.styles[style].size
                shifted.baselineOffset = text.styles[style].baselineOffset
                let glyphs = ShapedGlyphs.make(piece.glyphs.lazy.map { var g = $0; g.cluster = 0; return g })
                kept.append(glyphs)
                shifted.glyphs = glyphs.slice
                return .glyphs(shifted)
            }
        }
        // The token's paragraph ends here; this request keeps the copies its pieces point into.
        scratch.reshaped.append(contentsOf: kept)
        scratch.lastInserted = InsertedText(token: token, style: style, textStyle: text.styles[style], baseLevel: baseLevel,
                                            vertical: owner.vertical, registry: registry, pieces: pieces, glyphs: kept)
        return pieces
    }
}

/// A text layout inserted (a truncation token, a hyphen, a list label) as its pieces, with what
/// they were shaped for, and the glyph copies the pieces point into (held here, so the pieces
/// stay valid for as long as this lives).
final class InsertedText {
    let token: String
    let style: Int
    let textStyle: TextStyle
    let baseLevel: UInt8
    let vertical: VerticalSetting?
    /// Held: its identity cannot name another font set later.
    let registry: FontRegistry
    let pieces: [LineItem]
    let glyphs: [ShapedGlyphs]

    init(token: String, style: Int, textStyle: TextStyle, baseLevel: UInt8, vertical: VerticalSetting?, registry: FontRegistry,
         pieces: [LineItem], glyphs: [ShapedGlyphs]) {
        self.token = token
        self.style = style
        self.textStyle = textStyle
        self.baseLevel = baseLevel
        self.vertical = vertical
        self.registry = registry
        self.pieces = pieces
        self.glyphs = glyphs
    }

    /// Shaped for this text, style (its index in the text's styles and its every attribute),
    /// direction, vertical setting and font set.
    func isFor(_ token: String, style: Int, textStyle: TextStyle, baseLevel: UInt8, vertical: VerticalSetting?,
               registry: FontRegistry) -> Bool {
        self.registry === registry && self.style == style && self.baseLevel == baseLevel && self.vertical == vertical
            && self.token == token && self.textStyle == textStyle
    }
}
