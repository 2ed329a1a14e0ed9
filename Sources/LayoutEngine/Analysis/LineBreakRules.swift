/// A character's line break class (UAX #14, named as it names them), with LB1 applied by the
/// generator (scripts/generate-line-break.py): no AI, SG, XX, SA or CJ. `OPW` and `CPW` are
/// opening and closing punctuation that is East Asian wide, fullwidth or halfwidth, which LB30
/// leaves out; `IDX` is an unassigned Extended_Pictographic code point, an ideograph but for
/// LB30b.
enum LineBreakClass: UInt8 {
    // Letters and digits first: `isLetter` and `isAlphanumeric` are one comparison each.
    case AL, HL, NU, BK, CR, LF, NL, SP, ZW, ZWJ, CM, WJ, GL, OP, OPW, CL, CP, CPW, QU, EX, IS, SY, BA, HY, NS, BB, B2, IN, CB,
         PR, PO, ID, IDX, EB, EM, JL, JV, JT, H2, H3, RI

    /// Planes 0 and 1 one byte a code point, the rest searched in `ranges`: a look-up per
    /// character is most of the stage's cost.
    static let lowPlanes: [LineBreakClass] = {
        var table = [LineBreakClass](repeating: .AL, count: 0x20000)
        for index in stride(from: 0, to: ranges.count, by: 2) {
            let first = ranges[index], last = ranges[index + 1] & 0xFF_FFFF
            guard first < 0x20000, let value = LineBreakClass(rawValue: UInt8(ranges[index + 1] >> 24)) else { continue }
            for scalar in first...min(last, 0x1FFFF) { table[Int(scalar)] = value }
        }
        return table
    }()

    @inline(__always)
    static func of(_ scalar: UInt32) -> LineBreakClass {
        if scalar < 0x20000 { return lowPlanes.span[Int(scalar)] }
        return LineBreakClass(rawValue: PropertyRanges.value(of: scalar, in: ranges)) ?? .AL
    }

    /// Builds the table once (`ParagraphLayouter` does so at start-up, off the first request).
    static func prepare() { _ = lowPlanes.count }

    @inline(__always) var isOpening: Bool { self == .OP || self == .OPW }
    @inline(__always) var isClosingParenthesis: Bool { self == .CP || self == .CPW }
    @inline(__always) var isLetter: Bool { rawValue <= LineBreakClass.HL.rawValue }
    @inline(__always) var isAlphanumeric: Bool { rawValue <= LineBreakClass.NU.rawValue }
    /// Punctuation no break comes before (LB13) that ends words in running text.
    @inline(__always) var closesWords: Bool {
        self == .IS || self == .CL || self == .CP || self == .CPW || self == .EX || self == .SY
    }
    @inline(__always) var isIdeographic: Bool { self == .ID || self == .IDX || self == .EB || self == .EM }
    @inline(__always) var isHangul: Bool { self == .JL || self == .JV || self == .JT || self == .H2 || self == .H3 }
    /// The classes a combining mark does not attach to (LB9).
    @inline(__always) var takesNoMarks: Bool { self == .BK || self == .CR || self == .LF || self == .NL || self == .SP || self == .ZW }
}

/// UAX #14's rules, LB2 to LB31 of Unicode 15.0, over the classes of `LineBreakClass`: the
/// engine's own, as words and sentences are (libunibreak 1.1 predates the emoji, ZWJ, regional
/// indicator, East Asian bracket and numeric rules). A position's answer depends on the
/// characters before it alone, so one pass keeps what the rules look back at: the class before
/// (with combining marks taken into their base, LB9), the one before that (LB21a), the last
/// class that is not a space (LB8, LB14 to LB17) and the regional indicators in a row (LB30a).
/// Held to Unicode's LineBreakTest.txt by `UnicodeConformanceTests`.
struct LineBreakRules {
    enum Break { case no, allowed, mandatory }

    /// The previous character's own class (LB8a asks for a ZWJ itself).
    private var previous: LineBreakClass
    /// The class the previous character counts as: its base's where it is a mark (LB9), AL
    /// for a mark with nothing to attach to (LB10).
    private var before: LineBreakClass
    /// The class the character before that counted as (LB21a).
    private var beforeThat: LineBreakClass = .AL
    /// The last class, counted as `before` is, that is not a space; nil before any.
    private var lastNonSpace: LineBreakClass?
    /// Regional indicators in a row up to the previous character.
    private var regionalIndicators = 0
    /// The characters up to the previous one end a number: NU (NU | SY | IS)* (LB25).
    private var inNumber = false
    /// The previous character closes a number: NU (NU | SY | IS)* (CL | CP) (LB25).
    private var closesNumber = false

