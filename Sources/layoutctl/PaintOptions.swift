import ArgumentParser
import Foundation
import LayoutProtocol

/// Colour, decorations and shadow for the whole text (`--color`, `--underline`, ...) and for
/// ranges of it (`--span START:END:STYLE`).
struct PaintOptions: ParsableArguments {
    @Option(help: "Text colour, #rrggbb or #rrggbbaa.") var color: String?
    @OptionGroup var decorations: DecorationOptions
    @OptionGroup var styling: SpanOptions
    @OptionGroup var boxes: BackgroundOptions

    /// The whole-text options on the request's default style, the spans after its own, and the rules.
    func apply(to request: inout Layoutd_V1_LayoutRequest) throws {
        if let color { request.defaultStyle.color = try Self.color(color, option: "--color") }
        try decorations.apply(to: &request.defaultStyle)
        request.spans += try styling.spans()
        request.builtinRules = try styling.builtinRules()
        request.hideBuiltinMarkers = styling.hideMarkers
        request.rules = try styling.formattingRules()
        request.backgrounds += try boxes.specs()
    }

    /// `REGEX=>STYLE`: the last `=>` splits, so a pattern may hold one.
    static func rule(_ text: String) throws -> Layoutd_V1_FormattingRule {
        guard let arrow = text.range(of: "=>", options: .backwards) else {
            throw ValidationError("--rule: \"\(text)\" is not REGEX=>STYLE")
        }
        var rule = Layoutd_V1_FormattingRule()
        rule.pattern = String(text[..<arrow.lowerBound])
        var settings: [String] = []
        for setting in text[arrow.upperBound...].split(separator: ",").map(String.init) {
            if setting == "hide" {
                rule.hideMarkers = true
            } else if setting.hasPrefix("group=") {
                guard let group = UInt32(setting.dropFirst(6)) else { throw ValidationError("--rule: \"\(setting)\" is not group=N") }
                rule.group = group
            } else if setting.hasPrefix("name=") {
                rule.name = String(setting.dropFirst(5))
            } else {
                settings.append(setting)
            }
        }
        rule.style = try span("0:0:" + settings.joined(separator: ",")).style
        return rule
    }

    /// `letterpress[,DEPTH][,#surface]`, `outline[,WIDTH][,#colour][,fill]` or `none`.
    static func effect(_ text: String, separator: Character, option: String) throws -> Layoutd_V1_TextEffect {
        let parts = text.split(separator: separator).map(String.init)
        var effect = Layoutd_V1_TextEffect()
        switch parts.first {
        case "letterpress": effect.kind = .letterpress
        case "outline": effect.kind = .outline
        case "none": return effect
        default: throw ValidationError("\(option): \"\(text)\" is not letterpress, outline or none")
        }
        for part in parts.dropFirst() {
            if let number = Float(part) {
                if effect.kind == .letterpress { effect.depth = number } else { effect.strokeWidth = number }
            } else if part.hasPrefix("#") {
                if effect.kind == .letterpress { effect.surface = try color(part, option: option) } else {
                    effect.strokeColor = try color(part, option: option)
                }
            } else if part == "fill", effect.kind == .outline {
                effect.fill = true
            } else {
                throw ValidationError("\(option): \"\(part)\" is not a number, a #colour or fill")
            }
        }
        return effect
    }

    /// `#rrggbb` or `#rrggbbaa`.
    static func color(_ text: String, option: String) throws -> Layoutd_V1_Color {
        let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
        guard digits.count == 6 || digits.count == 8, let value = UInt32(digits, radix: 16) else {
            throw ValidationError("\(option): \"\(text)\" is not #rrggbb or #rrggbbaa")
        }
        let rgba = digits.count == 6 ? value << 8 | 0xFF : value
        return .with {
            $0.red = Float((rgba >> 24) & 0xFF) / 255
            $0.green = Float((rgba >> 16) & 0xFF) / 255
            $0.blue = Float((rgba >> 8) & 0xFF) / 255
            $0.transparency = 1 - Float(rgba & 0xFF) / 255
        }
    }

