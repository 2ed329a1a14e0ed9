/// Items of vertical text: the itemizer's items cut where the orientation changes, each
/// marked upright, sideways or combined.
enum VerticalItems {
    /// Cuts `items` at every change of orientation. A cluster takes its first scalar's
    /// orientation (UAX #50: a mark follows its base); a run of at most `combineUpTo` ASCII
    /// digits (or letters) with neither before or after it is combined.
    static func split(_ items: [Item], units: ContiguousArray<UInt16>, flags: ContiguousArray<UnitFlags>,
                      setting: VerticalSetting) -> [Item] {
        let count = units.count
        // The orientation of every unit, clusters taking their first unit's.
        var orientation = [GlyphOrientation](repeating: .sideways, count: count)
        var i = 0
        while i < count {
            var end = i + 1
            while end < count && !flags[end].contains(.graphemeStart) { end += 1 }
            var scalar = UInt32(units[i])
            if UTF16.isLeadSurrogate(units[i]) && i + 1 < count && UTF16.isTrailSurrogate(units[i + 1]) {
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (UInt32(units[i + 1]) - 0xDC00)
            }
            let value: GlyphOrientation = VerticalOrientation(scalar).isUpright ? .upright : .sideways
            // Nearly every cluster is one unit: a loop over its units became a call to memset
            // each, a quarter of what cutting the items cost on the Han captions.
            orientation[i] = value
            var k = i + 1
            while k < end { orientation[k] = value; k += 1 }
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
                var piece = item
                piece.range = start..<end
                piece.orientation = orientation[start]
                out.append(piece)
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