    /// The state after a text's first character.
    init(first: LineBreakClass) {
        let counted: LineBreakClass = first == .CM || first == .ZWJ ? .AL : first
        previous = first
        before = counted
        lastNonSpace = counted == .SP ? nil : counted
        regionalIndicators = counted == .RI ? 1 : 0
        inNumber = counted == .NU
    }

    /// The answer for the position before a character of class `next`, which then becomes
    /// the previous one. `digitFollows` says whether a digit comes after it (marks skipped);
    /// only LB25 looks ahead, where `looksAhead` says.
    mutating func advance(to next: LineBreakClass, digitFollows: Bool) -> Break {
        let answer = decide(next, digitFollows: digitFollows)
        if (next == .CM || next == .ZWJ) && !previous.takesNoMarks {
            // LB9: a mark takes its base's class; only LB8a reads it as itself.
            previous = next
            return answer
        }
        become(next == .CM || next == .ZWJ ? .AL : next, raw: next)
        return answer
    }

    /// The answer for the most frequent positions, which the rules give without most of their
    /// questions: a letter or digit after one (LB23, LB28, or LB8a after a joiner), a space (LB7),
    /// a letter or digit after a space (LB18, or LB14 after an opening bracket and spaces), an
    /// ideograph after one (LB31), a mark after its base (LB9), closing punctuation (LB13) and
    /// hyphens and the like after anything but a space (LB21). nil for the rest, which
    /// `advance` answers. `LineBreakRulesTests`
    /// holds the two equal on every class pair and triple.
    @inline(__always)
    mutating func quickly(_ next: LineBreakClass) -> Break? {
        let answer: Break
        if next.isAlphanumeric {
            if before.isAlphanumeric {
                answer = .no
            } else if before == .SP {
                answer = lastNonSpace?.isOpening == true ? .no : .allowed
            } else {
                return nil
            }
        } else if next == .SP {
            guard !previous.takesNoMarks || previous == .SP || previous == .ZW else { return nil }
            answer = .no
        } else if next == .ID && before == .ID && previous != .ZWJ {
            answer = .allowed
        } else if (next == .CM || next == .ZWJ) && !previous.takesNoMarks {
            previous = next  // LB9 (or LB8a first): the mark joins its base, whose class stays
            return .no
        } else if previous.takesNoMarks && previous != .SP || lastNonSpace == .ZW {
            return nil
        } else if next == .CL || next == .CP || next == .CPW || next == .EX || next == .IS || next == .SY {
            answer = .no  // LB13, or LB8a, LB11, LB12 before it, which keep it too
        } else if next == .ID && before.isOpening {
            answer = .no  // LB14: an ideograph after an opening bracket (《題)
        } else if next == .ID && (before == .CL || before == .CP || before == .CPW) && previous != .ZWJ {
            answer = .allowed  // LB31: an ideograph after a comma or full stop (，只), which no rule keeps
        } else if (next == .BA || next == .HY || next == .NS) && before != .SP && before != .CB {
            answer = .no  // LB21, or a rule before it that keeps it too
        } else {
            return nil
        }
        become(next, raw: next)
        return answer
    }

    /// True when the previous character counts as a letter or digit: the next ones that are
    /// letters or digits take no break before them (LB23, LB28), and `ran` passes them at once.
    @inline(__always) var endsInAlphanumeric: Bool { before.isAlphanumeric }

    /// True when the previous character is an ideograph that is not a joiner's: an ideograph
    /// after it may start a line (LB31), and the next ones too.
    @inline(__always) var endsInIdeograph: Bool { before == .ID && previous != .ZWJ }

    /// True when the answer before `next` depends on whether a digit follows it (LB25).
    @inline(__always) func looksAhead(at next: LineBreakClass) -> Bool { (before == .PR || before == .PO) && next.isOpening }

    /// The class the previous character counts as.
    @inline(__always) var counted: LineBreakClass { before }

    /// Past letters and digits in a row after one (`endsInAlphanumeric`), `last` the last of
    /// them and `beforeLast` the one before it.
    @inline(__always)
    mutating func ran(through last: LineBreakClass, after beforeLast: LineBreakClass) {
        before = beforeLast
        become(last, raw: last)
    }

    /// A new character that no mark joins: what the rules look back at moves on.
    @inline(__always)
    private mutating func become(_ counted: LineBreakClass, raw: LineBreakClass) {
        regionalIndicators = counted == .RI ? regionalIndicators + 1 : 0
        closesNumber = inNumber && (counted == .CL || counted.isClosingParenthesis)
        inNumber = counted == .NU || (inNumber && (counted == .SY || counted == .IS))
        beforeThat = before
        before = counted
        previous = raw
        if counted != .SP { lastNonSpace = counted }
    }

