import Synchronization

/// What one request's layout work carries besides its text and fonts: the shaper (with the
/// layouter's shaping cache), the arrays the stages fill (`LayoutScratch`), and the request's
/// budget. The caller makes one per request and passes it down, as parley passes its
/// `LayoutContext` beside the `FontContext`: a `ShapedParagraph` and a `ParagraphPositioner`
/// hold none of it, so a shaped paragraph is a plain value a later request may keep.
///
/// One thread at a time uses a context. The layouter keeps its contexts, each with its
/// scratch, from one request to the next (`ContextPool`), so a daemon that reloads its fonts
/// drops the old scratches with the old layouter.
// @unchecked Sendable: one thread at a time uses a context; the pool hands it over under its lock.
public final class LayoutContext: @unchecked Sendable {
    let shaper: Shaper
    let scratch = LayoutScratch()
    /// The layouter's Unicode services: bidi levels, dictionary words, hyphenation patterns.
    let unicode: any UnicodeServices
    /// Set again when the context is reused for another request (`ContextPool`).
    public fileprivate(set) var budget: WorkBudget
    /// The longest text laid out with this context, in UTF-16 units: a context whose scratch
    /// served a long text is not kept, so that memory goes back to the allocator.
    var longestText = 0

    /// A context of its own, kept by nobody (the layouter's own requests take theirs from its
    /// pool: `ParagraphLayouter.withContext`).
    public init(layouter: ParagraphLayouter, budget: WorkBudget = .unlimited) {
        shaper = Shaper(cache: layouter.cache, buffer: scratch.shapingBuffer, joinsRuns: layouter.joinsRuns)
        unicode = layouter.unicode
        self.budget = budget
    }

    /// Gives a shaped paragraph's arrays back to the scratch for the next paragraph to fill.
    /// Only for a paragraph nothing reads any more: a paragraph kept for later is not recycled.
    func recycle(_ shaped: consuming ShapedParagraph) {
        longestText = max(longestText, shaped.text.units.count)
        shaped.giveBack(to: scratch)
    }
}

/// Contexts waiting for the layouter's next request, each with its scratch (see
/// `LayoutScratch`): a context made and dropped per request cost its allocation and the counts of
/// its references, and its scratch's arrays had to come from a pool of their own. A context that
/// served a long text is not kept, so the pool holds a few captions' worth of memory.
///
/// The pool is split by thread (`ThreadShard`): every layout takes and gives a context, so one
/// lock for all would be met by every core on every request, and a thread mostly gets back the
/// context it gave, its scratch still in that core's cache.
final class ContextPool: Sendable {
    /// Longest text, in UTF-16 units, whose context (and scratch) is kept.
    static let maxUnits = 16_384
    /// Shards (a power of two), and contexts kept in each: more in all than the layouts that
    /// run at once on the machines we serve.
    static let shardCount = 8
    static let maxKeptPerShard = 4

    private let free = Shards<[LayoutContext]>(count: ContextPool.shardCount) { [] }

    /// A kept context set up for a request with `budget`, or a new one.
    func take(layouter: ParagraphLayouter, budget: WorkBudget) -> LayoutContext {
        guard let context = free.withThreadShard({ $0.popLast() }) else { return LayoutContext(layouter: layouter, budget: budget) }
        context.budget = budget
        return context
    }

    func give(_ context: LayoutContext) {
        guard context.longestText <= Self.maxUnits else { return }
        // Only the budget is the request's: drop it now rather than hold it until the next.
        context.budget = .unlimited
        free.withThreadShard { if $0.count < Self.maxKeptPerShard { $0.append(context) } }
    }
}