    static let lineStyles: [String: Layoutd_V1_LineStyle] = [
        "single": .single, "double": .double, "thick": .thick, "dotted": .dotted, "dashed": .dashed, "none": .none,
    ]

    /// `STYLE` then `skip-ink`, a side (`left`, `right`) and a colour, in any order after it.
    static func line(_ text: String, separator: Character, option: String) throws -> Layoutd_V1_DecorationLine {
        var line = Layoutd_V1_DecorationLine()
        for (index, part) in text.split(separator: separator).map(String.init).enumerated() {
            if index == 0, let style = lineStyles[part] {
                line.style = style
            } else if part == "skip-ink" {
                line.skipInk = true
            } else if part == "left" || part == "right" {
                line.position = part == "left" ? .left : .right
            } else if part.hasPrefix("#") {
                line.color = try color(part, option: option)
            } else {
                throw ValidationError("\(option): \"\(part)\" is not a line style (single, double, thick, dotted, dashed, none), "
                                      + "skip-ink, left, right (an underline's side in vertical text) or a #colour")
            }
        }
        return line
    }

    /// `DX,DY,BLUR,#colour` (the colour may be left out: NSShadow's black at a third).
    static func shadow(_ text: String, separator: Character, option: String) throws -> Layoutd_V1_Shadow {
        let parts = text.split(separator: separator).map(String.init)
        if parts == ["none"] { return .with { $0.none = true } }
        guard (3...4).contains(parts.count), let dx = Float(parts[0]), let dy = Float(parts[1]), let blur = Float(parts[2]) else {
            throw ValidationError("\(option): \"\(text)\" is not DX\(separator)DY\(separator)BLUR\(separator)#colour")
        }
        var shadow = Layoutd_V1_Shadow.with { $0.offsetX = dx; $0.offsetY = dy; $0.blurRadius = blur }
        if parts.count == 4 { shadow.color = try color(parts[3], option: option) }
        return shadow
    }

    /// `RADIUS[,#colour][,STRENGTH]`, or `none`.
    static func glow(_ text: String, separator: Character, option: String) throws -> Layoutd_V1_Glow {
        let parts = text.split(separator: separator).map(String.init)
        if parts == ["none"] { return .with { $0.none = true } }
        guard let first = parts.first, let radius = Float(first), parts.count <= 3 else {
            throw ValidationError("\(option): \"\(text)\" is not RADIUS\(separator)#colour\(separator)STRENGTH")
        }
        var glow = Layoutd_V1_Glow.with { $0.radius = radius }
        for part in parts.dropFirst() {
            if part.hasPrefix("#") {
                glow.color = try color(part, option: option)
            } else if let strength = UInt32(part) {
                glow.strength = strength
            } else {
                throw ValidationError("\(option): \"\(part)\" is neither a #colour nor a strength")
            }
        }
        return glow
    }

