/// The shape stage of a paragraph: every item's glyphs, items that shape alike together.
extension ShapedParagraph {
    /// Items further apart than this are not joined: looking for an item's likes is bounded by
    /// it, so a text of many items costs a constant per item.
    static let joinWindow = 64

    /// Shapes every item of `items` into `runs` (emptied), in item order, checking the budget
    /// as it goes. `joining` (vertical text), items of one font, script, style and orientation
    /// within `joinWindow` of one another are shaped in one HarfBuzz call (`Shaper.shapeJoined`).
    ///
    /// Only vertical text joins: there orientation cuts one item into many alike pieces (a
    /// caption's six calls became two), while horizontal items are cut
    /// where font, script or style change, and the few alike among them did not pay for the
    /// search. With a shaping cache, the items it holds come from it first; the others are
    /// shaped joined, and each piece is kept under the key its item alone would have (a slice of
    /// its group's glyphs: `JoinedShapingTests` holds joined pieces equal to items shaped alone).
    static func shape(_ items: [Item], units: ContiguousArray<UInt16>, styles: ResolvedStyles, joining: Bool,
                      context: LayoutContext, into runs: inout [ShapedRun]) throws {
        let shaper = context.shaper
        let whole = 0..<units.count
        runs.reserveCapacity(items.count)
        guard joining && shaper.joinsRuns && items.count > 1 else {
            for (index, item) in items.enumerated() {
                if index % 64 == 0 { try context.budget.check() }
                runs.append(shaper.shape(units, range: item.range, context: whole, font: item.font, rtl: item.isRTL,
                                         upright: item.isUpright, script: item.script, style: styles.shaping[item.style]))
            }
            return
        }
        // Every item's run in place from the start, glyphless until shaped, filled as groups are
        // shaped. Read and written through spans: as arrays, each access checked uniqueness and
        // counted references, and an array of optional runs went through Swift's generic value code.
        let scratch = context.scratch
        var members = scratch.joinedItems.movedOut()
        var pieces = scratch.joinedPieces.movedOut()
        defer {
            scratch.joinedItems = members
            scratch.joinedPieces = pieces
        }
        // A group holds at most `joinWindow` items: room for that many, made once a scratch.
        if members.count < joinWindow {
            members = [Int](repeating: 0, count: joinWindow)
            pieces = [Range<Int>](repeating: 0..<0, count: joinWindow)
        }
        let unshaped = ShapedGlyphs.unshaped
        let caching = shaper.cache != nil
        for item in items {
            let found = caching && joins(item)
                ? shaper.cached(units, range: item.range, context: whole, font: item.font, rtl: item.isRTL, upright: item.isUpright,
                                script: item.script, style: styles.shaping[item.style])
                : nil
            runs.append(found ?? ShapedRun(range: item.range, glyphs: unshaped, first: 0, count: 0))
        }
        let budget = context.budget
        var alone = 0
        do {
            let items = items.span
            var runs = runs.mutableSpan
            var members = members.mutableSpan
            var pieces = pieces.mutableSpan
            for index in items.indices where runs[index].glyphs === unshaped {
                let item = items[index]
                members[0] = index
                var count = 1
                if joins(item) {
                    for other in index + 1..<min(items.count, index + joinWindow)
                    where runs[other].glyphs === unshaped && shapesAlike(items[other], item, styles) {
                        members[count] = other
                        count += 1
                    }
                }
                if count > 1 {
                    try budget.check()
                    for k in 0..<count { pieces[k] = items[members[k]].range }
                    shaper.shapeJoined(units, pieces: pieces.span.extracting(0..<count), context: whole,
                                       font: item.font, upright: item.isUpright, script: item.script,
                                       style: styles.shaping[item.style]) { piece, run in
                        runs[members[piece]] = run
                        if caching {
                            shaper.keep(run, units: units, context: whole, font: item.font, rtl: item.isRTL,
                                        upright: item.isUpright, script: item.script, style: styles.shaping[item.style])
                        }
                    }
                }
                // Alone: an item with no likes, or a piece HarfBuzz would not vouch for joined.
                for k in 0..<count where runs[members[k]].glyphs === unshaped {
                    if alone % 64 == 0 { try budget.check() }
                    alone += 1
                    let item = items[members[k]]
                    // A joining item missed the cache above: no second look.
                    runs[members[k]] = shaper.shape(
                        units, range: item.range, context: whole, font: item.font, rtl: item.isRTL,
                        upright: item.isUpright, script: item.script, style: styles.shaping[item.style],
                        lookUp: !(caching && joins(item)))
                }
            }
        }
    }

    /// Items whose script HarfBuzz shapes from the glyphs alone, which may go to it with others
    /// (`Shaper.shapeJoined`): Han, kana, Hangul, Bopomofo, Latin, Cyrillic, Greek and common
    /// punctuation, never right to left and never combined upright (tate-chu-yoko). Joining
    /// scripts and those shaped by syllables read the text around a run as well as its glyphs.
    @inline(__always)
    static func joins(_ item: Item) -> Bool {
        guard !item.isRTL && item.orientation != .combined else { return false }
        switch item.script {
        case Script.han, Script.hiragana, Script.katakana, Script.hangul, Script.bopomofo,
             Script.latin, Script.cyrillic, Script.greek, Script.common:
            return true
        default:
            return false
        }
    }

    /// The same font, script, orientation and HarfBuzz style (language and features): one
    /// HarfBuzz call would shape either alike.
    @inline(__always)
    static func shapesAlike(_ item: Item, _ other: Item, _ styles: ResolvedStyles) -> Bool {
        item.font === other.font && item.script == other.script && item.orientation == other.orientation
            && item.isRTL == other.isRTL
            && (item.style == other.style || styles.shaping[item.style].key == styles.shaping[other.style].key)
    }
}
