extension LineBoxes {
    /// The line with only the boxes of the clusters that reach `offset` (a grapheme start): all
    /// a caret there needs, as a line holds at most one box starting and one ending at an offset.
    /// nil where that is not enough: no cluster reaches the offset (the caret then takes the
    /// nearest box of all), or a run has a cluster with no width (it joins its neighbour).
    ///
    /// The same boxes `make` cuts for those two clusters (`HitTesterCaretTests` holds the carets
    /// equal at every offset), found without the line's sorted list of cluster ends: an editor
    /// asks for one caret per keystroke, and the list cost as much as the rest of the caret.
    static func make(line: LineLayout, index: Int, runs: [GlyphRunLayout], attachments: [AttachmentLayout],
                     graphemeStarts: [Bool], units: ContiguousArray<UInt16>, near offset: Int) -> LineBoxes? {
        // The line's runs (by index) and attachments (by -1 - index), in visual order.
        var order: [(x: Double, item: Int)] = []
        for k in runs.indices where runs[k].lineIndex == index && !runs[k].glyphs.isEmpty {
            order.append((runs[k].glyphs[runs[k].glyphs.startIndex].position.x, k))
        }
        for k in attachments.indices where attachments[k].lineIndex == index { order.append((attachments[k].rect.x, -1 - k)) }
        if order.count > 1 { order.sort { $0.x < $1.x } }

        // Every place a cluster may end, as `make` lists them: other clusters' starts,
        // attachments, run and line ends. Only two clusters can reach the offset, as every
        // cluster start is such a place: the one starting there and the one starting at the last
        // place before it (`below`). One pass finds `below`, the first place after the offset,
        // and whether the offset is a place: then the first place after `below` is the offset
        // itself, or that first place after it (none lies between `below` and the offset).
        var below = Int.min, after = Int.max, offsetIsPlace = false
        @inline(__always) func see(_ place: Int) {
            if place < offset { if place > below { below = place } }
            else if place > offset { if place < after { after = place } }
            else { offsetIsPlace = true }
        }
        see(line.range.upperBound)
        for (_, item) in order {
            if item >= 0 {
                let run = runs[item]
                see(run.range.upperBound)
                if !run.isInserted { for glyph in run.glyphs { see(glyph.cluster) } }
            } else {
                see(attachments[-1 - item].range.lowerBound)
                see(attachments[-1 - item].range.upperBound)
            }
        }
        let afterBelow = offsetIsPlace ? offset : after
        func end(of start: Int) -> Int {
            let next = start == offset ? after : afterBelow
            return next == Int.max ? start + 1 : next
        }

        var boxes: [CaretBox] = []
        var pen = line.baselineOrigin.x
        var reached = false
        for (_, item) in order {
            guard item >= 0 else {
                let box = attachments[-1 - item]
                pen = box.rect.x
                boxes.append(CaretBox(range: box.range, start: pen, end: pen + box.rect.width, rightToLeft: box.bidiLevel % 2 == 1))
                pen += box.rect.width
                if box.range.lowerBound == offset || box.range.upperBound == offset { reached = true }
                continue
            }
            let run = runs[item]
            let rightToLeft = run.bidiLevel % 2 == 1
            for (cluster, width) in RunClusters(run.glyphs) {
                // A cluster with no width joins a neighbour (`joiningEmpty`): the whole line is cut.
                guard width != 0 || run.isInserted else { return nil }
                if !run.isInserted && (cluster == offset || cluster == below) {
                    reached = true
                    let box = CaretBox(range: cluster..<max(cluster + 1, end(of: cluster)), start: pen, end: pen + width,
                                       rightToLeft: rightToLeft)
                    appendSplitting(box, at: graphemeStarts, into: &boxes)
                }
                pen += width
            }
        }
        guard reached else { return nil }
        var made = outline(of: line, units: units)
        made.boxes = boxes
        return made
    }
}
