/// Splits analyzed text into items: maximal runs of one font, style, script and bidi level.
///
/// Works cluster by cluster. A cluster of script Common or Inherited (spaces, digits,
/// punctuation) joins the item before it when that item's font can draw it, so the spaces
/// of an Arabic sentence stay in its Arabic run (as UAX #24's script-run rule intends).
/// Hard line breaks belong to no item: they have no glyph. An attachment's U+FFFC joins the open
/// item of its style and level (shaped through, its glyph left out later) or belongs to none.
///
/// A namespace of static functions: the inputs are borrowed, where a struct holding them copied
/// every array they hold, with a retain and a release each, on every layout.
enum Itemizer {
    /// The script of every BMP code point, from Unicode's Scripts.txt (`ScriptTable+Data.swift`,
    /// generated; the same values as HarfBuzz's database, which shapes the runs), laid out once as
    /// a byte per code point: a look-up per character instead of a search of the ranges.
    /// Raw memory held for the process's life, so a look-up touches no reference count.
    /// SAFETY: both tables are written once in `init` and only read after (so any thread may
    /// read them: `@unchecked Sendable`); `indices` has an entry for every `UInt16`, and every
    /// index stored in it is below `scripts`' count.
    struct ScriptTable: @unchecked Sendable {
        /// For each BMP code point, an index into `scripts`: 0 for Common, else its place in
        /// `tags` plus one.
        let indices: UnsafeMutablePointer<UInt8>
        /// Common, then every script of `tags`.
        let scripts: UnsafeMutablePointer<Script>

        static let shared = ScriptTable()

        /// Made once, at start-up (`ParagraphLayouter.init` asks for it), not on a first request.
        private init() {
            indices = .allocate(capacity: 0x10000)
            indices.initialize(repeating: 0, count: 0x10000)
            let ranges = Self.ranges
            for k in stride(from: 0, to: ranges.count, by: 2) where ranges[k] < 0x10000 {
                let last = min(Int(ranges[k + 1] & 0xFF_FFFF), 0xFFFF)
                let code = UInt8(ranges[k + 1] >> 24)
                for scalar in Int(ranges[k])...last { indices[scalar] = code }
            }
            let all = [Script.common] + Self.tags.map(Script.init(tag:))
            scripts = .allocate(capacity: all.count)
            scripts.initialize(from: all, count: all.count)
        }

        /// The script of one scalar, with Inherited and Unknown folded into Common.
        @inline(__always)
        func script(of scalar: UInt32) -> Script {
            if scalar < 0x80 {
                // ASCII: letters are Latin, everything else Common.
                return UnitClass.isASCIILetter(scalar) ? Script.latin : Script.common
            }
            if scalar < 0x10000 { return scripts[Int(indices[Int(scalar)])] }
            return Itemizer.lookUpScript(scalar)
        }
    }

    /// The item being grown, kept in locals rather than an `Item` so the loop copies nothing.
    private struct Open {
        var start: Int
        /// Unowned, as `Item.font`: valid while the registry being itemized from lives.
        @UnownedFont var font: Font
        var style: Int
        var level: UInt8
        var script: Script
        /// The font's coverage bits and facts, copied out so the per-unit test touches no object.
        /// SAFETY: the coverage pointers are the fonts' own bits (`Font.bmpCoverage`), valid while
        /// the fonts are (`font`'s rule), a bit for every `UInt16`.
        var coverage: UnsafeMutablePointer<UInt64>
        var isColorEmoji: Bool
        var isPrimary: Bool
        /// The style's own font, mapping every printable ASCII character: such a run continues
        /// the item with no per-character test but its bidi level.
        var takesASCII: Bool
        /// The style's own font's coverage: a letter it maps goes back to it from a fallback.
        var primaryCoverage: UnsafeMutablePointer<UInt64>
        /// The style's fallback is off: every cluster stays with its font, mapped or not, and so
        /// in the item (HarfBuzz shapes it whole, as hb-shape does: a font without a cmap entry
        /// for a letter may still draw it through a ligature or its presentation forms).
        var keepsFont: Bool

