import Testing
@testable import LayoutEngine
@testable import LayoutServer
import LayoutWire

/// A plain layout request's style is handed out again while the family and size stay the same:
/// the same array, equal to the one the request makes itself, and a new one when either changes.
@Suite struct PlainStylesTests {
    static let fonts = try! FontRegistry.load(paths: DefaultFonts.installedPaths)

    static func plain(_ family: String, _ size: Float) -> PlainLayoutRequest {
        var plain = PlainLayoutRequest()
        plain.text = "the same style again"
        plain.width = 300
        (plain.family, plain.size) = (family, size)
        return plain
    }

    static func storage(_ styles: [TextStyle]) -> UnsafeRawPointer? { styles.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } }

    @Test func theSameFamilyAndSizeGetTheSameArray() throws {
        let cache = PlainStyles(fonts: Self.fonts)
        let requests = [("", Float(0)), ("Noto Sans", 24), ("Noto Sans", 24), ("Noto Serif", 24), ("Noto Serif", 24), ("Noto Serif", 12),
                        ("", 0), ("", 0)].map { Self.plain($0.0, $0.1) }
        var previous: (request: PlainLayoutRequest, styles: [TextStyle])?
        for plain in requests {
            let styles = cache.styles(of: plain)
            #expect(styles == [plain.style(fonts: Self.fonts)], "\(plain.family) \(plain.size)")
            if let previous {
                let same = previous.request.family == plain.family && previous.request.size == plain.size
                #expect((Self.storage(previous.styles) == Self.storage(styles)) == same, "\(plain.family) \(plain.size)")
            }
            previous = (plain, styles)
        }
    }

    /// The engine's request made with the handed-out styles is the request made without them.
    @Test func theRequestIsTheSameEitherWay() throws {
        let cache = PlainStyles(fonts: Self.fonts)
        for plain in [Self.plain("", 0), Self.plain("Noto Sans", 24), Self.plain("Noto Sans", 24)] {
            let made = try #require(plain.engineRequest(fonts: Self.fonts))
            let given = try #require(plain.engineRequest(fonts: Self.fonts, styles: cache.styles(of: plain)))
            #expect(made.text.styles == given.text.styles && made.text.units == given.text.units && made.width == given.width)
            #expect(made.text.runs.map(\.range) == given.text.runs.map(\.range) && made.text.paints == given.text.paints)
        }
    }
}
