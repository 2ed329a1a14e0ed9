import LayoutEngine
import Foundation

extension Renderer {
    /// The tags' show or hide animation as an SVG whose CSS keyframes are the timeline's
    /// (`TagTimeline.keyframes`): a browser plays it as Core Animation or an Android animator
    /// would. Text is drawn as glyph outlines (colour emoji as small pictures), the photo as an
    /// embedded PNG, lines retract by their dash offset along a path length of 1.
    public func animatedSVG(_ scene: TagScene, _ kind: TagAnimationKind, timeline: TagTimeline, budget: WorkBudget = .unlimited) throws -> [UInt8] {
        let parts = TagPartClasses(text: "text", line: "line", dot: "dot", shadow: "shadow")
        let rules = timeline.keyframes(kind).map { Self.rule($0, name: "\($0.property.rawValue)-\(kind.rawValue)", parts: parts) }
        return try tagsSVG(scene, rules: rules, budget: budget) { tag in
            (dot: (dot: parts.dot, shadow: parts.shadow), layers: [TagLabelLayer(labels: tag.labels, legibility: tag.legibility, classes: parts)])
        }
    }

    /// Each tag with a style to switch to (`TagGeometry.switched`) changing style, as an SVG of
    /// the switch's CSS keyframes (`TagTimeline.switchKeyframes`): its labels go and the new
    /// style's come around a dot that stays. Tags that do not switch hold still.
    public func switchingSVG(_ scene: TagScene, timeline: TagTimeline, budget: WorkBudget = .unlimited) throws -> [UInt8] {
        // The dot stays through a switch: no keyframe of it names these layers' dot classes.
        let leaving = TagPartClasses(text: "text-leaving", line: "line-leaving", dot: "dot", shadow: "shadow")
        let arriving = TagPartClasses(text: "text-arriving", line: "line-arriving", dot: "dot", shadow: "shadow")
        let keyframes = timeline.switchKeyframes()
        let rules = keyframes.outgoing.map { Self.rule($0, name: "\($0.property.rawValue)-leaving", parts: leaving) }
            + keyframes.incoming.map { Self.rule($0, name: "\($0.property.rawValue)-arriving", parts: arriving) }
        return try tagsSVG(scene, rules: rules, budget: budget) { tag in
            guard let switched = tag.switched else {
                return (nil, [TagLabelLayer(labels: tag.labels, legibility: tag.legibility, classes: nil)])
            }
            return (nil, [TagLabelLayer(labels: tag.labels, legibility: tag.legibility, classes: leaving),
                          TagLabelLayer(labels: switched.labels, legibility: switched.legibility, classes: arriving)])
        }
    }

    /// The CSS classes a layer's animated parts carry.
    struct TagPartClasses {
        var text: String
        var line: String
        var dot: String
        var shadow: String
    }

    /// Labels drawn together: their lines, then their text, animated by `classes` (nil: still).
    struct TagLabelLayer {
        var labels: [TagLabelGeometry]
        var legibility: TagLegibility
        var classes: TagPartClasses?
    }

    /// One keyframe as a CSS keyframe rule and the animation of the parts it moves.
    private static func rule(_ keyframe: TagKeyframe, name: String, parts: TagPartClasses) -> String {
        func number(_ value: Double) -> String { GlyphOutlines.Collector().format(value) }
        let (selector, property, from, to): (String, String, Double, Double) = switch keyframe.property {
        case .textOpacity: (".\(parts.text)", "opacity", keyframe.from, keyframe.to)
        case .strokeEnd: (".\(parts.line)", "stroke-dashoffset", 1 - keyframe.from, 1 - keyframe.to)
        case .dotOpacity: (".\(parts.dot)", "opacity", keyframe.from, keyframe.to)
        case .shadowOpacity: (".\(parts.shadow)", "opacity", keyframe.from, keyframe.to)
        }
        return "@keyframes \(name){from{\(property):\(number(from))}to{\(property):\(number(to))}}\n"
            + "\(selector){animation:\(name) \(number(keyframe.duration))s cubic-bezier(0,0,.58,1) \(number(keyframe.begin))s both}\n"
    }

