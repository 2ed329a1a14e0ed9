import CUnibreak

/// UAX #14 line-break opportunities with libunibreak's data and rules, minus its cost.
///
/// libunibreak 1.1 finds each character's class by a linear search through its ranges and
/// calls through a function pointer per character: it was the largest cost of analysis.
/// Here the classes come from the same table (`lb_prop_default`), copied once into direct
/// look-ups, and the pair table is read from libunibreak itself at start-up by breaking
/// two- and three-character strings, so the rules are its rules. The algorithm is UAX #14's
/// pair-table one as libunibreak runs it. `BreakOpportunitiesTests` holds the output equal
/// to `set_linebreaks_utf16` on the corpus, on every class pair and triple, and on random
/// strings. Text with a language goes to libunibreak: its per-language data is not copied.
// @unchecked Sendable: its tables are built once in `shared` and only read after; one of them is a
// pointer into libunibreak's static data, which is constant.
struct BreakOpportunities: @unchecked Sendable {
    static let shared = BreakOpportunities()

    /// Break values, as libunibreak writes them.
    static let mustBreak = Int8(LINEBREAK_MUSTBREAK), allowBreak = Int8(LINEBREAK_ALLOWBREAK)
    static let noBreak = Int8(LINEBREAK_NOBREAK), insideCharacter = Int8(LINEBREAK_INSIDEACHAR)

    /// What the pair table says for a class pair (UAX #14's example implementation).
    enum Action: UInt8 {
        case direct, indirect, combiningIndirect, combiningProhibited, prohibited
    }

    private static let classCount = Int(LBP_XX.rawValue) + 1
    private static let sp = UInt8(LBP_SP.rawValue), bk = UInt8(LBP_BK.rawValue), cr = UInt8(LBP_CR.rawValue)
    private static let lf = UInt8(LBP_LF.rawValue), nl = UInt8(LBP_NL.rawValue), wj = UInt8(LBP_WJ.rawValue)
    private static let cm = UInt8(LBP_CM.rawValue), xx = UInt8(LBP_XX.rawValue), ri = UInt8(LBP_RI.rawValue)
    private static let al = UInt8(LBP_AL.rawValue), nu = UInt8(LBP_NU.rawValue), id = UInt8(LBP_ID.rawValue)

    /// Classes of planes 0 and 1, one byte per code point; higher planes search `ranges`.
    /// Raw memory held for the process's life (the tables are built once), so a look-up
    /// touches no reference count.
    private let lowPlanes: UnsafeMutablePointer<UInt8>
    private let ranges: [(start: UInt32, end: UInt32, lineBreakClass: UInt8)]
    /// The pair table as outcomes, two per class pair (without and with a space before):
    /// the break value in the low two bits, and bit 2 set when the new class becomes current.
    /// A look-up instead of a switch: the switch's jump mispredicted on most characters.
    private let outcomes: UnsafeMutablePointer<UInt8>
    /// One character of each class libunibreak has (the first of its first range), by class.
    let samples: [UInt32?]
    /// True when the pair table has no break between a letter or digit and a letter or digit
    /// right after it (AL and NU in any order, no space between: UAX #14's LB23, LB25 and LB28)
    /// and makes the second current, as every version read so far does: runs of them, most of
    /// a text, then skip the table.
    let alphanumericRunsHold: Bool
    /// True when the pair table breaks between two ideographs (ID, no space between: UAX #14's
    /// LB31) and makes the second current: runs of Chinese or Japanese ideographs then skip it.
    let ideographRunsHold: Bool
    /// True when the pair table allows a break between a letter or digit and the letter or
    /// digit after one space (UAX #14's LB18) and makes the second current: the gap between two
    /// words, most of a Latin text's opportunities, then stays in the run's loop.
    let wordGapsBreak: Bool

