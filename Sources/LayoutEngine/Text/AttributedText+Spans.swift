extension AttributedText {
    /// Style index of the unit at `offset` (the last run's for an offset past them all).
    func styleIndex(at offset: Int) -> Int {
        runs[ShapedParagraph.bisect(runs.count, holding: offset) { runs[$0].range.upperBound }].style
    }

    /// The paint run holding `offset` (the last for an offset past them all; all the text for a
    /// text of one paint).
    func paintRun(at offset: Int) -> (range: Range<Int>, paint: Int) {
        guard !paintRuns.isEmpty else { return (0..<Int.max, 0) }
        return paintRuns[ShapedParagraph.bisect(paintRuns.count, holding: offset) { paintRuns[$0].range.upperBound }]
    }

    /// Flattens overlapping spans into runs of resolved styles, in O((n + e) log n) for n spans
    /// and e edges.
    ///
    /// Where spans overlap the later one wins, field by field (as attributes added later win in
    /// NSAttributedString): each field of a piece takes its value from the latest span covering
    /// the piece that sets it. A sweep over the sorted edges keeps, per field, a max-heap of the
    /// covering spans that set it; a heap's top is the answer, and spans that ended are dropped
    /// when they surface. Applying every covering span to every piece cost n × e: 64,000
    /// overlapping spans held a worker for 81 seconds.
    /// Shaping fields and paint fields resolve in the same sweep into two tables and two run lists.
    static func resolve(_ spans: [Span], over count: Int, base: TextStyle, paint basePaint: TextPaint)
        -> (styles: [TextStyle], runs: [(range: Range<Int>, style: Int)], paints: [TextPaint], paintRuns: [(range: Range<Int>, paint: Int)]) {
        let clamped = spans.map { span in
            min(max(span.range.lowerBound, 0), count)..<min(max(span.range.upperBound, 0), count)
        }
        var cuts = Set([0, count])
        for range in clamped {
            cuts.insert(range.lowerBound)
            cuts.insert(range.upperBound)
        }
        let edges = cuts.sorted()
        let byStart = clamped.indices.filter { !clamped[$0].isEmpty }.sorted { clamped[$0].lowerBound < clamped[$1].lowerBound }
        var heaps = [SpanHeap](repeating: SpanHeap(), count: StyleField.allCases.count)
        var nextSpan = 0
        var styles = InternedRuns<TextStyle>()
        var paints = InternedRuns<TextPaint>()
        for (start, end) in zip(edges, edges.dropFirst()) where start < end {
            while nextSpan < byStart.count, clamped[byStart[nextSpan]].lowerBound <= start {
                let span = byStart[nextSpan]
                for field in StyleField.allCases where field.isSet(in: spans[span].patch) { heaps[field.rawValue].push(span) }
                nextSpan += 1
            }
            var resolved = base
            var resolvedPaint = basePaint
            for field in StyleField.allCases {
                while let top = heaps[field.rawValue].top, clamped[top].upperBound <= start { heaps[field.rawValue].pop() }
                if let top = heaps[field.rawValue].top { field.copy(from: spans[top].patch, into: &resolved, paint: &resolvedPaint) }
            }
            styles.append(resolved, over: start..<end)
            paints.append(resolvedPaint, over: start..<end)
        }
        // One paint over the whole text needs no runs (see `paintRuns`).
        return (styles.values, styles.runs.map { ($0.range, $0.value) }, paints.values.isEmpty ? [basePaint] : paints.values,
                paints.values.count <= 1 ? [] : paints.runs.map { ($0.range, $0.value) })
    }
}

/// The fields a style patch may set, each resolved on its own.
enum StyleField: Int, CaseIterable {
    case family, weight, italic, size, letterSpacing, features, language, baselineOffset, variations, fontFallback, script,
         fallbackFamilies, synthesis, boldText, lineBreak, wordBreak
    /// Paint: resolved into `TextPaint`, not the shaping style.
    case color, background, underline, strikethrough, shadows, glow, fill, effect, emphasis

    var isPaint: Bool { rawValue >= StyleField.color.rawValue }

