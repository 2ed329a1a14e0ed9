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
}

extension LineBreakRules {
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