        init(start: Int, font: Font, style: Int, level: UInt8, script: Script, primary: Font, fallsBack: Bool) {
            keepsFont = !fallsBack
            self.start = start
            self.font = font
            self.style = style
            self.level = level
            self.script = script
            coverage = font.bmpCoverage
            isColorEmoji = font.isColorEmoji
            isPrimary = font === primary
            primaryCoverage = primary.bmpCoverage
            // U+0020...U+003F are bits 32...63 of the first word, U+0040...U+007E bits 0...62 of the second.
            takesASCII = isPrimary && !isColorEmoji && coverage[0] >> 32 == 0xFFFF_FFFF
                && coverage[1] & 0x7FFF_FFFF_FFFF_FFFF == 0x7FFF_FFFF_FFFF_FFFF
        }
    }

    /// The end of the ideographs from `start` that continue a Han item in left-to-right text:
    /// one-unit clusters mapped by `coverage` and, from a fallback face, not by the style's own
    /// (`primaryCoverage`). A function of its own, so its few values stay in registers.
    /// SAFETY: `limit` is at most `units.count`, and `flags` holds as many entries as `units`
    /// (the analysis of the same text); the coverage pointers are fonts' bits, as in `Open`.
    @inline(never)
    private static func ideographs(_ units: UnsafeBufferPointer<UInt16>, _ flags: UnsafeBufferPointer<UnitFlags>, from start: Int,
                                   to limit: Int, coverage: UnsafeMutablePointer<UInt64>,
                                   primaryCoverage: UnsafeMutablePointer<UInt64>?) -> Int {
        // The loop twice, as in `letters`: with the style's own face, no fallback face's test in it.
        guard let primaryCoverage else {
            return ideographsWalk(units, flags, from: start, to: limit, coverage: coverage, primaryCoverage: nil)
        }
        return ideographsWalk(units, flags, from: start, to: limit, coverage: coverage, primaryCoverage: primaryCoverage)
    }

    /// `ideographs`' loop. SAFETY: as `ideographs`.
    @inline(__always)
    private static func ideographsWalk(_ units: UnsafeBufferPointer<UInt16>, _ flags: UnsafeBufferPointer<UnitFlags>, from start: Int,
                                       to limit: Int, coverage: UnsafeMutablePointer<UInt64>,
                                       primaryCoverage: UnsafeMutablePointer<UInt64>?) -> Int {
        let count = units.count
        var i = start
        while i < limit {
            let u = units[i]
            guard isUnifiedIdeograph(u), i + 1 == count || flags[i + 1].contains(.graphemeStart), Font.covers(coverage, u) else { break }
            if let primaryCoverage, Font.covers(primaryCoverage, u) { break }
            i += 1
        }
        return i
    }

    /// The end of the words from `start` that continue an item of `script` (not Common) at
    /// `level`: one-unit clusters mapped by `coverage`, each a letter of that script (from a
    /// fallback face, one the style's own face does not map, `primaryCoverage`) or printable
    /// ASCII but a letter; the rest of a sentence of Cyrillic, Greek, Arabic or Hebrew. The
    /// one-unit test in `itemize` with the answers a script other than Common fixes: such a
    /// unit is no surrogate, no hard break and has no emoji presentation (those are all Common;
    /// `ItemizerShortcutTests` holds the table to it). A function of its own, so its few values
    /// stay in registers.
    /// SAFETY: `limit` is at most `units.count`; `flags` and `levels` hold as many entries as
    /// `units`; the coverage pointers are fonts' bits, as in `Open`.
    @inline(never)
    private static func letters(_ units: UnsafeBufferPointer<UInt16>, _ flags: UnsafeBufferPointer<UnitFlags>,
                                _ levels: UnsafeBufferPointer<UInt8>, from start: Int, to limit: Int, script: Script,
                                level: UInt8, coverage: UnsafeMutablePointer<UInt64>,
                                primaryCoverage: UnsafeMutablePointer<UInt64>?, scripts: ScriptTable) -> Int {
        // The loop twice: with the style's own face (nearly every call), no fallback face's
        // test in it, and room in registers for the script table that a letter looks up.
        guard let primaryCoverage else {
            return lettersWalk(units, flags, levels, from: start, to: limit, script: script, level: level, coverage: coverage,
                               primaryCoverage: nil, scripts: scripts)
        }
        return lettersWalk(units, flags, levels, from: start, to: limit, script: script, level: level, coverage: coverage,
                           primaryCoverage: primaryCoverage, scripts: scripts)
    }

