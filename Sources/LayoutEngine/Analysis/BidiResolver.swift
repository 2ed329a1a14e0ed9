import CFriBidi

/// The direction a request asks for; `auto` takes each paragraph's first strong character (UAX #9 P2–P3).
public enum BaseDirection: Sendable {
    case auto, leftToRight, rightToLeft
}

/// A bidi paragraph (UAX #9 P1): text up to and including a paragraph separator.
struct BidiParagraph {
    var range: Range<Int>
    /// 0 for a left-to-right paragraph, 1 for right-to-left.
    var baseLevel: UInt8
}

/// Resolves UAX #9 embedding levels with FriBidi, one paragraph at a time.
enum BidiResolver {
    private static let parLTR = FriBidiParType(rawValue: 0x110)
    private static let parRTL = FriBidiParType(rawValue: 0x111)
    private static let parOn = FriBidiParType(rawValue: 0x40)

    static func resolve(_ units: ContiguousArray<UInt16>, flags: ContiguousArray<UnitFlags>, direction: BaseDirection,
                        mayBeRTL: Bool) -> (ContiguousArray<UInt8>, [BidiParagraph]) {
        var paragraphs = split(units, flags: flags)
        var levels = ContiguousArray<UInt8>(repeating: 0, count: units.count)
        // Fast path: nothing right-to-left can appear, so every level is 0.
        if !mayBeRTL && direction != .rightToLeft { return (levels, paragraphs) }
        for index in paragraphs.indices {
            paragraphs[index].baseLevel = resolveParagraph(units, range: paragraphs[index].range, direction: direction, into: &levels)
        }
        return (levels, paragraphs)
    }

    /// UAX #9 P1: a paragraph ends after each paragraph separator (class B). Levels are
    /// left at 0 for the caller to resolve.
    private static func split(_ units: ContiguousArray<UInt16>, flags: ContiguousArray<UnitFlags>) -> [BidiParagraph] {
        var result: [BidiParagraph] = []
        var start = 0
        var i = 0
        units.withUnsafeBufferPointer { units in
            while i < units.count {
                let u = units[i]
                if u == 0x0A || u == 0x0D || u == 0x1C || u == 0x1D || u == 0x1E || u == 0x85 || u == 0x2029 {
                    if u == 0x0D && i + 1 < units.count && units[i + 1] == 0x0A { i += 1 }
                    result.append(BidiParagraph(range: start..<(i + 1), baseLevel: 0))
                    start = i + 1
                }
                i += 1
            }
        }
        if start < units.count || result.isEmpty { result.append(BidiParagraph(range: start..<units.count, baseLevel: 0)) }
        return result
    }

    private static func resolveParagraph(_ units: ContiguousArray<UInt16>, range: Range<Int>, direction: BaseDirection,
                                         into levels: inout ContiguousArray<UInt8>) -> UInt8 {
        // FriBidi works on code points: decode, remembering where each came from.
        var scalars: [FriBidiChar] = []
        var origin: [Int] = []
        scalars.reserveCapacity(range.count)
        origin.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let u = units[i]
            if u >= 0xD800 && u < 0xDC00 && i + 1 < range.upperBound && units[i + 1] >= 0xDC00 && units[i + 1] < 0xE000 {
                scalars.append(0x10000 + ((FriBidiChar(u) - 0xD800) << 10) + (FriBidiChar(units[i + 1]) - 0xDC00))
                origin.append(i)
                i += 2
            } else {
                scalars.append(FriBidiChar(u))
                origin.append(i)
                i += 1
            }
        }
        let count = scalars.count
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: count)
        var brackets = [FriBidiBracketType](repeating: 0, count: count)
        var scalarLevels = [FriBidiLevel](repeating: 0, count: count)
        var base: FriBidiParType = direction == .leftToRight ? parLTR : direction == .rightToLeft ? parRTL : parOn
        let ok = scalars.withUnsafeBufferPointer { s -> Bool in
            fribidi_get_bidi_types(s.baseAddress, FriBidiStrIndex(count), &types)
            fribidi_get_bracket_types(s.baseAddress, FriBidiStrIndex(count), types, &brackets)
            return fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(count), &base, &scalarLevels) != 0
        }
        let baseLevel: UInt8 = (base.rawValue & 1) == 1 ? 1 : 0
        for k in 0..<count {
            let level = ok ? UInt8(max(0, scalarLevels[k])) : baseLevel
            let start = origin[k]
            let end = k + 1 < count ? origin[k + 1] : range.upperBound
            for unit in start..<end { levels[unit] = level }
        }
        return baseLevel
    }
}
