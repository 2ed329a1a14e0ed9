/// Items of vertical text: the itemizer's items cut where the orientation changes, each
/// marked upright, sideways or combined.
enum VerticalItems {
    /// Cuts `items` at every change of orientation. A cluster takes its first scalar's
    /// orientation (UAX #50: a mark follows its base); a run of at most `combineUpTo` ASCII
    /// digits (or letters) with neither before or after it is combined.
    ///
    /// Strict kinsoku is applied in the same walk (`StrictKinsoku`): no opportunity before a
    /// conditional Japanese starter. Every unit outside an item is a hard break or an
    /// attachment, never one of those.
    ///
    /// The pieces are appended to the empty `out`, a layout's scratch array (a new one per
    /// layout, grown as the pieces came, was allocated again and again).
    static func split(_ items: [Item], into out: inout [Item], units: ContiguousArray<UInt16>,
                      flags: inout ContiguousArray<UnitFlags>, setting: VerticalSetting) {
        // Combining looks at runs across items: it takes the orientation of every unit first, as
        // a fixed orientation (text-orientation upright or sideways) sets it.
        if setting.combineUpTo > 0 || setting.orientation != .mixed {
            StrictKinsoku.apply(to: &flags, units: units)
            out = splitUnitByUnit(items, units: units, flags: flags, setting: setting)
            return
        }
        // Otherwise one walk over each item's units, cutting where a cluster's orientation
        // changes: an array of every unit's orientation, filled and read again, and a pass of
        // its own for kinsoku cost more than the walk.
        // Han text with a name or a dash in it comes out as two or three pieces an item.
        out.reserveCapacity(items.count * 3 + 4)
        let table = VerticalUnitTable.shared
        let units = units.span
        var flags = flags.mutableSpan
        precondition(flags.count == units.count)
        for item in items {
            let end = item.range.upperBound
            // Told once, the walk below needs no bounds check per unit.
            precondition(end <= units.count)
            var start = item.range.lowerBound
            var current = orientation(at: start, units, table)
            if start > 0 { StrictKinsoku.keep(at: start, units, &flags, table) }
            var i = start + 1
            while i < end {
                // Ideographs in upright text, most of a Chinese or Japanese text, and ASCII
                // in sideways text: no cut and never a starter, so passed over a compare or
                // two a unit.
                if current == .upright {
                    while i < end && units[i] &- 0x3400 <= 0x9FFF - 0x3400 { i += 1 }
                } else {
                    while i < end && units[i] < 0xA7 { i += 1 }
                }
                if i == end { break }
                StrictKinsoku.keep(at: i, units, &flags, table)
                if flags[i].contains(.graphemeStart) {
                    let next = orientation(at: i, units, table)
                    if next != current {
                        out.append(piece(of: item, start..<i, current))
                        start = i
                        current = next
                    }
                }
                i += 1
            }
            out.append(piece(of: item, start..<end, current))
        }
    }

    @inline(__always)
    private static func piece(of item: Item, _ range: Range<Int>, _ orientation: GlyphOrientation) -> Item {
        var piece = item
        piece.range = range
        piece.orientation = orientation
        return piece
    }

    /// The orientation of the cluster that starts at `index`: its first scalar's.
    @inline(__always)
    private static func orientation(at index: Int, _ units: Span<UInt16>,
                                    _ table: VerticalUnitTable) -> GlyphOrientation {
        let unit = units[index]
        // The two answers vertical text mostly asks for, before any look-up: ideographs stand
        // upright, ASCII lies on its side.
        if unit >= 0x3400 && unit <= 0x9FFF { return .upright }
        if unit < 0xA7 { return .sideways }
        if UTF16.isLeadSurrogate(unit) && index + 1 < units.count && UTF16.isTrailSurrogate(units[index + 1]) {
            let scalar = SurrogatePair.codePoint(lead: unit, trail: units[index + 1])
            return VerticalOrientation(scalar).isUpright ? .upright : .sideways
        }
        return table.orientation(of: unit).isUpright ? .upright : .sideways
    }

    /// The same cut made from an array of every unit's orientation, as combining and a fixed
    /// orientation (`TextOrientation.upright` or `.sideways`) need it.
    /// Internal: tests hold the walk above to it.
    static func splitUnitByUnit(_ items: [Item], units: ContiguousArray<UInt16>, flags: ContiguousArray<UnitFlags>,
                                setting: VerticalSetting) -> [Item] {
        let count = units.count
        // The orientation of every unit, clusters taking their first unit's.
        var orientation = [GlyphOrientation](repeating: .sideways, count: count)
        let table = VerticalUnitTable.shared
        let span = units.span
        var i = 0
        while i < count {
            var end = i + 1
            while end < count && !flags[end].contains(.graphemeStart) { end += 1 }
            let value = setting.orientation.fixed ?? Self.orientation(at: i, span, table)
            for k in i..<end { orientation[k] = value }
            i = end
        }
        if setting.combineUpTo > 0 { markCombined(&orientation, units: units, setting: setting) }
        var out: [Item] = []
        out.reserveCapacity(items.count + 4)
        for item in items {
            var start = item.range.lowerBound
            while start < item.range.upperBound {
                var end = start + 1
                while end < item.range.upperBound && orientation[end] == orientation[start] { end += 1 }
                out.append(piece(of: item, start..<end, orientation[start]))
                start = end
            }
        }
        return out
    }

    private static func isCombinable(_ unit: UInt16, letters: Bool) -> Bool {
        (unit >= 0x30 && unit <= 0x39) || (letters && UnitClass.isASCIILetter(UInt32(unit)))
    }

    /// Marks runs of combinable units no longer than the setting's limit as combined.
    private static func markCombined(_ orientation: inout [GlyphOrientation], units: ContiguousArray<UInt16>,
                                     setting: VerticalSetting) {
        var i = 0
        while i < units.count {
            guard isCombinable(units[i], letters: setting.combinesLetters) else { i += 1; continue }
            var end = i + 1
            while end < units.count && isCombinable(units[end], letters: setting.combinesLetters) { end += 1 }
            if end - i <= setting.combineUpTo { for k in i..<end { orientation[k] = .combined } }
            i = end
        }
    }
}
