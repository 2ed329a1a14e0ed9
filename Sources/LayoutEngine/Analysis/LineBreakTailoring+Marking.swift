extension LineBreakTailoring {
    /// Every opportunity of `text` into `flags` where some style tailors line breaking: each
    /// distinct tailoring's pass over the whole text (rules look back past a style's edge), its
    /// answers kept for the units whose style asks for it.
    static func markLineBreaks(_ text: AttributedText, quotes: [LineBreakRules.TailoredQuote], unicode: any UnicodeServices,
                               into flags: inout ContiguousArray<UnitFlags>) {
        let units = text.units
        let tailorings = text.styles.map(LineBreakTailoring.init)
        var distinct: [LineBreakTailoring] = []
        for tailoring in tailorings where !distinct.contains(tailoring) { distinct.append(tailoring) }
        guard distinct.count > 1 else {
            mark(units, distinct.first ?? .none, quotes: quotes, unicode: unicode, into: &flags)
            return
        }
        let unmarked = flags
        for tailoring in distinct {
            var marked = unmarked
            mark(units, tailoring, quotes: quotes, unicode: unicode, into: &marked)
            for run in text.runs where tailorings[run.style] == tailoring {
                for index in run.range { flags[index] = marked[index] }
            }
        }
    }

    /// One tailoring's opportunities over the whole text: the rules over its class table, then
    /// what CSS adds or takes away that a class cannot say.
    static func mark(_ units: ContiguousArray<UInt16>, _ tailoring: LineBreakTailoring, quotes: [LineBreakRules.TailoredQuote],
                     unicode: any UnicodeServices, into flags: inout ContiguousArray<UnitFlags>) {
        guard units.count > 1 else { return }
        let table = tailoring.tailorsClasses ? tailoring.classTable : LineBreakClass.lowPlanes
        TextAnalysis.markLineBreaks(units, table: table, quotes: quotes, into: &flags)
        if tailoring.strictness == .anywhere {
            allowEverywhere(units, into: &flags)
            return
        }
        if tailoring.strictness == .loose && tailoring.language != .other { allowBetweenInseparables(units, into: &flags) }
        switch tailoring.wordBreak {
        case .keepAll: keepWords(units, table: table, into: &flags)
        case .autoPhrase: JapanesePhrases.keep(units, dictionary: unicode, into: &flags)
        case .normal, .breakAll: break
        }
    }

    /// `line-break: anywhere`: a break before every grapheme cluster but a space that hangs
    /// (the break after the spaces is there already, and a line does not start with one).
    private static func allowEverywhere(_ units: ContiguousArray<UInt16>, into flags: inout ContiguousArray<UnitFlags>) {
        for index in 1..<units.count where flags[index].contains(.graphemeStart) && !flags[index].contains(.hangingSpace) {
            flags[index].insert(.breakBefore)
        }
    }

    /// `loose` in Chinese and Japanese: a break between two inseparable characters (……).
    private static func allowBetweenInseparables(_ units: ContiguousArray<UInt16>, into flags: inout ContiguousArray<UnitFlags>) {
        var previousInseparable = false
        forEachScalar(units) { index, scalar in
            let inseparable = isInseparable(scalar)
            if inseparable && previousInseparable && flags[index].contains(.graphemeStart) { flags[index].insert(.breakBefore) }
            if !isMark(scalar) { previousInseparable = inseparable }
        }
    }

    /// `word-break: keep-all`: no break between two letters, digits or ideographs (marks belong
    /// to the letter before them); breaks after spaces and at punctuation stay.
    private static func keepWords(_ units: ContiguousArray<UInt16>, table: [LineBreakClass], into flags: inout ContiguousArray<UnitFlags>) {
        var previousIsLetter = false
        forEachScalar(units) { index, scalar in
            let lineBreakClass = scalar < 0x20000 ? table[Int(scalar)] : LineBreakClass.of(scalar)
            if lineBreakClass == .CM || lineBreakClass == .ZWJ { return }
            let isLetter = isWordLetter(lineBreakClass, scalar: scalar)
            if isLetter && previousIsLetter && !flags[index].contains(.mustBreakBefore) { flags[index].remove(.breakBefore) }
            previousIsLetter = isLetter
        }
    }

    /// Calls `body` with each scalar's first unit and value (a lone surrogate as itself).
    static func forEachScalar(_ units: ContiguousArray<UInt16>, _ body: (Int, UInt32) -> Void) {
        var index = 0
        while index < units.count {
            let unit = units[index]
            if UTF16.isLeadSurrogate(unit), index + 1 < units.count, UTF16.isTrailSurrogate(units[index + 1]) {
                body(index, SurrogatePair.codePoint(lead: unit, trail: units[index + 1]))
                index += 2
            } else {
                body(index, UInt32(unit))
                index += 1
            }
        }
    }

    /// A combining mark or joiner by the default table: it belongs to the character before it.
    private static func isMark(_ scalar: UInt32) -> Bool {
        let lineBreakClass = LineBreakClass.of(scalar)
        return lineBreakClass == .CM || lineBreakClass == .ZWJ
    }
}