    /// `letters`' loop. SAFETY: as `letters`.
    @inline(__always)
    private static func lettersWalk(_ units: UnsafeBufferPointer<UInt16>, _ flags: UnsafeBufferPointer<UnitFlags>,
                                    _ levels: UnsafeBufferPointer<UInt8>, from start: Int, to limit: Int, script: Script,
                                    level: UInt8, coverage: UnsafeMutablePointer<UInt64>,
                                    primaryCoverage: UnsafeMutablePointer<UInt64>?, scripts: ScriptTable) -> Int {
        let count = units.count
        var i = start
        while i < limit {
            let u = units[i]
            guard i + 1 == count || flags[i + 1].contains(.graphemeStart), levels[i] == level, Font.covers(coverage, u) else { break }
            if u < 0x80 {
                // The spaces, digits and punctuation between words, as `itemize`'s ASCII branch
                // takes them: the next word's letters follow without a return to its loop.
                guard UnitClass.isASCIIBetweenWords(u) else { break }
            } else {
                guard scripts.script(of: UInt32(u)) == script else { break }
                if let primaryCoverage, Font.covers(primaryCoverage, u) { break }
            }
            i += 1
        }
        return i
    }

    /// The end of the cluster at `start`, longer than a unit, and the item's script after it,
    /// when it continues an open item of `script` at `level` as the cluster test in `itemize`
    /// would take it; nil otherwise. Taken only where that test's answer is plain: every unit
    /// from U+00A0 to U+1FFF and none default ignorable (so no control, surrogate, joiner,
    /// variation selector or emoji, and the cluster has no emoji presentation), each mapped by
    /// `coverage` (so the face draws it), of the item's script or Common; from a fallback face
    /// (`primaryCoverage`), a cluster of another script than Common that the style's own face
    /// does not map whole. Out of line: most texts never ask, and Devanagari asks at nearly
    /// every other cluster.
    /// SAFETY: `start` is below `limit`, at most `units.count`; `flags` and `levels` hold as
    /// many entries as `units`; the coverage pointers are fonts' bits, as in `Open`.
    @inline(never)
    private static func markedCluster(_ units: UnsafeBufferPointer<UInt16>, _ flags: UnsafeBufferPointer<UnitFlags>,
                                      _ levels: UnsafeBufferPointer<UInt8>, at start: Int, limit: Int, level: UInt8,
                                      script: Script, coverage: UnsafeMutablePointer<UInt64>,
                                      primaryCoverage: UnsafeMutablePointer<UInt64>?,
                                      scripts: ScriptTable) -> (end: Int, script: Script)? {
        guard levels[start] == level else { return nil }
        var clusterScript = Script.common
        var primaryMapsAll = true
        var end = start
        repeat {
            let u = units[end]
            guard u >= 0xA0 && u < 0x2000, !FontFallback.isDefaultIgnorable(UInt32(u)), Font.covers(coverage, u) else { return nil }
            let unitScript = scripts.script(of: UInt32(u))
            if unitScript != Script.common {
                if clusterScript == Script.common { clusterScript = unitScript } else if unitScript != clusterScript { return nil }
            }
            if let primaryCoverage, !Font.covers(primaryCoverage, u) { primaryMapsAll = false }
            end += 1
        } while end < limit && !flags[end].contains(.graphemeStart)
        // A cluster reaching past the limit (another style's run, an attachment) is the general test's.
        guard end == units.count || flags[end].contains(.graphemeStart) else { return nil }
        guard clusterScript != Script.common else { return (end, script) }
        guard clusterScript == script || script == Script.common, primaryCoverage == nil || !primaryMapsAll else { return nil }
        return (end, clusterScript)
    }

