import LayoutEngine
import CCairo
import Foundation
import Synchronization

/// The render stage: draws a scene with Cairo into PNG, SVG or PDF bytes.
///
/// Glyphs are drawn from FreeType faces of the same files the layout used (colour emoji
/// included, through FT_LOAD_COLOR). FreeType faces are not thread-safe, so the renderer owns
/// its faces and draws one scene at a time; layout never waits on it.
// @unchecked Sendable: the FreeType library and faces it owns are used only under `lock`, one
// picture at a time (FreeType faces are not thread-safe).
public final class Renderer: @unchecked Sendable {
    let fonts: FontRegistry
    private let lock = NSLock()
    /// Cairo font faces by font id, made on first use (`DrawingFaces` says who frees what).
    private var faces: [UInt32: OpaquePointer] = [:]
    /// Fonts FreeType refused: drawn from HarfBuzz's outlines.
    private var unopened: Set<UInt32> = []

    /// Cairo's largest surface side, in device units.
    public static let maxSide = 32_767
    /// The most pixels the pictures a request brings may have in all (256 MB at 4 bytes a pixel).
    public static let maxInputPixels = 64_000_000
    /// The default for `maxPixels`: a 4,096 x 4,096 picture, 64 MB in memory. A picture costs by
    /// its pixels, not by the bytes that ask for one: a 25-byte request once drew 62 million.
    public static let defaultMaxPixels = 1 << 24
    /// The most pixels a picture this renderer draws may have (`max-picture-pixels`).
    public let maxPixels: Int

    public init(fonts: FontRegistry, maxPixels: Int = Renderer.defaultMaxPixels) {
        self.fonts = fonts
        self.maxPixels = maxPixels
    }

    deinit {
        // Only this renderer's references: Cairo frees each face when its caches let go too.
        for face in faces.values { cairo_font_face_destroy(face) }
    }

    /// The scene drawn at `scale` device pixels per point (PNG); SVG and PDF are drawn in
    /// points whatever the scale, so their size is the size the reply reports (at the old
    /// default scale of 2 they came out twice it).
    public func render(_ scene: RenderScene, format: RenderFormat, scale: Double, budget: WorkBudget = .unlimited) throws -> [UInt8] {
        try draw(size: scene.frame?.size ?? scene.size, format: format, scale: scale, budget: budget) { cr, raster throws(LayoutError) in
            if let frame = scene.frame {
                drawFill(frame, cr)
                placeBlock(frame, blockSize: scene.size, cr)
                // Masks drawn at lower resolution (glow, blurred shadows) keep the scale they would
                // have had, times the pinch's.
                try draw(scene, cr, raster: raster.map { $0 * frame.scale }, budget: budget)
            } else {
                try draw(scene, cr, raster: raster, budget: budget)
            }
        }
    }