    @inline(__always)
    private func decide(_ next: LineBreakClass, digitFollows: Bool) -> Break {
        let a = before
        switch previous {
        case .BK: return .mandatory                                      // LB4
        case .CR: return next == .LF ? .no : .mandatory                  // LB5
        case .LF, .NL: return .mandatory                                 // LB5
        default: break
        }
        switch next {
        case .BK, .CR, .LF, .NL, .SP, .ZW: return .no                    // LB6, LB7
        default: break
        }
        if lastNonSpace == .ZW { return .allowed }                       // LB8 (ZW SP* ÷)
        if previous == .ZWJ { return .no }                               // LB8a
        if (next == .CM || next == .ZWJ) && !previous.takesNoMarks { return .no }   // LB9
        let b: LineBreakClass = next == .CM || next == .ZWJ ? .AL : next  // LB10
        if a == .WJ || b == .WJ || a == .GL { return .no }               // LB11, LB12
        if b == .GL && a != .SP && a != .BA && a != .HY { return .no }   // LB12a
        switch b {
        case .CL, .CP, .CPW, .EX, .IS, .SY: return .no                   // LB13
        default: break
        }
        if let last = lastNonSpace {  // the class before any spaces, or `a` itself
            if last.isOpening { return .no }                             // LB14
            if last == .QU && b.isOpening { return .no }                 // LB15
            if (last == .CL || last.isClosingParenthesis) && b == .NS { return .no }   // LB16
            if last == .B2 && b == .B2 { return .no }                    // LB17
        }
        if a == .SP { return .allowed }                                  // LB18
        if a == .QU || b == .QU { return .no }                           // LB19
        if a == .CB || b == .CB { return .allowed }                      // LB20
        if b == .BA || b == .HY || b == .NS || a == .BB { return .no }   // LB21
        if beforeThat == .HL && (a == .HY || a == .BA) { return .no }    // LB21a
        if a == .SY && b == .HL { return .no }                           // LB21b
        if b == .IN { return .no }                                       // LB22
        if (a.isLetter && b == .NU) || (a == .NU && b.isLetter) { return .no }   // LB23
        if (a == .PR && b.isIdeographic) || (a.isIdeographic && b == .PO) { return .no }   // LB23a
        if ((a == .PR || a == .PO) && b.isLetter) || (a.isLetter && (b == .PR || b == .PO)) { return .no }   // LB24
        if Self.numeric(a, b, inNumber: inNumber, closesNumber: closesNumber) { return .no }   // LB25
        if (a == .PR || a == .PO) && b.isOpening && digitFollows { return .no }   // LB25: (PR | PO) × OP NU
        if Self.korean(a, b) { return .no }                              // LB26, LB27
        if a.isLetter && b.isLetter { return .no }                       // LB28
        if a == .IS && b.isLetter { return .no }                         // LB29
        if (a.isAlphanumeric && b == .OP) || (a == .CP && b.isAlphanumeric) { return .no }   // LB30
        if a == .RI && b == .RI && regionalIndicators % 2 == 1 { return .no }   // LB30a
        if (a == .EB || a == .IDX) && b == .EM { return .no }            // LB30b
        return .allowed                                                  // LB31
    }

    /// LB25 around numbers, as the rule's regular expression (which Unicode's test follows)
    /// reads: a separator keeps a digit after it, and a closing bracket a postfix or prefix,
    /// only inside a number: NU (NU | SY | IS)* × NU, NU (NU | SY | IS)* (CL | CP) × (PO | PR);
    /// a prefix or postfix keeps an opening bracket only before a digit (`decide`).
    private static func numeric(_ a: LineBreakClass, _ b: LineBreakClass, inNumber: Bool, closesNumber: Bool) -> Bool {
        switch (a, b) {
        case (.CL, .PO), (.CP, .PO), (.CPW, .PO), (.CL, .PR), (.CP, .PR), (.CPW, .PR):
            return closesNumber
        case (.IS, .NU), (.SY, .NU):
            return inNumber
        case (.NU, .PO), (.NU, .PR), (.PO, .NU), (.PR, .NU), (.HY, .NU), (.NU, .NU):
            return true
        default:
            return false
        }
    }

    /// LB26 (Korean syllable blocks) and LB27 (with prefixes and postfixes).
    private static func korean(_ a: LineBreakClass, _ b: LineBreakClass) -> Bool {
        switch (a, b) {
        case (.JL, .JL), (.JL, .JV), (.JL, .H2), (.JL, .H3), (.JV, .JV), (.JV, .JT), (.H2, .JV), (.H2, .JT), (.JT, .JT), (.H3, .JT):
            return true
        default:
            return (a.isHangul && b == .PO) || (a == .PR && b.isHangul)
        }
    }
}
