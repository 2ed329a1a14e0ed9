/// What the shaping stage reads and writes in place, without a copy or a count of references:
/// the glyph storage (`ShapedGlyphs`, shared between threads as `SharedGlyphs`, read by a line's
/// pieces as `GlyphSlice`) and the text a cache key hashes. The stage's only unsafe code, each
/// piece under its SAFETY comment; the rest of the stage reads spans.

/// Shaped glyphs in storage of their own, never changed once filled: filled when made, only read
/// after.
///
/// The pieces of a line read it in place (`GlyphSlice`) while a layout runs, so copying a
/// piece counts no reference: a caption's positioning copied pieces some forty times, with a
/// retain and a release each. Whoever makes pieces keeps the storage alive for as long as they
/// are used (`ShapedParagraph` holds its runs and every run it shaped again; see its lifetime rule).
/// The glyphs live in the object's own allocation, after its header (a `ManagedBuffer`): one
/// allocation a shaped run, where an object holding a separate buffer took two.
/// Not `Sendable` (no `ManagedBuffer` is): the shaping cache shares it between threads through
/// `SharedGlyphs`.
public final class ShapedGlyphs: ManagedBuffer<Int, ShapedGlyph> {
    /// The glyphs, read in place for as long as this object lives.
    var slice: GlyphSlice {
        // SAFETY: the elements' address is fixed for the object's life, so reading it outside
        // the closure is sound; `header` of them are initialized (`make`).
        GlyphSlice(UnsafeBufferPointer(start: withUnsafeMutablePointerToElements { $0 }, count: header))
    }

    /// Storage for `count` glyphs that `fill` initializes, all of them. Inlinable, as
    /// `ShapedGlyph.init` is: the fonts adapter fills it per glyph.
    /// SAFETY: `fill` gets uninitialized room for `count` glyphs and must initialize every one
    /// (trivial values); it may not keep the buffer. Both implementations do: the fonts
    /// adapter's conversion of HarfBuzz's buffer and `make(_:)` below.
    @inlinable
    public static func make(count: Int, fill: (UnsafeMutableBufferPointer<ShapedGlyph>) -> Void) -> ShapedGlyphs {
        let glyphs = unsafeDowncast(create(minimumCapacity: count) { _ in count }, to: ShapedGlyphs.self)
        glyphs.withUnsafeMutablePointerToElements { fill(UnsafeMutableBufferPointer(start: $0, count: count)) }
        return glyphs
    }

    static func make(_ glyphs: some Collection<ShapedGlyph>) -> ShapedGlyphs {
        make(count: glyphs.count) { _ = $0.initialize(from: glyphs) }
    }

    /// No glyphs: a run's while its item waits to be shaped (`ShapedParagraph.shape`).
    /// SAFETY (`nonisolated(unsafe)`): never written, and empty.
    nonisolated(unsafe) static let unshaped = make(count: 0) { _ in }

    // No deinit: ShapedGlyph is trivial, nothing to deinitialize before the memory goes.
}

/// Shaped glyphs shared between threads (the shaping cache's entries).
// SAFETY (`@unchecked Sendable`): the glyphs are written when made and only read after.
/// A run's part of them: a joined piece (`Shaper.shapeJoined`) is a slice of its group's glyphs.
struct SharedGlyphs: @unchecked Sendable {
    let glyphs: ShapedGlyphs
    let first: Int
    let count: Int

    init(_ run: ShapedRun) {
        glyphs = run.glyphs
        first = run.first
        count = run.count
    }

    func run(_ range: Range<Int>) -> ShapedRun { ShapedRun(range: range, glyphs: glyphs, first: first, count: count) }
}

extension ShapedRun {
    /// The run's glyphs, read in place for as long as `glyphs` lives.
    var slice: GlyphSlice {
        // SAFETY: `first..<first + count` lies inside the storage's initialized glyphs (a run is
        // all of them or its piece of a joined buffer, `HarfBuzzShaping+Joined`).
        GlyphSlice(UnsafeBufferPointer(start: UnsafePointer(glyphs.withUnsafeMutablePointerToElements { $0 }) + first, count: count))
    }
}

/// Shaped glyphs read in place: a line's piece of a run (`LinePiece.glyphs`), copied with the
/// piece without counting a reference to the storage it reads.
///
/// SAFETY: a slice never outlives the `ShapedGlyphs` it reads, by the shaped paragraph's
/// lifetime rule (it keeps every run it shaped, and every run shaped again for a line, in the
/// layout's scratch, while pieces are used); the storage is never written after it is made, so
/// reads from any number of slices at once are sound. Indices are checked in debug builds only,
/// as a buffer's are: every index comes from the slice's own range.
struct GlyphSlice: RandomAccessCollection {
    private let buffer: UnsafeBufferPointer<ShapedGlyph>

    fileprivate init(_ buffer: UnsafeBufferPointer<ShapedGlyph>) { self.buffer = buffer }

    var startIndex: Int { 0 }
    var endIndex: Int { buffer.count }

    @inline(__always)
    subscript(index: Int) -> ShapedGlyph { buffer[index] }

    /// The glyphs at `range`, as a slice whose indices start at 0 again. SAFETY: checked to lie
    /// inside this slice, of the same storage.
    func extracting(_ range: Range<Int>) -> GlyphSlice {
        precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count)
        return GlyphSlice(UnsafeBufferPointer(rebasing: buffer[range]))
    }

    /// The glyphs' advances added up (font units): a piece's length along its line. Read through
    /// the slice's own indices: a loop over `buffer` compiled to more instructions a piece (counted).
    var totalAdvance: Int32 {
        var total: Int32 = 0
        for glyph in self { total &+= glyph.advance }
        return total
    }

    /// Adds each glyph's advance, times `scale`, to `widths` at its cluster plus `offset`: a
    /// run's share of a paragraph's per-unit widths (`ShapedParagraph.measure`). Written without
    /// a check per glyph, so the loop unrolls (checked, it did not; docs/design.md).
    /// SAFETY: every cluster lies in the run, below `units` (`FaceShaping.shape` promises it),
    /// and the run's units lie inside `widths` at `offset` (checked once here).
    func addAdvances(scale: Double, at offset: Int, of units: Int, into widths: inout MutableSpan<Double>) {
        precondition(offset >= 0 && units >= 0 && offset + units <= widths.count)
        widths.withUnsafeMutableBufferPointer { widths in
            for glyph in buffer {
                assert(glyph.cluster >= 0 && Int(glyph.cluster) < units, "a cluster outside its run")
                widths[Int(glyph.cluster) &+ offset] += Double(glyph.advance) * scale
            }
        }
    }

    /// Copies (an `Array` made from the slice) read the glyphs as one block. SAFETY: the buffer
    /// is lent for the call only.
    func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<ShapedGlyph>) throws -> R) rethrows -> R? {
        try body(buffer)
    }
}

extension Hasher {
    /// The bytes of `units` hashed as one block, as the shaping cache's keys hash a run's text
    /// with its context on every look-up: combined four units at a time through a span, each
    /// look-up cost more. SAFETY: the bytes are lent for the call only.
    @inline(__always)
    mutating func combine(units: ArraySlice<UInt16>) {
        units.withUnsafeBytes { combine(bytes: $0) }
    }
}
