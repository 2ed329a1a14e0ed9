/// What the analyze stage knows about a text: graphemes, line-break opportunities,
/// hanging whitespace, bidi levels and paragraphs, all indexed by UTF-16 unit.
struct TextAnalysis {
    var flags: ContiguousArray<UnitFlags>
    /// UAX #9 embedding level of every unit.
    var levels: ContiguousArray<UInt8>
    var paragraphs: [BidiParagraph]
    /// True when some unit is a control character that shaping must not see as is.
    var hasControls: Bool

    /// Runs every analysis over `text` with the requested base direction.
    static func analyze(_ text: AttributedText, direction: BaseDirection) -> TextAnalysis {
        let units = text.units
        var flags = ContiguousArray<UnitFlags>(repeating: [], count: units.count)
        var mayBeRTL = false
        var hasControls = false
        units.withUnsafeBufferPointer { u in
            for i in 0..<u.count {
                let unit = u[i]
                if unit < 0x20 || (unit >= 0x7F && unit < 0xA0) { hasControls = true }
                if UnitClass.isHardBreak(unit) { flags[i].insert(.hardBreak) }
                if UnitClass.isHangingSpace(unit) || UnitClass.isHardBreak(unit) { flags[i].insert(.hangingSpace) }
                if UnitClass.isJustifiable(unit) { flags[i].insert(.justifiable) }
                if !mayBeRTL && UnitClass.mayBeRTL(unit) { mayBeRTL = true }
            }
        }
        markGraphemes(text.string, into: &flags)
        markLineBreaks(units, language: text.styles.first?.language ?? "", into: &flags)
        let (levels, paragraphs) = BidiResolver.resolve(units, flags: flags, direction: direction, mayBeRTL: mayBeRTL)
        return TextAnalysis(flags: flags, levels: levels, paragraphs: paragraphs, hasControls: hasControls)
    }

    /// Grapheme cluster starts (UAX #29 extended clusters), from Swift's `Character`.
    static func markGraphemes(_ string: String, into flags: inout ContiguousArray<UnitFlags>) {
        var offset = 0
        for character in string {
            flags[offset].insert(.graphemeStart)
            offset += character.utf16.count
        }
    }

    /// The next grapheme start after `index`, or `end`.
    @inline(__always)
    func nextGrapheme(after index: Int, end: Int) -> Int {
        var next = index + 1
        while next < end && !flags[next].contains(.graphemeStart) { next += 1 }
        return next
    }
}
