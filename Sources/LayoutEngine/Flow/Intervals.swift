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
        var out = list
        if out.count <= 32 {
            // Insertion sort: a band gives a handful of intervals, mostly in order already.
            for i in 1..<out.count {
                let item = out[i]
                var j = i
                while j > 0 && out[j - 1].lower > item.lower { out[j] = out[j - 1]; j -= 1 }
                out[j] = item
            }
        } else {
            out.sort { $0.lower < $1.lower }
        }
        var kept = 0
        for i in 1..<out.count {
            if out[i].lower <= out[kept].upper {
                out[kept].upper = max(out[kept].upper, out[i].upper)
            } else {
                kept += 1
                out[kept] = out[i]
            }
        }
        out.removeSubrange((kept + 1)...)
        return out
    }

    /// Already sorted by their lower ends: only joined.
    static func joined(_ sorted: [Interval]) -> [Interval] {
        guard sorted.count > 1 else { return sorted }
        var out = sorted
        var kept = 0
        for i in 1..<out.count {
            if out[i].lower <= out[kept].upper {
                out[kept].upper = max(out[kept].upper, out[i].upper)
            } else {
                kept += 1
                out[kept] = out[i]
            }
        }
        out.removeSubrange((kept + 1)...)
        return out
    }

    /// `free` without what `cut` covers (both sorted and disjoint). A cut of no width leaves
    /// the free intervals whole: a shape's vertical edge touching a band takes no room.
    static func subtracting(_ cut: [Interval], from free: [Interval]) -> [Interval] {
        var out: [Interval] = []
        out.reserveCapacity(free.count + cut.count)
        var c = 0
        for interval in free {
            var lower = interval.lower
            // Cuts wholly left of this interval are behind every later one too.
            while c < cut.count && cut[c].upper <= lower { c += 1 }
            var k = c
            while k < cut.count && cut[k].lower < interval.upper {
                if cut[k].width > 0 {
                    if cut[k].lower > lower { out.append(Interval(lower: lower, upper: cut[k].lower)) }
                    lower = max(lower, cut[k].upper)
                }
                k += 1
            }
            if lower < interval.upper { out.append(Interval(lower: lower, upper: interval.upper)) }
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
