/// Arrays a layout fills and drops, kept for the next layout so their storage is reused.
///
/// A caption's layout used some thirty arrays. Allocating one, with the type look-up Swift
/// makes for each new array, and freeing it again cost more per caption than breaking the
/// lines. Each `LayoutContext` holds a scratch, and the layouter keeps its contexts between
/// requests (`ContextPool`); the `ShapedParagraph` takes the arrays it needs out of it and the
/// context gives them back when the request is done with the paragraph; the positioner borrows
/// the line arrays meanwhile. Nothing else holds a scratch.
///
/// Arrays are emptied when taken, not when given back: while the holder still has its own
/// reference, emptying would copy the storage instead of keeping it.
///
/// The properties take no run-time exclusivity check: Swift's check of each access to a
/// class's variable is a call.
// SAFETY: only the paragraph that holds the scratch (and its positioner, on the same thread)
// touches it, one access at a time, so no access overlaps another; one thread at a time uses a
// scratch, in the context that holds it (`@unchecked Sendable`).
final class LayoutScratch: @unchecked Sendable {
    /// The shaping library's state (HarfBuzz's buffer), for the shaper of the context that holds
    /// the scratch.
    let shapingBuffer = ShapingScratch()
    @exclusivity(unchecked) var flags = ContiguousArray<UnitFlags>()
    @exclusivity(unchecked) var levels = ContiguousArray<UInt8>()
    /// The text as HarfBuzz sees it, when it differs from the text (controls, attachments).
    @exclusivity(unchecked) var shapingUnits = ContiguousArray<UInt16>()
    @exclusivity(unchecked) var paragraphs: [BidiParagraph] = []
    @exclusivity(unchecked) var items: [Item] = []
    // SAFETY: these too, as above: one thread, one access at a time.
    /// Vertical text's items cut where the orientation changes (`VerticalItems`); the itemizer's
    /// array comes back here while the cut one is the paragraph's.
    @exclusivity(unchecked) var verticalItems: [Item] = []
    @exclusivity(unchecked) var scalars: [UInt32] = []
    /// The items vertical text shapes together in one HarfBuzz call, and their ranges
    /// (`ShapedParagraph.shape`).
    @exclusivity(unchecked) var joinedItems: [Int] = []
    @exclusivity(unchecked) var joinedPieces: [Range<Int>] = []
    @exclusivity(unchecked) var runs: [ShapedRun] = []
    @exclusivity(unchecked) var prefix: [Double] = []
    @exclusivity(unchecked) var planned: [ParagraphPositioner.PlannedLine] = []
    @exclusivity(unchecked) var boxes: [(height: Double, baseline: Double)] = []
    /// Each glyph run's span of the layout's glyphs, while the runs are stacked.
    @exclusivity(unchecked) var spans: [Range<Int>] = []
    // SAFETY: these too, as above.
    /// Runs shaped again within a line, kept while the work's pieces point into them.
    @exclusivity(unchecked) var reshaped: [ShapedGlyphs] = []
    /// Emptied piece lists, one per line of earlier layouts, at most `maxPieceLists`.
    @exclusivity(unchecked) var pieceLists: [[LineItem]] = []
    static let maxPieceLists = 64
    // SAFETY: these too, as above.
    /// The styles the last text resolved (fonts, fallback, HarfBuzz forms) and what to: most
    /// requests in a row share their styles, and are not resolved again.
    /// (Its fallback holds the styles and the registry, so the registry cannot be another one
    /// at the same address later.)
    @exclusivity(unchecked) var lastStyles: ResolvedStyles?
    /// The last text positioning inserted (a truncation token, a hyphen), shaped: most truncated
    /// requests end with the same token in the same style (`ParagraphPositioner.insertedPieces`).
    @exclusivity(unchecked) var lastInserted: InsertedText?

    /// The styles a request last passed validation with, and on which fonts. Two properties, not
    /// a tuple: the check read the tuple out whole (its array and registry counted) to compare.
    @exclusivity(unchecked) var lastValidStyles: [TextStyle] = []
    @exclusivity(unchecked) var lastValidFonts: FontRegistry?

