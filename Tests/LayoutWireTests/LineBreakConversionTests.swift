import LayoutEngine
import LayoutWire
import Testing

/// A style's `line_break` and `word_break` on the wire (in `ConversionTests`, whose request and
/// helpers it shares): every value comes through, spans override, and unknown values are named.
extension ConversionTests {
    @Test func lineAndWordBreakComeThroughForTheStyleAndItsSpans() throws {
        let pairs: [(Layoutd_V1_LineBreak, LineBreakStrictness)] = [(.strict, .strict), (.normal, .normal), (.loose, .loose), (.anywhere, .anywhere)]
        for (wire, engine) in pairs {
            #expect(try convert { $0.defaultStyle.lineBreak = wire }.get().text.styles[0].lineBreak == engine)
        }
        let words: [(Layoutd_V1_WordBreak, WordBreakStyle)] = [(.normal, .normal), (.breakAll, .breakAll), (.keepAll, .keepAll), (.autoPhrase, .autoPhrase)]
        for (wire, engine) in words {
            #expect(try convert { $0.defaultStyle.wordBreak = wire }.get().text.styles[0].wordBreak == engine)
        }
        let request = try convert {
            $0.defaultStyle.wordBreak = .keepAll
            $0.defaultStyle.lineBreak = .loose
            $0.spans = [.with { $0.range = .with { $0.length = 2 }; $0.style.wordBreak = .breakAll }]
        }.get()
        #expect(request.text.runs.map { request.text.styles[$0.style].wordBreak } == [.breakAll, .keepAll])
        #expect(request.text.styles.map(\.lineBreak) == [.loose, .loose])
        // Unset: UAX #14's defaults.
        let plain = try convert { $0.defaultStyle.size = 12 }.get().text.styles[0]
        #expect(plain.lineBreak == .auto && plain.wordBreak == .normal)
    }

    @Test func unknownLineAndWordBreaksAreNamed() {
        #expect(field { $0.defaultStyle.lineBreak = .UNRECOGNIZED(9) } == "default_style.line_break")
        #expect(field { $0.spans = [.with { $0.range = .with { $0.length = 1 }; $0.style.wordBreak = .UNRECOGNIZED(7) }] }
                == "spans[0].style.word_break")
    }
}
