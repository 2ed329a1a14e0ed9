import TestSupport

/// Damages a real font the ways a hostile or broken file is damaged: bits flipped, bytes
/// overwritten, the file cut, a table's bytes scrambled, a table directory entry pointed at the
/// wrong place or given the wrong length. Table-aware mutations matter most: they keep the file
/// looking like a font, so the damage reaches the table parsers instead of the first check.
struct FontMutator {
    var random: SeededGenerator

    /// The sfnt table records of a single-face file: (tag, record offset, table offset, length).
    static func tables(_ bytes: [UInt8]) -> [(tag: String, record: Int, offset: Int, length: Int)] {
        func u16(_ at: Int) -> Int { at + 2 <= bytes.count ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : 0 }
        func u32(_ at: Int) -> Int { at + 4 <= bytes.count ? u16(at) << 16 | u16(at + 2) : 0 }
        let count = u16(4)
        return (0..<count).compactMap { index in
            let record = 12 + 16 * index
            guard record + 16 <= bytes.count else { return nil }
            let tag = String(decoding: bytes[record..<record + 4], as: UTF8.self)
            return (tag, record, u32(record + 8), u32(record + 12))
        }
    }

    mutating func number(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(random.next() % UInt64(bound)) }

    mutating func mutate(_ font: [UInt8]) -> [UInt8] {
        var bytes = font
        let tables = Self.tables(bytes)
        for _ in 0...number(3) {
            switch number(6) {
            case 0:  // bit flips anywhere
                for _ in 0...number(16) { bytes[number(bytes.count)] ^= 1 << UInt8(number(8)) }
            case 1:  // a run of random bytes
                let start = number(bytes.count), length = min(1 + number(64), bytes.count - start)
                for i in start..<start + length { bytes[i] = UInt8(truncatingIfNeeded: random.next()) }
            case 2:  // cut short (but not to nothing)
                bytes.removeLast(number(bytes.count - 12))
            case 3, 4:  // scramble inside one table
                guard let table = tables.randomElement(using: &random), table.length > 0, table.offset < bytes.count else { continue }
                let end = min(table.offset + table.length, bytes.count)
                for _ in 0...number(24) {
                    let at = table.offset + number(end - table.offset)
                    bytes[at] = number(4) == 0 ? 0xFF : UInt8(truncatingIfNeeded: random.next())
                }
            default:  // a directory entry's offset or length wrong, inside the file
                guard let table = tables.randomElement(using: &random) else { continue }
                let field = table.record + (number(2) == 0 ? 8 : 12)
                let value = UInt32(truncatingIfNeeded: number(bytes.count))
                guard field + 4 <= bytes.count else { continue }
                for k in 0..<4 { bytes[field + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(k))) }
            }
        }
        return bytes
    }
}
