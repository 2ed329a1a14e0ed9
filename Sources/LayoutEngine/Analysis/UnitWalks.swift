/// The analysis's walks over every unit of a text: the unit pass (each unit's flags, the bidi
/// paragraphs, what the text holds) and UAX #14's rules. They read the text and write its flags
/// through buffers, without a bounds check per access: every caption's units go through both,
/// and through spans their checks showed in every pass (docs/design.md, "The engine's seams").
/// The other analyses read spans.
///
/// SAFETY: each walk gets the text's units and flags arrays of the same length (checked before
/// the buffers are taken), reads only at indices below that length, and keeps no buffer past
/// the call.
extension TextAnalysis {
    /// The pass every unit takes: its flags, the paragraphs its separators end, and what the
    /// text holds. Every unit simple to grapheme breaking starts a cluster when the text holds
    /// nothing else: marked here, and `markGraphemes` runs only when some unit is not simple (its
    /// pass is a second walk over every unit). Its flags are joined with `formUnion`, not array
    /// literals: inlined into a larger body, the literals were made as arrays on every space.
    static func markUnits(_ units: ContiguousArray<UInt16>, into flags: inout ContiguousArray<UnitFlags>,
                          paragraphs: inout [BidiParagraph]) -> UnitFacts {
        precondition(flags.count == units.count)
        var facts = UnitFacts()
        // SAFETY: `flags` has an entry per unit (checked above); every index is below `u.count`;
        // `unitKinds` has an entry for every UTF-16 unit (it is made so).
        units.withUnsafeBufferPointer { u in
            flags.withUnsafeMutableBufferPointer { flags in
                FirstPassUnitKind.table.withUnsafeBufferPointer { unitKinds in
                    for i in 0..<u.count {
                        let unit = u[i]
                        // Letters of most scripts are none of what follows: one test passes them by,
                        // and the space between words, with the flags the notes below give it.
                        if unit >= 0x20 && unit < 0x7F { flags[i] = unit == 0x20 ? Self.spaceFlags : .graphemeStart; continue }
                        // The rest, by a table of every UTF-16 unit (`FirstPassUnitKind`): the inert
                        // units, the right-to-left blocks' and the surrogates need none of the notes below.
                        switch unitKinds[Int(unit)] {
                        case .simple: flags[i] = .graphemeStart; continue
                        case .joining: facts.allSimple = false; continue
                        case .rightToLeftSimple: facts.mayBeRTL = true; flags[i] = .graphemeStart; continue
                        case .rightToLeftJoining:
                            // Hebrew and Arabic marks: a cluster of their own unless they join the unit before.
                            // The leads of the right-to-left planes join nothing, so they make the text not simple.
                            facts.mayBeRTL = true
                            if !Self.joinsPrevious(unit, at: i, in: u) { facts.allSimple = false }
                            continue
                        case .general: break
                        }
                        if facts.firstControl == nil && UnitClass.isControl(unit) { facts.firstControl = i }
                        if unit == 0xAD { facts.hasSoftHyphen = true }
                        if unit == 0x09 { facts.hasTabs = true }
                        // UAX #9 P1: a paragraph ends after each separator (class B); CR LF is one.
                        if BidiResolver.isParagraphSeparator(unit) && !(unit == 0x0D && i + 1 < u.count && u[i + 1] == 0x0A) {
                            paragraphs.append(BidiParagraph(range: facts.paragraphStart..<(i + 1), baseLevel: 0))
                            facts.paragraphStart = i + 1
                        }
                        var unitFlags = UnitFlags()
                        if UnitClass.isHardBreak(unit) {
                            unitFlags.formUnion(UnitFlags.hardBreak.union(.hangingSpace))
                            facts.hasHardBreaks = true
                            if !BidiResolver.isParagraphSeparator(unit) { facts.hardBreakInsideParagraph = true }
                        }
                        if UnitClass.isHangingSpace(unit) { unitFlags.formUnion(.hangingSpace) }
                        if UnitClass.isJustifiable(unit) { unitFlags.formUnion(.justifiable) }
                        if GraphemeFastPath.isSimple(unit) {
                            unitFlags.formUnion(.graphemeStart)
                        } else if !Self.joinsPrevious(unit, at: i, in: u) {
                            facts.allSimple = false
                        }
                        flags[i] = unitFlags
                        if !facts.mayBeRTL && UnitClass.mayBeRTL(unit) { facts.mayBeRTL = true }
                    }
                }
            }
        }
        return facts
    }

