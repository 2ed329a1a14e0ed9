import CHarfBuzz
import Synchronization

/// The HarfBuzz buffer a layout shapes with: one per layout scratch, so it goes from layout to
/// layout with the scratch (a buffer made per run costs more than shaping a word, and a pool
/// shared by every thread cost a lock and an array's push and pop per run). One thread at a
/// time uses it.
package final class ShapingBuffer {
    private var buffer = hb_buffer_create()!

    /// HarfBuzz shaping calls made by this process, for the benchmark's passes-per-caption figure.
    package static let calls = Atomic<UInt64>(0)

    package init() {}

    /// HarfBuzz also marks the glyphs unsafe to concatenate (it always marks those unsafe to
    /// break): set for a request that asks for glyph flags, whose runs are then shaped afresh,
    /// never taken from the cache (runs there were shaped without). Off for every other: the
    /// marking costs every text a few percent.
    package var producesConcatFlags = false {
        didSet { setFlags() }
    }

    private func setFlags() {
        hb_buffer_set_flags(buffer, producesConcatFlags ? HB_BUFFER_FLAG_PRODUCE_UNSAFE_TO_CONCAT : HB_BUFFER_FLAG_DEFAULT)
    }

    /// Longest run, in glyphs, whose buffer is kept for the next: a longer one's memory goes.
    static let maxKeptLength: UInt32 = 4096

    /// Empties the buffer, appends `pieces` of `units` (in text order) with the text of
    /// `context` around them as HarfBuzz's context, shapes them with `font` and hands HarfBuzz's
    /// glyphs to `body`, whose view of them is valid only inside it. HarfBuzz numbers clusters
    /// from the context's start.
    package func shape(_ units: UnsafeBufferPointer<UInt16>, pieces: UnsafeBufferPointer<Range<Int>>, context: Range<Int>,
                       font: OpaquePointer, direction: ShapingDirection, script: UInt32, language: ShapingLanguage?,
                       features: ShapingFeatures, _ body: (BufferGlyphs) -> Void) {
        defer {
            if hb_buffer_get_length(buffer) > Self.maxKeptLength {
                hb_buffer_destroy(buffer)
                buffer = hb_buffer_create()!
                if producesConcatFlags { setFlags() }
            }
        }
        hb_buffer_clear_contents(buffer)
        for piece in pieces {
            hb_buffer_add_utf16(buffer, units.baseAddress! + context.lowerBound, Int32(context.count),
                                UInt32(piece.lowerBound - context.lowerBound), Int32(piece.count))
        }
        Self.calls.wrappingAdd(1, ordering: .relaxed)
        hb_buffer_set_direction(buffer, direction.harfBuzz)
        hb_buffer_set_script(buffer, hb_script_t(rawValue: script))
        if let language { hb_buffer_set_language(buffer, language.language) }
        features.list.withUnsafeBufferPointer { features in
            hb_shape(font, buffer, features.baseAddress, UInt32(features.count))
        }
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)!
        let positions = hb_buffer_get_glyph_positions(buffer, &count)!
        body(BufferGlyphs(infos: infos, positions: positions, count: Int(count)))
    }

    deinit { hb_buffer_destroy(buffer) }
}

/// Which way HarfBuzz shapes a run.
package enum ShapingDirection {
    case leftToRight, rightToLeft, topToBottom

    var harfBuzz: hb_direction_t {
        switch self {
        case .leftToRight: HB_DIRECTION_LTR
        case .rightToLeft: HB_DIRECTION_RTL
        case .topToBottom: HB_DIRECTION_TTB
        }
    }
}

/// A BCP 47 language as HarfBuzz holds it (interned once per layout, not per run).
package struct ShapingLanguage {
    let language: hb_language_t

    /// nil for the empty string: HarfBuzz then guesses nothing. Interned for good: a style's
    /// language goes through `ShapingSettings`, which bounds what is interned.
    package init?(_ code: String) {
        guard !code.isEmpty, let language = hb_language_from_string(code, -1) else { return nil }
        self.language = language
    }

    /// A language interned before, from its pointer's bits; nil for 0.
    init?(bits: UInt) {
        guard let language = hb_language_t(bitPattern: bits) else { return nil }
        self.language = language
    }
}

/// OpenType features as HarfBuzz takes them, over the whole run.
package struct ShapingFeatures {
    let list: [hb_feature_t]

    /// Each `(tag, value)`; a tag that is not four bytes is left out.
    package init(_ features: [(tag: String, value: UInt32)]) {
        list = features.compactMap { feature in
            guard feature.tag.utf8.count == 4 else { return nil }
            var made = hb_feature_t()
            made.tag = hb_tag_from_string(feature.tag, 4)
            made.value = feature.value
            made.start = 0
            made.end = UInt32.max
            return made
        }
    }
}

/// HarfBuzz's glyphs in its buffer, read in place: valid only inside `ShapingBuffer.shape`'s body.
///
/// (The engine read these through raw offsets while it sat above this adapter and could not
/// name a C type in an inlined body; the adapter now writes the engine's glyphs itself, so it
/// reads HarfBuzz's structs as they are.)
package struct BufferGlyphs {
    let infos: UnsafeMutablePointer<hb_glyph_info_t>
    let positions: UnsafeMutablePointer<hb_glyph_position_t>
    package let count: Int

    init(infos: UnsafeMutablePointer<hb_glyph_info_t>, positions: UnsafeMutablePointer<hb_glyph_position_t>, count: Int) {
        self.infos = infos
        self.positions = positions
        self.count = count
    }

    // SAFETY: `i` is below `count` (the callers' loops) and the buffer is not touched until
    // `shape`'s body returns.
    @inline(__always) package func id(_ i: Int) -> UInt32 { infos[i].codepoint }
    /// HarfBuzz's glyph flags and its other bits (`GlyphMask`).
    @inline(__always) package func mask(_ i: Int) -> UInt32 { infos[i].mask }
    /// Counted from the context's start.
    @inline(__always) package func cluster(_ i: Int) -> UInt32 { infos[i].cluster }
    @inline(__always) package func xAdvance(_ i: Int) -> Int32 { positions[i].x_advance }
    @inline(__always) package func yAdvance(_ i: Int) -> Int32 { positions[i].y_advance }
    @inline(__always) package func xOffset(_ i: Int) -> Int32 { positions[i].x_offset }
    @inline(__always) package func yOffset(_ i: Int) -> Int32 { positions[i].y_offset }
}

/// The glyph flags in a glyph's mask, HarfBuzz's values (hb-buffer.h), restated as constants
/// (`matchesHarfBuzz` holds them to HarfBuzz's, tested), the engine's `GlyphFlags` bits too.
package enum GlyphMask {
    /// Unsafe to break: the text may not be cut before this glyph's cluster and each side shaped alone.
    package static var unsafeToBreak: UInt32 { 0x1 }
    /// The flags a glyph keeps: unsafe to break (0x1) and unsafe to concatenate (0x2).
    package static var keptFlags: UInt32 { 0x3 }

    /// True when the values above are HarfBuzz's own (a test asks).
    package static var matchesHarfBuzz: Bool {
        unsafeToBreak == HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue
            && keptFlags == HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue | HB_GLYPH_FLAG_UNSAFE_TO_CONCAT.rawValue
    }
}
