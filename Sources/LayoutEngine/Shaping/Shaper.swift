import CHarfBuzz
import Synchronization

/// A style as HarfBuzz wants it: language and features converted once per layout.
/// A class: each shaping call takes it, and a reference is one count where the struct's
/// strings and arrays were several.
final class ShapingStyle {
    let language: hb_language_t?
    let features: [hb_feature_t]
    let key: ShapingCache.StyleKey

    init(_ style: TextStyle) {
        language = style.language.isEmpty ? nil : hb_language_from_string(style.language, -1)
        features = style.features.compactMap { feature in
            var hb = hb_feature_t()
            guard feature.tag.utf8.count == 4 else { return nil }
            hb.tag = hb_tag_from_string(feature.tag, 4)
            hb.value = feature.value
            hb.start = 0
            hb.end = UInt32.max
            return hb
        }
        key = ShapingCache.StyleKey(language: style.language, features: style.features)
    }
}

/// Shapes text with HarfBuzz's own OpenType functions at units-per-em.
///
/// Shaping at units-per-em makes every advance exactly proportional to the font size, so
/// one shaping result serves every size (the Type Mode fit depends on it).
struct Shaper {
    let cache: ShapingCache?
    /// The context's scratch's buffer: one thread at a time shapes with it.
    let buffer: ShapingBuffer
    /// Items that shape alike go to HarfBuzz together (`shapeJoined`); off only in the tests
    /// that hold the joined shaping to the item-by-item one.
    var joinsRuns = true

