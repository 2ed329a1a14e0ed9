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
/// The properties are `@exclusivity(unchecked)`: Swift's run-time check of each access to a
/// class's variable is a call, and only the paragraph that holds the scratch
/// (and its positioner, on the same thread) touches it, one access at a time.
// @unchecked Sendable: one thread at a time uses a scratch, in the context that holds it.
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
    /// Runs shaped again within a line, kept while the work's pieces point into them.
    @exclusivity(unchecked) var reshaped: [ShapedGlyphs] = []
    /// Emptied piece lists, one per line of earlier layouts, at most `maxPieceLists`.
    @exclusivity(unchecked) var pieceLists: [[LineItem]] = []
    static let maxPieceLists = 64
    /// The styles the last text resolved (fonts, fallback, HarfBuzz forms) and what to: most
    /// requests in a row share their styles, and are not resolved again.
    /// (Its fallback holds the styles and the registry, so the registry cannot be another one
    /// at the same address later.)
    @exclusivity(unchecked) var lastStyles: ResolvedStyles?
    /// The last text positioning inserted (a truncation token, a hyphen), shaped: most truncated
    /// requests end with the same token in the same style (`ParagraphPositioner.insertedPieces`).
    @exclusivity(unchecked) var lastInserted: InsertedText?

    /// The styles a request last passed validation with, on which fonts (held, so the
    /// identifier cannot name another registry later).
    @exclusivity(unchecked) var lastValidStyles: (styles: [TextStyle], fonts: ObjectIdentifier, registry: FontRegistry)?

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
    /// storage stays uniquely referenced, so filling it again allocates nothing.
    @inline(__always)
    mutating func takeEmptied() -> Self {
        var taken = Self()
        swap(&taken, &self)
        // Some come back emptied already; emptying costs a call even then.
        if !taken.isEmpty { taken.removeAll(keepingCapacity: true) }
        return taken
    }

    /// The collection, moved out as it is, leaving an empty one behind: how arrays go back to
    /// the scratch (emptied only when taken again, once nothing else shares the storage).
    @inline(__always)
    mutating func movedOut() -> Self {
        var taken = Self()
        swap(&taken, &self)
        return taken
    }
}

/// Zeroed memory to copy from, for `appendZeros`.
/// Never written after it is zeroed, so every thread may read it.
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
            append(contentsOf: UnsafeBufferPointer(start: zeroPage.assumingMemoryBound(to: Element.self), count: chunk))
            left -= chunk
        }
    }
}
