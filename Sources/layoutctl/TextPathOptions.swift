import ArgumentParser
import LayoutProtocol

/// `--text-path 'M 20 200 Q 200 20 380 200' [--path-offset 10] [--path-anchor middle] [--path-side right]`:
/// the text set along a path, as SVG's textPath.
struct TextPathOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Set the text along this SVG path (absolute M, L, Q, C and Z), each glyph turned to it.",
                               valueName: "svg-path"))
    var textPath: String?
    @Option(parsing: .unconditional, help: "Points along the path where the text's anchor stands (SVG startOffset).")
    var pathOffset: Float = 0
    @Option(help: "Which of the text's points stands at the offset: start, middle or end.") var pathAnchor = "start"
    @Option(help: "Which side of the path the glyphs stand on: left (upright on a path drawn left to right) or right.")
    var pathSide = "left"

    func apply(to request: inout Layoutd_V1_LayoutRequest) throws {
        guard let textPath else { return }
        guard let anchor = ["start": Layoutd_V1_TextPath.Anchor.start, "middle": .middle, "end": .end][pathAnchor] else {
            throw ValidationError("--path-anchor must be start, middle or end")
        }
        guard let side = ["left": Layoutd_V1_TextPath.Side.left, "right": .right][pathSide] else {
            throw ValidationError("--path-side must be left or right")
        }
        request.textPath = .with {
            $0.startOffset = pathOffset
            $0.anchor = anchor
            $0.side = side
        }
        request.textPath.path.commands = try FlowOptions.svgPath(textPath, option: "--text-path")
    }
}