    /// A picture of `size` points: `body` draws it on a Cairo context scaled to points (`raster`
    /// is the PNG's device scale, nil for SVG and PDF), one picture at a time.
    func draw(size: Size, format: RenderFormat, scale requestedScale: Double, budget: WorkBudget,
              _ body: (OpaquePointer, Double?) throws(LayoutError) -> Void) throws -> [UInt8] {
        guard requestedScale.isFinite, requestedScale > 0, requestedScale <= 8 else {
            throw LayoutError(.invalidArgument, "scale must be in (0, 8], got \(requestedScale)", field: "scale")
        }
        let scale = format == .png ? requestedScale : 1
        let width = size.width * scale, height = size.height * scale
        let pixels = "\(Int(saturating: width.rounded(.up))) x \(Int(saturating: height.rounded(.up)))"
        // Cairo draws at most 32,767 device units a side; past that it fails with INVALID_SIZE.
        guard width <= Double(Self.maxSide), height <= Double(Self.maxSide) else {
            throw LayoutError(.invalidArgument, "a \(pixels) picture has a side over \(Self.maxSide) pixels; "
                              + "lower scale or the layout's size", field: "scale")
        }
        guard width >= 1, height >= 1 else {
            throw LayoutError(.invalidArgument, "a \(pixels) picture is empty", field: "scale")
        }
        guard width * height <= Double(maxPixels) else {
            throw LayoutError(.resourceExhausted, "a \(pixels) picture is over this server's \(maxPixels) pixels "
                              + "(max-picture-pixels); lower scale, margin or the layout's size", field: "scale")
        }
        try budget.check()
        lock.lock()
        defer { lock.unlock() }
        // Encoding looks at the budget as it writes: a large PNG's compression is most of its cost.
        let sink = ByteSink(budget: budget)
        let context = Unmanaged.passUnretained(sink).toOpaque()
        let surface: OpaquePointer
        switch format {
        case .png: surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(saturating: width.rounded(.up)), Int32(saturating: height.rounded(.up)))
        case .svg: surface = cairo_svg_surface_create_for_stream(ByteSink.write, context, width, height)
        case .pdf: surface = cairo_pdf_surface_create_for_stream(ByteSink.write, context, width, height)
        }
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        cairo_scale(cr, scale, scale)
        // The context goes before the surface is written, whether drawing finished or stopped.
        let drawn = Result { () throws(LayoutError) in try body(cr, format == .png ? scale : nil) }
        cairo_destroy(cr)
        try drawn.get()
        if format == .png {
            cairo_surface_write_to_png_stream(surface, ByteSink.write, context)
        } else {
            cairo_surface_finish(surface)
        }
        if let stopped = sink.stopped { throw stopped }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, !sink.bytes.isEmpty else {
            throw LayoutError(.internal, "cairo failed: \(String(cString: cairo_status_to_string(cairo_surface_status(surface))))", field: "")
        }
        return sink.bytes
    }

    /// `raster` is the device scale of a PNG (nil for SVG and PDF, which stay vector).
    private func draw(_ scene: RenderScene, _ cr: OpaquePointer, raster: Double?, budget: WorkBudget) throws(LayoutError) {
        if let canvas = scene.canvas, scene.frame == nil {
            setColor(cr, canvas)
            cairo_paint(cr)
        }
        cairo_translate(cr, scene.origin.x, scene.origin.y)
        for background in scene.backgrounds { try drawBackground(background, scene, cr, raster: raster, budget: budget) }
        try budget.check()
        try drawAttachments(scene.attachments, cr, budget: budget)
        drawDecorations(scene, cr, behindText: true)
        if let glow = scene.glowColor, scene.glowRadius > 0 {
            if let raster {
                try drawGlowAtQuarterResolution(scene, glow: glow, cr: cr, raster: raster, budget: budget)
            } else {
                try strokeGlow(scene, glow: glow, cr, budget: budget)
            }
        }
        try drawShadows(scene, cr, raster: raster, budget: budget)
        try drawGlows(scene, cr, raster: raster, budget: budget)
        var current = -1  // the paint whose colour is set
        for (index, run) in scene.runs.enumerated() {
            if index % 256 == 0 { try budget.check() }
            if scene.paints.indices.contains(run.paint), let effect = scene.paints[run.paint].effect {
                drawEffect(effect, run, textColor: scene.paints[run.paint].color ?? scene.textColor, angles: scene.angles(of: index), cr)
                current = -1
                continue
            }
            if isFilled(run, scene) { continue }
            if run.paint != current {
                current = run.paint
                setColor(cr, (scene.paints.indices.contains(run.paint) ? scene.paints[run.paint].color : nil) ?? scene.textColor)
            }
            showGlyphs(cr, run, angles: scene.angles(of: index))
        }
        try drawFills(scene, cr, budget: budget)
        drawDecorations(scene, cr, behindText: false)
    }

    /// Cairo has no blur: the glow is the glyph outlines stroked wide to narrow, each pass faint,
    /// so the alpha builds up toward the glyph like a blurred halo.
    private func strokeGlow(_ scene: RenderScene, glow: Color, _ cr: OpaquePointer, budget: WorkBudget) throws(LayoutError) {
        let passes = 20
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        for pass in 0..<passes {
            let width = scene.glowRadius * 2 * Double(passes - pass) / Double(passes)
            cairo_set_line_width(cr, width)
            setColor(cr, Color(red: glow.red, green: glow.green, blue: glow.blue, alpha: glow.alpha / Double(passes) * 1.6))
            for (index, run) in scene.runs.enumerated() {
                if index % 256 == 0 { try budget.check() }
                glyphPath(cr, run, angles: scene.angles(of: index))
            }
            cairo_stroke(cr)
        }
    }

    /// For a PNG the glow is stroked on a surface of a quarter the resolution and drawn scaled
    /// up, smoothed: a halo has no detail to lose, and the strokes, tens of pixels wide around
    /// every glyph twenty times over, cost a sixteenth. At full resolution a long neon story
    /// took over five seconds.
    private func drawGlowAtQuarterResolution(_ scene: RenderScene, glow: Color, cr: OpaquePointer, raster: Double,
                                             budget: WorkBudget) throws(LayoutError) {
        let glowScale = raster / 4
        let width = Int32(saturating: (scene.size.width * glowScale).rounded(.up))
        let height = Int32(saturating: (scene.size.height * glowScale).rounded(.up))
        guard width > 0, height > 0 else { return }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height)!
        defer { cairo_surface_destroy(surface) }
        let glowContext = cairo_create(surface)!
        cairo_scale(glowContext, glowScale, glowScale)
        cairo_translate(glowContext, scene.origin.x, scene.origin.y)
        let stroked = Result { () throws(LayoutError) in try strokeGlow(scene, glow: glow, glowContext, budget: budget) }
        cairo_destroy(glowContext)
        try stroked.get()
        cairo_surface_flush(surface)
        cairo_save(cr)
        cairo_translate(cr, -scene.origin.x, -scene.origin.y)
        cairo_scale(cr, 1 / glowScale, 1 / glowScale)
        cairo_set_source_surface(cr, surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// Adds the run's glyphs to the current path; `angles`: text on a path, each glyph turned
    /// about its origin.
    func glyphPath(_ cr: OpaquePointer, _ run: GlyphRunLayout, angles: [Double]? = nil) {
        if let font = drawsFromOutlines(run) { return appendOutlines(cr, run, font: font, angles: angles) }
        guard setFont(cr, run) else { return }
        if let angles { return eachGlyphTurned(cr, run, angles) { cairo_glyph_path(cr, &$0, 1) } }
        var glyphs = cairoGlyphs(run)
        cairo_glyph_path(cr, &glyphs, Int32(glyphs.count))
    }

    func showGlyphs(_ cr: OpaquePointer, _ run: GlyphRunLayout, angles: [Double]? = nil) {
        if let font = drawsFromOutlines(run) {
            cairo_new_path(cr)
            appendOutlines(cr, run, font: font, angles: angles)
            cairo_fill(cr)
            return
        }
        guard setFont(cr, run) else { return }
        // Shown, not filled as paths, so colour glyphs keep their colours on a path too.
        if let angles { return eachGlyphTurned(cr, run, angles) { cairo_show_glyphs(cr, &$0, 1) } }
        var glyphs = cairoGlyphs(run)
        cairo_show_glyphs(cr, &glyphs, Int32(glyphs.count))
    }

    /// `draw` called with each glyph at (0, 0) of a space moved to its origin and turned by its angle.
    private func eachGlyphTurned(_ cr: OpaquePointer, _ run: GlyphRunLayout, _ angles: [Double], _ draw: (inout cairo_glyph_t) -> Void) {
        for (glyph, angle) in zip(run.glyphs, angles) {
            cairo_save(cr)
            cairo_translate(cr, glyph.position.x, glyph.position.y)
            cairo_rotate(cr, angle)
            var one = cairo_glyph_t(index: UInt(glyph.id), x: 0, y: 0)
            draw(&one)
            cairo_restore(cr)
        }
    }

    /// The run's face at its size; a sideways run of vertical text turned 90° clockwise, so each
    /// glyph advances down the page with its top to the right.
    private func setFont(_ cr: OpaquePointer, _ run: GlyphRunLayout) -> Bool {
        guard let face = cairoFace(run.instanceID) else { return false }
        cairo_set_font_face(cr, face)
        if run.orientation == .sideways {
            var matrix = cairo_matrix_t()
            cairo_matrix_init(&matrix, 0, run.size, -run.size, 0, 0, 0)
            cairo_set_font_matrix(cr, &matrix)
        } else {
            cairo_set_font_size(cr, run.size)
        }
        return true
    }

    func cairoGlyphs(_ run: GlyphRunLayout) -> [cairo_glyph_t] {
        run.glyphs.map { cairo_glyph_t(index: UInt($0.id), x: $0.position.x, y: $0.position.y) }
    }

    /// A Cairo font face for a loaded font, from its own FreeType face, made once; nil, and
    /// asked of FreeType once, for a face FreeType cannot open.
    func cairoFace(_ id: UInt32) -> OpaquePointer? {
        if let face = faces[id] { return face }
        guard !unopened.contains(id) else { return nil }
        guard let font = fonts.font(id: id), let face = DrawingFaces.cairoFace(font) else {
            unopened.insert(id)
            return nil
        }
        faces[id] = face
        return face
    }

    /// The ink of what `draw` draws on the context it is given (which starts with no
    /// transformation), in that context's device space: found from a recording that is painted
    /// nowhere. Nil where it draws nothing.
    static func ink<E: Error>(of draw: (OpaquePointer) throws(E) -> Void) throws(E) -> Rect? {
        let recording = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, nil)!
        defer { cairo_surface_destroy(recording) }
        let recorder = cairo_create(recording)!
        let drawn = Result { () throws(E) in try draw(recorder) }
        cairo_destroy(recorder)
        try drawn.get()
        var (x, y, width, height) = (0.0, 0.0, 0.0, 0.0)
        cairo_recording_surface_ink_extents(recording, &x, &y, &width, &height)
        guard width > 0, height > 0 else { return nil }
        return Rect(x: x, y: y, width: width, height: height)
    }

    func addPath(_ cr: OpaquePointer, _ path: Path) {
        for command in path.commands {
            switch command {
            case .move(let p): cairo_move_to(cr, p.x, p.y)
            case .line(let p): cairo_line_to(cr, p.x, p.y)
            case let .quad(c, p):
                var x = 0.0, y = 0.0
                cairo_get_current_point(cr, &x, &y)
                cairo_curve_to(cr, x + 2 / 3 * (c.x - x), y + 2 / 3 * (c.y - y),
                               p.x + 2 / 3 * (c.x - p.x), p.y + 2 / 3 * (c.y - p.y), p.x, p.y)
            case let .cubic(c1, c2, p): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            case .close: cairo_close_path(cr)
            }
        }
    }

    func setColor(_ cr: OpaquePointer, _ color: Color) {
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
    }
}

/// Collects what Cairo writes to a stream, and stops the writing when the budget runs out.
final class ByteSink {
    var bytes: [UInt8] = []
    let budget: WorkBudget
    /// Why writing stopped early, if it did.
    var stopped: LayoutError?
    /// How many times the encoder called `write`, the refused call included: a test holds an
    /// encoder to stopping at the first refusal.
    private(set) var writes = 0

    init(budget: WorkBudget = .unlimited) {
        self.budget = budget
    }

    static let write: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
        sink.writes += 1
        do throws(LayoutError) {
            try sink.budget.check()
        } catch {
            sink.stopped = error
            return CAIRO_STATUS_WRITE_ERROR
        }
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
    }
}
