/// A UTF-16 surrogate pair's code point, written once for every loop that walks a text's units.
///
/// Each such loop decides for itself what a lone surrogate is (itself for FriBidi and the
/// itemizer, U+FFFD for analysis, AL for the line-break rules), so only the arithmetic is shared:
/// the loops keep their own tests, which differ in what they already know about the unit.
public enum SurrogatePair {
    /// The code point that `lead` (D800–DBFF) and `trail` (DC00–DFFF) stand for. The caller has
    /// checked both; wrapping arithmetic, as a checked pair cannot overflow.
    @inlinable @inline(__always)
    public static func codePoint(lead: UInt16, trail: UInt16) -> UInt32 {
        // 0x10000 + (lead - 0xD800) << 10 + (trail - 0xDC00), its constants folded into one.
        (UInt32(lead) &<< 10) &+ UInt32(trail) &- 0x35F_DC00
    }
}