    /// `linear,#c1,#c2[,...][,down|diagonal][,line|layout]`, `radial,#c1,#c2[,...][,line|layout]`,
    /// `image,N[,stretch|fit|fill|center][,line|layout]`, or `none`. Stops are spread evenly.
    static func fill(_ text: String, separator: Character, option: String) throws -> Layoutd_V1_TextFill {
        var parts = text.split(separator: separator).map(String.init)
        if parts == ["none"] { return .with { $0.none = true } }
        var fill = Layoutd_V1_TextFill()
        if let box = parts.last, let kind = ["line": Layoutd_V1_TextFill.Box.line, "layout": .layout, "span": .span][box] {
            fill.box = kind
            parts.removeLast()
        }
        guard let kind = parts.first else { throw ValidationError("\(option): \"\(text)\" names no fill") }
        switch kind {
        case "linear", "radial":
            var (start, end) = kind == "linear" ? ((0.0, 0.5), (1.0, 0.5)) : ((0.5, 0.5), (1.0, 1.0))
            if kind == "linear", let direction = parts.last, ["down", "diagonal"].contains(direction) {
                (start, end) = direction == "down" ? ((0.5, 0), (0.5, 1)) : ((0, 0), (1, 1))
                parts.removeLast()
            }
            let colours = try parts.dropFirst().map { try color($0, option: option) }
            guard colours.count >= 2 else { throw ValidationError("\(option): a gradient needs two #colours or more") }
            var gradient = Layoutd_V1_Gradient()
            gradient.start = .with { $0.x = Float(start.0); $0.y = Float(start.1) }
            gradient.end = .with { $0.x = Float(end.0); $0.y = Float(end.1) }
            gradient.stops = colours.enumerated().map { index, colour in
                .with { $0.offset = Float(index) / Float(colours.count - 1); $0.color = colour }
            }
            if kind == "linear" { fill.linearGradient = gradient } else { fill.radialGradient = gradient }
        case "image":
            guard parts.count >= 2, let index = UInt32(parts[1]), parts.count <= 3 else {
                throw ValidationError("\(option): \"\(text)\" is not image\(separator)N\(separator)MODE")
            }
            var image = Layoutd_V1_ImageFill.with { $0.image = index }
            if parts.count == 3 {
                let modes: [String: Layoutd_V1_ContentMode] = ["stretch": .scaleToFill, "fit": .aspectFit, "fill": .aspectFill, "center": .center]
                guard let mode = modes[parts[2]] else {
                    throw ValidationError("\(option): \"\(parts[2])\" is not stretch, fit, fill or center")
                }
                image.contentMode = mode
            }
            fill.image = image
        default:
            throw ValidationError("\(option): \"\(kind)\" is not linear, radial, image or none")
        }
        return fill
    }

    /// `START:END:KEY=VALUE,...`
    static func span(_ text: String) throws -> Layoutd_V1_StyleSpan {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let start = UInt32(parts[0]), let end = UInt32(parts[1]), end >= start else {
            throw ValidationError("--span: \"\(text)\" is not START:END:STYLE with START <= END")
        }
        var span = Layoutd_V1_StyleSpan()
        span.range = .with { $0.start = start; $0.length = end - start }
        for setting in parts[2].split(separator: ",").map(String.init) {
            let pair = setting.split(separator: "=", maxSplits: 1).map(String.init)
            let key = pair[0], value = pair.count == 2 ? pair[1] : ""
            let option = "--span \(key)"
            switch key {
            case "color": span.style.color = try color(value, option: option)
            case "background": span.style.background = try color(value, option: option)
            case "underline": span.style.underline = try line(value.isEmpty ? "single" : value, separator: "/", option: option)
            case "strike": span.style.strikethrough = try line(value.isEmpty ? "single" : value, separator: "/", option: option)
            case "shadow":
                // The first is the span's shadow, as one always was; more go after it.
                let made = try shadow(value, separator: "/", option: option)
                if span.style.hasShadow { span.style.shadows.append(made) } else { span.style.shadow = made }
            case "weight":
                guard let weight = UInt32(value) else { throw ValidationError("\(option): \"\(value)\" is not a number") }
                span.style.weight = try StyleValues.weight(weight, option: option)
            case "size":
                guard let size = Float(value) else { throw ValidationError("\(option): \"\(value)\" is not a number") }
                span.style.size = try StyleValues.size(size, option: option)
            case "font": span.style.family = value
            case "italic": span.style.slant = .italic
            case "effect": span.style.effect = try effect(value, separator: "/", option: option)
            case "glow": span.style.glow = try glow(value, separator: "/", option: option)
            case "fill": span.style.fill = try fill(value, separator: "/", option: option)
            case "line-break": span.style.lineBreak = try BreakingNames.lineBreak(value, option: option)
            case "word-break": span.style.wordBreak = try BreakingNames.wordBreak(value, option: option)
            case "emphasis": span.style.emphasis = try EmphasisNames.marks(value.isEmpty ? "dot" : value, option: option)
            default:
                throw ValidationError("--span: unknown key \"\(key)\" (color, background, underline, strike, shadow, weight, size, font, "
                                      + "italic, effect, glow, fill, line-break, word-break, emphasis)")
            }
        }
        return span
    }
}

