/// What is set outside a line's box: hanging punctuation past its edges, and a list item's
/// marker in the list's indent.
extension ParagraphPositioner {
    /// The widths of the punctuation hanging outside a line broken as `broken`: an opening mark
    /// that starts the paragraph, a closing one or a stop that ends the line's content (unless
    /// the line is `truncated`).
    func hangingWidths(_ broken: BrokenLine, truncated: Bool) -> (start: Double, end: Double) {
        let units = text.units
        let prefix = shaped.prefix
        let range = broken.range
        var start = 0.0, end = 0.0
        if range.lowerBound == 0, !range.isEmpty, let first = Unicode.Scalar(units[0]), HangingPunctuation.hangsAtStart(first) {
            start = prefix[1] - prefix[0]
        }
        let last = broken.contentEnd - 1
        if last > range.lowerBound, let scalar = Unicode.Scalar(units[last]), HangingPunctuation.hangsAtEnd(scalar), !truncated {
            end = prefix[last + 1] - prefix[last]
        }
        return (start, end)
    }
}

extension ParagraphPositioner {
    /// The marker of this paragraph's list item (the paragraph's number in the text counts it),
    /// in the style of its first character.
    func markerPieces(_ list: ListStyle) -> [LineItem] {
        let style = text.units.isEmpty ? 0 : shaped.styleIndex(at: 0)
        return insertedPieces(list.label(forItem: list.itemsBefore + index), style: style, baseLevel: shaped.baseLevel).map { item in
            guard case .glyphs(var piece) = item else { return item }
            piece.range = 0..<0
            piece.clusterBase = 0
            piece.isListMarker = true
            return .glyphs(piece)
        }
    }

    /// The width of the marker pieces among `pieces`.
    func markerWidth(_ pieces: [LineItem]) -> Double {
        var width = 0.0
        for item in pieces { if case .glyphs(let piece) = item, piece.isListMarker { width += item.naturalWidth } }
        return width
    }
}
