import ArgumentParser
import LayoutProtocol

/// Shapes behind the text (`--backdrop`): per-line rounded rects, one connected outline, one block,
/// or a highlight of a range, each with its fill, padding, radius, border and shadow.
struct BackgroundOptions: ParsableArguments {
    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "A background shape (repeatable): per-line, connected, block or highlight:START-END, then ,KEY=VALUE: fill=#rrggbb[aa], "
        + "padding=H/V, radius=R, touching, border=WIDTH/#rrggbb, dashes=ON/OFF/..., shadow=DX/DY/BLUR/#rrggbbaa "
        + "(e.g. per-line,border=2/#000000,dashes=6/3).", valueName: "shape"))
    var backdrop: [String] = []

    func specs() throws -> [Layoutd_V1_BackgroundSpec] { try backdrop.map(Self.spec) }

    static func spec(_ text: String) throws -> Layoutd_V1_BackgroundSpec {
        let option = "--backdrop"
        var parts = text.split(separator: ",").map(String.init)
        guard !parts.isEmpty else { throw ValidationError("\(option): empty") }
        var spec = Layoutd_V1_BackgroundSpec()
        let kind = parts.removeFirst()
        switch kind {
        case "per-line": spec.kind = .perLine
        case "connected": spec.kind = .connected
        case "block": spec.kind = .block
        default:
            let range = kind.hasPrefix("highlight:") ? kind.dropFirst("highlight:".count).split(separator: "-") : []
            guard range.count == 2, let start = UInt32(range[0]), let end = UInt32(range[1]), end >= start else {
                throw ValidationError("\(option): \"\(kind)\" is not per-line, connected, block or highlight:START-END")
            }
            spec.kind = .highlight
            spec.range = .with { $0.start = start; $0.length = end - start }
        }
        func numbers(_ value: String, _ key: String, count: ClosedRange<Int>) throws -> [Float] {
            let values = value.split(separator: "/").map { Float($0) }
            guard count.contains(values.count), values.allSatisfy({ $0 != nil }) else {
                throw ValidationError("\(option): \(key)=\"\(value)\" needs \(count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound) to \(count.upperBound)") numbers split by /")
            }
            return values.compactMap { $0 }
        }
        // Unset as a whole the geometry is the daemon's default (8, 4, radius 8): a key keeps the others at it.
        var geometry: (horizontal: Float, vertical: Float, radius: Float)?
        for part in parts {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            let key = pair[0], value = pair.count == 2 ? pair[1] : ""
            switch key {
            case "fill": spec.fill = try PaintOptions.color(value, option: "\(option) fill")
            case "padding":
                let padding = try numbers(value, key, count: 2...2)
                geometry = (padding[0], padding[1], geometry?.radius ?? 8)
            case "radius":
                geometry = (geometry?.horizontal ?? 8, geometry?.vertical ?? 4, try numbers(value, key, count: 1...1)[0])
            case "touching": spec.touching = true
            case "border":
                let pieces = value.split(separator: "/", maxSplits: 1).map(String.init)
                guard let width = Float(pieces[0]) else { throw ValidationError("\(option): border=\"\(value)\" is not WIDTH/#rrggbb") }
                spec.border.width = width
                if pieces.count == 2 { spec.border.color = try PaintOptions.color(pieces[1], option: "\(option) border") }
            case "dashes": spec.border.dashes = try numbers(value, key, count: 1...16)
            case "shadow":
                let pieces = value.split(separator: "/").map(String.init)
                let offsets = try numbers(pieces.prefix(3).joined(separator: "/"), key, count: 3...3)
                (spec.shadow.offsetX, spec.shadow.offsetY, spec.shadow.blurRadius) = (offsets[0], offsets[1], offsets[2])
                if pieces.count == 4 { spec.shadow.color = try PaintOptions.color(pieces[3], option: "\(option) shadow") }
            default:
                throw ValidationError("\(option): unknown key \"\(key)\" (fill, padding, radius, touching, border, dashes, shadow)")
            }
        }
        if let geometry {
            spec.geometry = .with {
                $0.horizontalPadding = geometry.horizontal
                $0.verticalPadding = geometry.vertical
                $0.cornerRadius = geometry.radius
            }
        }
        return spec
    }
}
