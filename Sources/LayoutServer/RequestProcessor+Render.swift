import Foundation
import LayoutEngine
import LayoutRender
import LayoutWire

extension RequestProcessor {
    /// Lays out (or fits) the source, decorates it and draws it.
    func render(_ request: Layoutd_V1_RenderRequest, budget: WorkBudget = .unlimited) throws -> Layoutd_V1_RenderReply {
        let format: RenderFormat
        switch request.format {
        case .png: format = .png
        case .svg: format = .svg
        case .pdf: format = .pdf
        case .UNRECOGNIZED(let value): throw LayoutError(.invalidArgument, "unknown format \(value)", field: "format")
        }
        guard request.margin.isFinite, request.margin >= 0, request.margin <= 1000 else {
            throw LayoutError(.invalidArgument, "margin must be in 0...1000, got \(request.margin)", field: "margin")
        }
        let margin = request.margin > 0 ? Double(request.margin) : 24
        if case .tags(let tagsRequest) = request.source {
            return try renderTags(tagsRequest, request, format: format, budget: budget)
        }
        guard request.photo.isEmpty, request.animate == .none else {
            throw LayoutError(.invalidArgument, "photo and animate are for a tags source", field: request.photo.isEmpty ? "animate" : "photo")
        }
        try Self.checkPictures(attachments: request.attachmentImages, fills: request.fillImages)
        var scene: RenderScene
        let placed: [AttachmentLayout]
        // Each attachment's content mode, and the field its list is under.
        let modes: (list: [Layoutd_V1_ContentMode], field: String)
        switch request.source {
        case .layout(let layoutRequest):
            modes = (layoutRequest.attachments.map(\.contentMode), "layout.attachments")
            var decorated = try under("layout") { try decoratedLayout(layoutRequest, budget: budget) }
            if request.showShapes, let flow = decorated.flow {
                // Faint, under everything else: where the text was kept out of, or into.
                let shapes = flow.shapeOutlines.map {
                    Background(rects: [], path: $0.path, fill: Color(red: 0.5, green: 0.55, blue: 0.6, alpha: 0.18), fillRule: $0.fillRule)
                }
                decorated.backgrounds = shapes + decorated.backgrounds
            }
            if request.showShapes, let path = decorated.textPath {
                // The path text on a path follows, faintly, under it.
                var line = Background(rects: [], path: path, fill: Color(red: 0, green: 0, blue: 0, alpha: 0))
                line.border = BackgroundBorder(width: 1, color: Color(red: 0.5, green: 0.55, blue: 0.6, alpha: 0.5))
                decorated.backgrounds.insert(line, at: 0)
            }
            placed = decorated.layout.attachments
            // Containers place themselves: the picture is their frame. One box is as wide as asked.
            // Vertical text's columns reach as far as they go, right to left.
            // Text on a path reaches as far as its path takes it.
            let width = layoutRequest.containers.isEmpty && !decorated.layout.writingMode.isVertical
                ? max(Double(layoutRequest.width), layoutRequest.hasTextPath ? decorated.layout.size.width : 0) : decorated.layout.size.width
            scene = RenderScene(size: Size(width: width, height: decorated.layout.size.height),
                                canvas: request.hasCanvas ? try request.canvas.checked(field: "canvas")
                                    : RenderScene.pressedSurface(decorated.layout.paints) ?? Color(red: 1, green: 1, blue: 1),
                                origin: Point(x: 0, y: 0), backgrounds: decorated.backgrounds,
                                runs: decorated.layout.runs + decorated.layout.emphasisMarks + decorated.layout.rubyRuns,  // drawn as the text is
                                textColor: request.hasTextColor ? try request.textColor.checked(field: "text_color")
                                    : Color(red: 0, green: 0, blue: 0), paints: decorated.layout.paints,
                                decorations: decorated.layout.decorations)
            scene.fillRegions = decorated.layout.fillRegions
            scene.glyphAngles = decorated.layout.glyphAngles
        case .justify(let justifyRequest):
            modes = (justifyRequest.attachments.map(\.contentMode), "justify.attachments")
            let story = try under("justify") { try decoratedStory(justifyRequest, budget: budget) }
            placed = story.fitted.paragraph.attachments
            // Lines as wide as asked; vertical Type Mode's columns as long as asked, reaching across as far as they go.
            let block = story.fitted.paragraph.size, length = story.plan.request.width
            let size = story.fitted.paragraph.writingMode.isVertical ? Size(width: block.width, height: length)
                : Size(width: length, height: block.height)
            scene = RenderScene(size: size,
                                canvas: request.hasCanvas ? try request.canvas.checked(field: "canvas")
                                    : RenderScene.pressedSurface(story.fitted.paragraph.paints) ?? Color(red: 0.12, green: 0.12, blue: 0.14),
                                origin: Point(x: 0, y: 0), backgrounds: story.backgrounds,
                                runs: story.fitted.paragraph.runs + story.fitted.paragraph.emphasisMarks,
                                textColor: story.effects.textColor, paints: story.fitted.paragraph.paints,
                                decorations: story.fitted.paragraph.decorations,
                                glowColor: story.effects.glowColor,
                                glowRadius: story.effects.glowRadius)
            scene.fillRegions = story.fitted.paragraph.fillRegions
        case .none, .tags:
            throw LayoutError(.invalidArgument, "a render request needs a layout, a justify or a tags source", field: "source")
        }
        scene.fillImages = request.fillImages.map { [UInt8]($0) }
        let images = request.attachmentImages
        scene.attachments = try placed.map { box in
            let mode = box.index < modes.list.count ? modes.list[box.index] : .scaleToFill
            return SceneAttachment(rect: box.rect, png: box.index < images.count ? [UInt8](images[box.index]) : nil,
                                   contentMode: try ContentMode(mode, field: "\(modes.field)[\(box.index)].content_mode"))
        }
        // The canvas holds the text box, every background, decoration, shadow and the glow, plus the margin.
        var bounds = Rect(x: 0, y: 0, width: scene.size.width, height: scene.size.height)
        /// `rect` moved by `offset` and grown by `reach` on every side.
        func spread(_ rect: Rect, by reach: Double, offset: Point = Point(x: 0, y: 0)) -> Rect {
            Rect(x: rect.x + offset.x - reach, y: rect.y + offset.y - reach, width: rect.width + 2 * reach, height: rect.height + 2 * reach)
        }
        for background in scene.backgrounds {
            // A border reaches half its width past the outline; a shadow its offset and blur.
            for rect in background.rects {
                bounds = bounds.union(spread(rect, by: (background.border?.width ?? 0) / 2))
                if let shadow = background.shadow { bounds = bounds.union(spread(rect, by: shadow.blurRadius, offset: shadow.offset)) }
            }
        }
        for attachment in scene.attachments { bounds = bounds.union(attachment.rect) }
        for rect in scene.decorations.flatMap(\.rects) { bounds = bounds.union(rect) }
        // A shadow reaches past the text by its offset and blur, a glow by its radius.
        let textBox = bounds
        for shadow in scene.paints.flatMap(\.shadows) { bounds = bounds.union(spread(textBox, by: shadow.blurRadius, offset: shadow.offset)) }
        for glow in scene.paints.compactMap(\.glow) { bounds = bounds.union(spread(textBox, by: glow.radius)) }
        let extra = margin + scene.glowRadius
        scene.origin = Point(x: extra - bounds.x, y: extra - bounds.y)
        scene.size = Size(width: bounds.width + 2 * extra, height: bounds.height + 2 * extra)
        if request.hasFrame {
            // The block, with its margin, placed on a story frame: the picture is the frame's canvas.
            scene.frame = try request.frame.storyFrame(defaultFill: scene.canvas ?? Color(red: 1, green: 1, blue: 1),
                                                      maxPhotoBytes: Self.maxAttachmentImageBytes)
        }
        let scale = try Self.scale(of: request)
        let image = try renderer.render(scene, format: format, scale: scale, budget: budget)
        var reply = Layoutd_V1_RenderReply()
        reply.image = Data(image)
        reply.mimeType = format.mimeType
        reply.width = Float((scene.frame?.size ?? scene.size).width)
        reply.height = Float((scene.frame?.size ?? scene.size).height)
        return reply
    }

