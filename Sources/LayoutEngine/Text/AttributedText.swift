/// A string with styles over UTF-16 ranges: the pipeline's input.
///
/// Spans may overlap; a later span overrides an earlier one where they do (as attributes
/// added later win in NSAttributedString). `runs` is the flattened, gap-free result.
public struct AttributedText: Sendable {
    public let string: String
    public let units: ContiguousArray<UInt16>
    /// Distinct resolved styles; `runs` refer to them by index.
    public let styles: [TextStyle]
    /// Non-overlapping, sorted, covering `0..<units.count`.
    public let runs: [(range: Range<Int>, style: Int)]

    public struct Span: Sendable {
        public var range: Range<Int>
        public var patch: StylePatch
        public init(range: Range<Int>, patch: StylePatch) {
            self.range = range
            self.patch = patch
        }
    }

    public init(_ string: String, style: TextStyle, spans: [Span] = []) {
        self.string = string
        self.units = ContiguousArray(string.utf16)
        let count = units.count
        if spans.isEmpty {
            self.styles = [style]
            self.runs = count == 0 ? [] : [(0..<count, 0)]
            return
        }
        // Cut the text at every span edge, then resolve each piece by applying, in order,
        // every span that covers it.
        var cuts = Set([0, count])
        for span in spans {
            cuts.insert(min(max(span.range.lowerBound, 0), count))
            cuts.insert(min(max(span.range.upperBound, 0), count))
        }
        let edges = cuts.sorted()
        var styles: [TextStyle] = []
        var index: [TextStyle: Int] = [:]
        var runs: [(range: Range<Int>, style: Int)] = []
        for (start, end) in zip(edges, edges.dropFirst()) where start < end {
            var resolved = style
            for span in spans where span.range.lowerBound <= start && span.range.upperBound >= end {
                resolved = span.patch.applied(to: resolved)
            }
            let id: Int
            if let known = index[resolved] { id = known } else {
                id = styles.count
                styles.append(resolved)
                index[resolved] = id
            }
            if let last = runs.last, last.style == id {
                runs[runs.count - 1].range = last.range.lowerBound..<end
            } else {
                runs.append((start..<end, id))
            }
        }
        self.styles = styles
        self.runs = runs
    }
}
