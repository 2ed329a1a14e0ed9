import LayoutEngine
import Foundation

extension Renderer {
    /// The tags' show or hide animation as an SVG whose CSS keyframes are the timeline's
    /// (`TagTimeline.keyframes`): a browser plays it as Core Animation or an Android animator
    /// would. Text is drawn as glyph outlines (colour emoji as small pictures), the photo as an
    /// embedded PNG, lines retract by their dash offset along a path length of 1.
    public func animatedSVG(_ scene: TagScene, _ kind: TagAnimationKind, timeline: TagTimeline, budget: WorkBudget = .unlimited) throws -> [UInt8] {
        let photo = scene.layout.photo
        func number(_ value: Double) -> String { GlyphOutlines.Collector().format(value) }
        func color(_ color: Color) -> String {
            let hex = [color.red, color.green, color.blue].map { String(format: "%02x", Int(saturating: ($0 * 255).rounded())) }.joined()
            return "#\(hex)"
        }
        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(number(photo.width))" height="\(number(photo.height))" \
        viewBox="0 0 \(number(photo.width)) \(number(photo.height))">
        <style>

        """
        // One keyframe rule and one animation per animated property, from the timeline's data.
        for keyframe in timeline.keyframes(kind) {
            let (selector, property, from, to): (String, String, Double, Double) = switch keyframe.property {
            case .textOpacity: (".text", "opacity", keyframe.from, keyframe.to)
            case .strokeEnd: (".line", "stroke-dashoffset", 1 - keyframe.from, 1 - keyframe.to)
            case .dotOpacity: (".dot", "opacity", keyframe.from, keyframe.to)
            case .shadowOpacity: (".shadow", "opacity", keyframe.from, keyframe.to)
            }
            let name = "\(keyframe.property.rawValue)-\(kind.rawValue)"
            svg += "@keyframes \(name){from{\(property):\(number(from))}to{\(property):\(number(to))}}\n"
            svg += "\(selector){animation:\(name) \(number(keyframe.duration))s cubic-bezier(0,0,.58,1) \(number(keyframe.begin))s both}\n"
        }
        svg += "</style>\n"
        if let png = scene.photo, !png.isEmpty {
            svg += "<image width=\"\(number(photo.width))\" height=\"\(number(photo.height))\" preserveAspectRatio=\"none\" "
                + "href=\"data:image/png;base64,\(Data(png).base64EncodedString())\"/>\n"
        } else {
            svg += "<rect width=\"100%\" height=\"100%\" fill=\"\(color(scene.background))\"/>\n"
        }
        let foreground = color(scene.foreground), shadow = color(scene.shadow)
        for tag in scene.layout.tags {
            try budget.check()
            let (cx, cy) = (number(tag.dot.center.x), number(tag.dot.center.y))
            svg += "<g id=\"tag-\(tag.index)\">\n"
            // The legibility shadow (`TagLegibility`), as each drawn part's own drop shadow: it
            // fades with the part.
            var legible = ""
            if tag.legibility.shadowBlur > 0 && tag.legibility.shadowOpacity > 0 {
                let id = "legible-\(tag.index)"
                svg += "<filter id=\"\(id)\" x=\"-50%\" y=\"-50%\" width=\"200%\" height=\"200%\"><feDropShadow dx=\"0\" dy=\"0\" "
                    + "stdDeviation=\"\(number(tag.legibility.shadowBlur / 2))\" flood-color=\"\(shadow)\" "
                    + "flood-opacity=\"\(number(tag.legibility.shadowOpacity * scene.shadow.alpha))\"/></filter>\n"
                legible = " filter=\"url(#\(id))\""
            }
            svg += "<circle class=\"shadow\" cx=\"\(cx)\" cy=\"\(cy)\" r=\"\(number(tag.dot.shadowRadius))\" fill=\"\(shadow)\" "
                + "opacity=\"\(number(tag.dot.shadowOpacity))\"/>\n"
            for label in tag.labels {
                let points = [label.leader.from, label.leader.to, label.underline.to]
                let d = "M" + points.map { "\(number($0.x)) \(number($0.y))" }.joined(separator: "L")
                svg += "<path class=\"line\" d=\"\(d)\" pathLength=\"1\" stroke-dasharray=\"1 1\" fill=\"none\" stroke=\"\(foreground)\" "
                    + "stroke-width=\"\(number(tag.lineWidth))\" stroke-linejoin=\"round\"\(legible)/>\n"
            }
            svg += "<circle class=\"dot\" cx=\"\(cx)\" cy=\"\(cy)\" r=\"\(number(tag.dot.radius))\" fill=\"\(foreground)\"\(legible)/>\n"
            svg += "<g class=\"text\"\(legible)>\n"
            if let backing = tag.legibility.backing {
                for rect in tag.labels.compactMap(\.backingRect) {
                    svg += "<rect x=\"\(number(rect.x))\" y=\"\(number(rect.y))\" width=\"\(number(rect.width))\" height=\"\(number(rect.height))\" "
                        + "rx=\"\(number(tag.legibility.backingRadius))\" fill=\"\(color(backing))\" fill-opacity=\"\(number(backing.alpha))\"/>\n"
                }
            }
            for label in tag.labels {
                var outline = ""
                var bitmaps: [(GlyphRunLayout, PositionedGlyph)] = []
                for run in label.runs {
                    let path = GlyphOutlines.svgPath(run, fonts: fonts)
                    outline += path.data
                    bitmaps += path.withoutOutline.map { (run, $0) }
                }
                svg += "<path d=\"\(outline)\" fill=\"\(foreground)\"><title>\(Self.escaped(label.text))</title></path>\n"
                for (run, glyph) in bitmaps {
                    let (png, rect) = try rasterized(glyph, of: run, budget: budget)
                    svg += "<image x=\"\(number(rect.x))\" y=\"\(number(rect.y))\" width=\"\(number(rect.width))\" "
                        + "height=\"\(number(rect.height))\" href=\"data:image/png;base64,\(Data(png).base64EncodedString())\"/>\n"
                }
            }
            svg += "</g>\n</g>\n"
        }
        svg += "</svg>\n"
        return Array(svg.utf8)
    }

    /// A glyph with no outline (a colour emoji) drawn alone as a PNG at 4 pixels a point, and
    /// the rect it covers on the photo.
    private func rasterized(_ glyph: PositionedGlyph, of run: GlyphRunLayout, budget: WorkBudget) throws -> ([UInt8], Rect) {
        let rect = Rect(x: glyph.position.x, y: glyph.position.y - run.size, width: max(glyph.advance, 1), height: run.size * 1.25)
        var alone = run
        var placed = glyph
        placed.position = Point(x: 0, y: run.size)
        alone.glyphs = [placed][...]
        let png = try draw(size: Size(width: rect.width, height: rect.height), format: .png, scale: 4, budget: budget) { cr, _ in
            showGlyphs(cr, alone)
        }
        return (png, rect)
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
