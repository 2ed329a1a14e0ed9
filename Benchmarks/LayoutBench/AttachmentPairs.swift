import Foundation

/// Times of each caption laid out with its two attachments and without them (the same text less
/// its two U+FFFC), and which of the two went first.
///
/// Why the order is kept: the text laid out second finds its twin's glyphs, tables and branches
/// still in the CPU's caches. In the rotation of passes the plain text ran right after its twin
/// for six captions in seven, and the row read 1.14×; measured like this it reads 1.09–1.11× on
/// the same build. So the pair alternates which goes first, and each caption's ratio compares
/// like with like: boxed-first against plain-first, and second against second, combined by their
/// geometric mean, which cancels an order effect that scales both alike.
struct AttachmentPairs {
    private var boxedFirst: [[Double]], boxedSecond: [[Double]]
    private var plainFirst: [[Double]], plainSecond: [[Double]]

    init(captions: Int) {
        boxedFirst = Array(repeating: [], count: captions)
        (boxedSecond, plainFirst, plainSecond) = (boxedFirst, boxedFirst, boxedFirst)
    }

    mutating func record(caption: Int, boxed: Double, plain: Double, boxedFirst first: Bool) {
        if first {
            boxedFirst[caption].append(boxed)
            plainSecond[caption].append(plain)
        } else {
            plainFirst[caption].append(plain)
            boxedSecond[caption].append(boxed)
        }
    }

    /// The table's lines; `captionAlone` is the plain caption's no-cache pass, per caption.
    func table(captionAlone: Distribution) -> [String] {
        var first: [Double] = [], second: [Double] = [], balanced: [Double] = []
        var boxedMedians: [Double] = [], plainMedians: [Double] = []
        for caption in boxedFirst.indices {
            // A ratio per position the caption was measured in (one repeat gives only one).
            func ratio(_ boxed: [Double], _ plain: [Double]) -> Double? {
                boxed.isEmpty || plain.isEmpty ? nil : Distribution(values: boxed).median / Distribution(values: plain).median
            }
            let ratios = [ratio(boxedFirst[caption], plainFirst[caption]), ratio(boxedSecond[caption], plainSecond[caption])]
            if let r = ratios[0] { first.append(r) }
            if let r = ratios[1] { second.append(r) }
            let measured = ratios.compactMap { $0 }
            balanced.append(exp(measured.map(log).reduce(0, +) / Double(measured.count)))
            boxedMedians.append(Distribution(values: boxedFirst[caption] + boxedSecond[caption]).median)
            plainMedians.append(Distribution(values: plainFirst[caption] + plainSecond[caption]).median)
        }
        let boxed = Distribution(values: boxedMedians), plain = Distribution(values: plainMedians)
        func median(_ values: [Double]) -> String { values.isEmpty ? "—" : String(format: "%.2f×", Distribution(values: values).median) }
        func toAlone(_ d: Distribution) -> Double { Distribution(values: zip(d.values, captionAlone.values).map { $0 / $1 }).median }
        return ["", "### Inline attachments (two per caption: one after the first word, one at the end; target ≤ 1.1×)", "",
                "| pass | median µs/caption | p99 µs/caption | median of per-caption ratios to the same text without its two U+FFFC | to the caption alone |",
                "|---|---|---|---|---|",
                String(format: "| the caption alone, no cache | %.2f | %.2f | — | 1.00× |", captionAlone.median, captionAlone.p99),
                String(format: "| the text without its U+FFFC, no cache | %.2f | %.2f | 1.00× | %.2f× |", plain.median, plain.p99, toAlone(plain)),
                String(format: "| layout with two attachments, no cache | %.2f | %.2f | %@ (order-balanced) | %.2f× |", boxed.median, boxed.p99,
                       median(balanced) as NSString, toAlone(boxed)),
                "",
                "The pair alternates which goes first. Like against like: \(median(first)) when each ran first, \(median(second)) when each "
                + "ran right after its twin; the balanced figure is each caption's geometric mean of the two. "
                + "`scripts/count-instructions.sh` gives the same comparison in instructions, which do not depend on order or load."]
    }
}
