/// A style as the shaping library wants it: language and features, and the library's own form
/// of them made once per layout (`ShapingLibrary`; nil where the registry names no library).
/// A class: each shaping call takes it, and a reference is one count where the struct's
/// strings and arrays were several.
package final class ShapingStyle {
    /// The style's BCP 47 language; empty for none.
    package let language: String
    package let features: [FontFeature]
    /// The library's form of both, made when the style is (`ShapingLibrary.prepare`).
    package let prepared: AnyObject?
    let key: ShapingCache.StyleKey

    convenience init(_ style: TextStyle, library: (any ShapingLibrary)?, user: UInt32? = nil) {
        self.init(language: style.language, features: style.features, library: library, user: user)
    }

    /// A style of these language and features (also a style's variant, `ResolvedStyles.shaping(_:with:)`).
    init(language: String, features: [FontFeature], library: (any ShapingLibrary)?, user: UInt32?) {
        self.language = language
        self.features = features
        prepared = library?.prepare(language: language, features: features, user: user)
        key = ShapingCache.StyleKey(language: language, features: features)
    }
}

/// Shapes text with each face's own shaping (`FaceShaping`), through the shaping cache, at
/// units-per-em.
///
/// Shaping at units-per-em makes every advance exactly proportional to the font size, so
/// one shaping result serves every size (the Type Mode fit depends on it).
struct Shaper {
    let cache: ShapingCache?
    /// The context's scratch's shaping state: one thread at a time shapes with it.
    let buffer: ShapingScratch
    /// Items that shape alike go to HarfBuzz together (`shapeJoined`); off only in the tests
    /// that hold the joined shaping to the item-by-item one.
    var joinsRuns = true

    /// Shapes `range` of `units`, letting HarfBuzz see the text of `context` around it
    /// (Arabic joining and other contextual forms look across the run's edges).
    /// `upright` shapes top to bottom (vertical text): HarfBuzz applies `vert` and `vrt2` and
    /// gives vertical advances; the glyphs keep the line's axis in `advance` and `xOffset` (see
    /// `ShapedGlyph`).
    /// `lookUp: false` skips the cache's look-up (the caller looked already) but still stores.
    func shape(_ units: ContiguousArray<UInt16>, range: Range<Int>, context: Range<Int>, font: Font,
               rtl: Bool, upright: Bool = false, script: Script, style: ShapingStyle, lookUp: Bool = true) -> ShapedRun {
        // Without a cache no key is made: an optional key built, tested and dropped is work
        // every run paid.
        guard let cache, range.count <= ShapingCache.maxRunLength else {
            return ShapedRun(range: range, glyphs: harfBuzz(units, range: range, context: context, font: font, rtl: rtl,
                                                            upright: upright, script: script, style: style))
        }
        let key = Self.key(units, range: range, context: context, font: font, rtl: rtl, upright: upright, script: script, style: style)
        if lookUp && !buffer.producesConcatFlags, let hit = cache.lookup(key) { return hit.run(range) }
        let run = ShapedRun(range: range, glyphs: harfBuzz(units, range: range, context: context, font: font, rtl: rtl,
                                                           upright: upright, script: script, style: style))
        cache.store(key, run)
        return run
    }

    /// The run the cache holds for this text, nil on a miss, without a cache or past its length.
    func cached(_ units: ContiguousArray<UInt16>, range: Range<Int>, context: Range<Int>, font: Font, rtl: Bool, upright: Bool,
                script: Script, style: ShapingStyle) -> ShapedRun? {
        guard let cache, range.count <= ShapingCache.maxRunLength, !buffer.producesConcatFlags else { return nil }
        return cache.lookup(Self.key(units, range: range, context: context, font: font, rtl: rtl, upright: upright, script: script,
                                     style: style))?.run(range)
    }

    /// Keeps `run` (a joined piece) in the cache, under the key its text shaped alone would have:
    /// as its slice of the group's glyphs while it is at least half of them, else as a copy of
    /// its own, so that no entry holds more than twice its glyphs alive (a small piece's entry
    /// outliving its group would hold the whole group).
    func keep(_ run: ShapedRun, units: ContiguousArray<UInt16>, context: Range<Int>, font: Font, rtl: Bool, upright: Bool,
              script: Script, style: ShapingStyle) {
        guard let cache, run.range.count <= ShapingCache.maxRunLength else { return }
        let kept = run.count * 2 >= run.glyphs.header ? run : ShapedRun(range: run.range, glyphs: ShapedGlyphs.make(run.slice))
        cache.store(Self.key(units, range: run.range, context: context, font: font, rtl: rtl, upright: upright, script: script,
                             style: style), kept)
    }

    /// The cache's key for a run: what `shape`, `cached` and `keep` all look up or store under.
    @inline(__always)
    private static func key(_ units: ContiguousArray<UInt16>, range: Range<Int>, context: Range<Int>, font: Font, rtl: Bool,
                            upright: Bool, script: Script, style: ShapingStyle) -> ShapingCache.Key {
        ShapingCache.Key(units, range: range, context: context, font: font.serial, rtl: rtl, upright: upright, script: script.tag,
                         style: style.key)
    }

    /// The face's own shaping (`FaceShaping`): HarfBuzz for a loaded face.
    @inline(__always)
    private func harfBuzz(_ units: ContiguousArray<UInt16>, range: Range<Int>, context: Range<Int>, font: Font, rtl: Bool,
                          upright: Bool, script: Script, style: ShapingStyle) -> ShapedGlyphs {
        font.shaping.shape(units.span, range: range, context: context, rtl: rtl, upright: upright, script: script, style: style,
                           buffer: buffer)
    }
}