    /// HarfBuzz shaping calls made by this process, for the benchmark's passes-per-caption figure.
    static let harfBuzzCalls = Atomic<UInt64>(0)

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
        if lookUp, let hit = cache.lookup(key) { return hit.run(range) }
        let run = ShapedRun(range: range, glyphs: harfBuzz(units, range: range, context: context, font: font, rtl: rtl,
                                                           upright: upright, script: script, style: style))
        cache.store(key, run)
        return run
    }

    /// The run the cache holds for this text, nil on a miss, without a cache or past its length.
    func cached(_ units: ContiguousArray<UInt16>, range: Range<Int>, context: Range<Int>, font: Font, rtl: Bool, upright: Bool,
                script: Script, style: ShapingStyle) -> ShapedRun? {
        guard let cache, range.count <= ShapingCache.maxRunLength else { return nil }
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
        let kept = run.count * 2 >= run.glyphs.header ? run : ShapedRun(range: run.range, glyphs: ShapedGlyphs.make(run.pointer))
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

    @inline(__always)
    private func harfBuzz(_ units: ContiguousArray<UInt16>, range: Range<Int>, context: Range<Int>, font: Font, rtl: Bool,
                          upright: Bool, script: Script, style: ShapingStyle) -> ShapedGlyphs {
        buffer.withBuffer { hbBuffer in
            units.withUnsafeBufferPointer { units in
                Self.runHarfBuzz(hbBuffer, units, range: range, context: context, font: font, rtl: rtl, upright: upright,
                                 script: script, style: style)
            }
        }
    }

    private static func runHarfBuzz(_ buffer: OpaquePointer, _ units: UnsafeBufferPointer<UInt16>, range: Range<Int>,
                                    context: Range<Int>, font: Font, rtl: Bool, upright: Bool, script: Script,
                                    style: ShapingStyle) -> ShapedGlyphs {
        hb_buffer_clear_contents(buffer)
        add(range, of: units, context: context, to: buffer)
        shapeBuffer(buffer, font: font, direction: upright ? HB_DIRECTION_TTB : rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR,
                    script: script, style: style)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)!
        let positions = hb_buffer_get_glyph_positions(buffer, &count)!
        // HarfBuzz counts clusters from the context's start; runs count from their own.
        return glyphs(infos, positions, 0..<Int(count), clusterOffset: Int32(context.lowerBound - range.lowerBound),
                      upright: upright)
    }

    /// Appends `range` of `units` to `buffer`, with the text of `context` around it as
    /// HarfBuzz's context; HarfBuzz numbers its clusters from the context's start.
    @inline(__always)
    static func add(_ range: Range<Int>, of units: UnsafeBufferPointer<UInt16>, context: Range<Int>, to buffer: OpaquePointer) {
        hb_buffer_add_utf16(buffer, units.baseAddress! + context.lowerBound, Int32(context.count),
                            UInt32(range.lowerBound - context.lowerBound), Int32(range.count))
    }

    /// Shapes the text `buffer` holds in `direction`, `script` and `style`'s language and features.
    @inline(__always)
    static func shapeBuffer(_ buffer: OpaquePointer, font: Font, direction: hb_direction_t, script: Script,
                            style: ShapingStyle) {
        harfBuzzCalls.wrappingAdd(1, ordering: .relaxed)
        hb_buffer_set_direction(buffer, direction)
        hb_buffer_set_script(buffer, hb_script_t(rawValue: script.tag))
        if let language = style.language { hb_buffer_set_language(buffer, language) }
        style.features.withUnsafeBufferPointer { features in
            hb_shape(font.hbFont, buffer, features.baseAddress, UInt32(features.count))
        }
    }

    /// hb.h defines hb_glyph_info_get_glyph_flags as a macro reading the info's mask; Swift
    /// sees only the exported function, a call per glyph, so the macro is restated here.
    static let unsafeToBreak = HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue & HB_GLYPH_FLAG_DEFINED.rawValue

    /// HarfBuzz's glyphs `span` of its buffer as a run's, clusters moved by `clusterOffset`.
    @inline(__always)
    static func glyphs(_ infos: UnsafeMutablePointer<hb_glyph_info_t>, _ positions: UnsafeMutablePointer<hb_glyph_position_t>,
                       _ span: Range<Int>, clusterOffset offset: Int32, upright: Bool) -> ShapedGlyphs {
        ShapedGlyphs.make(count: span.count) { glyphs in
            convert(infos, positions, span, clusterOffset: offset, upright: upright, into: glyphs.baseAddress!)
        }
    }

    /// Initializes `span.count` glyphs at `out` from HarfBuzz's glyphs `span`, clusters moved by
    /// `clusterOffset`.
    @inline(__always)
    static func convert(_ infos: UnsafeMutablePointer<hb_glyph_info_t>, _ positions: UnsafeMutablePointer<hb_glyph_position_t>,
                        _ span: Range<Int>, clusterOffset offset: Int32, upright: Bool, into out: UnsafeMutablePointer<ShapedGlyph>) {
        let unsafeToBreak = Self.unsafeToBreak
        let infos = infos + span.lowerBound, positions = positions + span.lowerBound
        // Two loops, the direction tested once, not per glyph.
        // Clusters add and advances negate with wrapping: both clusters are offsets into a text far
        // shorter than Int32's range, and HarfBuzz's advances are font units, far from its ends
        // (checked, each cost a test and a branch a glyph).
        if upright {
            for i in 0..<span.count {
                let info = infos[i]
                let position = positions[i]
                // Top to bottom, HarfBuzz's y grows upward: the line's axis is −y, the cross axis x
                // (its offsets lead from the pen to the glyph's horizontal origin).
                (out + i).initialize(to: ShapedGlyph(
                    id: info.codepoint, cluster: Int32(bitPattern: info.cluster) &+ offset,
                    advance: 0 &- position.y_advance, xOffset: 0 &- position.y_offset, yOffset: position.x_offset,
                    unsafeToBreak: info.mask & unsafeToBreak != 0))
            }
        } else {
            for i in 0..<span.count {
                let info = infos[i]
                let position = positions[i]
                (out + i).initialize(to: ShapedGlyph(
                    id: info.codepoint, cluster: Int32(bitPattern: info.cluster) &+ offset,
                    advance: position.x_advance, xOffset: position.x_offset, yOffset: position.y_offset,
                    unsafeToBreak: info.mask & unsafeToBreak != 0))
            }
        }
    }
}

/// The HarfBuzz buffer a layout shapes with: one per `LayoutScratch`, so it goes from layout
/// to layout with the scratch (a buffer made per run costs more than shaping a word, and a pool
/// shared by every thread cost a lock and an array's push and pop per run).
final class ShapingBuffer {
    private var buffer = hb_buffer_create()!

    /// Longest run, in glyphs, whose buffer is kept for the next: a longer one's memory goes.
    static let maxKeptLength: UInt32 = 4096

    func withBuffer<T>(_ body: (OpaquePointer) -> T) -> T {
        defer {
            if hb_buffer_get_length(buffer) > Self.maxKeptLength {
                hb_buffer_destroy(buffer)
                buffer = hb_buffer_create()!
            }
        }
        return body(buffer)
    }

    deinit { hb_buffer_destroy(buffer) }
}
