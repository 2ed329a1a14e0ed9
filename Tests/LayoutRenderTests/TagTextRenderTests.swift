import CCairo
import Testing
@testable import LayoutEngine
@testable import LayoutRender

/// A tag's text at a moment's opacity (`Renderer.drawTagText`): drawn as it is when fully shown,
/// as a group painted at the opacity when faded, and into SVG as a picture painted at it (Cairo
/// 1.16's SVG surface loses a copy of each group painted into it; CI's AddressSanitizer run of
/// this suite reports any such loss).
@Suite struct TagTextRenderTests {
    static let renderer = TagRenderTests.renderer

    /// The Chinese tags on a plain background: no emoji, whose glyphs SVG holds as pictures too.
    static func scene(textOpacity: Double) throws -> TagScene {
        var scene = try TagRenderTests.scene("tags-chinese", state: TagPartState(textOpacity: textOpacity, strokeEnd: 1,
                                                                                   dotOpacity: 1, shadowOpacity: 0.3))
        scene.photo = nil
        return scene
    }

    static func svg(textOpacity: Double) throws -> String {
        String(decoding: try renderer.render(try scene(textOpacity: textOpacity), format: .svg, scale: 1), as: UTF8.self)
    }

    @Test func fadedTextIntoSVGIsOnePictureATag() throws {
        #expect(try Self.svg(textOpacity: 1).components(separatedBy: "<image").count == 1, "shown text is drawn as it is")
        #expect(try Self.svg(textOpacity: 0).components(separatedBy: "<image").count == 1, "hidden text is not drawn")
        let faded = try Self.svg(textOpacity: 0.5)
        #expect(faded.components(separatedBy: "<image").count - 1 == 2, "one picture for each of the two tags")
        #expect(faded.contains("data:image/png;base64,"))
    }

    /// Fully shown text is drawn straight, not as a group painted whole: the two agree.
    @Test func shownTextEqualsAGroupPaintedWhole() throws {
        let straight = try #require(RenderTests.pixels(try Self.renderer.render(try Self.scene(textOpacity: 1), format: .png, scale: 2)))
        // Painted at 0.9999 the group is painted whole: Cairo takes an alpha that close to 1 as opaque.
        let group = try #require(RenderTests.pixels(try Self.renderer.render(try Self.scene(textOpacity: 0.9999), format: .png, scale: 2)))
        #expect(straight.width == group.width && straight.height == group.height)
        let largest = zip(straight.data, group.data).map(RenderTests.channelDistance).max() ?? 0
        #expect(largest <= 1, "the largest difference in a channel: \(largest)")
    }

    /// `paintAsPicture` paints what the group would, where the group would: both drawn at half
    /// opacity on pictures moved and scaled by a fraction, with text, a disc and a thin line.
    @Test func aPictureLandsWhereTheGroupWould() throws {
        let run = try #require(try Self.scene(textOpacity: 1).layout.tags[0].labels[0].runs.first)
        // A renderer of its own: its faces are drawn with here outside a picture's lock.
        let renderer = Renderer(fonts: Fixtures.registry)
        func draw(_ cr: OpaquePointer) {
            renderer.setColor(cr, Color(red: 0.9, green: 0.2, blue: 0.1))
            cairo_arc(cr, 40, 30, 12.5, 0, 2 * .pi)
            cairo_fill(cr)
            cairo_set_line_width(cr, 0.75)
            cairo_move_to(cr, 5, 52.3)
            cairo_line_to(cr, 95, 47.1)
            cairo_stroke(cr)
            renderer.setColor(cr, Color(red: 0.1, green: 0.3, blue: 0.8))
            cairo_save(cr)
            cairo_translate(cr, 60 - run.glyphs[0].position.x, 40)
            renderer.showGlyphs(cr, run)
            cairo_restore(cr)
        }
        func picture(asPicture: Bool) -> [UInt32] {
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 300, 200)!
            defer { cairo_surface_destroy(surface) }
            let cr = cairo_create(surface)!
            cairo_set_source_rgb(cr, 1, 1, 0.9)
            cairo_paint(cr)
            cairo_translate(cr, 10.4, 7.7)
            cairo_scale(cr, 2.5, 2.5)
            if asPicture {
                renderer.paintAsPicture(cr, alpha: 0.5, draw)
            } else {
                cairo_push_group(cr)
                draw(cr)
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, 0.5)
            }
            cairo_destroy(cr)
            cairo_surface_flush(surface)
            let data = cairo_image_surface_get_data(surface)!
            let stride = Int(cairo_image_surface_get_stride(surface))
            return (0..<200).flatMap { y in (0..<300).map { x in UnsafeRawPointer(data + y * stride + x * 4).load(as: UInt32.self) } }
        }
        let group = picture(asPicture: false), painted = picture(asPicture: true)
        let changed = RenderTests.difference(group, Array(repeating: group[0], count: group.count))
        #expect(changed > 0.05, "the drawing covers part of the picture")
        // Resampled from four pixels a unit, edges differ by a few steps; half a pixel off, by far more.
        let apart = zip(group, painted).filter { RenderTests.channelDistance($0, $1) > 24 }.count
        #expect(apart == 0, "\(apart) pixels apart by more than 24 steps in a channel")
    }
}
