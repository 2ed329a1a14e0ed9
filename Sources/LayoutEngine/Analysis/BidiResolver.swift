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

    /// The embedding level of every unit, appended to the empty `levels`, and each paragraph's
    /// base level (`paragraphs` come from analysis with their ranges, UAX #9 P1).
    static func resolve(_ units: ContiguousArray<UInt16>, paragraphs: inout [BidiParagraph], direction: BaseDirection,
                        mayBeRTL: Bool, into levels: inout ContiguousArray<UInt8>) {
        levels.appendZeros(units.count)
        // Fast path: nothing right-to-left can appear, so every level is 0.
        if !mayBeRTL && direction != .rightToLeft { return }
        for index in paragraphs.indices {
            paragraphs[index].baseLevel = resolveParagraph(units, range: paragraphs[index].range, direction: direction, into: &levels)
        }
    }

    /// UAX #9 class B: the characters that end a paragraph.
    @inline(__always)
    static func isParagraphSeparator(_ u: UInt16) -> Bool {
        u == 0x0A || u == 0x0D || u == 0x1C || u == 0x1D || u == 0x1E || u == 0x85 || u == 0x2029
    }

    private static func resolveParagraph(_ units: ContiguousArray<UInt16>, range: Range<Int>, direction: BaseDirection,
                                         into levels: inout ContiguousArray<UInt8>) -> UInt8 {
        var base: FriBidiParType = direction == .leftToRight ? parLTR : direction == .rightToLeft ? parRTL : parOn
        let capacity = range.count
        // FriBidi works on code points. Its four arrays share one scratch allocation (on the
        // stack for a caption), so a paragraph costs no heap allocation.
        return units.withUnsafeBufferPointer { units in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: capacity * 3) { scratch in
                withUnsafeTemporaryAllocation(of: FriBidiLevel.self, capacity: capacity) { scalarLevels in
                    let scalars = scratch.baseAddress!
                    let types = scalars + capacity
                    let brackets = types + capacity
                    var count = 0
                    var i = range.lowerBound
                    while i < range.upperBound {
                        let u = units[i]
                        if u >= 0xD800 && u < 0xDC00 && i + 1 < range.upperBound && units[i + 1] >= 0xDC00 && units[i + 1] < 0xE000 {
                            scalars[count] = 0x10000 + ((FriBidiChar(u) - 0xD800) << 10) + (FriBidiChar(units[i + 1]) - 0xDC00)
                            i += 2
                        } else {
                            scalars[count] = FriBidiChar(u)
                            i += 1
                        }
                        count += 1
                    }
                    let typePointer = UnsafeMutableRawPointer(types).bindMemory(to: FriBidiCharType.self, capacity: capacity)
                    fribidi_get_bidi_types(scalars, FriBidiStrIndex(count), typePointer)
                    fribidi_get_bracket_types(scalars, FriBidiStrIndex(count), typePointer, brackets)
                    let ok = fribidi_get_par_embedding_levels_ex(typePointer, brackets, FriBidiStrIndex(count), &base,
                                                                 scalarLevels.baseAddress) != 0
                    let baseLevel: UInt8 = (base.rawValue & 1) == 1 ? 1 : 0
                    // Back to units: a surrogate pair takes its scalar's level twice. (Written
                    // as a loop over the scalar's width, each scalar became a call to memset.)
                    levels.withUnsafeMutableBufferPointer { levels in
                        var unit = range.lowerBound
                        for k in 0..<count {
                            let level = ok ? UInt8(max(0, scalarLevels[k])) : baseLevel
                            levels[unit] = level
                            unit += 1
                            if scalars[k] >= 0x10000 {
                                levels[unit] = level
                                unit += 1
                            }
                        }
                    }
                    return baseLevel
                }
            }
        }
    }
}
