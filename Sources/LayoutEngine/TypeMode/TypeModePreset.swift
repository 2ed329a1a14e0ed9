import Foundation

/// Type Mode's named styles: each a documented bundle of settings a request may override.
///
/// | preset | font | sizing | alignment | background | colour |
/// |---|---|---|---|---|---|
/// | modern | Noto Sans Bold | per line | natural (left, or right in a right-to-left paragraph) | none | text in the palette colour |
/// | neon | Noto Serif Bold Italic | per line, 18–80 pt (the project's choice: the Instagram article gives no sizes) | center | none | interior and glow from the palette colour |
/// | typewriter | DejaVu Sans Mono | uniform, 14–40 pt | center | per line, touching, radius 4 | black text on the palette colour |
/// | strong | Noto Sans Black (Bold) | per line | center | connected, radius 12 | white text on the palette colour |
/// | classic | Noto Sans | uniform, 16–48 pt | natural | block, radius 18 | black text on the palette colour |
public struct TypeModePreset: Sendable {
    public var name: String
    public var style: TextStyle
    public var sizing: TypeModeSizing
    public var minSize: Double
    public var maxSize: Double
    public var alignment: TextAlignment
    public var lineHeightMultiple: Double
    public var background: BackgroundStyle.Kind?
    public var backgroundPadding: (horizontal: Double, vertical: Double)
    public var cornerRadius: Double
    public var touching: Bool

    public static let names = ["modern", "neon", "typewriter", "strong", "classic"]

    public static func named(_ name: String) -> TypeModePreset? {
        switch name.lowercased() {
        case "modern":
            TypeModePreset(name: "modern", style: TextStyle(family: "Noto Sans", weight: 700), sizing: .perLine,
                           minSize: 14, maxSize: 96, alignment: .natural, lineHeightMultiple: 1, background: nil,
                           backgroundPadding: (8, 4), cornerRadius: 8, touching: false)
        case "neon":
            TypeModePreset(name: "neon", style: TextStyle(family: "Noto Serif", weight: 700, italic: true), sizing: .perLine,
                           minSize: 18, maxSize: 80, alignment: .center, lineHeightMultiple: 1.1, background: nil,
                           backgroundPadding: (8, 4), cornerRadius: 8, touching: false)
        case "typewriter":
            TypeModePreset(name: "typewriter", style: TextStyle(family: "DejaVu Sans Mono"), sizing: .uniform,
                           minSize: 14, maxSize: 40, alignment: .center, lineHeightMultiple: 1.2, background: .perLine,
                           backgroundPadding: (6, 2), cornerRadius: 4, touching: true)
        case "strong":
            TypeModePreset(name: "strong", style: TextStyle(family: "Noto Sans", weight: 900), sizing: .perLine,
                           minSize: 14, maxSize: 96, alignment: .center, lineHeightMultiple: 1, background: .connected,
                           backgroundPadding: (12, 4), cornerRadius: 12, touching: true)
        case "classic":
            TypeModePreset(name: "classic", style: TextStyle(family: "Noto Sans"), sizing: .uniform,
                           minSize: 16, maxSize: 48, alignment: .natural, lineHeightMultiple: 1.15, background: .block,
                           backgroundPadding: (16, 12), cornerRadius: 18, touching: false)
        default: nil
        }
    }

    /// A request for `text` with every setting the preset gives.
    public func request(text: String, width: Double) -> TypeModeRequest {
        TypeModeRequest(text: text, style: style, width: width, minSize: minSize, maxSize: maxSize, alignment: alignment,
                        lineHeightMultiple: lineHeightMultiple, sizing: sizing)
    }

    /// The preset's background in `fill`; nil for a preset without one.
    public func backgroundStyle(fill: Color) -> BackgroundStyle? {
        background.map { kind in
            BackgroundStyle(kind: kind, horizontalPadding: backgroundPadding.horizontal, verticalPadding: backgroundPadding.vertical,
                            cornerRadius: cornerRadius, fill: fill, touching: touching)
        }
    }
}

/// Colours a preset derives from one palette colour, by formulas every client can repeat.
public struct TextEffects: Equatable, Sendable {
    public var textColor: Color
    public var glowColor: Color?
    public var glowRadius: Double

    /// - neon: the tube's interior is the palette colour mixed 65% toward white, per sRGB channel
    ///   (`c + (1 − c) × 0.65`); the glow is the palette colour at alpha 0.85 with a radius of
    ///   0.3 × the largest line size.
    /// - typewriter, classic: black text on the palette colour.
    /// - strong: white text on the palette colour.
    /// - modern and no preset: text in the palette colour.
    public static func derive(preset: String?, palette: Color, largestSize: Double) -> TextEffects {
        switch preset {
        case "neon":
            func mix(_ c: Double) -> Double { c + (1 - c) * 0.65 }
            return TextEffects(textColor: Color(red: mix(palette.red), green: mix(palette.green), blue: mix(palette.blue)),
                               glowColor: Color(red: palette.red, green: palette.green, blue: palette.blue, alpha: 0.85),
                               glowRadius: 0.3 * largestSize)
        case "typewriter", "classic":
            return TextEffects(textColor: Color(red: 0, green: 0, blue: 0), glowColor: nil, glowRadius: 0)
        case "strong":
            return TextEffects(textColor: Color(red: 1, green: 1, blue: 1), glowColor: nil, glowRadius: 0)
        default:
            return TextEffects(textColor: palette, glowColor: nil, glowRadius: 0)
        }
    }
}