    private init() {
        LineBreakLibrary.start()
        var ranges: [(start: UInt32, end: UInt32, lineBreakClass: UInt8)] = []
        var entry = layoutd_lb_prop_default()!
        while entry.pointee.prop != LBP_Undefined {
            ranges.append((entry.pointee.start, entry.pointee.end, UInt8(entry.pointee.prop.rawValue)))
            entry += 1
        }
        let lowPlanes = UnsafeMutablePointer<UInt8>.allocate(capacity: 0x20000)
        lowPlanes.initialize(repeating: Self.xx, count: 0x20000)
        for range in ranges where range.start < 0x20000 {
            for scalar in range.start...min(range.end, 0x1FFFF) { lowPlanes[Int(scalar)] = range.lineBreakClass }
        }
        self.lowPlanes = lowPlanes
        self.ranges = ranges
        var samples = [UInt32?](repeating: nil, count: Self.classCount)
        for range in ranges where samples[Int(range.lineBreakClass)] == nil && !(0xD800..<0xE000).contains(range.start) {
            samples[Int(range.lineBreakClass)] = range.start
        }
        self.samples = samples
        let pairs = Self.probePairs(samples)
        let outcomes = UnsafeMutablePointer<UInt8>.allocate(capacity: pairs.count * 2)
        for (index, action) in pairs.enumerated() {
            outcomes[index * 2] = Self.outcome(action, afterSpace: false)
            outcomes[index * 2 + 1] = Self.outcome(action, afterSpace: true)
        }
        self.outcomes = outcomes
        let kept = UInt8(Self.noBreak) | 4
        alphanumericRunsHold = [Self.al, Self.nu].allSatisfy { a in
            [Self.al, Self.nu].allSatisfy { b in
                outcomes[(Int(a) * Self.classCount + Int(b)) * 2] == kept  // the outcome with no space before
            }
        }
        ideographRunsHold = outcomes[(Int(Self.id) * Self.classCount + Int(Self.id)) * 2] == UInt8(Self.allowBreak) | 4
        wordGapsBreak = [Self.al, Self.nu].allSatisfy { a in
            [Self.al, Self.nu].allSatisfy { b in
                outcomes[(Int(a) * Self.classCount + Int(b)) * 2 + 1] == UInt8(Self.allowBreak) | 4  // after a space
            }
        }
    }