    /// U+3400–U+4DBF and U+4E00–U+9FFF: Han, none a hard break.
    @inline(__always)
    private static func isUnifiedIdeograph(_ u: UInt16) -> Bool { u &- 0x4E00 <= 0x9FFF - 0x4E00 || u &- 0x3400 <= 0x4DBF - 0x3400 }

    /// Appends the items to the empty `items`; `scalars` is room for decoding clusters.
    /// `shortcuts` false judges every cluster by the general tests: what tests compare the
    /// runs taken whole against.
    static func itemize(_ text: AttributedText, analysis: TextAnalysis, fallback: FontFallback, boxes: [InlineBox] = [],
                        into items: inout [Item], scalars: inout [UInt32], shortcuts: Bool = true) {
        // SAFETY: the analysis is of this text, so its flags and levels have an entry per unit;
        // the buffers are used only inside the closures.
        precondition(analysis.flags.count == text.units.count && analysis.levels.count == text.units.count)
        text.units.withUnsafeBufferPointer { units in
            analysis.flags.withUnsafeBufferPointer { flags in
                analysis.levels.withUnsafeBufferPointer { levels in
                    itemize(units, flags, levels, runs: text.runs, fallback: fallback, boxes: boxes, into: &items, scalars: &scalars,
                            shortcuts: shortcuts, leftToRightOnly: analysis.isLeftToRightOnly)
                }
            }
        }
        if fallback.hasScripts { overrideScripts(of: &items, styles: text.styles) }
    }

    /// A style that names a script shapes its items as that script. Items never span two
    /// styles, so the override is a pass over the items after the fact; fonts were chosen by
    /// the characters' own scripts, as they should be.
    private static func overrideScripts(of items: inout [Item], styles: [TextStyle]) {
        for index in items.indices {
            if let script = styles[items[index].style].script { items[index].script = script }
        }
    }