    /// The photo's tags at the request's moment, over the photo; or their show, hide or style
    /// switch animation as an SVG of CSS keyframes.
    private func renderTags(_ tagsRequest: Layoutd_V1_TagsRequest, _ request: Layoutd_V1_RenderRequest, format: RenderFormat,
                            budget: WorkBudget) throws -> Layoutd_V1_RenderReply {
        guard request.attachmentImages.isEmpty, request.fillImages.isEmpty else {
            throw LayoutError(.invalidArgument, "a tags picture has no attachments or fills",
                              field: request.attachmentImages.isEmpty ? "fill_images" : "attachment_images")
        }
        guard !request.hasFrame else {
            throw LayoutError(.invalidArgument, "a tags picture is its photo: a story frame is for layout and justify", field: "frame")
        }
        if !request.photo.isEmpty {
            guard request.photo.count <= Self.maxAttachmentImageBytes else {
                throw LayoutError(.resourceExhausted, "a photo of \(request.photo.count) bytes; at most \(Self.maxAttachmentImageBytes)", field: "photo")
            }
            try Renderer.checkAttachmentPicture([UInt8](request.photo), field: "photo")
        }
        let placed = try under("tags") { try placedTags(tagsRequest, budget: budget) }
        var scene = TagScene(layout: placed.layout, state: placed.visibility.state(at: placed.time),
                             photo: request.photo.isEmpty ? nil : [UInt8](request.photo))
        if request.hasCanvas { scene.background = try request.canvas.checked(field: "canvas") }
        let image: [UInt8]
        switch request.animate {
        case .none:
            image = try renderer.render(scene, format: format, scale: try Self.scale(of: request), budget: budget)
        case .hide, .show, .switch:
            guard format == .svg else {
                throw LayoutError(.invalidArgument, "an animation is drawn as SVG only", field: "animate")
            }
            let timeline = placed.visibility.timeline
            if request.animate == .switch {
                guard placed.layout.tags.contains(where: { $0.switched != nil }) else {
                    throw LayoutError(.invalidArgument, "a switch animation needs a tag with switch_to", field: "animate")
                }
                image = try renderer.switchingSVG(scene, timeline: timeline, budget: budget)
            } else {
                image = try renderer.animatedSVG(scene, request.animate == .hide ? .hide : .show, timeline: timeline, budget: budget)
            }
        case .UNRECOGNIZED(let value):
            throw LayoutError(.invalidArgument, "unknown animation \(value)", field: "animate")
        }
        var reply = Layoutd_V1_RenderReply()
        reply.image = Data(image)
        reply.mimeType = format.mimeType
        reply.width = Float(placed.layout.photo.width)
        reply.height = Float(placed.layout.photo.height)
        return reply
    }

