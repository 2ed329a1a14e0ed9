/// A small deterministic generator (SplitMix64), so a fuzz or random test replays exactly.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` copies of `bytes`, each with one to three bytes flipped, dropped or inserted.
    public mutating func damagedCopies(of bytes: [UInt8], count: Int) -> [[UInt8]] {
        (0..<count).map { _ in
            var damaged = bytes
            for _ in 0...(next() % 3) where !damaged.isEmpty {
                let at = Int(next() % UInt64(damaged.count))
                switch next() % 3 {
                case 0: damaged[at] ^= UInt8(truncatingIfNeeded: next() | 1)
                case 1: damaged.remove(at: at)
                default: damaged.insert(UInt8(truncatingIfNeeded: next()), at: at)
                }
            }
            return damaged
        }
    }
}