    /// The photo and its tags as SVG with `rules` in its style sheet; `parts` says, per tag,
    /// the classes of its dot and ring (nil: still) and the layers of labels to draw.
    private func tagsSVG(_ scene: TagScene, rules: [String], budget: WorkBudget,
                         parts: (TagGeometry) -> (dot: (dot: String, shadow: String)?, layers: [TagLabelLayer])) throws -> [UInt8] {
        let photo = scene.layout.photo
        func number(_ value: Double) -> String { GlyphOutlines.Collector().format(value) }
        func color(_ color: Color) -> String {
            let hex = [color.red, color.green, color.blue].map { String(format: "%02x", Int(saturating: ($0 * 255).rounded())) }.joined()
            return "#\(hex)"
        }
        func classAttribute(_ name: String?) -> String { name.map { " class=\"\($0)\"" } ?? "" }
        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(number(photo.width))" height="\(number(photo.height))" \
        viewBox="0 0 \(number(photo.width)) \(number(photo.height))">
        <style>

        """
        // One keyframe rule and one animation per animated property, from the timeline's data.
        svg += rules.joined()
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
            let (dotClasses, layers) = parts(tag)
            let (cx, cy) = (number(tag.dot.center.x), number(tag.dot.center.y))
            svg += "<g id=\"tag-\(tag.index)\">\n"
            // The legibility shadow (`TagLegibility`), as each drawn part's own drop shadow: it
            // fades with the part. One filter per layer (the dot takes the first layer's).
            var legible: [String] = []
            for (layerIndex, layer) in layers.enumerated() {
                guard layer.legibility.shadowBlur > 0 && layer.legibility.shadowOpacity > 0 else {
                    legible.append("")
                    continue
                }
                let id = layerIndex == 0 ? "legible-\(tag.index)" : "legible-\(tag.index)-\(layerIndex)"
                svg += "<filter id=\"\(id)\" x=\"-50%\" y=\"-50%\" width=\"200%\" height=\"200%\"><feDropShadow dx=\"0\" dy=\"0\" "
                    + "stdDeviation=\"\(number(layer.legibility.shadowBlur / 2))\" flood-color=\"\(shadow)\" "
                    + "flood-opacity=\"\(number(layer.legibility.shadowOpacity * scene.shadow.alpha))\"/></filter>\n"
                legible.append(" filter=\"url(#\(id))\"")
            }
            svg += "<circle\(classAttribute(dotClasses?.shadow)) cx=\"\(cx)\" cy=\"\(cy)\" r=\"\(number(tag.dot.shadowRadius))\" fill=\"\(shadow)\" "
                + "opacity=\"\(number(tag.dot.shadowOpacity))\"/>\n"
            for (layerIndex, layer) in layers.enumerated() {
                for label in layer.labels {
                    let points = [label.leader.from, label.leader.to, label.underline.to]
                    let d = "M" + points.map { "\(number($0.x)) \(number($0.y))" }.joined(separator: "L")
                    // A line retracts by its dash offset: a dash as long as the path, then a gap as long.
                    let dash = layer.classes == nil ? "" : " pathLength=\"1\" stroke-dasharray=\"1 1\""
                    svg += "<path\(classAttribute(layer.classes?.line)) d=\"\(d)\"\(dash) fill=\"none\" stroke=\"\(foreground)\" "
                        + "stroke-width=\"\(number(tag.lineWidth))\" stroke-linejoin=\"round\"\(legible[layerIndex])/>\n"
                }
            }
            svg += "<circle\(classAttribute(dotClasses?.dot)) cx=\"\(cx)\" cy=\"\(cy)\" r=\"\(number(tag.dot.radius))\" fill=\"\(foreground)\"\(legible.first ?? "")/>\n"
            for (layerIndex, layer) in layers.enumerated() {
                svg += "<g\(classAttribute(layer.classes?.text))\(legible[layerIndex])>\n"
                if let backing = layer.legibility.backing {
                    for rect in layer.labels.compactMap(\.backingRect) {
                        svg += "<rect x=\"\(number(rect.x))\" y=\"\(number(rect.y))\" width=\"\(number(rect.width))\" height=\"\(number(rect.height))\" "
                            + "rx=\"\(number(layer.legibility.backingRadius))\" fill=\"\(color(backing))\" fill-opacity=\"\(number(backing.alpha))\"/>\n"
                    }
                }
                for label in layer.labels {
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
                svg += "</g>\n"
            }
            svg += "</g>\n"
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
