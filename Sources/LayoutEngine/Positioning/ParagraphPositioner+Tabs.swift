extension ParagraphPositioner {
    /// The offsets of the paragraph's tabs (U+0009), ascending; nil when it has none.
    func tabOffsets() -> [Int]? {
        var offsets: [Int] = []
        for (offset, unit) in text.units.enumerated() where unit == 0x0009 { offsets.append(offset) }
        return offsets.isEmpty ? nil : offsets
    }

    /// How much each tab of `line` adds to its shaped advance to reach its stop, by offset; empty
    /// when the line has no tab before its trailing spaces (a tab there hangs, as a space does).
    func tabExtras(_ line: PlannedLine) -> [Int: Double] {
        let content = line.broken.range.lowerBound..<line.broken.contentEnd
        let units = text.units
        let tabs = content.filter { units[$0] == 0x0009 }
        guard !tabs.isEmpty else { return [:] }
        let prefix = shaped.prefix
        let widths = settings.paragraphStyle.tabs.widths(line: content, tabs: tabs[...], prefix: prefix,
                                                         indent: line.broken.slot.leadingIndent) { range, separator in
            range.first { units[$0] == UInt16(truncatingIfNeeded: separator.value) }
        }
        var extras: [Int: Double] = [:]
        for (offset, width) in widths { extras[offset] = width - (prefix[offset + 1] - prefix[offset]) }
        return extras
    }
}

extension ParagraphPositioner {
    /// The widths of the punctuation hanging outside `line`: an opening mark that starts the
    /// paragraph, a closing one or a stop that ends the line's content.
    func hangingWidths(_ line: PlannedLine) -> (start: Double, end: Double) {
        let units = text.units
        let prefix = shaped.prefix
        let range = line.broken.range
        var start = 0.0, end = 0.0
        if range.lowerBound == 0, !range.isEmpty, let first = Unicode.Scalar(units[0]), HangingPunctuation.hangsAtStart(first) {
            start = prefix[1] - prefix[0]
        }
        let last = line.broken.contentEnd - 1
        if last > range.lowerBound, let scalar = Unicode.Scalar(units[last]), HangingPunctuation.hangsAtEnd(scalar), !line.truncated {
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
        return insertedPieces(list.label(forItem: index), style: style, baseLevel: shaped.baseLevel).map { item in
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