    /// The itemize loop over the text's buffers, read without bounds checks: it visits every unit.
    /// SAFETY: `flags` and `levels` have an entry per unit (checked by the caller); every index
    /// read is below `count`, or below a run's or a cluster's end, which lie within the text.
    private static func itemize(_ units: UnsafeBufferPointer<UInt16>, _ flags: UnsafeBufferPointer<UnitFlags>,
                                _ levels: UnsafeBufferPointer<UInt8>, runs: [(range: Range<Int>, style: Int)],
                                fallback: FontFallback, boxes: [InlineBox], into items: inout [Item], scalars: inout [UInt32],
                                shortcuts: Bool, leftToRightOnly: Bool) {
        let count = units.count
        let primary = fallback.primary
        let scripts = ScriptTable.shared
        items.reserveCapacity(4)  // most texts have a few items: one allocation, no growth
        var open: Open?
        var runIndex = 0
        var runEnd = runs.first?.range.upperBound ?? 0
        var start = 0
        var nextBox = 0
        var nextBoxStart = boxes.first?.range.lowerBound ?? Int.max
        func close(at end: Int) {
            if let o = open { items.append(Item(range: o.start..<end, font: o.font, style: o.style, level: o.level, script: o.script)) }
            open = nil
        }
        while start < count {
            var end = start + 1
            while end < count && !flags[end].contains(.graphemeStart) { end += 1 }
            if flags[start].contains(.hardBreak) {
                close(at: start)
                start = end
                continue
            }
            while runEnd <= start { runIndex += 1; runEnd = runs[runIndex].range.upperBound }
            let style = runs[runIndex].style
            if start == nextBoxStart {
                // An attachment inside an item of its style and level stays in it: the run is
                // shaped through it in one HarfBuzz call (its neighbours see it as the text has
                // it) and the box's glyph is left out when the line is cut into pieces; a split
                // cost a second call, most of a box's price. Anywhere else it belongs to no item.
                if let o = open, o.style == style, o.level == levels[start] {} else { close(at: start) }
                start = boxes[nextBox].range.upperBound
                nextBox += 1
                nextBoxStart = nextBox < boxes.count ? boxes[nextBox].range.lowerBound : Int.max
                continue
            }
            if shortcuts, var o = open, o.style == style, !o.isColorEmoji, o.isPrimary || !fallback.hasLists {
                // Printable ASCII that continues the open item, in a tight loop: the general test
                // below, specialised to one-unit clusters of script Latin (letters) or Common.
                let limit = min(runEnd, count)
                var i = start
                if o.takesASCII && (o.script == Script.latin || o.script == Script.common) {
                    // Printable ASCII after ASCII always starts a cluster (only CR LF joins), so
                    // the run is taken whole and only its last unit checked: a mark after it
                    // makes a longer cluster, left to the general test below.
                    if leftToRightOnly {
                        // Every level is 0, the open item's too: only the units need a look,
                        // four at a time while all four are printable ASCII. SAFETY: the four
                        // units read lie before `limit`, within the text.
                        while i + 4 <= limit && Self.arePrintableASCII(UnsafeRawPointer(units.baseAddress! + i)) { i += 4 }
                        while i < limit, units[i] >= 0x20 && units[i] < 0x7F { i += 1 }
                    } else {
                        while i < limit, units[i] >= 0x20 && units[i] < 0x7F, levels[i] == o.level { i += 1 }
                    }
                    if i > start && i < count && !flags[i].contains(.graphemeStart) { i -= 1 }
                    if o.script == Script.common {
                        for k in start..<i where UnitClass.isASCIILetter(UInt32(units[k])) {
                            o.script = Script.latin
                            break
                        }
                    }
                }
                // One ASCII unit at a time, letters included. The ASCII branch of the loop below
                // repeats these tests without the letters; one loop for both cost more.
                while i < limit {
                    let u = units[i]
                    guard u >= 0x20 && u < 0x7F, i + 1 == count || flags[i + 1].contains(.graphemeStart),
                          levels[i] == o.level, Font.covers(o.coverage, u) else { break }
                    if UnitClass.isASCIILetter(UInt32(u)) {
                        guard o.script == Script.latin || o.script == Script.common,
                              o.isPrimary || !Font.covers(primary[style].bmpCoverage, u) else { break }
                        o.script = Script.latin
                    }
                    i += 1
                }
                // Other BMP clusters that continue the open item, without leaving the loop: one
                // unit of the item's script or Common, mapped by its font, at its level, no emoji
                // or hard break, as the one-unit test below takes it; ASCII between the words
                // (the same tests as the ASCII loop above, which a Latin item goes back to); and
                // a letter with its marks, through `markedCluster`.
                let boxLimit = min(limit, nextBoxStart)
                while i < boxLimit {
                    if o.script == Script.han && leftToRightOnly && Self.isUnifiedIdeograph(units[i]) {
                        // Ideographs continuing a Han item, most of a Chinese text: the same tests
                        // with their answers known where they are fixed (U+3400–U+4DBF and
                        // U+4E00–U+9FFF are Han, none a hard break, every level 0), instead of
                        // the general test for every unit.
                        i = Self.ideographs(units, flags, from: i, to: boxLimit, coverage: o.coverage,
                                            primaryCoverage: o.isPrimary ? nil : o.primaryCoverage)
                        if i == boxLimit { break }
                    }
                    let u = units[i]
                    if u < 0x80 {
                        // Spaces, digits and punctuation between the words of the item's script,
                        // taken as the loop over ASCII above takes them: a word of Cyrillic or
                        // Arabic and the space after it need no second turn of the outer loop.
                        // A Latin item goes back to that loop, which takes four units at a time.
                        guard !(o.takesASCII && (o.script == Script.latin || o.script == Script.common)),
                              UnitClass.isASCIIBetweenWords(u),
                              i + 1 == count || flags[i + 1].contains(.graphemeStart), levels[i] == o.level,
                              Font.covers(o.coverage, u) else { break }
                        i += 1
                        continue
                    }
                    if i + 1 < count && !flags[i + 1].contains(.graphemeStart) {
                        // A letter and its marks (a consonant and its vowel sign): taken whole
                        // where the cluster test below would take it. A joiner, variation selector
                        // or emoji modifier after the letter is that test's without a call.
                        guard units[i + 1] < 0x2000, let cluster = Self.markedCluster(units, flags, levels, at: i, limit: boxLimit,
                                                                                      level: o.level, script: o.script, coverage: o.coverage,
                                                                                      primaryCoverage: o.isPrimary ? nil : o.primaryCoverage,
                                                                                      scripts: scripts) else { break }
                        i = cluster.end
                        o.script = cluster.script
                        continue
                    }
                    guard !UTF16.isSurrogate(u), !(u >= 0x231A && u <= 0x2B55), !flags[i].contains(.hardBreak),
                          levels[i] == o.level, Font.covers(o.coverage, u) else { break }
                    let script = scripts.script(of: UInt32(u))
                    if script != Script.common {
                        guard script == o.script || o.script == Script.common,
                              o.isPrimary || !Font.covers(o.primaryCoverage, u) else { break }
                        o.script = script
                        if i + 2 < boxLimit && units[i + 1] >= 0x80 && flags[i + 2].contains(.graphemeStart) {
                            // The rest of the word and the words after it, in a loop of their own
                            // (called where the next is a letter alone, not ASCII or a letter with
                            // its marks).
                            i = Self.letters(units, flags, levels, from: i + 1, to: boxLimit, script: script, level: o.level,
                                             coverage: o.coverage, primaryCoverage: o.isPrimary ? nil : o.primaryCoverage,
                                             scripts: scripts)
                            continue
                        }
                    }
                    i += 1
                }
                if i > start {
                    open = o
                    start = i
                    continue
                }
            }
            let level = levels[start]
            let unit = units[start]
            if end == start + 1 && !UTF16.isSurrogate(unit) {
                // One unit, one scalar: the common case, answered without building a scalar list.
                let scalar = UInt32(unit)
                let script = scripts.script(of: scalar)
                // In the BMP only U+231A...U+2B55 holds characters that default to emoji presentation.
                let emoji = unit >= 0x231A && unit <= 0x2B55 && (Unicode.Scalar(unit)?.properties.isEmojiPresentation ?? false)
                let ignorable = FontFallback.isDefaultIgnorable(scalar)
                if let o = open, o.style == style, o.level == level,
                   script == Script.common || script == o.script || o.script == Script.common,
                   emoji == o.isColorEmoji || emoji && o.isPrimary,
                   ignorable || Font.covers(o.coverage, unit) || o.keepsFont || FontFallback.drawsNormalized(o.font, CollectionOfOne(scalar)),
                   script == Script.common || o.isPrimary || !Font.covers(primary[style].bmpCoverage, unit)
                       && (!fallback.hasLists || fallback.font(for: CollectionOfOne(scalar), style: style, script: script, emoji: emoji) === o.font) {
                    if o.script == Script.common && script != Script.common { open!.script = script }
                } else {
                    close(at: start)
                    let font = fallback.font(for: CollectionOfOne(scalar), style: style, script: script, emoji: emoji)
                    open = Open(start: start, font: font, style: style, level: level, script: script, primary: primary[style],
                                fallsBack: fallback.styles[style].fontFallback)
                }
                start = end
                continue
            }
            decode(units, start..<end, into: &scalars)
            let script = clusterScript(scalars, scripts)
            let emoji = Self.hasEmojiPresentation(scalars)
            if let o = open, o.style == style, o.level == level,
               script == Script.common || script == o.script || o.script == Script.common,
               emoji == o.isColorEmoji || emoji && o.isPrimary,
               o.keepsFont || FontFallback.draws(o.font, scalars[...]),
               script == Script.common || o.isPrimary
                   || !FontFallback.covers(primary[style], scalars[...])
                       && (!fallback.hasLists || fallback.font(for: scalars[...], style: style, script: script, emoji: emoji) === o.font) {
                if o.script == Script.common && script != Script.common { open!.script = script }
            } else {
                close(at: start)
                let font = fallback.font(for: scalars[...], style: style, script: script, emoji: emoji)
                open = Open(start: start, font: font, style: style, level: level, script: script, primary: primary[style],
                            fallsBack: fallback.styles[style].fontFallback)
            }
            start = end
        }
        close(at: count)
    }

