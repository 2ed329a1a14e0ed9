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

    /// `isControl` is general category Cc, for every BMP unit.
    @Test func controlsAreGeneralCategoryCc() {
        let wrong = (UInt32(0)...0xFFFF).filter { value in
            let isCc = Unicode.Scalar(value)?.properties.generalCategory == .control
            return UnitClass.isControl(UInt16(value)) != isCc
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(20).map { String($0, radix: 16) })")
    }

    /// `isASCIIBetweenWords` is ASCII that is neither a control nor a letter (spaces, digits,
    /// punctuation and symbols), for every BMP unit.
    @Test func asciiBetweenWordsIsPrintableASCIIButLetters() {
        let wrong = (UInt32(0)...0xFFFF).filter { value in
            let scalar = Unicode.Scalar(value)
            let expected = value < 0x80 && scalar?.properties.generalCategory != .control
                && scalar?.properties.isAlphabetic == false
            return UnitClass.isASCIIBetweenWords(UInt16(value)) != expected
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(20).map { String($0, radix: 16) })")
    }

    /// The right-to-left blocks' units are skipped with only `mayBeRTL` noted.
    @Test func rightToLeftBlocksNeedOnlyTheirDirectionNoted() {
        var wrong: [String] = []
        var taken = 0
        for value in UInt32(0)...0xFFFF {
            let u = UInt16(value)
            guard UnitClass.isInRightToLeftBlocks(u) else { continue }
            taken += 1
            let control = u < 0x20 || (u >= 0x7F && u < 0xA0)
            if control || u == 0xAD || u == 0x09 || BidiResolver.isParagraphSeparator(u) || UnitClass.isHardBreak(u)
                || UnitClass.isHangingSpace(u) || UnitClass.isJustifiable(u) || !UnitClass.mayBeRTL(u) {
                wrong.append(String(value, radix: 16))
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(20))")
        #expect(taken == 0x0900 - 0x0590)
    }

    /// The first pass gives the same flags and facts with the right-to-left blocks' branch as
    /// each unit's notes would: every unit of the blocks, and the units around them.
    @Test func rightToLeftBlocksGetTheirFlags() {
        let units = ContiguousArray((UInt16(0x0570)...UInt16(0x0920)).flatMap { unit -> [UInt16] in [unit, 0x20] })
        var flags = ContiguousArray(repeating: UnitFlags(), count: units.count)
        var paragraphs: [BidiParagraph] = []
        let facts = TextAnalysis.markUnits(units, into: &flags, paragraphs: &paragraphs)
        #expect(facts.mayBeRTL)
        // Prepend and format characters (U+0600, U+061C) and the marks of Syriac onwards need the grapheme pass.
        #expect(!facts.allSimple)
        for (i, unit) in units.enumerated() {
            // The right-to-left blocks' branch also starts a grapheme at Arabic punctuation, which `isSimple` leaves out.
            var expected = notedFlags(unit)
            if GraphemeFastPath.isArabicPunctuation(unit) { expected.formUnion(.graphemeStart) }
            #expect(flags[i] == expected, "U+\(String(unit, radix: 16))")
        }
    }

    /// The first pass decides every unit past ASCII by a table (`FirstPassUnitKind`): each one,
    /// after a Latin letter, an Arabic letter and a combining mark, gets the flags its notes would
    /// (with Arabic punctuation's cluster start, as the right-to-left blocks' kind gives it) and
    /// the facts its own tests decide.
    @Test func unitsPastASCIIGetTheFlagsAndFactsOfTheirTests() {
        var wrong: [String] = []
        for unit in UInt16(0x80)...UInt16.max {
            let rightToLeftBlock = UnitClass.isInRightToLeftBlocks(unit)
            let simple = GraphemeFastPath.isSimple(unit) || (rightToLeftBlock && GraphemeFastPath.isArabicPunctuation(unit))
            var expected = notedFlags(unit)
            if simple { expected.formUnion(.graphemeStart) }
            for base: UInt16 in [0x61, 0x0627, 0x0301] {
                var flags = ContiguousArray(repeating: UnitFlags(), count: 3)
                var paragraphs: [BidiParagraph] = []
                let facts = TextAnalysis.markUnits([base, unit, 0x20], into: &flags, paragraphs: &paragraphs)
                // The inert units' kind leaves a text with a mark not simple whatever comes before
                // it; the other kinds ask whether the mark joins a simple unit.
                let joinsBase = !UnitClass.isInertBeyondASCII(unit) && GraphemeFastPath.joinsPrevious(unit)
                    && (GraphemeFastPath.isMarkBase(base) || GraphemeFastPath.joinsPrevious(base))
                // (The combining mark as the base, first in the text, leaves it not simple.)
                let allSimple = GraphemeFastPath.isSimple(base) && (simple || joinsBase)
                let mayBeRTL = UnitClass.mayBeRTL(base) || UnitClass.mayBeRTL(unit)
                if flags[1] != expected || facts.allSimple != allSimple || facts.mayBeRTL != mayBeRTL
                    || (facts.firstControl == 1) != UnitClass.isControl(unit) || facts.hasSoftHyphen != (unit == 0xAD) {
                    wrong.append("U+\(String(unit, radix: 16)) after U+\(String(base, radix: 16))")
                }
            }
        }
        let firstWrong = Array(wrong.prefix(10))
        #expect(firstWrong.isEmpty, "\(wrong.count) units decided otherwise")
    }

    /// The flags the first pass's notes give a unit, each from its own test: what every branch
    /// that skips the notes must give it as well.
    func notedFlags(_ unit: UInt16) -> UnitFlags {
        var flags = UnitFlags()
        if UnitClass.isHardBreak(unit) { flags.formUnion(UnitFlags.hardBreak.union(.hangingSpace)) }
        if UnitClass.isHangingSpace(unit) { flags.formUnion(.hangingSpace) }
        if UnitClass.isJustifiable(unit) { flags.formUnion(.justifiable) }
        if GraphemeFastPath.isSimple(unit) { flags.formUnion(.graphemeStart) }
        return flags
    }

    /// The first pass's printable ASCII branch, the space's flags included, gives each unit the
    /// flags its notes would, and notes no fact: every unit U+0020–U+007E, each after a letter.
    @Test func printableASCIIGetsItsNotedFlags() {
        let units = ContiguousArray((UInt16(0x20)...UInt16(0x7E)).flatMap { unit -> [UInt16] in [0x61, unit] })
        var flags = ContiguousArray(repeating: UnitFlags(), count: units.count)
        var paragraphs: [BidiParagraph] = []
        let facts = TextAnalysis.markUnits(units, into: &flags, paragraphs: &paragraphs)
        #expect(facts.allSimple && !facts.mayBeRTL && facts.firstControl == nil && !facts.hasTabs && !facts.hasSoftHyphen && !facts.hasHardBreaks)
        #expect(paragraphs.isEmpty)
        for (i, unit) in units.enumerated() { #expect(flags[i] == notedFlags(unit), "U+\(String(unit, radix: 16))") }
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
