/// Unicode property tables as the generators write them (`scripts/unicode_ranges.py`): ranges in
/// order, two numbers each, the first code point, then the last with the value in the top byte.
enum PropertyRanges {
    /// The value of `scalar` in `ranges`, 0 (the property's default) outside them.
    static func value(of scalar: UInt32, in ranges: [UInt32]) -> UInt8 {
        var low = 0, high = ranges.count / 2 - 1
        while low <= high {
            let middle = (low + high) / 2
            let first = ranges[2 * middle], last = ranges[2 * middle + 1] & 0xFF_FFFF
            if scalar < first { high = middle - 1 } else if scalar > last { low = middle + 1 } else {
                return UInt8(ranges[2 * middle + 1] >> 24)
            }
        }
        return 0
    }
}
