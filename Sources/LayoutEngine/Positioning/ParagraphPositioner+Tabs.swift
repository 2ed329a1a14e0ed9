extension ParagraphPositioner {
    /// The offsets of the paragraph's tabs (U+0009), ascending; nil when it has none.
    func tabOffsets() -> [Int]? {
        var offsets: [Int] = []
        for (offset, unit) in text.units.enumerated() where unit == 0x0009 { offsets.append(offset) }
        return offsets.isEmpty ? nil : offsets
    }

    /// How much each tab of a line broken as `broken` adds to its shaped advance to reach its stop,
    /// by offset; empty when the line has no tab before its trailing spaces (a tab there hangs, as
    /// a space does).
    func tabExtras(_ broken: BrokenLine) -> [Int: Double] {
        let content = broken.range.lowerBound..<broken.contentEnd
        let units = text.units
        let tabs = content.filter { units[$0] == 0x0009 }
        guard !tabs.isEmpty else { return [:] }
        let prefix = shaped.prefix
        let widths = settings.paragraphStyle.tabs.widths(line: content, tabs: tabs[...], prefix: prefix,
                                                         indent: broken.slot.leadingIndent) { range, separator in
            range.first { units[$0] == UInt16(truncatingIfNeeded: separator.value) }
        }
        var extras: [Int: Double] = [:]
        for (offset, width) in widths { extras[offset] = width - (prefix[offset + 1] - prefix[offset]) }
        return extras
    }
}
