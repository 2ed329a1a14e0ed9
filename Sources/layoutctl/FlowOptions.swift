import ArgumentParser
import Foundation
import LayoutProtocol

/// Text that flows: `--exclude` shapes, a `--shape` for the box, `--columns` or `--container`
/// boxes the text runs through, and `--valign`.
struct FlowOptions: ParsableArguments {
    static let shapeHelp = "rect:X,Y,W,H, round:X,Y,W,H,R, ellipse:CX,CY,RX,RY, circle:CX,CY,R, polygon:X1,Y1,X2,Y2,... "
        + "path:SVG (M, L, Q, C and Z, absolute), then ;evenodd for that fill rule, or image:FILE.png@X,Y,W,H[,THRESHOLD] "
        + "(the picture's pixels with alpha above THRESHOLD, default 0, stretched over the rect)"

    @Option(help: ArgumentHelp("A shape the text flows around, in the box's points: \(shapeHelp), then :both, :start, "
                               + ":end, :widest, :clear or :none (the side text takes) and ;margin=M (repeatable; with --box, "
                               + "the last box's)."))
    var exclude: [String] = []
    @Option(parsing: .unconditional, help: "The margin of every --exclude that gives none, in points.") var excludeMargin: Float = 0
    @Option(help: ArgumentHelp("The box is this shape: lines fill its inside (\(shapeHelp)).")) var container: String?
    @Option(parsing: .unconditional, help: "How far lines keep inside --container's shape, in points.") var containerInset: Float = 0
    @Option(parsing: .unconditional, help: "Flow through N columns side by side across --width, each --height tall.")
    var columns: Int = 0
    @Option(parsing: .unconditional, help: "Space between --columns, in points.") var gap: Float = 12
    @Option(help: "A box the text flows into, X,Y,W,H in points (H 0: unlimited); repeat for the next ones.")
    var box: [String] = []
    @Option(help: "Where lines sit in a box they do not fill: top, center, bottom or justify.") var valign: String = "top"
    @Option(parsing: .unconditional, help: "Free intervals narrower than this take no text, in points (default: one em).") var minFragment: Float = 0

    func apply(to request: inout Layoutd_V1_LayoutRequest) throws {
        guard let alignment = ["top": Layoutd_V1_VerticalAlignment.top, "center": .center, "bottom": .bottom,
                               "justify": .justifyLines][valign] else {
            throw ValidationError("--valign must be top, center, bottom or justify")
        }
        request.verticalAlignment = alignment
        request.minFragmentWidth = minFragment
        let exclusions = try exclude.map { try Self.exclusion($0, margin: excludeMargin) }
        guard columns > 0 || !box.isEmpty else {
            request.exclusions = exclusions
            if let container { request.shape = try Self.shape(container, option: "--container") }
            request.shapeInset = containerInset
            return
        }
        guard columns == 0 || box.isEmpty else { throw ValidationError("give --columns or --box, not both") }
        var boxes: [Layoutd_V1_Container] = []
        if columns > 0 {
            guard columns <= 64 else { throw ValidationError("--columns takes at most 64") }
            guard columns == 1 || request.height > 0 else { throw ValidationError("--columns needs --height: each column's") }
            let width = (request.width - gap * Float(columns - 1)) / Float(columns)
            for index in 0..<columns {
                boxes.append(.with {
                    $0.origin = .with { $0.x = Float(index) * (width + gap) }
                    $0.width = width
                    $0.height = request.height
                })
            }
        } else {
            for text in box {
                let values = text.split(separator: ",").compactMap { Float($0.trimmingCharacters(in: .whitespaces)) }
                guard values.count == 4 else { throw ValidationError("--box must be X,Y,W,H") }
                boxes.append(.with {
                    $0.origin = .with { $0.x = values[0]; $0.y = values[1] }
                    $0.width = values[2]
                    $0.height = values[3]
                })
            }
        }
        // The exclusions and shape belong to the last box given (or every column).
        for index in boxes.indices where columns > 0 || index == boxes.count - 1 {
            boxes[index].exclusions = exclusions
            if let container { boxes[index].shape = try Self.shape(container, option: "--container") }
            boxes[index].inset = containerInset
        }
        request.containers = boxes
        request.width = 0
        request.height = 0
    }

    static let sides: [String: Layoutd_V1_WrapSide] = ["both": .both, "start": .start, "end": .end, "widest": .widest,
                                                         "clear": .clear, "none": .none]

    /// SHAPE[:SIDE][;margin=M][;wrap=SIDE][;evenodd], in any order after the shape.
    static func exclusion(_ text: String, margin: Float = 0) throws -> Layoutd_V1_Exclusion {
        var exclusion = Layoutd_V1_Exclusion()
        exclusion.margin = margin
        var parts = text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        var shapeText = parts.removeFirst()
        // The side may follow the numbers after a colon, as in ellipse:100,80,40,30:start.
        if let colon = shapeText.lastIndex(of: ":"), let side = sides[String(shapeText[shapeText.index(after: colon)...])] {
            exclusion.wrap = side
            shapeText = String(shapeText[..<colon])
        }
        for option in parts {
            let pair = option.split(separator: "=", maxSplits: 1).map(String.init)
            switch (pair[0], pair.count) {
            case ("evenodd", 1): shapeText += ";evenodd"
            case ("margin", 2):
                guard let value = Float(pair[1]) else { throw ValidationError("--exclude margin must be a number") }
                exclusion.margin = value
            case ("wrap", 2):
                guard let side = sides[pair[1]] else { throw ValidationError("--exclude wrap must be both, start, end, widest, clear or none") }
                exclusion.wrap = side
            default: throw ValidationError("--exclude: \(option) is not margin=M, wrap=SIDE or evenodd")
            }
        }
        exclusion.shape = try shape(shapeText, option: "--exclude")
        return exclusion
    }

