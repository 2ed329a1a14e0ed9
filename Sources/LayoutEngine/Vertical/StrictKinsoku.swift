/// Japanese strict line breaking for vertical text: UAX #14's conditional Japanese starters
/// (class CJ: small kana and the prolonged sound mark) resolve to NS, never starting a line, as
/// CSS `line-break: strict` and Japanese books set them. Horizontal text keeps UAX #14's normal
/// resolution (CJ as ID), as browsers do by default.
enum StrictKinsoku {
    /// Removes the break opportunities before every CJ character of `units` (LineBreak.txt's CJ
    /// list in the BMP; the supplementary small kana are rare enough to leave to ID). Vertical
    /// items apply it unit by unit in their own walk (`keep(at:)`); this is for the cut that
    /// combines digits, which walks every unit first.
    static func apply(to flags: inout ContiguousArray<UnitFlags>, units: ContiguousArray<UInt16>) {
        let table = VerticalUnitTable.shared
        let units = units.span
        var flags = flags.mutableSpan
        precondition(flags.count == units.count)
        for i in units.indices.dropFirst() { keep(at: i, units, &flags, table) }
    }

    /// Removes the opportunity before the unit at `index` (not the text's first) when it is a
    /// conditional Japanese starter and not after a hard break, as the unit table marks them.
    @inline(__always)
    static func keep(at index: Int, _ units: Span<UInt16>, _ flags: inout MutableSpan<UnitFlags>,
                     _ table: VerticalUnitTable) {
        let unit = units[index]
        // Ideographs and ASCII, most of what vertical text holds, are never starters.
        guard unit >= 0x3041 && (unit < 0x3400 || unit > 0x9FFF) else { return }
        if table.isConditionalStarter(unit) && !flags[index].contains(.mustBreakBefore) {
            flags[index].remove(.breakBefore)
        }
    }

    static func isConditionalStarter(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087, 0x308E, 0x3095, 0x3096,
             0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE, 0x30F5, 0x30F6, 0x30FC,
             0x31F0...0x31FF, 0xFF67...0xFF70:
            return true
        default:
            return false
        }
    }
}
