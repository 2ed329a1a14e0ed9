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

/// Resolves UAX #9 embedding levels one paragraph at a time, by the Unicode services (FriBidi in
/// the Unicode adapter).
enum BidiResolver {
    /// The embedding level of every unit, appended to the empty `levels`, and each paragraph's
    /// base level (`paragraphs` come from analysis with their ranges, UAX #9 P1).
    static func resolve(_ units: ContiguousArray<UInt16>, paragraphs: inout [BidiParagraph], direction: BaseDirection,
                        mayBeRTL: Bool, unicode: any UnicodeServices, into levels: inout ContiguousArray<UInt8>) {
        levels.appendZeros(units.count)
        // Fast path: nothing right-to-left can appear, so every level is 0.
        if !mayBeRTL && direction != .rightToLeft { return }
        for index in paragraphs.indices {
            paragraphs[index].baseLevel = resolveParagraph(units, range: paragraphs[index].range, direction: direction, unicode: unicode,
                                                                into: &levels)
        }
    }

    /// UAX #9 class B: the characters that end a paragraph.
    @inline(__always)
    static func isParagraphSeparator(_ u: UInt16) -> Bool {
        u == 0x0A || u == 0x0D || u == 0x1C || u == 0x1D || u == 0x1E || u == 0x85 || u == 0x2029
    }

    private static func resolveParagraph(_ units: ContiguousArray<UInt16>, range: Range<Int>, direction: BaseDirection,
                                         unicode: any UnicodeServices, into levels: inout ContiguousArray<UInt8>) -> UInt8 {
        let forced: UInt8? = direction == .leftToRight ? 0 : direction == .rightToLeft ? 1 : nil
        var levels = levels.mutableSpan
        return unicode.resolveBidiParagraph(units.span, range: range, forcedBase: forced, into: &levels)
    }
}