    private static func scale(of request: Layoutd_V1_RenderRequest) throws(LayoutError) -> Double {
        guard request.scale == 0 || (request.scale.isFinite && request.scale > 0 && request.scale <= 8) else {
            throw LayoutError(.invalidArgument, "scale must be in (0, 8] (0 means 2), got \(request.scale)", field: "scale")
        }
        return request.scale > 0 ? Double(request.scale) : 2
    }

    /// All the attachment pictures of one render request together, in bytes.
    static let maxAttachmentImageBytes = 8 << 20

    /// Each picture must be a PNG small enough to decode; together they fit the byte limit.
    /// The attachments' and the fills' pictures: PNGs Cairo can read, within the count, the
    /// bytes and the pixels a render may decode (the two lists share the bytes and pixels).
    static func checkPictures(attachments: [Data], fills: [Data] = []) throws(LayoutError) {
        try Bounds.check(count: attachments.count, limit: 1_024, field: "attachment_images")
        try Bounds.check(count: fills.count, limit: StyleRules.maxFillImages, field: "fill_images")
        let lists = [(attachments, "attachment_images"), (fills, "fill_images")]
        let total = (attachments + fills).reduce(0) { $0 + $1.count }
        guard total <= maxAttachmentImageBytes else {
            throw LayoutError(.resourceExhausted, "pictures of \(total) bytes; at most \(maxAttachmentImageBytes) in all",
                              field: fills.isEmpty ? "attachment_images" : "fill_images")
        }
        // Pixels are what decoding costs: a PNG of a few kilobytes can declare 4096 x 4096.
        var pixels = 0
        for (images, field) in lists {
            for (index, image) in images.enumerated() where !image.isEmpty {
                let (width, height) = try Renderer.checkAttachmentPicture([UInt8](image), field: "\(field)[\(index)]")
                pixels += Int(width) * Int(height)
            }
        }
        guard pixels <= Renderer.maxInputPixels else {
            throw LayoutError(.resourceExhausted, "pictures of \(pixels) pixels in all; at most \(Renderer.maxInputPixels)",
                              field: fills.isEmpty ? "attachment_images" : "fill_images")
        }
    }
}