    /// `styles` resolved against `fonts` for `user`, from the last text's when they are the same.
    func resolved(_ styles: [TextStyle], fonts: FontRegistry, user: UInt32?) throws -> ResolvedStyles {
        if let last = lastStyles, last.fallback.registry === fonts, last.fallback.user == user, last.fallback.styles == styles { return last }
        let resolved = try ResolvedStyles(styles, fonts: fonts, user: user)
        lastStyles = resolved
        return resolved
    }
}

extension RangeReplaceableCollection {
    /// The collection's storage, emptied, leaving an empty collection behind. Taken this way the
    /// storage stays uniquely referenced, so filling it again allocates nothing. For a collection
    /// held in a value (a planned line's items); the scratch's fields are taken as
    /// `movedOut().emptied()` (see `emptied()`).
    @inline(__always)
    mutating func takeEmptied() -> Self { movedOut().emptied() }

    /// The collection, moved out as it is, leaving an empty one behind: how arrays go back to
    /// the scratch (emptied only when taken again, once nothing else shares the storage).
    @inline(__always)
    mutating func movedOut() -> Self {
        var taken = Self()
        swap(&taken, &self)
        return taken
    }

    /// The collection emptied, its storage kept. How arrays are taken from the scratch:
    /// `scratch.items.movedOut().emptied()` empties once the scratch's field is let go, where
    /// `takeEmptied()` on the field emptied inside the access, and the scratch was retained and
    /// released around the call.
    @inline(__always)
    consuming func emptied() -> Self {
        // Some come back emptied already; emptying costs a call even then.
        if !isEmpty { removeAll(keepingCapacity: true) }
        return self
    }
}

/// Zeroed memory to copy from, for `appendZeros`.
/// SAFETY: never written after it is zeroed, so every thread may read it
/// (`nonisolated(unsafe)`); `appendZeros` reads at most its size at a time.
nonisolated(unsafe) private let zeroPage: UnsafeRawPointer = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: zeroPageBytes, alignment: 16)
    .initializeMemory(as: UInt8.self, repeating: 0, count: zeroPageBytes))
private let zeroPageBytes = 16_384

extension RangeReplaceableCollection where Element: BitwiseCopyable {
    /// Appends `count` elements whose bytes are all zero (0, 0.0, an empty option set), copied
    /// from zeroed memory: `repeatElement` appended them one by one, a loop per unit of every
    /// analysis where this is a copy.
    @inline(__always)
    mutating func appendZeros(_ count: Int) {
        let perPage = zeroPageBytes / MemoryLayout<Element>.stride
        var left = count
        while left > 0 {
            let chunk = Swift.min(left, perPage)
            // SAFETY: `chunk` elements fit in the page; all-zero bytes are a valid `Element`.
            append(contentsOf: UnsafeBufferPointer(start: zeroPage.assumingMemoryBound(to: Element.self), count: chunk))
            left -= chunk
        }
    }
}

/// What one request's layout work carries besides its text and fonts: the shaper (with the
/// layouter's shaping cache), the arrays the stages fill (`LayoutScratch`), and the request's
/// budget. The caller makes one per request and passes it down, as parley passes its
/// `LayoutContext` beside the `FontContext`: a `ShapedParagraph` and a `ParagraphPositioner`
/// hold none of it, so a shaped paragraph is a plain value a later request may keep.
///
/// One thread at a time uses a context. The layouter keeps its contexts, each with its
/// scratch, from one request to the next (`ContextPool`), so a daemon that reloads its fonts
/// drops the old scratches with the old layouter.
// SAFETY (`@unchecked Sendable`): one thread at a time uses a context, with its scratch and
// its shaper's buffer; the pool hands it from one request to the next under its lock.
public final class LayoutContext: @unchecked Sendable {
    let shaper: Shaper
    let scratch = LayoutScratch()
    /// The layouter's Unicode services: bidi levels, dictionary words, hyphenation patterns.
    let unicode: any UnicodeServices
    /// Set again when the context is reused for another request (`ContextPool`).
    public internal(set) var budget: WorkBudget
    /// The budget a context holds between requests: its own, not the shared `.unlimited`,
    /// whose references every worker would count on one cache line at every request.
    let idleBudget = WorkBudget()
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