    /// The flags of U+0020 SPACE, as the general notes in `markUnits` give it: it starts a
    /// cluster, hangs at a line's end and takes justification's stretch (`UnitClassTests`).
    @inline(__always)
    static var spaceFlags: UnitFlags { UnitFlags.graphemeStart.union(.hangingSpace).union(.justifiable) }

    /// True when `unit`, at `index` of `units`, is a mark that joins the unit before it
    /// (`GraphemeFastPath.joinsPrevious`) and that unit is a simple one it extends, or another
    /// such mark: it starts no cluster, and the text stays simple (its flags are left empty).
    /// Out of line: asked only of units that are not simple, its tests kept the pass's loop
    /// from holding its values in registers for every other unit.
    /// SAFETY: `index` is a unit's offset in `units` (the pass's), and `index - 1` is read only
    /// when `index` is past 0.
    @inline(never)
    private static func joinsPrevious(_ unit: UInt16, at index: Int, in units: UnsafeBufferPointer<UInt16>) -> Bool {
        guard index > 0, GraphemeFastPath.joinsPrevious(unit) else { return false }
        let previous = units[index - 1]
        return GraphemeFastPath.isMarkBase(previous) || GraphemeFastPath.joinsPrevious(previous)
    }

    /// SAFETY: the walk gets the text's units and its flags, one per unit.
    static func markLineBreaks(_ units: ContiguousArray<UInt16>, language: String, into flags: inout ContiguousArray<UnitFlags>) {
        guard units.count > 1 else { return }
        precondition(flags.count == units.count)
        let quotes = language.isEmpty ? [] : LineBreakRules.quotes(for: language)
        units.withUnsafeBufferPointer { u in
            flags.withUnsafeMutableBufferPointer { flags in
                LineBreakRules.mark(u, quotes: quotes, into: flags)
            }
        }
    }

    /// The rules over a class table of planes 0 and 1 (a tailoring's, `LineBreakTailoring`).
    /// SAFETY: as above; the table has an entry for every scalar below U+20000.
    static func markLineBreaks(_ units: ContiguousArray<UInt16>, table: [LineBreakClass], quotes: [LineBreakRules.TailoredQuote],
                               into flags: inout ContiguousArray<UnitFlags>) {
        precondition(flags.count == units.count && table.count >= 0x20000)
        units.withUnsafeBufferPointer { u in
            flags.withUnsafeMutableBufferPointer { flags in
                table.withUnsafeBufferPointer { LineBreakRules.mark(u, table: $0, quotes: quotes, into: flags) }
            }
        }
    }
}

extension LineBreakRules {
    /// Every opportunity in `units` into `flags`: before a unit, a mandatory break or one
    /// allowed where a grapheme cluster starts. SAFETY: `flags` has an entry per unit.
    static func mark(_ units: UnsafeBufferPointer<UInt16>, quotes: [TailoredQuote],
                     into flags: UnsafeMutableBufferPointer<UnitFlags>) {
        LineBreakClass.lowPlanes.withUnsafeBufferPointer { table in
            mark(units, table: table, quotes: quotes, into: flags)
        }
    }

