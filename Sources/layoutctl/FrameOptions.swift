import ArgumentParser
import Foundation
import LayoutProtocol

/// `--frame 1080x1920` and its fill and placement: with -o, the text drawn on a whole story frame.
struct FrameOptions: ParsableArguments {
    @Option(help: "With -o: draw a whole story frame of WIDTHxHEIGHT points around the text (e.g. 1080x1920).")
    var frame: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("The frame's fill: #rrggbb, linear:#from:#to[:ANGLE] (degrees, 90 is top to bottom), "
                               + "radial:#centre:#edge, or photo:FILE.png (covering the frame; photo-fit:FILE.png to fit inside it)."))
    var fill: String?
    @Option(parsing: .unconditional, help: "Where the text block's centre (or --anchor) sits on the frame, X,Y in 0-1 (default 0.5,0.5).") var position: String?
    @Option(parsing: .unconditional, help: "The block's point placed at --position, X,Y in 0-1 of the block (default 0.5,0.5).") var anchor: String?
    @Option(parsing: .unconditional, help: "The block's rotation in degrees, clockwise.") var rotate: Float = 0
    @Option(parsing: .unconditional, help: "The block's scale, as a pinch leaves it (default 1).") var pinch: Float = 0

    func apply(to render: inout Layoutd_V1_RenderRequest) throws {
        guard let frame else {
            guard fill == nil, position == nil, anchor == nil, rotate == 0, pinch == 0 else {
                throw ValidationError("--fill, --position, --anchor, --rotate and --pinch need --frame")
            }
            return
        }
        let sides = frame.split(separator: "x").compactMap { Float($0) }
        guard sides.count == 2 else { throw ValidationError("--frame must be WIDTHxHEIGHT") }
        var story = Layoutd_V1_StoryFrame()
        story.width = sides[0]
        story.height = sides[1]
        story.rotation = rotate
        story.scale = pinch
        if let position { story.position = try Self.point(position, option: "--position") }
        if let anchor { story.anchor = try Self.point(anchor, option: "--anchor") }
        if let fill { story.fill = try Self.fill(fill) }
        render.frame = story
    }

    static func point(_ text: String, option: String) throws -> Layoutd_V1_Point {
        let values = text.split(separator: ",").compactMap { Float($0) }
        guard values.count == 2 else { throw ValidationError("\(option) must be X,Y") }
        return .with { $0.x = values[0]; $0.y = values[1] }
    }

    static func fill(_ text: String) throws -> Layoutd_V1_CanvasFill {
        var fill = Layoutd_V1_CanvasFill()
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        switch parts[0] {
        case "linear", "radial":
            let fields = parts.count == 2 ? parts[1].split(separator: ":").map(String.init) : []
            guard fields.count >= 2 else { throw ValidationError("--fill \(parts[0]) needs two colours: \(parts[0]):#from:#to") }
            var gradient = Layoutd_V1_Gradient()
            gradient.stops = try [0, 1].map { index in
                try .with { $0.offset = Float(index); $0.color = try PaintOptions.color(fields[index], option: "--fill") }
            }
            if parts[0] == "linear" {
                let angle = (fields.count > 2 ? Double(fields[2]) : nil) ?? 90
                let dx = cos(angle * .pi / 180) / 2, dy = sin(angle * .pi / 180) / 2
                gradient.start = .with { $0.x = Float(0.5 - dx); $0.y = Float(0.5 - dy) }
                gradient.end = .with { $0.x = Float(0.5 + dx); $0.y = Float(0.5 + dy) }
                fill.linearGradient = gradient
            } else {
                gradient.start = .with { $0.x = 0.5; $0.y = 0.5 }
                gradient.end = .with { $0.x = 1; $0.y = 1 }
                fill.radialGradient = gradient
            }
        case "photo", "photo-fit":
            guard parts.count == 2 else { throw ValidationError("--fill photo:FILE.png") }
            fill.photo = .with {
                $0.png = (try? Data(contentsOf: URL(fileURLWithPath: parts[1]))) ?? Data()
                $0.fit = parts[0] == "photo-fit"
            }
        default:
            fill.color = try PaintOptions.color(text, option: "--fill")
        }
        return fill
    }
}
