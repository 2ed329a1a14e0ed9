import Synchronization

/// Remembers shaped runs so repeated text is shaped once.
///
/// Key rule: a result may be reused only when everything that can change HarfBuzz's output is
/// equal: the font (by its process-wide serial: ids are per registry), the script, the direction, the language, the feature settings, the
/// run's text, and the context HarfBuzz reads around it (HB_BUFFER_CONTEXT_LENGTH is 5 code
/// points, so up to 10 UTF-16 units each side, clipped to the line or paragraph the run
/// was shaped in). Size is not in the key: shaping happens at units-per-em. Clusters are
/// stored relative to the run's start so the same run can sit anywhere in a text.
///
/// Only runs of at most `maxRunLength` units are cached, so the memory the cache holds is bounded
/// (entries × length) whatever texts clients send; longer runs are rarely repeated anyway.
///
/// Eviction is by generation: when the young table fills, it becomes the old one and the
/// previous old table is dropped; a hit in the old table is promoted. That approximates LRU
/// with two dictionary look-ups and no per-entry bookkeeping.
///
/// Every worker shares the cache, so it is split into shards by the key's hash, each with its
/// own lock, tables and counts (a cache of 16,384 entries or more has 16): on a machine of many
/// cores, threads meet on one lock only when their runs fall in the same shard
/// (docs/performance.md, "Scaling"). Each shard keeps its share of the capacity per generation.
public final class ShapingCache: Sendable {
    struct StyleKey: Hashable {
        var language: String
        var features: [FontFeature]
    }

    struct Key: Hashable {
        static func == (a: Key, b: Key) -> Bool {
            a.digest == b.digest && a.font == b.font && a.script == b.script && a.rtl == b.rtl && a.upright == b.upright
                && a.before == b.before
                && a.length == b.length && a.text == b.text && a.style == b.style
        }

        /// The digest made once per key: a miss looks in both tables and then stores, and
        /// hashing the text three times cost more than the look-ups.
        func hash(into hasher: inout Hasher) {
            hasher.combine(digest)
        }

        var font: UInt32
        var script: UInt32
        var rtl: Bool
        /// Shaped top to bottom (vertical text).
        var upright: Bool
        var style: StyleKey
        var before: Int
        var length: Int
        /// A slice of the paragraph's own units while looking up (no copy). When the slice is a
        /// small part of the array's allocation, `stored` makes the compact copy a table keeps,
        /// so the cache never holds more than twice a key's text alive; a run that is most of its
        /// paragraph (a caption of one script) is kept as is, with no copy. The allocation, not
        /// the count, decides: the units shaped may be the scratch's reused array, whose room
        /// fits the longest text it held, and a kept slice would pin that room per entry.
        var text: ArraySlice<UInt16>
        var isSmallPart: Bool
        /// Swift's seeded hash of the fields above, the text as one block of bytes (element-wise
        /// hashing dominated look-ups). Seeded per process, so clients cannot aim collisions.
        let digest: Int

        var stored: Key {
            guard isSmallPart else { return self }
            var copy = self
            // Appended into new room: `Array(text)` hands back the slice's own storage, room and
            // all, when the slice spans its array's count.
            var compact: [UInt16] = []
            compact.reserveCapacity(text.count)
            compact.append(contentsOf: text)
            copy.text = ArraySlice(compact)
            return copy
        }

        init(_ units: ContiguousArray<UInt16>, range: Range<Int>, context: Range<Int>, font: UInt32, rtl: Bool,
             upright: Bool = false, script: UInt32, style: StyleKey) {
            let start = max(context.lowerBound, range.lowerBound - 10)
            let end = min(context.upperBound, range.upperBound + 10)
            self.font = font
            self.script = script
            self.rtl = rtl
            self.upright = upright
            self.style = style
            self.before = range.lowerBound - start
            self.length = range.count
            self.text = units[start..<end]
            self.isSmallPart = (end - start) * 2 < units.capacity
            var hasher = Hasher()
            hasher.combine(font)
            hasher.combine(script)
            hasher.combine(before)
            hasher.combine(range.count)
            hasher.combine(units: text)
            digest = hasher.finalize()
        }
    }

    private struct Tables {
        var young: [Key: SharedGlyphs] = [:]
        var old: [Key: SharedGlyphs] = [:]
        // Counted under the lock the look-up takes anyway: a shared atomic counter would be one
        // more cache line every core writes.
        var hits: UInt64 = 0
        var misses: UInt64 = 0
    }

    /// Longest run, in UTF-16 units, that is cached.
    static let maxRunLength = 1024

    /// Chosen by the key's hash.
    private let shards: Shards<Tables>
    /// Entries per generation in each shard.
    private let capacity: Int

    /// `capacity` entries per generation; at most twice that are held.
    public init(capacity: Int = 20_000) {
        let total = max(1, capacity)
        let count = total >= 16_384 ? 16 : 1
        self.shards = Shards(count: count) { Tables() }
        self.capacity = max(1, total / count)
    }

    public var hits: UInt64 { shards.map { $0.hits }.reduce(0, &+) }
    public var misses: UInt64 { shards.map { $0.misses }.reduce(0, &+) }

    /// Drops every entry; the counts go on (they feed counters that never go back).
    public func removeAll() {
        _ = shards.map { tables in
            tables.young = [:]
            tables.old = [:]
        }
    }

    func lookup(_ key: Key) -> SharedGlyphs? {
        let capacity = self.capacity
        return shards.withShard(key.digest) { tables in
            if let glyphs = tables.young[key] {
                tables.hits &+= 1
                return glyphs
            }
            guard !tables.old.isEmpty, let glyphs = tables.old.removeValue(forKey: key) else {
                tables.misses &+= 1
                return nil
            }
            tables.hits &+= 1
            Self.insert(&tables, key.stored, glyphs, capacity: capacity)
            return glyphs
        }
    }

    /// Keeps `run`'s glyphs (all of a buffer, or a joined piece's slice of one) for `key`.
    func store(_ key: Key, _ run: ShapedRun) {
        let stored = key.stored
        let shared = SharedGlyphs(run)
        let capacity = self.capacity
        shards.withShard(key.digest) { Self.insert(&$0, stored, shared, capacity: capacity) }
    }

    private static func insert(_ tables: inout Tables, _ key: Key, _ glyphs: SharedGlyphs, capacity: Int) {
        if tables.young.count >= capacity {
            tables.old = tables.young
            tables.young = [:]
            tables.young.reserveCapacity(capacity)
        }
        tables.young[key] = glyphs
    }
}