    /// The same over a class table of planes 0 and 1 (a tailoring's, `LineBreakTailoring`).
    /// SAFETY: every read is below `count` (a surrogate's pair checked first) or a scalar below
    /// U+20000 in the table; every flag written is at a unit's offset.
    static func mark(_ units: UnsafeBufferPointer<UInt16>, table: UnsafeBufferPointer<LineBreakClass>,
                             quotes: [TailoredQuote], into flags: UnsafeMutableBufferPointer<UnitFlags>) {
        let count = units.count
        var position = 0
        // The class of the scalar at `position`, moving past it; a lone surrogate is AL (LB1's SG).
        @inline(__always) func take() -> LineBreakClass {
            let unit = units[position]
            position += 1
            var scalar = UInt32(unit)
            if unit >= 0xD800 && unit < 0xE000 {
                guard unit < 0xDC00, position < count, units[position] >= 0xDC00 && units[position] < 0xE000 else { return .AL }
                scalar = SurrogatePair.codePoint(lead: unit, trail: units[position])
                position += 1
            }
            if !quotes.isEmpty, let tailored = quotes.first(where: { $0.scalar == scalar }) { return tailored.lineBreakClass }
            return scalar < 0x20000 ? table[Int(scalar)] : LineBreakClass.of(scalar)
        }
        // Whether the first character from `position` on that is not a mark is a digit.
        func digitFollows() -> Bool {
            let saved = position
            defer { position = saved }
            while position < count {
                let lineBreakClass = take()
                if lineBreakClass != .CM && lineBreakClass != .ZWJ { return lineBreakClass == .NU }
            }
            return false
        }
        // The class of a letter or digit at `index` (one unit) after a space, its break (LB18)
        // marked; nil for anything else, which the rules take one at a time.
        @inline(__always) func wordAfterSpace(at index: Int) -> LineBreakClass? {
            guard index < count else { return nil }
            let unit = units[index]
            guard unit < 0xD800 || unit >= 0xE000 else { return nil }
            let lineBreakClass = table[Int(unit)]
            guard lineBreakClass.isAlphanumeric else { return nil }
            if flags[index].contains(.graphemeStart) { flags[index].insert(.breakBefore) }
            return lineBreakClass
        }
        guard count > 0 else { return }
        var rules = LineBreakRules(first: take())
        while position < count {
            if rules.endsInAlphanumeric && quotes.isEmpty {
                // Letters and digits in a row after one, single spaces between them and closing
                // punctuation before a space: no break but after each space, passed at once.
                var last = LineBreakClass.AL, beforeLast = LineBreakClass.AL, passed = 0
                while position < count {
                    let unit = units[position]
                    if unit == 0x20 {
                        // One space, then a letter or digit: no break before the space (LB7),
                        // one after it (LB18: the class before the space is a letter or digit).
                        guard let word = wordAfterSpace(at: position + 1) else { break }
                        (beforeLast, last) = (.SP, word)
                        passed += 2
                        position += 2
                        continue
                    }
                    guard unit < 0xD800 || unit >= 0xE000 else { break }
                    let lineBreakClass = table[Int(unit)]
                    guard lineBreakClass.isAlphanumeric else {
                        // Closing punctuation, one space and a letter or digit ("word, word"):
                        // none before the punctuation (LB13) or the space (LB7), one after the
                        // space (LB18).
                        guard lineBreakClass.closesWords, position + 1 < count, units[position + 1] == 0x20,
                              let word = wordAfterSpace(at: position + 2) else { break }
                        (beforeLast, last) = (.SP, word)
                        passed += 3
                        position += 3
                        continue
                    }
                    (beforeLast, last) = (last, lineBreakClass)
                    passed += 1
                    position += 1
                }
                if passed > 0 {
                    // One letter passed: the one before it is the previous character.
                    rules.ran(through: last, after: passed == 1 ? rules.counted : beforeLast)
                    if position == count { break }
                }
            }
            if rules.endsInIdeograph && quotes.isEmpty {
                // Ideographs in a row after one: a break before each (LB31), passed at once.
                var passed = 0
                while position < count {
                    let unit = units[position]
                    guard unit < 0xD800 || unit >= 0xE000, table[Int(unit)] == .ID else { break }
                    if flags[position].contains(.graphemeStart) { flags[position].insert(.breakBefore) }
                    passed += 1
                    position += 1
                }
                if passed > 0 {
                    rules.ran(through: .ID, after: .ID)
                    if position == count { break }
                }
            }
            let start = position
            let lineBreakClass = take()
            switch rules.quickly(lineBreakClass)
                ?? rules.advance(to: lineBreakClass, digitFollows: rules.looksAhead(at: lineBreakClass) && digitFollows()) {
            case .mandatory: flags[start].insert([.mustBreakBefore, .breakBefore])
            case .allowed: if flags[start].contains(.graphemeStart) { flags[start].insert(.breakBefore) }
            case .no: break
            }
        }
    }

}