    /// True when the four UTF-16 units at `units` are all printable ASCII (U+0020...U+007E),
    /// tested as one 64-bit word: every lane below 0x80, none at 0x7F, none below 0x20 (a lane
    /// below 0x80 plus 1 or plus 0x60 carries into its own bit 7 only, never into the next lane).
    /// SAFETY: the caller passes the address of four readable units.
    @inline(__always)
    static func arePrintableASCII(_ units: UnsafeRawPointer) -> Bool {
        let word = units.loadUnaligned(as: UInt64.self)
        let lowBits: UInt64 = 0x0080_0080_0080_0080
        return word & 0xFF80_FF80_FF80_FF80 == 0
            && (word &+ 0x0001_0001_0001_0001) & lowBits == 0
            && (word &+ 0x0060_0060_0060_0060) & lowBits == lowBits
    }

    /// SAFETY: `range` is a cluster of the text, within `units`.
    private static func decode(_ units: UnsafeBufferPointer<UInt16>, _ range: Range<Int>, into scalars: inout [UInt32]) {
        scalars.removeAll(keepingCapacity: true)
        var i = range.lowerBound
        while i < range.upperBound {
            let u = units[i]
            if u >= 0xD800 && u < 0xDC00 && i + 1 < range.upperBound {
                let low = units[i + 1]
                if low >= 0xDC00 && low < 0xE000 {
                    scalars.append(SurrogatePair.codePoint(lead: u, trail: low))
                    i += 2
                    continue
                }
            }
            scalars.append(UInt32(u))
            i += 1
        }
    }

