/// What the analyze stage knows about a text: graphemes, line-break opportunities,
/// hanging whitespace, bidi levels and paragraphs, all indexed by UTF-16 unit.
struct TextAnalysis {
    var flags: ContiguousArray<UnitFlags>
    /// UAX #9 embedding level of every unit.
    var levels: ContiguousArray<UInt8>
    var paragraphs: [BidiParagraph]
    /// The offset of the first control character, which shaping must not see as is; nil when
    /// there is none. Shaping's copy is mended from there: a document's paragraph has one, its
    /// separator, at its end.
    var firstControl: Int?
    var hasControls: Bool { firstControl != nil }
    /// True when some unit is a soft hyphen (U+00AD): a line may end there with a hyphen.
    var hasSoftHyphen = false
    /// True when some unit is a tab (U+0009) (true when unknown).
    var hasTabs = true
    /// True when some unit is a hard break (`UnitClass.isHardBreak`, UAX #14's classes BK, CR,
    /// LF and NL): without one no unit has `mustBreakBefore`, which only follows those classes.
    var hasHardBreaks = true
    /// True when every hard break is a paragraph separator (LF, CR, CR LF, NEL, U+2029): each
    /// paragraph's only one then ends it, and no unit inside a paragraph has `mustBreakBefore`
    /// (false when unknown). A document's paragraphs each end with their separator.
    var hardBreaksEndParagraphs = false
    /// The UTF-16 offset of the first grapheme cluster longer than `maxClusterScalars`, if any.
    var overlongCluster: Int?
    /// Every level is 0: nothing right-to-left can appear and none was asked for, so no line
    /// needs reordering (false when unknown).
    var isLeftToRightOnly = false

    /// The most code points one grapheme cluster may hold: a base, the 30 non-starters in a row
    /// that Unicode's Stream-Safe Text Format (UAX #15) allows, and one prepended or joining
    /// character. HarfBuzz's work grows with the square of a cluster's length (a letter and
    /// 262,143 marks held a worker for 227 s). A longer cluster is refused rather than split
    /// with U+034F COMBINING GRAPHEME JOINER as the format suggests: an inserted character would
    /// move every UTF-16 offset after it, and offsets are how clients map the reply to their text.
    static let maxClusterScalars = 32

    /// Every unit at level 0 and every paragraph left to right: text read as all strong
    /// left-to-right (vertical text set upright, CSS `text-orientation: upright`).
    mutating func setLeftToRight() {
        for i in levels.indices { levels[i] = 0 }
        for i in paragraphs.indices { paragraphs[i].baseLevel = 0 }
        isLeftToRightOnly = true
    }

    /// Moves the arrays back into `scratch` for the next analysis.
    mutating func giveBack(to scratch: LayoutScratch) {
        scratch.flags = flags.movedOut()
        scratch.levels = levels.movedOut()
        scratch.paragraphs = paragraphs.movedOut()
    }

    /// Runs every analysis over `text` with the requested base direction, asking `unicode` for
    /// bidi levels and dictionary words, in arrays taken from `scratch` when there is one.
    static func analyze(_ text: AttributedText, direction: BaseDirection, unicode: any UnicodeServices,
                        scratch: LayoutScratch? = nil) -> TextAnalysis {
        let units = text.units
        var flags = scratch?.flags.movedOut().emptied() ?? []
        flags.appendZeros(units.count)
        var paragraphs = scratch?.paragraphs.movedOut().emptied() ?? []
        let facts = markUnits(units, into: &flags, paragraphs: &paragraphs)
        // All simple: every unit starts a cluster, and none is longer than one unit.
        let overlongCluster = facts.allSimple ? nil : markGraphemes(units, into: &flags)
        markLineBreaks(text, unicode: unicode, into: &flags)
        if facts.paragraphStart < units.count || paragraphs.isEmpty {
            paragraphs.append(BidiParagraph(range: facts.paragraphStart..<units.count, baseLevel: 0))
        }
        var levels = scratch?.levels.movedOut().emptied() ?? []
        BidiResolver.resolve(units, paragraphs: &paragraphs, direction: direction, mayBeRTL: facts.mayBeRTL, unicode: unicode,
                             into: &levels)
        return TextAnalysis(flags: flags, levels: levels, paragraphs: paragraphs, firstControl: facts.firstControl,
                            hasSoftHyphen: facts.hasSoftHyphen, hasTabs: facts.hasTabs, hasHardBreaks: facts.hasHardBreaks,
                            hardBreaksEndParagraphs: !facts.hardBreakInsideParagraph, overlongCluster: overlongCluster,
                            isLeftToRightOnly: !facts.mayBeRTL && direction != .rightToLeft)
    }