    func lineBreakClass(_ scalar: UInt32) -> UInt8 {
        if scalar < 0x20000 { return lowPlanes[Int(scalar)] }
        var low = 0
        var high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].end < scalar { low = mid + 1 } else { high = mid }
        }
        return low < ranges.count && ranges[low].start <= scalar ? ranges[low].lineBreakClass : Self.xx
    }

    /// Reads the pair table out of libunibreak: for classes a and b with sample characters
    /// x and y, "x y" breaks only on a direct entry, "x SP y" on a direct or indirect one.
    /// In the combining-mark column an entry may also be a combining kind (the mark takes
    /// the class before it): "x CM z" then breaks as "x z" would, for every z.
    private static func probePairs(_ samples: [UInt32?]) -> [Action] {
        // Samples as UTF-16: a lone low surrogate stands for class SG (unpaired surrogates).
        var units = samples.map { $0.map { Array(String(Character(Unicode.Scalar($0)!)).utf16) } }
        units[Int(LBP_SG.rawValue)] = [0xDC00]
        let skipped: Set<Int> = [Int(sp), Int(bk), Int(cr), Int(lf), Int(nl), Int(ri)]
        // Only classes that can be current (not the simple-rule ones) and that libunibreak
        // 1.1 takes (regional indicators abort it) are read.
        let probed = (0..<classCount).filter { units[$0] != nil && !skipped.contains($0) }
        var pairs = [Action](repeating: .prohibited, count: classCount * classCount)
        func read(_ a: Int, _ b: Int) -> (adjacent: Bool, spaced: Bool) {
            let x = units[a]!, y = units[b]!
            let adjacent = libunibreak((x + y)[...], language: "")[x.count - 1] == allowBreak
            let spaced = libunibreak((x + [0x20] + y)[...], language: "")[x.count] == allowBreak
            return (adjacent, spaced)
        }
        for a in probed {
            for b in probed where b != Int(cm) {
                let (adjacent, spaced) = read(a, b)
                pairs[a * classCount + b] = adjacent ? .direct : spaced ? .indirect : .prohibited
            }
        }
        let mark = units[Int(cm)]!
        for a in probed {
            let (adjacent, spaced) = read(a, Int(cm))
            if adjacent {
                pairs[a * classCount + Int(cm)] = .direct
                continue
            }
            // Does the mark leave `a` current? Then "x CM z" breaks as "x z" without a space.
            let x = units[a]!
            let keepsClass = probed.filter { $0 != Int(cm) }.allSatisfy { z in
                let breaks = libunibreak((x + mark + units[z]!)[...], language: "")
                let expected = pairs[a * classCount + z] == .direct
                return (breaks[x.count + mark.count - 1] == allowBreak) == expected
            }
            pairs[a * classCount + Int(cm)] = keepsClass ? (spaced ? .combiningIndirect : .combiningProhibited)
                                                         : (spaced ? .indirect : .prohibited)
        }
        return pairs
    }

    /// What an action gives (UAX #14's example implementation): the break value, and whether
    /// the new class becomes current (a combining mark with no space before it keeps its base's).
    private static func outcome(_ action: Action, afterSpace: Bool) -> UInt8 {
        let result: Int8
        var becomesCurrent = true
        switch action {
        case .direct: result = allowBreak
        case .indirect: result = afterSpace ? allowBreak : noBreak
        case .combiningIndirect: result = afterSpace ? allowBreak : noBreak; becomesCurrent = afterSpace
        case .combiningProhibited: result = noBreak; becomesCurrent = afterSpace
        case .prohibited: result = noBreak
        }
        return UInt8(result) | (becomesCurrent ? 4 : 0)
    }

    /// libunibreak's answer for a string of scalars (planes above 0 as surrogate pairs).
    static func libunibreak(_ scalars: [UInt32], language: String = "") -> [Int8] {
        var units: [UInt16] = []
        for scalar in scalars { units += Array(String(Character(Unicode.Scalar(scalar)!)).utf16) }
        return libunibreak(units[...], language: language)
    }

    static func libunibreak(_ units: ArraySlice<UInt16>, language: String) -> [Int8] {
        var breaks = [Int8](repeating: 0, count: units.count)
        guard !units.isEmpty else { return breaks }
        units.withUnsafeBufferPointer { u in
            breaks.withUnsafeMutableBufferPointer { b in
                language.withCString { lang in linewise(u, language: language.isEmpty ? nil : lang, into: b.baseAddress!) }
            }
        }
        return breaks
    }

    /// `set_linebreaks_utf16`, with every line (after a mandatory break) taken as a text of its
    /// own. libunibreak takes a space that starts the text as WJ with nothing before it, and a
    /// space that starts a later line as WJ after the break's class, so LB18 breaks after the
    /// second and not the first: a paragraph's lines would depend on the paragraph before it (an
    /// editing session lays each alone). Lines starting with a space are broken again alone.
    static func linewise(_ units: UnsafeBufferPointer<UInt16>, language: UnsafePointer<CChar>?, into breaks: UnsafeMutablePointer<Int8>) {
        set_linebreaks_utf16(units.baseAddress, units.count, language, breaks)
        var i = 0
        while i + 1 < units.count {
            defer { i += 1 }
            guard Int32(breaks[i]) == LINEBREAK_MUSTBREAK && units[i + 1] == 0x20 else { continue }
            var end = i + 1
            while end < units.count - 1 && Int32(breaks[end]) != LINEBREAK_MUSTBREAK { end += 1 }
            set_linebreaks_utf16(units.baseAddress! + i + 1, end - i, language, breaks + i + 1)
        }
    }

    /// What `set_linebreaks_utf16(units, count, NULL, breaks)` writes: for each unit, the
    /// opportunity after it.
    func breaks(_ units: UnsafeBufferPointer<UInt16>, into breaks: UnsafeMutableBufferPointer<Int8>) {
        forEachBreak(units) { breaks[$0] = $1 }
    }

    /// The opportunities straight into `flags`, kept as `TextAnalysis.keep` keeps libunibreak's.
    /// Analysis uses this: no array of break values, no second pass over it.
    func mark(_ units: UnsafeBufferPointer<UInt16>, into flags: UnsafeMutableBufferPointer<UnitFlags>) {
        let count = units.count
        forEachBreak(units) { after, value in
            if after + 1 < count { TextAnalysis.keep(value, before: after + 1, in: flags) }
        }
    }

    /// Runs the pair-table algorithm, handing `emit` each unit's break value as libunibreak
    /// writes it (the unit's index, the value after it).
    @inline(__always)
    private func forEachBreak(_ units: UnsafeBufferPointer<UInt16>, _ emit: (Int, Int8) -> Void) {
        let count = units.count
        guard count > 0 else { return }
        var position = 0
        // The next scalar, or nil at the end. As in libunibreak, a high surrogate that is the
        // last unit ends the text early: it is an incomplete character, inside of nothing.
        @inline(__always) func next() -> UInt32? {
            guard position < count else { return nil }
            let unit = UInt32(units[position])
            if unit >= 0xD800 && unit < 0xDC00 && position + 1 == count {
                if position > 0 { emit(position, Self.insideCharacter) }  // alone, it leaves nothing written
                return nil
            }
            position += 1
            if unit >= 0xD800 && unit < 0xDC00 {
                let low = UInt32(units[position])
                if low >= 0xDC00 && low < 0xE000 {
                    emit(position - 1, Self.insideCharacter)
                    position += 1
                    return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                }
            }
            return unit
        }
        guard let first = next() else { return }
        var current = Self.startOfLine(lineBreakClass(first))
        var previousNew: UInt8 = 0  // LBP_Undefined: nothing before the first character
        var lastEnd = position - 1  // the unit whose "after" the next character decides
        let classCount = Self.classCount
        let outcomes = self.outcomes
        let alphanumericRunsHold = self.alphanumericRunsHold
        let ideographRunsHold = self.ideographRunsHold
        let wordGapsBreak = self.wordGapsBreak
        while true {
            if alphanumericRunsHold && (current == Self.al || current == Self.nu)
                && (previousNew == Self.al || previousNew == Self.nu) {
                // A run of letters and digits right after a letter or digit (no space before,
                // which would make an opportunity): none inside it, and each becomes current in
                // turn (the table says so; `alphanumericRunsHold`).
                while position < count {
                    let unit = units[position]
                    if unit == 0x20 && wordGapsBreak && position + 1 < count {
                        // One space, then a letter or digit: no break before the space (LB7),
                        // one after it (LB18), and the run goes on from the letter.
                        let next = units[position + 1]
                        guard next < 0xD800 || next >= 0xE000 else { break }
                        let new = lowPlanes[Int(next)]
                        guard new == Self.al || new == Self.nu else { break }
                        emit(lastEnd, Self.noBreak)
                        emit(position, Self.allowBreak)
                        current = new
                        previousNew = new
                        lastEnd = position + 1
                        position += 2
                        continue
                    }
                    guard unit < 0xD800 || unit >= 0xE000 else { break }
                    let new = lowPlanes[Int(unit)]
                    guard new == Self.al || new == Self.nu else { break }
                    emit(lastEnd, Self.noBreak)
                    current = new
                    previousNew = new
                    lastEnd = position
                    position += 1
                }
            }
            if ideographRunsHold && current == Self.id && previousNew == Self.id {
                // A run of ideographs right after one: an opportunity before each (the table
                // says so; `ideographRunsHold`), and each becomes current in turn.
                while position < count {
                    let unit = units[position]
                    guard unit < 0xD800 || unit >= 0xE000, lowPlanes[Int(unit)] == Self.id else { break }
                    emit(lastEnd, Self.allowBreak)
                    lastEnd = position
                    position += 1
                }
            }
            guard let scalar = next() else { break }
            let new = lineBreakClass(scalar)
            let last = previousNew
            previousNew = new
            let result: Int8
            if current == Self.bk || (current == Self.cr && new != Self.lf) {
                result = Self.mustBreak  // LB4, LB5
                current = Self.startOfLine(new)
                previousNew = 0  // a line starts as the text does (see `linewise`)
            } else if new == Self.sp {
                result = Self.noBreak  // LB7; the class before the spaces stays current
            } else if new == Self.bk || new == Self.lf || new == Self.nl {
                result = Self.noBreak  // LB6
                current = Self.bk
            } else if new == Self.cr {
                result = Self.noBreak
                current = Self.cr
            } else {
                let outcome = outcomes[(Int(current) * classCount + Int(new)) * 2 + (last == Self.sp ? 1 : 0)]
                result = Int8(outcome & 3)
                if outcome & 4 != 0 { current = new }
            }
            emit(lastEnd, result)
            lastEnd = position - 1
        }
        emit(lastEnd, Self.mustBreak)
    }

    /// LB5 and a leading space: the class a line's first character counts as.
    @inline(__always)
    private static func startOfLine(_ lineBreakClass: UInt8) -> UInt8 {
        switch lineBreakClass {
        case lf, nl: return bk
        case sp: return wj
        default: return lineBreakClass
        }
    }
}