/// Styles over ranges and formatting rules: `layout` and `typemode` share them.
struct SpanOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A style over a UTF-16 range: START:END:KEY=VALUE,... with keys color, background, underline "
                               + "(STYLE[/skip-ink][/left|right][/#rrggbb]), strike (STYLE[/#rrggbb]), shadow (DX/DY/BLUR/#rrggbb), weight, "
                               + "size (not in typemode), font, italic, effect (letterpress/DEPTH/#surface or outline/WIDTH/#colour/fill), "
                               + "glow (RADIUS/#rrggbb/STRENGTH), fill (as --text-fill, with /), line-break, word-break and emphasis (as the options), e.g. 0:5:underline=double/#ff0000,weight=700.",
                               valueName: "span"))
    var span: [String] = []
    @Option(help: "A built-in rule set: builtin (the note editor's *bold*, _italic_, -strike-, ~script~, 1. and CAPITALS).")
    var rules: String?
    @Flag(help: "Hide the built-in rules' markers (kept in the text, no width, no ink).") var hideMarkers = false
    @Option(help: ArgumentHelp("A formatting rule: REGEX=>STYLE, STYLE as --span's (KEY=VALUE,...), with group=N to style a "
                               + "capture group and hide to hide the rest of the match, e.g. '#(\\\\w+)=>group=1,color=#1da1f2,hide'.",
                               valueName: "rule"))
    var rule: [String] = []

    func spans() throws -> [Layoutd_V1_StyleSpan] { try span.map(PaintOptions.span) }
    func formattingRules() throws -> [Layoutd_V1_FormattingRule] { try rule.map(PaintOptions.rule) }

    func builtinRules() throws -> Layoutd_V1_BuiltinRules {
        guard let rules else { return .none }
        guard rules == "builtin" else { throw ValidationError("--rules must be builtin") }
        return .notes
    }
}

/// Background, underline, strikethrough, shadow and effect for the whole text: `layout` and
/// `typemode` share them (Type Mode's `--color` is its palette, so colour is `layout`'s own).
struct DecorationOptions: ParsableArguments {
    @Option(help: "A fill behind the glyphs, #rrggbb or #rrggbbaa.") var background: String?
    @Option(help: "Underline: single, double, thick, dotted or dashed, then ,skip-ink, ,left or ,right (its side of a vertical column) and ,#rrggbb (e.g. single,skip-ink).")
    var underline: String?
    @Flag(help: "Strike the text through (for a style or colour: --strike-style).") var strike = false
    @Option(help: "Strikethrough: single, double, thick, dotted or dashed, then ,#rrggbb.") var strikeStyle: String?
    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("Shadow: DX,DY,BLUR,#rrggbb[aa] in points (e.g. 2,2,3,#00000080); "
                                                                    + "repeat it for several, the first on top."))
    var shadow: [String] = []
    @Option(help: "Glow: RADIUS[,#rrggbb[aa]][,STRENGTH 1-8], a halo with no offset (e.g. 8,#ff2d95,3).") var glow: String?
    @Option(help: ArgumentHelp("Fill the glyphs: linear,#c1,#c2[,...] (left to right; add down or diagonal), radial,#c1,#c2[,...] "
                               + "or image,N[,stretch|fit|fill|center] (the Nth --text-fill-image); then ,line or ,layout for the "
                               + "box (default: the span's text).", valueName: "fill"))
    var textFill: String?
    @Option(help: "A PNG an image fill draws in the glyphs with -o (image,N takes the Nth of these).") var textFillImage: [String] = []
    @Option(help: "Text effect: letterpress[,DEPTH][,#surface] or outline[,WIDTH][,#colour][,fill].") var effect: String?

    func apply(to style: inout Layoutd_V1_Style) throws {
        if let background { style.background = try PaintOptions.color(background, option: "--background") }
        if let underline { style.underline = try PaintOptions.line(underline, separator: ",", option: "--underline") }
        if let strikeStyle {
            style.strikethrough = try PaintOptions.line(strikeStyle, separator: ",", option: "--strike-style")
        } else if strike {
            style.strikethrough = Layoutd_V1_DecorationLine()
        }
        let shadows = try shadow.map { try PaintOptions.shadow($0, separator: ",", option: "--shadow") }
        if let first = shadows.first {
            style.shadow = first
            style.shadows = Array(shadows.dropFirst())
        }
        if let glow { style.glow = try PaintOptions.glow(glow, separator: ",", option: "--glow") }
        if let textFill { style.fill = try PaintOptions.fill(textFill, separator: ",", option: "--text-fill") }
        if let effect { style.effect = try PaintOptions.effect(effect, separator: ",", option: "--effect") }
    }
}