    /// What the pass over every unit finds besides each unit's flags.
    struct UnitFacts {
        var mayBeRTL = false
        var firstControl: Int?
        var hasTabs = false
        var hasSoftHyphen = false
        var hasHardBreaks = false, hardBreakInsideParagraph = false
        /// Where the last paragraph starts: after the last separator (UAX #9 P1).
        var paragraphStart = 0
        /// Every unit is "simple" to grapheme breaking (`GraphemeFastPath`).
        var allSimple = true
    }

    /// Grapheme cluster starts (UAX #29 extended clusters).
    ///
    /// Between two "simple" units there is always a boundary (GB999: no rule joins them), so
    /// such stretches are marked directly. Simple units (`GraphemeFastPath`) are letters,
    /// digits and punctuation of ranges with no Extend, SpacingMark, Prepend, ZWJ, Hangul,
    /// regional indicator, pictograph or CR.
    /// Everything else goes through Swift's own grapheme breaking (`Unicode._CharacterRecognizer`,
    /// the rules behind `Character`, fed scalar by scalar with no `String` made), one segment at
    /// a time; a segment starts and ends at a boundary between two simple units, so it is judged
    /// in full context (grapheme rules look backward only).
    /// Returns the offset of the first cluster longer than `maxClusterScalars`, if any.
    /// Within complex segments every scalar's start is set or cleared, so `flags` may arrive
    /// with simple units marked already (as analysis marks them).
    @discardableResult
    static func markGraphemes(_ units: ContiguousArray<UInt16>, into flags: inout ContiguousArray<UnitFlags>) -> Int? {
        var flags = flags.mutableSpan
        return markGraphemes(units.span, into: &flags)
    }

    /// The same over spans: `flags` holds at least as many entries as `units` (a caret marks
    /// one line of a paragraph's units into a buffer on the stack).
    @discardableResult
    static func markGraphemes(_ units: Span<UInt16>, into flags: inout MutableSpan<UnitFlags>) -> Int? {
        let count = units.count
        precondition(flags.count >= count)
        guard count > 0 else { return nil }
        var overlong: Int?
        // Called directly, not through a function value, so the test is inlined into the loop.
        func simple(_ u: UInt16) -> Bool { GraphemeFastPath.isSimple(u) }
        flags[0].insert(.graphemeStart)
        var i = 0
        var isSimple = simple(units[0])
        while i < count {
            if isSimple {
                // Along a stretch of simple units every unit starts a cluster.
                var j = i + 1
                while j < count && simple(units[j]) {
                    flags[j].insert(.graphemeStart)
                    j += 1
                }
                if j == count { break }
                // The stretch's last unit is a boundary; the complex segment starts there.
                i = j - 1
            }
            // A complex segment from the known boundary at i to the next simple-simple pair.
            var end = i + 1
            while end < count && !(simple(units[end - 1]) && simple(units[end])) { end += 1 }
            // Devanagari (with simple units) is judged from its table; anything else by
            // Swift's recognizer.
            if !DevanagariClusters.mark(units, i..<end, into: &flags, overlong: &overlong) {
                markWithRecognizer(units, i..<end, into: &flags, overlong: &overlong)
            }
            i = end
            if end < count {
                flags[end].insert(.graphemeStart)
                isSimple = true  // the segment ended at a simple-simple pair
            }
        }
        return overlong
    }

