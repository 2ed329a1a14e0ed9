import LayoutEngine
import LayoutWire

/// The style of a plain layout request (`PlainLayoutRequest.style(fonts:)`), made once for the
/// family and size a thread meets in a row and handed out again: the same array every time. The
/// engine's caches of the last styles validated and resolved then find a request's styles equal
/// at once (the same storage), where each request's own array was made and then compared with
/// theirs field by field, twice. Split by thread (`Shards`) as the context pool is.
final class PlainStyles: Sendable {
    private let shards = Shards<(family: String, size: Float, styles: [TextStyle])?>(count: 8) { nil }
    private let fonts: FontRegistry

    init(fonts: FontRegistry) { self.fonts = fonts }

    /// `[plain.style(fonts:)]`, the array handed out last on this thread when its family and size
    /// are the same.
    func styles(of plain: PlainLayoutRequest) -> [TextStyle] {
        shards.withThreadShard { last in
            if let last, last.size == plain.size, last.family == plain.family { return last.styles }
            let made = [plain.style(fonts: fonts)]
            last = (plain.family, plain.size, made)
            return made
        }
    }
}
