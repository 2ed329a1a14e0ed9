/// What a shaping library keeps per layout scratch, for one thread at a time: HarfBuzz's buffer,
/// made by the fonts adapter on its first run (a buffer made per run costs more than shaping a
/// word) and kept with the scratch from layout to layout.
package final class ShapingScratch {
    /// The library's own state, made and read only by the library that shapes with it (the fonts
    /// adapter's `ShapingBuffer`); nil until it first shapes.
    package var libraryState: AnyObject?

    /// The library also marks the glyphs unsafe to concatenate (it always marks those unsafe to
    /// break): set for a request that asks for glyph flags, whose runs are then shaped afresh,
    /// never taken from the cache (runs there were shaped without).
    package var producesConcatFlags = false

    package init() {}
}

/// What a shaping library makes once per style, so that each run shaped reads it ready: HarfBuzz's
/// interned language and its feature list. A registry takes it from its faces
/// (`FaceShaping.library`, `FontRegistry.shapingLibrary`).
package protocol ShapingLibrary: Sendable {
    /// The library's form of a style's language (BCP 47; empty for none) and features, for a
    /// request of `user` (what the library keeps of them counts in that user's share).
    func prepare(language: String, features: [FontFeature], user: UInt32?) -> AnyObject
}