    /// Marks the cluster starts of `segment`, which starts at a boundary, by Swift's own grapheme
    /// breaking, setting or clearing each scalar's start.
    private static func markWithRecognizer(_ units: Span<UInt16>, _ segment: Range<Int>,
                                           into flags: inout MutableSpan<UnitFlags>, overlong: inout Int?) {
        var recognizer = Unicode._CharacterRecognizer()
        var k = segment.lowerBound
        var clusterStart = k, clusterScalars = 0
        var afterZWJ = false
        while k < segment.upperBound {
            // A lone surrogate reads as U+FFFD, one unit wide, as `String` repairs it.
            let (scalar, width) = Self.scalar(at: k, in: units, end: segment.upperBound)
            let joined = afterZWJ && Self.joinsPictographs(before: k, scalar, in: units, from: segment.lowerBound)
            afterZWJ = scalar.value == 0x200D
            if recognizer.hasBreak(before: scalar) && !joined {
                flags[k].insert(.graphemeStart)
                clusterStart = k
                clusterScalars = 0
            } else {
                // Analysis marked every simple unit: one joined to a cluster is not a start.
                flags[k].remove(.graphemeStart)
            }
            clusterScalars += 1
            if clusterScalars > maxClusterScalars && overlong == nil { overlong = clusterStart }
            k += width
        }
    }

    /// GB11: a ZWJ (just before `index`) after a pictograph and its extenders joins the pictograph
    /// at `index`. Swift's recognizer misses some (U+2701 ZWJ U+2701 is two `Character`s in Swift
    /// 6.3); the property comes from emoji-data.txt (`WordBreak.isPictographic`).
    static func joinsPictographs(before index: Int, _ scalar: Unicode.Scalar, in units: Span<UInt16>, from start: Int) -> Bool {
        guard WordBreak.isPictographic(scalar.value) else { return false }
        // Back from the ZWJ over the extenders before it, to what they extend.
        var end = index - 1
        while end > start {
            var begin = end - 1
            if begin > start && UTF16.isTrailSurrogate(units[begin]) && UTF16.isLeadSurrogate(units[begin - 1]) { begin -= 1 }
            let (previous, _) = Self.scalar(at: begin, in: units, end: end)
            if WordBreak.isPictographic(previous.value) { return true }
            guard WordBreak(previous.value) == .extend else { return false }
            end = begin
        }
        return false
    }

    /// The scalar that starts at `index` and its width in units; U+FFFD for a lone surrogate.
    @inline(__always)
    static func scalar(at index: Int, in units: Span<UInt16>, end: Int) -> (Unicode.Scalar, Int) {
        let u = units[index]
        if UTF16.isLeadSurrogate(u), index + 1 < end, UTF16.isTrailSurrogate(units[index + 1]) {
            return (Unicode.Scalar(SurrogatePair.codePoint(lead: u, trail: units[index + 1]))!, 2)
        }
        return (Unicode.Scalar(u) ?? "\u{FFFD}", 1)
    }

    /// The next grapheme start after `index`, or `end`.
    @inline(__always)
    func nextGrapheme(after index: Int, end: Int) -> Int {
        var next = index + 1
        while next < end && !flags[next].contains(.graphemeStart) { next += 1 }
        return next
    }

    /// The grapheme boundary before `index`, not before `start`.
    func previousGrapheme(before index: Int, start: Int) -> Int {
        var previous = index - 1
        while previous > start && !flags[previous].contains(.graphemeStart) { previous -= 1 }
        return max(previous, start)
    }
}

