import LayoutEngine
import LayoutWire
import Testing

@Suite struct ConversionTests {
    static let fonts = try! FontRegistry.load(paths: ["/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
                                                      "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf"])

    func convert(_ configure: (inout Layoutd_V1_LayoutRequest) -> Void) -> Result<ParagraphRequest, LayoutError> {
        var request = Layoutd_V1_LayoutRequest()
        request.text = "héllo 👋 world"
        request.width = 200
        configure(&request)
        return Result { () throws(LayoutError) in try request.paragraphRequest(fonts: Self.fonts) }
    }

    func field(_ configure: (inout Layoutd_V1_LayoutRequest) -> Void) -> String? {
        if case .failure(let error) = convert(configure) { return error.field }
        return nil
    }

    @Test func defaultsFillWhatTheRequestLeavesOut() throws {
        let request = try convert { _ in }.get()
        #expect(request.text.styles == [TextStyle(family: "Noto Sans", weight: 400, italic: false, size: 17)])
        #expect(request.height == nil && request.maxLines == nil && request.lineHeight == nil)
        #expect(request.lineHeightMultiple == 1)
        #expect(request.truncationToken == "\u{2026}")
    }

    @Test func spansOverrideTheDefaultStyleAndLaterSpansWin() throws {
        let request = try convert {
            $0.defaultStyle.size = 20
            $0.spans = [.with { $0.range = .with { $0.start = 0; $0.length = 5 }; $0.style.weight = 700 },
                        .with { $0.range = .with { $0.start = 2; $0.length = 2 }; $0.style.size = 30 }]
        }.get()
        let runs = request.text.runs.map { ($0.range, request.text.styles[$0.style]) }
        #expect(runs.map(\.0) == [0..<2, 2..<4, 4..<5, 5..<14])
        #expect(runs.map(\.1.weight) == [700, 700, 700, 400])
        #expect(runs.map(\.1.size) == [20, 30, 20, 20])
    }

    @Test func emptyTokenMeansNoToken() throws {
        #expect(try convert { $0.truncation.token = "" }.get().truncationToken == nil)
        #expect(try convert { $0.truncation.token = "..." }.get().truncationToken == "...")
    }

    @Test func everyBadFieldIsNamed() {
        #expect(field { $0.width = .nan } == "width")
        #expect(field { $0.height = -1 } == "height")
        #expect(field { $0.lineHeightMultiple = -2 } == "line_height_multiple")
        #expect(field { $0.direction = .UNRECOGNIZED(9) } == "direction")
        #expect(field { $0.defaultStyle.weight = 5000 } == "default_style.weight")
        #expect(field { $0.defaultStyle.family = "Nope" } == "default_style.family")
        #expect(field { $0.defaultStyle.language = "en US!" } == "default_style.language")
        #expect(field { $0.spans = [.with { $0.range = .with { $0.start = 7; $0.length = 1 } }] } == "spans[0].range")
        #expect(field { $0.spans = [.init(), .init()] } == "spans[0].range")
    }
}