    func isSet(in patch: StylePatch) -> Bool {
        switch self {
        case .family: patch.family != nil
        case .weight: patch.weight != nil
        case .italic: patch.italic != nil
        case .size: patch.size != nil
        case .letterSpacing: patch.letterSpacing != nil
        case .features: patch.features != nil
        case .language: patch.language != nil
        case .baselineOffset: patch.baselineOffset != nil
        case .variations: patch.variations != nil
        case .fontFallback: patch.fontFallback != nil
        case .script: patch.script != nil
        case .fallbackFamilies: patch.fallbackFamilies != nil
        case .synthesis: patch.synthesis != nil
        case .boldText: patch.boldText != nil
        case .lineBreak: patch.lineBreak != nil
        case .wordBreak: patch.wordBreak != nil
        case .color: patch.color != nil
        case .background: patch.background != nil
        case .underline: patch.underline != nil
        case .strikethrough: patch.strikethrough != nil
        case .shadows: patch.shadows != nil
        case .glow: patch.glow != nil
        case .fill: patch.fill != nil
        case .effect: patch.effect != nil
        case .emphasis: patch.emphasis != nil
        }
    }

    func copy(from patch: StylePatch, into style: inout TextStyle, paint: inout TextPaint) {
        switch self {
        case .family: style.family = patch.family!
        case .weight: style.weight = patch.weight!
        case .italic: style.italic = patch.italic!
        case .size:
            // A line height travels with the size it was given for.
            style.size = patch.size!
            style.lineHeight = patch.lineHeight
        case .letterSpacing: style.letterSpacing = patch.letterSpacing!
        case .features: style.features = patch.features!
        case .language: style.language = patch.language!
        case .baselineOffset: style.baselineOffset = patch.baselineOffset!
        case .variations: style.variations = patch.variations!
        case .fontFallback: style.fontFallback = patch.fontFallback!
        case .script: style.script = patch.script!
        case .fallbackFamilies: style.fallbackFamilies = patch.fallbackFamilies!
        case .synthesis: style.synthesis = patch.synthesis!
        case .boldText: style.boldText = patch.boldText!
        case .lineBreak: style.lineBreak = patch.lineBreak!
        case .wordBreak: style.wordBreak = patch.wordBreak!
        case .color: paint.color = patch.color!
        case .background: paint.background = patch.background!.alpha > 0 ? patch.background! : nil
        case .underline: paint.underline = patch.underline!.value
        case .strikethrough: paint.strikethrough = patch.strikethrough!.value
        case .shadows: paint.shadows = patch.shadows!.value ?? []
        case .glow: paint.glow = patch.glow!.value
        case .fill: paint.fill = patch.fill!.value
        case .effect: paint.effect = patch.effect!.value
        case .emphasis: paint.emphasis = patch.emphasis!.value
        }
    }
}

/// Distinct values in order of first use, and runs over the text naming them by index: what
/// resolving spans fills for styles and for paints.
struct InternedRuns<Value: Hashable> {
    private(set) var values: [Value] = []
    private var indices: [Value: Int] = [:]
    private(set) var runs: [(range: Range<Int>, value: Int)] = []

    /// `value` over `range`, which starts where the last run ended: it extends that run when
    /// the value is the same.
    mutating func append(_ value: Value, over range: Range<Int>) {
        let index: Int
        if let known = indices[value] { index = known } else {
            index = values.count
            values.append(value)
            indices[value] = index
        }
        if let last = runs.last, last.value == index {
            runs[runs.count - 1].range = last.range.lowerBound..<range.upperBound
        } else {
            runs.append((range, index))
        }
    }
}

/// A binary max-heap of span indices: the latest covering span is on top.
struct SpanHeap {
    private var items: [Int] = []

    var top: Int? { items.first }

    mutating func push(_ item: Int) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[parent] < items[child] else { break }
            items.swapAt(parent, child)
            child = parent
        }
    }

    mutating func pop() {
        guard !items.isEmpty else { return }
        items.swapAt(0, items.count - 1)
        items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var largest = parent
            if left < items.count && items[left] > items[largest] { largest = left }
            if right < items.count && items[right] > items[largest] { largest = right }
            guard largest != parent else { return }
            items.swapAt(parent, largest)
            parent = largest
        }
    }
}