/// Units that never join a neighbour into a grapheme cluster (UAX #29, Unicode 15.1 rules).
enum GraphemeFastPath {
    /// Transparent: inlined wherever it is asked (analysis asks it of every unit past printable
    /// ASCII; left to the optimizer it stayed a call there).
    @_transparent
    static func isSimple(_ u: UInt16) -> Bool {
        if u < 0x0080 { return u != 0x0D }
        if u < 0x0300 { return u != 0xA9 && u != 0xAE }
        if u < 0x0700 {
            return (u >= 0x0370 && u < 0x0483) || (u >= 0x048A && u < 0x0591) || (u >= 0x05D0 && u < 0x05F5)
                || (u >= 0x0621 && u < 0x064B) || (u >= 0x0660 && u < 0x0670) || (u >= 0x0671 && u < 0x06D6)
        }
        if u < 0x0A00 { return (u >= 0x0904 && u < 0x093A) || (u >= 0x0958 && u < 0x0962) || (u >= 0x0964 && u < 0x0981) }
        if u < 0x3000 {
            return (u >= 0x1E00 && u < 0x2000) || (u >= 0x2010 && u < 0x2028) || (u >= 0x2030 && u < 0x203C)
                || (u >= 0x203D && u < 0x2049) || (u >= 0x204A && u < 0x2060)
        }
        return (u < 0x302A) || (u >= 0x3041 && u < 0x3097) || (u >= 0x30A1 && u < 0x30FB)
            || (u >= 0x3400 && u < 0x4DC0) || (u >= 0x4E00 && u < 0xA000) || (u >= 0xFF01 && u < 0xFF9E)
            || u == 0xFFFC  // OBJECT REPLACEMENT CHARACTER: every attachment
    }

    /// Arabic punctuation and signs (the comma, semicolon and question mark among them) that no
    /// rule joins to a neighbour: simple, but tested apart, by analysis's first pass for the
    /// Arabic block alone, so that `isSimple` stays as short for every other unit. Between simple
    /// units they start a cluster and let the next one start one; `GraphemeTests` checks every one.
    @inline(__always)
    static func isArabicPunctuation(_ u: UInt16) -> Bool {
        (u >= 0x0606 && u < 0x0610) || u == 0x061B || (u >= 0x061D && u < 0x0621)
    }

    /// Marks that join the unit before them (Grapheme_Cluster_Break Extend): Hebrew points,
    /// Arabic harakat and Quranic marks, and the ZWNJ Persian writes inside words. After a simple
    /// unit that is not a control (`isMarkBase`), or after another of them, one never starts a
    /// cluster (GB9), and a simple unit after it starts one (GB999): analysis's first pass marks
    /// a text of simple units and these without a grapheme pass. `GraphemeTests` checks every
    /// one against `Character`.
    @inline(__always)
    static func joinsPrevious(_ u: UInt16) -> Bool {
        if u == 0x200C { return true }
        guard u &- 0x0591 <= 0x06ED - 0x0591 else { return false }
        return u <= 0x05BD || u == 0x05BF || u == 0x05C1 || u == 0x05C2 || u == 0x05C4 || u == 0x05C5 || u == 0x05C7
            || (u >= 0x0610 && u <= 0x061A) || (u >= 0x064B && u <= 0x065F) || u == 0x0670
            || (u >= 0x06D6 && u <= 0x06DC) || (u >= 0x06DF && u <= 0x06E4) || u == 0x06E7 || u == 0x06E8 || u >= 0x06EA
    }

    /// A simple unit a joining mark extends: every one but the controls, after which a cluster
    /// always ends (GB4: line feed, tab, the C1 controls and the soft hyphen).
    @inline(__always)
    static func isMarkBase(_ u: UInt16) -> Bool { isSimple(u) && !isGraphemeControl(u) }

    /// UAX #29's Control among simple units: the C0 and C1 controls and the soft hyphen (a format
    /// character). A cluster ends after each, even before a mark (GB4).
    @inline(__always)
    static func isGraphemeControl(_ u: UInt16) -> Bool { UnitClass.isControl(u) || u == 0xAD }
}
