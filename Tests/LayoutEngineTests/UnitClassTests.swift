import Testing
@testable import LayoutEngine

/// Analysis's first pass skips units `UnitClass.isInertBeyondASCII` passes: none of them may
/// be a unit that pass notes something for.
@Suite struct UnitClassTests {
    @Test func inertUnitsNeedNothingNoted() {
        var wrong: [String] = []
        for value in UInt32(0x80)...0xFFFF {
            let u = UInt16(value)
            guard UnitClass.isInertBeyondASCII(u) else { continue }
            let control = u < 0x20 || (u >= 0x7F && u < 0xA0)
            if control || u == 0xAD || BidiResolver.isParagraphSeparator(u) || UnitClass.isHardBreak(u)
                || UnitClass.isHangingSpace(u) || UnitClass.isJustifiable(u) || UnitClass.mayBeRTL(u) || u == 0xD83C {
                wrong.append(String(value, radix: 16))
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(20))")
    }

    @Test func lettersOfCommonScriptsAreInert() {
        // é, Ж, क, ሀ, 中, あ, 가: each skipped in two or three comparisons.
        for u: UInt16 in [0xE9, 0x0416, 0x0915, 0x1200, 0x4E2D, 0x3042, 0xAC00] {
            #expect(UnitClass.isInertBeyondASCII(u), "U+\(String(u, radix: 16))")
        }
        // Hebrew, no-break space, ideographic space, a surrogate: not inert.
        for u: UInt16 in [0x05D0, 0xA0, 0x3000, 0xD83C, 0x2028] {
            #expect(!UnitClass.isInertBeyondASCII(u), "U+\(String(u, radix: 16))")
        }
    }
}
