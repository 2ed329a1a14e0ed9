import Foundation
@testable import LayoutEngine

/// One line of HarfBuzz's in-house shaping tests (`test/shape/data/in-house/tests/*.tests`):
/// `font;hb-shape options;unicodes;expected`, read into what a layout request can say, or into
/// the reason it cannot (an option layoutd has no counterpart for, a font that is not there).
struct HarfBuzzTestLine {
    /// The file it comes from and its line number there, from 1.
    var file: String
    var number: Int
    var fontPath: String
    var faceIndex = 0
    var text: String
    /// The options as the line gives them, for hb-shape.
    var options: [String]
    var features: [FontFeature] = []
    var variations: [FontVariation] = []
    var script: String?
    var language: String?
    var direction: String?
    /// HarfBuzz's `--font-ptem`: the point size an AAT `trak` table tracks at.
    var pointSize: Float?
    var glyphFlags = false

    var testDescription: String { "\(file):\(number)" }

    /// The lines of a `.tests` file: each either a line to lay out, or why it is skipped. A file
    /// whose `@shapers` leaves HarfBuzz's own OpenType shaper out is skipped whole.
    static func read(_ url: URL, fonts: URL) throws -> [Result<HarfBuzzTestLine, Skip>] {
        let file = url.lastPathComponent
        var lines: [Result<HarfBuzzTestLine, Skip>] = []
        for (index, raw) in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("@shapers=") {
                let shapers = line.dropFirst("@shapers=".count).prefix { $0 != " " && $0 != "#" }.split(separator: ",")
                if !shapers.contains("ot") { return [.failure(Skip(reason: "the file runs only the \(shapers.joined(separator: ", ")) shapers"))] }
            }
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix("@") { continue }
            lines.append(parse(line, file: file, number: index + 1, fonts: fonts))
        }
        return lines
    }

    /// Why a line is not laid out.
    struct Skip: Error, Hashable {
        var reason: String
    }

    static func parse(_ line: String, file: String, number: Int, fonts: URL) -> Result<HarfBuzzTestLine, Skip> {
        let fields = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 3 else { return .failure(Skip(reason: "not font;options;unicodes;expected")) }
        let fontField = fields[0]
        guard fontField.hasPrefix("../fonts/") else { return .failure(Skip(reason: "a font of macOS's own, not in the suite")) }
        let fontPath = fonts.appendingPathComponent(String(fontField.dropFirst("../fonts/".count))).path
        guard FileManager.default.fileExists(atPath: fontPath) else { return .failure(Skip(reason: "a font the suite lacks")) }
        var scalars: [Unicode.Scalar] = []
        for code in fields[2].split(separator: ",") {
            // "U+1F636" or, as emoji-clusters.tests writes them, "1F636".
            guard let value = UInt32(code.hasPrefix("U+") ? code.dropFirst(2) : code, radix: 16) else {
                return .failure(Skip(reason: "unicodes not as U+XXXX"))
            }
            guard let scalar = Unicode.Scalar(value) else { return .failure(Skip(reason: "a lone surrogate, which no Swift string holds")) }
            scalars.append(scalar)
        }
        if let breaking = scalars.first(where: { [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].contains($0.value) }) {
            return .failure(Skip(reason: "a line or paragraph break (U+\(String(format: "%04X", breaking.value))): layoutd breaks the line"))
        }
        if scalars.contains(where: { $0.value == 0x09 }) { return .failure(Skip(reason: "a tab: layoutd moves it to a tab stop")) }
        if scalars.contains(where: { $0.value == 0 }) { return .failure(Skip(reason: "U+0000")) }
        // "--variations wght=700" is hb-shape's "--variations=wght=700".
        var options: [String] = []
        for token in fields[1].split(separator: " ").map(String.init) {
            if let last = options.last, last.hasPrefix("--"), !last.contains("="), !token.hasPrefix("-"), last != "--ned" {
                options[options.count - 1] = last + "=" + token
            } else {
                options.append(token)
            }
        }
        var parsed = HarfBuzzTestLine(file: file, number: number, fontPath: fontPath, text: String(String.UnicodeScalarView(scalars)),
                                      options: options)
        for option in options {
            if let why = parsed.apply(option) { return .failure(Skip(reason: why)) }
        }
        return .success(parsed)
    }

    /// Takes `option` in, or says why layoutd has no counterpart for it.
    mutating func apply(_ option: String) -> String? {
        let parts = option.split(separator: "=", maxSplits: 1).map(String.init)
        let name = parts[0], value = parts.count > 1 ? parts[1] : ""
        switch name {
        // How hb-shape prints, or which of its font functions it uses (layoutd uses HarfBuzz's own
        // OpenType ones, and so does the oracle's run): nothing to lay out differently.
        case "--font-funcs", "--no-glyph-names", "--no-positions", "--no-clusters", "--ned", "--no-advances", "--face-loader":
            return nil
        case "--show-flags", "--unsafe-to-concat":
            glyphFlags = true
            return nil
        case "--shaper", "--shapers":
            return value == "ot" ? nil : "the \(value) shaper"
        case "--face-index":
            guard let index = Int(value) else { return "face index \(value)" }
            faceIndex = index
            return nil
        case "--features":
            for item in value.split(separator: ",") {
                guard let feature = Self.feature(String(item)) else { return "the feature \(item): layoutd sets features on whole spans" }
                features.append(feature)
            }
            return nil
        case "--variations":
            for item in value.split(separator: ",") {
                let pair = item.split(separator: "=")
                guard pair.count == 2, pair[0].count == 4, let number = Float(pair[1]) else { return "the variation \(item)" }
                variations.append(FontVariation(tag: String(pair[0]), value: number))
            }
            return nil
        case "--script":
            guard (try? StyleRules.script(value, field: "script")) != nil else { return "the script \(value)" }
            script = value
            return nil
        case "--language":
            language = value
            return nil
        case "--direction":
            guard ["l", "ltr", "r", "rtl", "t", "ttb"].contains(value) else { return "direction \(value)" }
            direction = value
            return nil
        case "--font-ptem":
            guard let size = Float(value) else { return "ptem \(value)" }
            pointSize = size
            return nil
        case "--cluster-level":
            return value == "0" ? nil : "cluster level \(value): layoutd shapes at level 0, grapheme clusters kept whole"
        default:
            return "hb-shape's \(name), which layoutd has no counterpart for"
        }
    }

    /// An hb-shape feature string ("liga", "-liga", "+kern", "salt=2") for the whole text; nil
    /// for one with a range ("-liga[3:5]").
    static func feature(_ text: String) -> FontFeature? {
        guard !text.contains("[") else { return nil }
        var body = Substring(text)
        var value: UInt32 = 1
        if body.hasPrefix("-") { value = 0; body = body.dropFirst() } else if body.hasPrefix("+") { body = body.dropFirst() }
        if let equals = body.firstIndex(of: "=") {
            guard let number = UInt32(body[body.index(after: equals)...]) else { return nil }
            value = number
            body = body[..<equals]
        }
        guard body.count == 4 else { return nil }
        return FontFeature(tag: String(body), value: value)
    }
}
