import Testing
import TestSupport
@testable import LayoutEngine

/// The document's prefix sums with their shift held for later: after any sequence of
/// replacements, near and far, every entry equals the sums counted afresh, and the paragraph
/// found for an offset is the one a walk over them finds.
@Suite struct ParagraphOffsetsTests {
    typealias Entry = ParagraphOffsets.Entry

    @Test func everyEntryEqualsTheSumsCountedAfresh() {
        var random = SeededGenerator(seed: 21)
        func size() -> Entry {
            Entry(offset: Int(random.next() % 50), top: Double(random.next() % 40) / 4, line: Int(random.next() % 4),
                  attachment: Int(random.next() % 2))
        }
        var sizes = (0..<30).map { _ in size() }
        var offsets = ParagraphOffsets(sizes: sizes)
        for step in 0..<3_000 {
            let first = Int(random.next() % UInt64(sizes.count))
            let last = min(sizes.count - 1, first + Int(random.next() % 3))
            let added = (0..<Int(random.next() % 4) + (sizes.count < 3 ? 1 : 0)).map { _ in size() }
            guard !(added.isEmpty && sizes.count - (last - first + 1) < 1) else { continue }
            let before = (0...sizes.count).map { offsets[$0] }
            let delta = offsets.replace(first...last, with: added)
            sizes.replaceSubrange(first...last, with: added)
            var sum = Entry.zero
            var fresh = [sum]
            for size in sizes { sum = sum + size; fresh.append(sum) }
            let now = (0...sizes.count).map { offsets[$0] }
            #expect(now.map(\.offset) == fresh.map(\.offset) && now.map(\.line) == fresh.map(\.line)
                    && now.map(\.attachment) == fresh.map(\.attachment), "step \(step)")
            #expect(zip(now, fresh).allSatisfy { abs($0.top - $1.top) < 1e-9 }, "step \(step)")
            #expect(delta.offset == now[first + added.count].offset - before[last + 1].offset, "step \(step)")
            // The bisection over the sums finds the paragraph a linear walk over them finds.
            for offset in [-1, 0, fresh[fresh.count - 1].offset, fresh[fresh.count - 1].offset + 1, Int(random.next() % 1_600)] {
                let walked = (0..<sizes.count).first { fresh[$0 + 1].offset > offset } ?? sizes.count
                #expect(offsets.firstEnding(after: offset) == walked, "step \(step), offset \(offset)")
            }
            if now.map(\.offset) != fresh.map(\.offset) { break }
        }
    }
}
