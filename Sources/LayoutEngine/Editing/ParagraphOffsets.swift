/// Where each paragraph of a document starts — in the text, down the page, in the lines and in
/// the attachments — as prefix sums: one entry per paragraph and one for the end.
///
/// An edit changes the sums of every paragraph after it. Rewriting them all made a keystroke in
/// a document of 2,000 paragraphs cost five times one paragraph's layout, so the entries after
/// the last edit hold a shift still to be added (`pending` from `pendingFrom` on). An edit after
/// the last settles the entries between the two; one before it settles the entries from the
/// last to the end, once: typing on at either place settles nothing.
struct ParagraphOffsets {
    struct Entry: Equatable {
        var offset: Int
        var top: Double
        var line: Int
        var attachment: Int

        static let zero = Entry(offset: 0, top: 0, line: 0, attachment: 0)

        static func + (a: Entry, b: Entry) -> Entry {
            Entry(offset: a.offset + b.offset, top: a.top + b.top, line: a.line + b.line, attachment: a.attachment + b.attachment)
        }

        static func - (a: Entry, b: Entry) -> Entry {
            Entry(offset: a.offset - b.offset, top: a.top - b.top, line: a.line - b.line, attachment: a.attachment - b.attachment)
        }
    }

    private var entries: [Entry]
    private var pendingFrom: Int
    private var pending = Entry.zero

    /// The sums of paragraphs of these sizes.
    init(sizes: [Entry]) {
        var entries = [Entry.zero]
        entries.reserveCapacity(sizes.count + 1)
        for size in sizes { entries.append(entries[entries.count - 1] + size) }
        self.entries = entries
        pendingFrom = entries.count
    }

    /// The start of paragraph `index`; the paragraph count gives the end of the last.
    subscript(index: Int) -> Entry {
        index >= pendingFrom ? entries[index] + pending : entries[index]
    }

    var last: Entry { self[entries.count - 1] }

    /// The first paragraph that ends past `offset` (the paragraph count when none does): a
    /// bisection over the text's sums, read in place (through the subscript each probe copied
    /// its entry and added the pending shift to all four sums).
    func firstEnding(after offset: Int) -> Int {
        let entries = entries.span
        let (pendingFrom, shift) = (pendingFrom, pending.offset)
        var low = 0, high = entries.count - 1
        while low < high {
            let mid = (low &+ high) >> 1  // both non-negative: a shift, not a signed division
            // Paragraph `mid` ends where paragraph `mid + 1` starts.
            let end = entries[mid + 1].offset &+ (mid + 1 >= pendingFrom ? shift : 0)
            if end > offset { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Replaces the paragraphs `old` with paragraphs of `sizes`; how far the ones after moved.
    mutating func replace(_ old: ClosedRange<Int>, with sizes: [Entry]) -> Entry {
        let oldEnd = old.upperBound + 1
        if pendingFrom <= oldEnd {
            // The entries up to the old end become exact.
            for index in pendingFrom...oldEnd { entries[index] = entries[index] + pending }
            pendingFrom = oldEnd + 1
        } else if pendingFrom > oldEnd + 1 && pendingFrom < entries.count {
            // An edit before the held shift: the entries from there on take it now, once, and the
            // shift starts again after this edit. (Adding each edit's delta to the entries between
            // it and the held shift instead cost every keystroke typed there that distance.)
            for index in pendingFrom..<entries.count { entries[index] = entries[index] + pending }
            (pendingFrom, pending) = (entries.count, .zero)
        }
        // The new paragraphs' ends, written in place when they are as many as the old (a
        // keystroke's one for one), else gathered to replace the old entries' range.
        let inPlace = sizes.count == old.count
        var ends: [Entry] = []
        if !inPlace { ends.reserveCapacity(sizes.count) }
        let oldEndEntry = entries[oldEnd]
        var end = entries[old.lowerBound]
        for (k, size) in sizes.enumerated() {
            end = end + size
            if inPlace { entries[old.lowerBound + 1 + k] = end } else { ends.append(end) }
        }
        let delta = end - oldEndEntry
        // The entries after the edit take its delta as part of the shift held for later (which
        // starts right after the edit: settled above when it started further on).
        if pendingFrom == entries.count { (pendingFrom, pending) = (oldEnd + 1, .zero) }
        assert(pendingFrom == oldEnd + 1)
        pending = pending + delta
        if !inPlace {
            entries.replaceSubrange((old.lowerBound + 1)...oldEnd, with: ends)
            pendingFrom += ends.count - old.count
        }
        if pendingFrom >= entries.count { (pendingFrom, pending) = (entries.count, .zero) }
        return delta
    }
}