    /// `FILE.png@X,Y,W,H[,THRESHOLD]`: a picture's silhouette over a rect.
    static func imageShape(_ text: String, option: String) throws -> Layoutd_V1_ImageShape {
        guard let at = text.lastIndex(of: "@") else { throw ValidationError("\(option): image:FILE.png@X,Y,W,H[,THRESHOLD], not \(text)") }
        let values = text[text.index(after: at)...].split(separator: ",").map { Float($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == 4 || values.count == 5, values.allSatisfy({ $0 != nil }) else {
            throw ValidationError("\(option): image:FILE.png@X,Y,W,H[,THRESHOLD], not \(text)")
        }
        let path = String(text[..<at])
        guard let png = FileManager.default.contents(atPath: path) else { throw ValidationError("\(option): cannot read \(path)") }
        return .with { image in
            image.png = png
            image.rect = .with { $0.x = values[0]!; $0.y = values[1]!; $0.width = values[2]!; $0.height = values[3]! }
            if values.count == 5 { image.threshold = values[4]! }
        }
    }

    static func shape(_ text: String, option: String) throws -> Layoutd_V1_Shape {
        var shape = Layoutd_V1_Shape()
        var body = text
        if body.hasSuffix(";evenodd") {
            shape.fillRule = .evenOdd
            body.removeLast(";evenodd".count)
        }
        let parts = body.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2 else { throw ValidationError("\(option) must be KIND:NUMBERS (\(shapeHelp))") }
        if parts[0] == "path" {
            shape.path.commands = try svgPath(parts[1], option: option)
            return shape
        }
        if parts[0] == "image" {
            shape.image = try imageShape(parts[1], option: option)
            return shape
        }
        let numbers = parts[1].split(separator: ",").map { Float($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.allSatisfy({ $0 != nil }) else { throw ValidationError("\(option): \(parts[1]) is not a list of numbers") }
        let values = numbers.map { $0! }
        func rect(_ v: ArraySlice<Float>) -> Layoutd_V1_Rect {
            let v = Array(v)
            return .with { $0.x = v[0]; $0.y = v[1]; $0.width = v[2]; $0.height = v[3] }
        }
        switch (parts[0], values.count) {
        case ("rect", 4): shape.rect = rect(values[0..<4])
        case ("ellipse", 4):  // centre and radii
            shape.ellipse = .with { $0.x = values[0] - values[2]; $0.y = values[1] - values[3]; $0.width = 2 * values[2]; $0.height = 2 * values[3] }
        case ("circle", 3):
            shape.ellipse = .with { $0.x = values[0] - values[2]; $0.y = values[1] - values[2]; $0.width = 2 * values[2]; $0.height = 2 * values[2] }
        case ("round", 5): shape.roundedRect = .with { $0.rect = rect(values[0..<4]); $0.radius = values[4] }
        case ("polygon", let count) where count >= 6 && count % 2 == 0:
            shape.polygon.points = stride(from: 0, to: count, by: 2).map { k in .with { $0.x = values[k]; $0.y = values[k + 1] } }
        default:
            throw ValidationError("\(option) must be \(shapeHelp)")
        }
        return shape
    }

    /// An SVG path of absolute M, L, Q, C and Z, numbers apart by spaces or commas.
    static func svgPath(_ text: String, option: String) throws -> [Layoutd_V1_PathCommand] {
        var commands: [Layoutd_V1_PathCommand] = []
        var tokens: [String] = []
        var number = ""
        for character in text {
            if character.isLetter {
                if !number.isEmpty { tokens.append(number); number = "" }
                tokens.append(String(character))
            } else if character == " " || character == "," {
                if !number.isEmpty { tokens.append(number); number = "" }
            } else {
                number.append(character)
            }
        }
        if !number.isEmpty { tokens.append(number) }
        var index = 0
        let counts: [String: (Layoutd_V1_PathVerb, Int)] = ["M": (.move, 2), "L": (.line, 2), "Q": (.quad, 4), "C": (.cubic, 6),
                                                             "Z": (.close, 0), "z": (.close, 0)]
        while index < tokens.count {
            guard let (verb, count) = counts[tokens[index]] else {
                throw ValidationError("\(option) path: \(tokens[index]) is not one of M, L, Q, C, Z (absolute)")
            }
            let values = tokens[(index + 1)...].prefix(count).compactMap(Float.init)
            guard values.count == count else { throw ValidationError("\(option) path: \(tokens[index]) takes \(count) numbers") }
            commands.append(.with { $0.verb = verb; $0.points = values })
            index += 1 + count
        }
        return commands
    }
}

/// Each line's container and fragment, for text that flows.
enum FragmentTable {
    static func render(_ reply: Layoutd_V1_LayoutReply) -> String? {
        guard !reply.containers.isEmpty || reply.lines.contains(where: { $0.hasFragmentRect }) else { return nil }
        var rows = ["line  container  fragment x, y, width x height"]
        for (index, line) in reply.lines.enumerated() {
            let f = line.fragmentRect
            rows.append(String(format: "%4d  %9d  %.2f, %.2f, %.2f x %.2f", index, line.container, f.x, f.y, f.width, f.height))
        }
        for container in reply.containers {
            rows.append(String(format: "container %d: text [%d,%d), lines %d..<%d", container.index, container.range.start,
                               container.range.start + container.range.length, container.firstLine,
                               container.firstLine + container.lineCount))
        }
        if reply.hasOverflowRange {
            rows.append(String(format: "overflow [%d,%d)", reply.overflowRange.start,
                               reply.overflowRange.start + reply.overflowRange.length))
        }
        return rows.joined(separator: "\n")
    }
}
