import Synchronization

/// The first item of a batch that no worker has taken yet. A batch runs on several workers at
/// once (its lanes, `ConnectionHandler+Batch.swift`); each takes the items it lays out from here,
/// a block at a time, so every item is taken by exactly one of them.
final class BatchCursor: Sendable {
    private let first: Atomic<Int>

    init(from start: Int = 0) { first = Atomic(start) }

    /// Up to `count` items from the first not taken, none at or past `end`: empty once every
    /// item is taken.
    func take(_ count: Int, before end: Int) -> Range<Int> {
        let start = first.add(count, ordering: .relaxed).oldValue
        return min(start, end)..<min(start &+ count, end)
    }

    /// True once every item before `end` is taken.
    func isExhausted(before end: Int) -> Bool { first.load(ordering: .relaxed) >= end }
}

/// Bytes of a batch's frames that workers have laid out and the loop has not yet written (or
/// dropped): a worker goes on laying out only while they are few, so lanes that run ahead of
/// an item still being laid out, or of a loop kept busy elsewhere, never pile frames up.
final class HeldBatchBytes: Sendable {
    private let bytes = Atomic<Int>(0)

    /// `count` more held; returns how many are now.
    func hold(_ count: Int) -> Int { bytes.add(count, ordering: .relaxed).newValue }

    /// `count` written or dropped.
    func release(_ count: Int) { bytes.subtract(count, ordering: .relaxed) }

    var count: Int { bytes.load(ordering: .relaxed) }
}
