import CHarfBuzz
import Synchronization

/// A loaded face's shaping: HarfBuzz's own OpenType functions on an immutable HarfBuzz font at
/// units-per-em, which HarfBuzz documents safe to shape with from any thread.
// @unchecked Sendable: the one stored pointer is a HarfBuzz font made immutable before it is kept.
final class HarfBuzzShaping: FaceShaping, @unchecked Sendable {
    /// The HarfBuzz font; destroyed with this value (`Font.hbFont` is the same pointer, valid
    /// while its font lives).
    let font: OpaquePointer

    /// HarfBuzz shaping calls made by this process, for the benchmark's passes-per-caption figure.
    static let calls = Atomic<UInt64>(0)

    /// Takes `font`'s reference, made immutable here.
    init(_ font: OpaquePointer) {
        hb_font_make_immutable(font)
        self.font = font
    }

    deinit { hb_font_destroy(font) }

    func shape(_ units: UnsafeBufferPointer<UInt16>, range: Range<Int>, context: Range<Int>, rtl: Bool, upright: Bool,
               script: Script, style: ShapingStyle, buffer: ShapingBuffer) -> ShapedGlyphs {
        buffer.withBuffer { buffer in
            hb_buffer_clear_contents(buffer)
            Self.add(range, of: units, context: context, to: buffer)
            shapeBuffer(buffer, direction: upright ? HB_DIRECTION_TTB : rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR,
                        script: script, style: style)
            var count: UInt32 = 0
            let infos = hb_buffer_get_glyph_infos(buffer, &count)!
            let positions = hb_buffer_get_glyph_positions(buffer, &count)!
            // HarfBuzz counts clusters from the context's start; runs count from their own.
            return Self.glyphs(infos, positions, 0..<Int(count), clusterOffset: Int32(context.lowerBound - range.lowerBound),
                               upright: upright)
        }
    }

    @inline(__always)
    func nominalGlyph(_ scalar: UInt32) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar, &glyph) != 0 ? glyph : nil
    }

    func inkExtents(_ glyph: UInt32) -> (x: Int32, y: Int32, width: Int32, height: Int32) {
        var extents = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(font, glyph, &extents) != 0 else { return (0, 0, 0, 0) }
        return (extents.x_bearing, extents.y_bearing, extents.width, extents.height)
    }

    func drawOutline(of glyph: UInt32, into sink: any OutlineSink) {
        var sink = sink
        // The sink's existential on the stack is the callbacks' data: nothing allocated a glyph.
        withUnsafeMutablePointer(to: &sink) { hb_font_get_glyph_shape(font, glyph, Self.drawFunctions, $0) }
    }

    /// HarfBuzz draw functions feeding the `OutlineSink` their data points to; made once,
    /// immutable, shared by threads.
    nonisolated(unsafe) static let drawFunctions: OpaquePointer = {
        let funcs = hb_draw_funcs_create()!
        func sink(_ data: UnsafeMutableRawPointer?) -> any OutlineSink { data!.assumingMemoryBound(to: (any OutlineSink).self).pointee }
        hb_draw_funcs_set_move_to_func(funcs, { _, data, _, x, y, _ in sink(data).move(to: x, y) }, nil, nil)
        hb_draw_funcs_set_line_to_func(funcs, { _, data, _, x, y, _ in sink(data).line(to: x, y) }, nil, nil)
        hb_draw_funcs_set_quadratic_to_func(funcs, { _, data, _, cx, cy, x, y, _ in sink(data).quad(cx, cy, to: x, y) }, nil, nil)
        hb_draw_funcs_set_cubic_to_func(funcs, { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
            sink(data).cubic(c1x, c1y, c2x, c2y, to: x, y)
        }, nil, nil)
        hb_draw_funcs_set_close_path_func(funcs, { _, data, _, _ in sink(data).close() }, nil, nil)
        hb_draw_funcs_make_immutable(funcs)
        return funcs
    }()

    /// Appends `range` of `units` to `buffer`, with the text of `context` around it as
    /// HarfBuzz's context; HarfBuzz numbers its clusters from the context's start.
    @inline(__always)
    static func add(_ range: Range<Int>, of units: UnsafeBufferPointer<UInt16>, context: Range<Int>, to buffer: OpaquePointer) {
        hb_buffer_add_utf16(buffer, units.baseAddress! + context.lowerBound, Int32(context.count),
                            UInt32(range.lowerBound - context.lowerBound), Int32(range.count))
    }

    /// Shapes the text `buffer` holds in `direction`, `script` and `style`'s language and features.
    @inline(__always)
    func shapeBuffer(_ buffer: OpaquePointer, direction: hb_direction_t, script: Script, style: ShapingStyle) {
        Self.calls.wrappingAdd(1, ordering: .relaxed)
        hb_buffer_set_direction(buffer, direction)
        hb_buffer_set_script(buffer, hb_script_t(rawValue: script.tag))
        if let language = style.language { hb_buffer_set_language(buffer, language) }
        style.features.withUnsafeBufferPointer { features in
            hb_shape(font, buffer, features.baseAddress, UInt32(features.count))
        }
    }

    /// hb.h defines hb_glyph_info_get_glyph_flags as a macro reading the info's mask; Swift
    /// sees only the exported function, a call per glyph, so the macro is restated here.
    static let unsafeToBreak = HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue & HB_GLYPH_FLAG_DEFINED.rawValue
    /// The flags a glyph keeps (`GlyphFlags`, HarfBuzz's own bits): unsafe to break and to concatenate.
    static let keptFlags = (HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue | HB_GLYPH_FLAG_UNSAFE_TO_CONCAT.rawValue) & HB_GLYPH_FLAG_DEFINED.rawValue

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
        let kept = Self.keptFlags
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
                    flags: GlyphFlags(rawValue: UInt8(truncatingIfNeeded: info.mask & kept))))
            }
        } else {
            for i in 0..<span.count {
                let info = infos[i]
                let position = positions[i]
                (out + i).initialize(to: ShapedGlyph(
                    id: info.codepoint, cluster: Int32(bitPattern: info.cluster) &+ offset,
                    advance: position.x_advance, xOffset: position.x_offset, yOffset: position.y_offset,
                    flags: GlyphFlags(rawValue: UInt8(truncatingIfNeeded: info.mask & kept))))
            }
        }
    }
}
