extension ParagraphPositioner {
    /// Tail truncation of the last visible line: as much of the text from the line's start as
    /// fits with the token after it, cut at a grapheme boundary (CoreText's kCTLineTruncationEnd).
    /// An attachment past the cut disappears with its text.
    func truncate(_ line: PlannedLine) -> PlannedLine {
        let start = line.broken.range.lowerBound
        let tokenPieces = truncationPieces(style: shaped.styleIndex(at: max(start, line.broken.contentEnd - 1)),
                                           baseLevel: line.baseLevel)
        let tokenWidth = tokenPieces.reduce(0.0) { $0 + $1.naturalWidth }
        // The line may take text up to its hard break, or to the next hard break when it had none.
        var limit = line.broken.hardBreak ? line.broken.contentEnd : line.broken.range.upperBound
        if !line.broken.hardBreak {
            while limit < text.units.count && !analysis.flags[limit].contains(.hardBreak) { limit += 1 }
        }
        let prefix = shaped.prefix
        let available = line.broken.slot.width - tokenWidth + LineBreaker.tolerance
        var end = start
        var unit = start
        while unit < limit {
            let next = analysis.nextGrapheme(after: unit, end: limit)
            if !analysis.flags[unit].contains(.hangingSpace) && prefix[next] - prefix[start] > available { break }
            unit = next
            end = next
        }
        var contentEnd = end
        while contentEnd > start && analysis.flags[contentEnd - 1].contains(.hangingSpace) { contentEnd -= 1 }
        let cut = BrokenLine(range: start..<contentEnd, contentEnd: contentEnd, hardBreak: false, slot: line.broken.slot)
        var truncated = line
        truncated.broken = cut
        truncated.pieces = shaped.pieces(in: cut.range, contentEnd: contentEnd, baseLevel: line.baseLevel) + tokenPieces
        truncated.metrics = shaped.metrics(of: &truncated.pieces, at: start)
        truncated.truncated = true
        return truncated
    }

    /// The token, shaped as a paragraph of its own in the style of the text it replaces.
    func truncationPieces(style: Int, baseLevel: UInt8) -> [LineItem] {
        guard let token = request.truncationToken, !token.isEmpty else { return [] }
        let tokenText = AttributedText(token, style: text.styles[style])
        let direction: BaseDirection = baseLevel == 1 ? .rightToLeft : .leftToRight
        guard let tokenShaped = try? ShapedParagraph(text: tokenText, direction: direction, fonts: shaped.fallback.registry,
                                                     shaper: shaped.shaper) else { return [] }
        let count = tokenText.units.count
        let offset = text.units.count
        // The token's pieces point into its paragraph's storage: it must live while they are copied.
        return withExtendedLifetime(tokenShaped) {
            tokenShaped.pieces(in: 0..<count, contentEnd: count, baseLevel: baseLevel).compactMap { item in
            guard case .glyphs(let piece) = item else { return nil }
            // Token glyphs map to no text: their clusters point just past the visible range.
            var shifted = piece
            shifted.isToken = true
            shifted.level = baseLevel
            shifted.style = style
            shifted.styleSize = text.styles[style].size
            shifted.baselineOffset = text.styles[style].baselineOffset
            shifted.range = offset..<offset
            let glyphs = ShapedGlyphs(piece.glyphs.lazy.map { var g = $0; g.cluster = 0; return g })
            // The token's paragraph ends here; this paragraph keeps the copy its pieces point into.
            scratch.reshaped.append(glyphs)
            shifted.glyphs = glyphs.pointer
            shifted.clusterBase = offset
            return .glyphs(shifted)
            }
        }
    }
}
