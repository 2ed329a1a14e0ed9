/// UAX #50's Vertical_Orientation: how a character stands in vertical text.
enum VerticalOrientation: UInt8 {
    /// Upright, as in horizontal text (CJK ideographs, kana).
    case upright = 0
    /// Upright, through the font's vertical alternate glyph where one exists (punctuation).
    case transformedUpright = 1
    /// A vertical alternate where one exists, else rotated (brackets, the long vowel mark).
    case transformedRotated = 2
    /// Rotated 90° clockwise, as horizontal text turned on its side (Latin, digits, Arabic).
    case rotated = 3

    /// The orientation of `scalar`, from the table of Unicode's VerticalOrientation.txt.
    /// Inlined: vertical items ask it of every cluster, and ideographs answer in two comparisons.
    @inline(__always)
    init(_ scalar: UInt32) {
        // Below U+00A7 everything is R; most of what vertical text holds is CJK, found in a few steps.
        guard scalar >= 0xA7 else { self = .rotated; return }
        // CJK ideographs (Extension A, the Yijing hexagrams, the unified block): all U, and most of what Chinese holds.
        if scalar >= 0x3400 && scalar <= 0x9FFF { self = .upright; return }
        let ranges = Self.ranges
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].1 < scalar { low = middle + 1 } else { high = middle }
        }
        if low < ranges.count && ranges[low].0 <= scalar {
            self = VerticalOrientation(rawValue: ranges[low].2) ?? .rotated
        } else {
            self = .rotated
        }
    }

    /// Upright in a vertical line: shaped top to bottom (HarfBuzz applies `vert` and `vrt2`, so a
    /// transformed character takes its vertical form). Tr's characters are set upright through
    /// their vertical alternates, which the CJK fonts layoutd loads carry.
    var isUpright: Bool { self != .rotated }
}

/// What vertical text asks of every BMP unit, one byte each: the orientation's raw value (bits
/// 0–1) and whether the unit is a conditional Japanese starter (`StrictKinsoku`, bit 2). Made
/// on the first vertical layout from the same ranges as `VerticalOrientation.init` (64 KB,
/// held for the process's life): a bisection of the ranges for every character of Han
/// captions cost more than the table's one look-up.
// SAFETY: `bytes` holds 0x10000 entries, written once in `init` and only read after (so any
// thread may read them: `@unchecked Sendable`); every read is at a `UInt16`, inside the table.
// Raw memory, not an array: a look-up per unit of vertical text, with no bounds check or
// reference count.
struct VerticalUnitTable: @unchecked Sendable {
    private let bytes: UnsafeMutablePointer<UInt8>

    private static let conditionalStarter: UInt8 = 4
    static let shared = VerticalUnitTable()

    private init() {
        bytes = .allocate(capacity: 0x10000)
        bytes.initialize(repeating: VerticalOrientation.rotated.rawValue, count: 0x10000)
        for (first, last, value) in VerticalOrientation.ranges where first < 0x10000 {
            for scalar in first...min(last, 0xFFFF) { bytes[Int(scalar)] = value }
        }
        // Extension A, the hexagrams and the unified block, which `init` answers before the ranges.
        for scalar in 0x3400...0x9FFF { bytes[scalar] = VerticalOrientation.upright.rawValue }
        for unit in 0...0xFFFF where StrictKinsoku.isConditionalStarter(UInt16(unit)) { bytes[unit] |= Self.conditionalStarter }
    }

    @inline(__always)
    func orientation(of unit: UInt16) -> VerticalOrientation {
        VerticalOrientation(rawValue: bytes[Int(unit)] & 3) ?? .rotated
    }

    @inline(__always)
    func isConditionalStarter(_ unit: UInt16) -> Bool { bytes[Int(unit)] & Self.conditionalStarter != 0 }
}