    /// The script of one scalar from the generated ranges, with Inherited and Unknown folded
    /// into Common (a search: the table answers the BMP).
    static func lookUpScript(_ scalar: UInt32) -> Script {
        let code = PropertyRanges.value(of: scalar, in: ScriptTable.ranges)
        return code == 0 ? Script.common : Script(tag: ScriptTable.tags[Int(code) - 1])
    }

    /// The cluster's script: its first scalar that is neither Common nor Inherited (UAX #24).
    private static func clusterScript(_ scalars: [UInt32], _ table: ScriptTable) -> Script {
        for scalar in scalars {
            let script = table.script(of: scalar)
            if script != Script.common { return script }
        }
        return Script.common
    }

    /// UTS #51: a cluster is shown as emoji when it asks for it (U+FE0F), holds a modifier,
    /// regional indicator, keycap or tag, or starts with a character whose default is emoji presentation.
    static func hasEmojiPresentation(_ scalars: [UInt32]) -> Bool {
        guard let first = scalars.first, first >= 0x00A9 || scalars.count > 1 else { return false }
        if scalars.count > 1 && scalars.contains(0xFE0E) { return false }
        for s in scalars where s == 0xFE0F || (s >= 0x1F3FB && s <= 0x1F3FF) || (s >= 0x1F1E6 && s <= 0x1F1FF)
            || (s >= 0xE0020 && s <= 0xE007F) || s == 0x20E3 {
            return true
        }
        // No character below U+231A (WATCH) defaults to emoji presentation.
        guard first >= 0x231A else { return false }
        return Unicode.Scalar(first)?.properties.isEmojiPresentation ?? false
    }
}
