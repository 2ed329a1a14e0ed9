import CUnibreak

extension TextAnalysis {
    /// UAX #14 opportunities as libunibreak finds them, kept only where a grapheme cluster
    /// starts (`units` must hold no regional indicator: see `withoutRegionalIndicators`):
    /// libunibreak predates the emoji rules (LB30a/b), and a break inside a cluster is never right.
    /// Text without a language goes through `BreakOpportunities`, libunibreak's rules on
    /// direct look-ups; text with one through libunibreak, for its per-language data.
    static func markLineBreaks(_ units: ContiguousArray<UInt16>, language: String, into flags: inout ContiguousArray<UnitFlags>) {
        let count = units.count
        guard count > 1 else { return }
        units.withUnsafeBufferPointer { u in
            flags.withUnsafeMutableBufferPointer { flags in
                if language.isEmpty {
                    BreakOpportunities.shared.mark(u, into: flags)
                    return
                }
                LineBreakLibrary.start()
                var breaks = [Int8](repeating: 0, count: count)
                language.withCString { lang in breaks.withUnsafeMutableBufferPointer { BreakOpportunities.linewise(u, language: lang, into: $0.baseAddress!) } }
                // breaks[i] describes the position after unit i.
                for i in 0..<(count - 1) { keep(breaks[i], before: i + 1, in: flags) }
            }
        }
    }

    /// Keeps libunibreak's value for the position before `unit`: a mandatory break, or an
    /// allowed one where a grapheme cluster starts.
    @inline(__always)
    static func keep(_ value: Int8, before unit: Int, in flags: UnsafeMutableBufferPointer<UnitFlags>) {
        if Int32(value) == LINEBREAK_MUSTBREAK {
            flags[unit].insert([.mustBreakBefore, .breakBefore])
        } else if Int32(value) == LINEBREAK_ALLOWBREAK && flags[unit].contains(.graphemeStart) {
            flags[unit].insert(.breakBefore)
        }
    }
}

/// Debian 12's libunibreak 1.1 aborts (a failed assertion) on a regional indicator that follows
/// another character: its pair table stops before class RI. Flags are whole grapheme clusters,
/// so handing it an ideograph (class ID, same UTF-16 length) in their place gives the same
/// opportunities once breaks inside clusters are dropped. Found by running every class triple.
func withoutRegionalIndicators(_ units: ContiguousArray<UInt16>) -> ContiguousArray<UInt16> {
    var copy: ContiguousArray<UInt16>?
    var i = 0
    while i + 1 < units.count {
        if units[i] == 0xD83C && units[i + 1] >= 0xDDE6 && units[i + 1] <= 0xDDFF {
            if copy == nil { copy = units }
            copy![i] = 0xD87E  // U+2F800 CJK COMPATIBILITY IDEOGRAPH
            copy![i + 1] = 0xDC00
            i += 2
        } else {
            i += 1
        }
    }
    return copy ?? units
}

/// libunibreak's tables need one initialisation per process.
enum LineBreakLibrary {
    private static let started: Bool = {
        init_linebreak()
        return true
    }()

    static func start() { _ = started }
}