/// One row per decoration: kind, line, range, style, colour and where it is drawn.
enum DecorationTable {
    static func render(_ decorations: [Layoutd_V1_TextDecoration]) -> String? {
        guard !decorations.isEmpty else { return nil }
        var rows = ["decoration     line  range        style   colour     rects  y        thickness"]
        for decoration in decorations {
            let kind = ["background", "underline", "strikethrough"][min(decoration.kind.rawValue, 2)]
            let style = PaintOptions.lineStyles.first { $0.value == decoration.style }?.key ?? "?"
            let colour = decoration.hasColor ? hex(decoration.color) : "text"
            let start = decoration.range.start, end = decoration.range.start + decoration.range.length
            rows.append(kind.padded(13) + String(format: "  %4d  ", decoration.lineIndex) + "[\(start),\(end))".padded(11)
                        + "  " + style.padded(6) + "  " + colour.padded(9)
                        + String(format: "  %5d  %7.2f  %6.2f", decoration.rects.count, decoration.rects.first?.y ?? 0, decoration.thickness))
        }
        return rows.joined(separator: "\n")
    }

    static func hex(_ color: Layoutd_V1_Color) -> String {
        func byte(_ value: Float) -> Int { Int(saturating: (value * 255).rounded()) }
        return String(format: "#%02x%02x%02x", byte(color.red), byte(color.green), byte(color.blue))
            + (color.transparency > 0 ? String(format: "%02x", byte(1 - color.transparency)) : "")
    }
}

/// One row per run of emphasis marks: its line, font and size, and the characters it marks.
enum EmphasisTable {
    static func render(_ marks: [Layoutd_V1_GlyphRun]) -> String? {
        guard !marks.isEmpty else { return nil }
        var rows = ["marks  line  font  size    marked characters (offsets)"]
        for run in marks {
            rows.append(String(format: "%5d  %4d  %4d  %6.2f  ", run.glyphIds.count, run.lineIndex, run.fontID, run.size)
                        + run.clusters.map(String.init).joined(separator: " "))
        }
        return rows.joined(separator: "\n")
    }
}

/// One row per rule match: the rule, the range it styled and the markers it hid.
enum RuleMatchTable {
    static func render(_ matches: [Layoutd_V1_RuleMatch], text: String) -> String? {
        guard !matches.isEmpty else { return nil }
        let units = Array(text.utf16)
        var rows = ["rule            range        hidden          text"]
        for match in matches {
            let start = Int(match.range.start), end = min(units.count, start + Int(match.range.length))
            let hidden = match.hidden.map { "[\($0.start),\($0.start + $0.length))" }.joined(separator: " ")
            rows.append(match.name.padded(14) + "  " + "[\(start),\(end))".padded(11) + "  " + hidden.padded(14) + "  "
                        + String(decoding: units[min(start, end)..<end], as: UTF16.self))
        }
        return rows.joined(separator: "\n")
    }
}
