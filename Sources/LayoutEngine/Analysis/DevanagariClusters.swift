/// Grapheme clusters of Devanagari text, judged from a small table instead of Swift's general
/// recognizer (`Unicode._CharacterRecognizer`, a call per scalar): Hindi text is
/// mostly vowel signs, viramas and nuktas, none of them "simple" (`GraphemeFastPath`), so nearly
/// every scalar of a Hindi caption went through the recognizer.
///
/// The rules that can apply among Devanagari, ZWNJ, ZWJ and simple units (UAX #29, Unicode 15.1):
/// no break before Extend, ZWJ or SpacingMark (GB9, GB9a); no break inside a conjunct,
/// `InCB=Consonant [InCB=Extend InCB=Linker]* InCB=Linker [InCB=Extend InCB=Linker]* × InCB=Consonant`
/// (GB9c); a break everywhere else (GB999). Each unit's part in them is read from Swift's own
/// grapheme breaking when the table is made (three- and four-unit probes), so the table agrees
/// with `Character` by construction; a test checks whole sequences against `Character`.
enum DevanagariClusters {
    struct Traits: OptionSet {
        let rawValue: UInt8
        /// Joins the cluster before it (Grapheme_Cluster_Break Extend, ZWJ or SpacingMark).
        static let joins = Traits(rawValue: 1 << 0)
        /// InCB=Consonant: may end a conjunct.
        static let consonant = Traits(rawValue: 1 << 1)
        /// InCB=Linker (the virama): makes a conjunct of the consonants around it.
        static let linker = Traits(rawValue: 1 << 2)
        /// InCB=Extend: may stand inside a conjunct.
        static let conjunctExtend = Traits(rawValue: 1 << 3)
        /// Joins the cluster after it (Prepend): none in Unicode 15.1's Devanagari, but if one
        /// appears the segment goes to the general recognizer.
        static let prepends = Traits(rawValue: 1 << 4)
    }

    /// U+0900...U+097F, then ZWNJ and ZWJ.
    private static let table: [Traits] = {
        func clusters(_ units: [UInt16]) -> Int { String(decoding: units, as: UTF16.self).count }
        let ka: UInt16 = 0x0915, virama: UInt16 = 0x094D
        return (Array(UInt16(0x0900)...UInt16(0x097F)) + [0x200C, 0x200D]).map { unit in
            var traits: Traits = []
            let joins = clusters([ka, unit]) == 1
            if joins { traits.insert(.joins) }
            if clusters([unit, ka]) == 1 { traits.insert(.prepends) }
            if !joins && clusters([ka, virama, unit]) == 1 { traits.insert(.consonant) }
            if joins && clusters([ka, unit, ka]) == 1 {
                traits.insert(.linker)
            } else if joins && clusters([ka, virama, unit, ka]) == 1 {
                traits.insert(.conjunctExtend)
            }
            return traits
        }
    }()

    /// The traits of `unit`: from the table, none for a simple unit, nil for any other unit and
    /// for controls (simple, but a break follows them even before a mark: GB4).
    @inline(__always)
    static func traits(of unit: UInt16, in table: Span<Traits>) -> Traits? {
        if unit >= 0x0900 && unit <= 0x097F { return table[Int(unit) - 0x0900] }
        if unit == 0x200C || unit == 0x200D { return table[Int(unit) - 0x200C + 0x80] }
        if GraphemeFastPath.isGraphemeControl(unit) { return nil }
        return GraphemeFastPath.isSimple(unit) ? [] : nil
    }

    /// Marks the cluster starts of `segment` (which starts at a cluster boundary) when every unit
    /// in it is Devanagari, ZWNJ, ZWJ or simple, setting or clearing each unit's start; returns
    /// false, marking nothing, otherwise. `overlong` gets the start of the first cluster longer
    /// than `TextAnalysis.maxClusterScalars`, if none was found before.
    static func mark(_ units: Span<UInt16>, _ segment: Range<Int>, into flags: inout MutableSpan<UnitFlags>,
                     overlong: inout Int?) -> Bool {
        let table = table.span
        do {
            for index in segment {
                guard let traits = traits(of: units[index], in: table), !traits.contains(.prepends) else { return false }
            }
            // 0: no conjunct open; 1: a consonant, then Extend; 2: and a linker since.
            var conjunct = 0
            var clusterStart = segment.lowerBound
            for index in segment {
                let traits = traits(of: units[index], in: table)!
                let joins = index > segment.lowerBound
                    && (traits.contains(.joins) || (traits.contains(.consonant) && conjunct == 2))
                if joins {
                    flags[index].remove(.graphemeStart)
                    if index - clusterStart >= TextAnalysis.maxClusterScalars && overlong == nil { overlong = clusterStart }
                } else {
                    flags[index].insert(.graphemeStart)
                    clusterStart = index
                }
                if traits.contains(.consonant) {
                    conjunct = 1
                } else if traits.contains(.linker) {
                    conjunct = conjunct >= 1 ? 2 : 0
                } else if !traits.contains(.conjunctExtend) {
                    conjunct = 0
                }
            }
            return true
        }
    }
}
