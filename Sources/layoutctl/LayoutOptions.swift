import ArgumentParser
import Foundation
import LayoutProtocol

/// What a layout request is made of on the command line, apart from its text and the
/// connection: `layout`, `hit`, `edit` and `batch` take the same options.
struct LayoutOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Container width in points.") var width: Float
    @Option(parsing: .unconditional, help: "Container height in points (0: unlimited).") var height: Float = 0
    @OptionGroup(title: "Text") var style: TextStyleOptions
    @OptionGroup(title: "Paragraph") var paragraph: ParagraphOptions
    @OptionGroup(title: "Paint") var paint: PaintOptions
    @OptionGroup(title: "Dynamic Type") var dynamicType: DynamicTypeOptions
    @OptionGroup(title: "Flow") var flow: FlowOptions
    @OptionGroup(title: "Vertical text") var verticalText: VerticalOptions
    @OptionGroup(title: "Text on a path") var onPath: TextPathOptions
    @OptionGroup(title: "Ruby") var rubyOptions: RubyOptions
    @OptionGroup(title: "Output") var picture: OutputOptions
    @OptionGroup(title: "Story frame (with -o)") var frame: FrameOptions

    // Forwarding: the grouped options under the names the request builder (and hit, edit) use.
    var font: String { style.font }
    var fontFile: [String] { style.fontFile }
    var size: Float? { style.size }
    var weight: UInt32? { style.weight }
    var italic: Bool { style.italic }
    var variations: String? { style.variations }
    var namedInstance: String { style.namedInstance }
    var fixedOpticalSize: Bool { style.fixedOpticalSize }
    var opticalSize: Float { style.opticalSize }
    var letterSpacing: Float { style.letterSpacing }
    var noFallback: Bool { style.noFallback }
    var language: String { style.language }
    var script: String { style.script }
    var fallbackFamily: [String] { style.fallbackFamily }
    var fontSynthesis: String? { style.fontSynthesis }
    var align: String { paragraph.align }
    var direction: String { paragraph.direction }
    var lineHeightMultiple: Float { paragraph.lineHeightMultiple }
    var maxLines: UInt32 { paragraph.maxLines }
    var token: String? { paragraph.token }
    var truncate: String { paragraph.truncate }
    var indent: String? { paragraph.indent }
    var paragraphSpacing: String? { paragraph.paragraphSpacing }
    var hyphenate: Bool { paragraph.hyphenate }
    var tabs: String? { paragraph.tabs }
    var tabInterval: Float { paragraph.tabInterval }
    var hangingPunctuation: Bool { paragraph.hangingPunctuation }
    var list: String? { paragraph.list }
    var autoSize: String? { paragraph.autoSize }
    var breakStrategy: String { paragraph.breakStrategy }
    var output: String? { picture.output }
    var format: String? { picture.format }
    var scale: Float { picture.scale }
    var ink: Bool { picture.ink }
    var metrics: Bool { picture.metrics }
    var attachment: [String] { picture.attachment }
    var attachmentImage: [String] { picture.attachmentImage }
    var attachmentMode: [String] { picture.attachmentMode }

    /// The layout request the options describe, for `text` (`batch` makes one and sets each text).
    func makeRequest(text: String) throws -> Layoutd_V1_LayoutRequest {
        var request = Layoutd_V1_LayoutRequest()
        request.text = text
        request.width = width
        request.height = height
        request.defaultStyle.family = font
        request.fonts = try fontFile.map { argument in
            // FILE#N,M: a collection's faces N and M (a path with "#" in it is taken whole when it exists).
            var path = argument, faces: [UInt32] = []
            if !FileManager.default.fileExists(atPath: argument), let mark = argument.lastIndex(of: "#") {
                path = String(argument[..<mark])
                faces = try argument[argument.index(after: mark)...].split(separator: ",").map { number in
                    guard let face = UInt32(number) else { throw ValidationError("--font-file \(argument): a face index is a number, not \"\(number)\"") }
                    return face
                }
            }
            guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("--font-file \(path): cannot read it") }
            return .with { $0.data = data; $0.faceIndices = faces }
        }
        request.defaultStyle.size = try size.map { try StyleValues.size($0, option: "--size") } ?? 17
        request.defaultStyle.weight = try weight.map { try StyleValues.weight($0, option: "--weight") } ?? 0
        if italic { request.defaultStyle.slant = .italic }
        if let variations {
            request.defaultStyle.variations = try variations.split(separator: ",").map { pair in
                let parts = pair.split(separator: "=")
                guard parts.count == 2, let value = Float(parts[1]) else {
                    throw ValidationError("--variations takes TAG=VALUE,... (e.g. wght=650), not \(variations)")
                }
                return .with { $0.tag = String(parts[0]); $0.value = value }
            }
        }
        request.defaultStyle.namedInstance = namedInstance
        request.defaultStyle.fixedOpticalSize = fixedOpticalSize
        request.defaultStyle.opticalSize = opticalSize
        request.defaultStyle.noFontFallback = noFallback
        if letterSpacing != 0 { request.defaultStyle.letterSpacing.points = letterSpacing }
        request.defaultStyle.language = language
        request.defaultStyle.script = script
        request.defaultStyle.fallbackFamilies = fallbackFamily
        if let fontSynthesis {
            let kinds: [String: Layoutd_V1_FontSynthesis] = ["weight-and-style": .weightAndStyle, "none": .none, "weight": .weight,
                                                              "style": .style]
            guard let kind = kinds[fontSynthesis] else {
                throw ValidationError("--font-synthesis must be weight-and-style, none, weight or style")
            }
            request.defaultStyle.fontSynthesis = kind
        }
        if let lineBreak = style.lineBreak { request.defaultStyle.lineBreak = try BreakingNames.lineBreak(lineBreak, option: "--line-break") }
        if let wordBreak = style.wordBreak { request.defaultStyle.wordBreak = try BreakingNames.wordBreak(wordBreak, option: "--word-break") }
        if let emphasis = style.emphasis { request.defaultStyle.emphasis = try EmphasisNames.marks(emphasis, option: "--emphasis") }
        request.rubyAnnotations = try rubyOptions.annotations()
        request.lineHeightMultiple = lineHeightMultiple
        request.maxLines = maxLines
        request.inkBounds = ink
        request.intrinsicMetrics = metrics
        request.glyphFlags = picture.glyphFlags
        if hyphenate { request.hyphenation = Layoutd_V1_Hyphenation() }
        if let tabs {
            request.paragraphStyle.tabStops = try tabs.split(separator: ",").map { spec in
                let parts = spec.split(separator: ":")
                let kinds: [String: Layoutd_V1_TabAlignment] = ["start": .start, "end": .end, "center": .center, "decimal": .decimal]
                guard let location = parts.first.flatMap({ Float($0) }), parts.count <= 2,
                      let alignment = parts.count == 2 ? kinds[String(parts[1])] : .start else {
                    throw ValidationError("--tabs takes LOCATION[:start|:end|:center|:decimal],..., not \(tabs)")
                }
                return .with { $0.location = location; $0.alignment = alignment }
            }
        }
        if tabInterval != 0 { request.paragraphStyle.defaultTabInterval = tabInterval }
        if hangingPunctuation { request.paragraphStyle.hangingPunctuation = true }
        if let list {
            let markers: [String: Layoutd_V1_ListMarker] = ["bullet": .bullet, "decimal": .decimal, "lower-alpha": .lowerAlpha,
                                                            "upper-alpha": .upperAlpha, "lower-roman": .lowerRoman, "upper-roman": .upperRoman]
            guard let marker = markers[list] else {
                throw ValidationError("--list takes bullet, decimal, lower-alpha, upper-alpha, lower-roman or upper-roman, not \(list)")
            }
            request.paragraphStyle.list.marker = marker
        }
        let strategies: [String: Layoutd_V1_BreakStrategy] = ["greedy": .greedy, "balanced": .balanced, "optimal": .optimal]
        guard let strategy = strategies[breakStrategy] else {
            throw ValidationError("--break takes greedy, balanced or optimal, not \(breakStrategy)")
        }
        request.breakStrategy = strategy
        if let indent {
            let values = indent.split(separator: ",").compactMap { Float($0) }
            guard values.count == 3 else { throw ValidationError("--indent takes FIRST_LINE,HEAD,TAIL, not \(indent)") }
            request.paragraphStyle.firstLineHeadIndent = values[0]
            request.paragraphStyle.headIndent = values[1]
            request.paragraphStyle.tailIndent = values[2]
        }
        if let paragraphSpacing {
            let values = paragraphSpacing.split(separator: ",").compactMap { Float($0) }
            guard values.count == 2 else { throw ValidationError("--paragraph-spacing takes BEFORE,AFTER, not \(paragraphSpacing)") }
            request.paragraphStyle.spacingBefore = values[0]
            request.paragraphStyle.spacingAfter = values[1]
        }
        if let autoSize {
            let parts = autoSize.split(separator: ":").map { Float($0) }
            guard (1...2).contains(parts.count), let minimum = parts[0], parts.count == 1 || parts[1] != nil else {
                throw ValidationError("--auto-size takes MIN_SCALE or MIN_SCALE:STEP_POINTS, not \(autoSize)")
            }
            request.autoSize = .with { $0.minScale = minimum; $0.step = parts.count == 2 ? parts[1]! : 0 }
        }
        if let token { request.truncation.token = token }
        guard let mode = ["tail": Layoutd_V1_TruncationMode.tail, "head": .head, "middle": .middle][truncate] else {
            throw ValidationError("--truncate must be tail, head or middle")
        }
        if mode != .tail {
            // Setting the message makes an empty token mean none: keep "…" unless one was given.
            request.truncation.mode = mode
            if token == nil { request.truncation.token = "\u{2026}" }
        }
        request.attachments = try attachment.map(AttachmentSpec.parse)
        guard attachmentMode.count <= request.attachments.count else {
            throw ValidationError("--attachment-mode: \(attachmentMode.count) modes for \(request.attachments.count) attachments")
        }
        let modes: [String: Layoutd_V1_ContentMode] = ["stretch": .scaleToFill, "fit": .aspectFit, "fill": .aspectFill, "center": .center]
        for (index, name) in attachmentMode.enumerated() {
            guard let mode = modes[name] else { throw ValidationError("--attachment-mode \(name): stretch, fit, fill or center") }
            request.attachments[index].contentMode = mode
        }
        try paint.apply(to: &request)
        try dynamicType.apply(to: &request.defaultStyle, explicitSize: size != nil)
        guard let alignment = ["natural": Layoutd_V1_Alignment.natural, "left": .left, "right": .right,
                               "center": .center, "justified": .justified][align] else {
            throw ValidationError("--align must be natural, left, right, center or justified")
        }
        request.alignment = alignment
        guard let base = ["auto": Layoutd_V1_Direction.auto, "ltr": .ltr, "rtl": .rtl][direction] else {
            throw ValidationError("--direction must be auto, ltr or rtl")
        }
        request.direction = base
        try flow.apply(to: &request)
        try onPath.apply(to: &request)
        try verticalText.apply(to: &request)
        return request
    }
}
