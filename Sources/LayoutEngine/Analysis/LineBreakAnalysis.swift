extension TextAnalysis {
    /// UAX #14 opportunities (`LineBreakRules`), kept only where a grapheme cluster starts: a
    /// break inside a cluster is never right (docs/unicode.md lists this tailoring). A
    /// language may class some quotation marks as opening or closing (`LineBreakRules.quotes`).
    /// Where some style tailors breaking (`TextStyle.lineBreak`, `wordBreak`), its units take
    /// the tailored opportunities (`LineBreakTailoring`).
    static func markLineBreaks(_ text: AttributedText, unicode: any UnicodeServices, into flags: inout ContiguousArray<UnitFlags>) {
        // Read in place, by index: a style taken whole out of the array (as `contains(where:)`
        // takes it) retained and released its strings and arrays.
        let styles = text.styles
        var tailors = false
        for index in styles.indices where styles[index].tailorsLineBreaks { tailors = true }
        let language = text.styles.first?.language ?? ""
        guard tailors else {
            markLineBreaks(text.units, language: language, into: &flags)
            return
        }
        guard text.units.count > 1 else { return }
        let quotes = language.isEmpty ? [] : LineBreakRules.quotes(for: language)
        LineBreakTailoring.markLineBreaks(text, quotes: quotes, unicode: unicode, into: &flags)
    }

    static func markLineBreaks(_ units: ContiguousArray<UInt16>, language: String, into flags: inout ContiguousArray<UnitFlags>) {
        guard units.count > 1 else { return }
        let quotes = language.isEmpty ? [] : LineBreakRules.quotes(for: language)
        units.withUnsafeBufferPointer { u in
            flags.withUnsafeMutableBufferPointer { flags in
                LineBreakRules.mark(u, quotes: quotes, into: flags)
            }
        }
    }
}

extension TextAnalysis {
    /// The rules over a class table of planes 0 and 1 (a tailoring's, `LineBreakTailoring`).
    static func markLineBreaks(_ units: ContiguousArray<UInt16>, table: [LineBreakClass], quotes: [LineBreakRules.TailoredQuote],
                               into flags: inout ContiguousArray<UnitFlags>) {
        units.withUnsafeBufferPointer { u in
            flags.withUnsafeMutableBufferPointer { flags in
                table.withUnsafeBufferPointer { LineBreakRules.mark(u, table: $0, quotes: quotes, into: flags) }
            }
        }
    }
}

extension LineBreakRules {
    /// Every opportunity in `units` into `flags`: before a unit, a mandatory break or one
    /// allowed where a grapheme cluster starts.
    static func mark(_ units: UnsafeBufferPointer<UInt16>, quotes: [TailoredQuote],
                     into flags: UnsafeMutableBufferPointer<UnitFlags>) {
        LineBreakClass.lowPlanes.withUnsafeBufferPointer { table in
            mark(units, table: table, quotes: quotes, into: flags)
        }
    }

    /// The same over a class table of planes 0 and 1 (a tailoring's, `LineBreakTailoring`).
    static func mark(_ units: UnsafeBufferPointer<UInt16>, table: UnsafeBufferPointer<LineBreakClass>,
                             quotes: [TailoredQuote], into flags: UnsafeMutableBufferPointer<UnitFlags>) {
        let count = units.count
        var position = 0
        // The class of the scalar at `position`, moving past it; a lone surrogate is AL (LB1's SG).
        @inline(__always) func take() -> LineBreakClass {
            let unit = UInt32(units[position])
            position += 1
            var scalar = unit
            if unit >= 0xD800 && unit < 0xE000 {
                guard unit < 0xDC00, position < count, units[position] >= 0xDC00 && units[position] < 0xE000 else { return .AL }
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (UInt32(units[position]) - 0xDC00)
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

    /// A quotation mark a language reads as opening or closing rather than ambiguous (QU).
    struct TailoredQuote {
        let scalar: UInt32
        let lineBreakClass: LineBreakClass

        init(_ scalar: UInt32, _ lineBreakClass: LineBreakClass) {
            self.scalar = scalar
            self.lineBreakClass = lineBreakClass
        }
    }

    /// A language's quotation marks, as libunibreak 1.1's language data classed them, by the
    /// language's first subtag.
    static func quotes(for language: String) -> [TailoredQuote] {
        guard language.utf8.count >= 2 else { return [] }
        switch language.prefix(2) {
        case "en": return [TailoredQuote(0x2018, .OP), TailoredQuote(0x201C, .OP), TailoredQuote(0x201D, .CL)]
        case "de": return [TailoredQuote(0x00AB, .CL), TailoredQuote(0x00BB, .OP), TailoredQuote(0x2018, .CL), TailoredQuote(0x201C, .CL),
                           TailoredQuote(0x2039, .CL), TailoredQuote(0x203A, .OP)]
        case "es", "fr": return [TailoredQuote(0x00AB, .OP), TailoredQuote(0x00BB, .CL), TailoredQuote(0x2018, .OP),
                                 TailoredQuote(0x201C, .OP), TailoredQuote(0x201D, .CL), TailoredQuote(0x2039, .OP), TailoredQuote(0x203A, .CL)]
        case "ru": return [TailoredQuote(0x00AB, .OP), TailoredQuote(0x00BB, .CL), TailoredQuote(0x201C, .CL)]
        case "zh": return [TailoredQuote(0x2018, .OP), TailoredQuote(0x2019, .CL), TailoredQuote(0x201C, .OP), TailoredQuote(0x201D, .CL)]
        default: return []
        }
    }
}
