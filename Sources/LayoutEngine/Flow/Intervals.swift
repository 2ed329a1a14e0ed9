/// A closed stretch of x on one band of lines: where text may go, or what a shape covers.
struct Interval: Equatable {
    var lower: Double
    var upper: Double
    var width: Double { upper - lower }
}

/// Sets of intervals as sorted lists of disjoint intervals, and the few operations the flow
/// stage needs on them.
enum Intervals {
    /// Sorted, with overlapping and touching intervals joined.
    static func merged(_ list: [Interval]) -> [Interval] {
        guard list.count > 1 else { return list }
        let sorted = list.sorted { $0.lower < $1.lower }
        var out: [Interval] = [sorted[0]]
        for interval in sorted.dropFirst() {
            if interval.lower <= out[out.count - 1].upper {
                out[out.count - 1].upper = max(out[out.count - 1].upper, interval.upper)
            } else {
                out.append(interval)
            }
        }
        return out
    }

    /// `free` without what `cut` covers (both sorted and disjoint). A cut of no width leaves
    /// the free intervals whole: a shape's vertical edge touching a band takes no room.
    static func subtracting(_ cut: [Interval], from free: [Interval]) -> [Interval] {
        var out: [Interval] = []
        for interval in free {
            var pieces = [interval]
            for c in cut where c.width > 0 && c.upper > interval.lower && c.lower < interval.upper {
                var next: [Interval] = []
                for piece in pieces {
                    if c.lower > piece.lower { next.append(Interval(lower: piece.lower, upper: min(c.lower, piece.upper))) }
                    if c.upper < piece.upper { next.append(Interval(lower: max(c.upper, piece.lower), upper: piece.upper)) }
                }
                pieces = next.filter { $0.width > 0 }
            }
            out += pieces
        }
        return out
    }

    /// Where both sets are.
    static func intersecting(_ a: [Interval], _ b: [Interval]) -> [Interval] {
        var out: [Interval] = []
        var i = 0, j = 0
        while i < a.count && j < b.count {
            let lower = max(a[i].lower, b[j].lower), upper = min(a[i].upper, b[j].upper)
            if upper > lower { out.append(Interval(lower: lower, upper: upper)) }
            if a[i].upper < b[j].upper { i += 1 } else { j += 1 }
        }
        return out
    }
}
