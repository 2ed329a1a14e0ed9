/// What one request's layout work carries besides its text and fonts: the shaper (with the
/// layouter's shaping cache), the arrays the stages fill (`LayoutScratch`), and the request's
/// budget. The caller makes one per request and passes it down, as parley passes its
/// `LayoutContext` beside the `FontContext`: a `ShapedParagraph` and a `ParagraphPositioner`
/// hold none of it, so a shaped paragraph is a plain value a later request may keep.
///
/// One thread at a time uses a context. Its scratch comes from the layouter's own pool and goes
/// back when the context ends, so a daemon that reloads its fonts drops the old scratches with
/// the old layouter.
public final class LayoutContext {
    let shaper: Shaper
    let scratch: LayoutScratch
    public let budget: WorkBudget
    private let pool: ScratchPool
    /// The longest text laid out with this context, in UTF-16 units: a scratch that served a
    /// long text goes back to the allocator, not the pool.
    var longestText = 0

    public init(layouter: ParagraphLayouter, budget: WorkBudget = .unlimited) {
        pool = layouter.scratches
        scratch = pool.take()
        shaper = Shaper(cache: layouter.cache, buffer: scratch.shapingBuffer)
        self.budget = budget
    }

    deinit { pool.give(scratch, units: longestText) }

    /// Gives a shaped paragraph's arrays back to the scratch for the next paragraph to fill.
    /// Only for a paragraph nothing reads any more: a paragraph kept for later is not recycled.
    func recycle(_ shaped: consuming ShapedParagraph) {
        longestText = max(longestText, shaped.text.units.count)
        shaped.giveBack(to: scratch)
    }
}
