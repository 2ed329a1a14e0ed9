import LayoutEngine
import LayoutWire
import Testing
import LayoutUnicode

/// One set of style rules: a value the wire refuses is refused in process too, with the same
/// limit and message (they were checked twice with different limits: 64 features on the wire,
/// any number in process; baseline offsets and languages not at all in process).
@Suite struct StyleRulesTests {
    static let fonts = ConversionTests.fonts
    static let layouter = ParagraphLayouter(fonts: fonts)

    /// The refusal of a wire request whose default style `configure` sets.
    func wireRefusal(_ configure: (inout Layoutd_V1_Style) -> Void) -> LayoutError? {
        var request = Layoutd_V1_LayoutRequest()
        request.text = "rules"
        request.width = 200
        configure(&request.defaultStyle)
        do {
            _ = try request.paragraphRequest(fonts: Self.fonts)
            return nil
        } catch {
            return error
        }
    }

    /// The refusal of the same style made in process.
    func engineRefusal(_ configure: (inout TextStyle) -> Void) -> LayoutError? {
        var style = TextStyle(family: "Noto Sans", size: 17)
        configure(&style)
        do {
            _ = try Self.layouter.layout(ParagraphRequest(text: AttributedText("rules", style: style), width: 200))
            return nil
        } catch let error as LayoutError {
            return error
        } catch {
            Issue.record("not a LayoutError: \(error)")
            return nil
        }
    }

    @Test func theWireAndTheEngineRefuseTheSameValuesInTheSameWords() throws {
        let features = (0..<65).map { _ in FontFeature(tag: "liga", value: 0) }
        let cases: [(String, (inout Layoutd_V1_Style) -> Void, (inout TextStyle) -> Void)] = [
            ("weight", { $0.weight = 1001 }, { $0.weight = 1001 }),
            ("size", { $0.size = 20_000 }, { $0.size = 20_000 }),
            ("letter_spacing", { $0.letterSpacing = .with { $0.points = 1e6 } }, { $0.letterSpacing = 1e6 }),
            ("baseline_offset", { $0.baselineOffset = .with { $0.points = -1e6 } }, { $0.baselineOffset = -1e6 }),
            ("features", { $0.features = features.map { f in .with { $0.tag = f.tag } } }, { $0.features = features }),
            ("features[1].tag", { $0.features = [.with { $0.tag = "kern" }, .with { $0.tag = "li\u{7F}a" }] },
             { $0.features = [FontFeature(tag: "kern", value: 1), FontFeature(tag: "li\u{7F}a", value: 1)] }),
            ("language", { $0.language = "en US!" }, { $0.language = "en US!" }),
        ]
        for (name, wire, engine) in cases {
            let fromWire = try #require(wireRefusal(wire), "the wire accepted a bad \(name)")
            let fromEngine = try #require(engineRefusal(engine), "the engine accepted a bad \(name)")
            #expect(fromWire.code == fromEngine.code, "\(name)")
            #expect(fromWire.message == fromEngine.message, "\(name)")
            #expect(fromWire.field.hasPrefix("default_style.\(name)"), "\(fromWire.field)")
            #expect(fromEngine.field == "default_style.\(name)", "\(fromEngine.field)")
        }
    }

    @Test func valuesAtTheLimitsPassBothWays() {
        #expect(wireRefusal { $0.weight = 1000; $0.size = 10_000; $0.language = "zh-Hant-TW" } == nil)
        #expect(engineRefusal { $0.weight = 1; $0.size = 0.01; $0.baselineOffset = 10_000 } == nil)
        #expect(engineRefusal { $0.features = (0..<64).map { _ in FontFeature(tag: "kern", value: 1) } } == nil)
    }
}

/// Engine errors become wire errors in one place, whatever threw them.
@Suite struct WireErrorMappingTests {
    @Test func aLayoutErrorKeepsItsCodeAndGoesUnderTheRequest() {
        let error = WireError(LayoutError(.notFound, "no family", field: "spans[2].family"), under: "layout")
        #expect(error == WireError(.notFound, "no family", field: "layout.spans[2].family"))
        #expect(WireError(LayoutError(.cancelled, "gone", field: ""), under: "render") == WireError(.cancelled, "gone", field: "render"))
    }

    @Test func aWireErrorKeepsItsCodeAndAnythingElseIsInternal() {
        struct Odd: Error {}
        #expect(WireError(WireError(.malformed, "bad", field: "canvas"), under: "render")
                == WireError(.malformed, "bad", field: "render.canvas"))
        #expect(WireError(Odd(), under: "tags").code == .internal)
        #expect(WireError(Odd(), under: "tags").field == "tags")
    }

    @Test func nestedStagesBuildThePath() throws {
        let thrown = LayoutError(.invalidArgument, "too wide", field: "width")
        do {
            _ = try under("labels[1]") { () throws -> Int in throw thrown }
            Issue.record("no throw")
        } catch let error as LayoutError {
            #expect(WireError(error, under: "tags") == WireError(.invalidArgument, "too wide", field: "tags.labels[1].width"))
        }
    }
}
