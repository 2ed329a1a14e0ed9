import Synchronization

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
        context.budget = context.idleBudget
        free.withThreadShard { if $0.count < Self.maxKeptPerShard { $0.append(context) } }
    }
}
