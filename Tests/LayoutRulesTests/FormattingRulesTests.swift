import Foundation
import Testing
@testable import LayoutEngine
@testable import LayoutRules
import LayoutUnicode

/// Formatting rules on PCRE2: the TextKit note editor's built-in set, done right, and the
/// limits that keep a hostile pattern from holding a worker.
@Suite struct FormattingRulesTests {
    static func apply(_ text: String, hidesMarkers: Bool = false) throws -> (spans: [AttributedText.Span], matches: [RuleMatch]) {
        try FormattingRules.apply(BuiltinRules.compiledNotes(hidesMarkers: hidesMarkers), to: ContiguousArray(text.utf16))
    }

    /// What each rule styled, as text, rule by rule.
    static func styled(_ text: String) throws -> [String: [String]] {
        let units = Array(text.utf16)
        let names = BuiltinRules.notes(hidesMarkers: false).map(\.name)
        var result: [String: [String]] = [:]
        for match in try apply(text).matches {
            result[names[match.rule], default: []].append(String(decoding: units[match.range], as: UTF16.self))
        }
        return result
    }

    @Test func theBuiltInPatternsCompile() {
        #expect(BuiltinRules.compiledNotes(hidesMarkers: false).count == BuiltinRules.notes(hidesMarkers: false).count)
    }

    /// A shopping-list note in the manner of the tutorial's, and each rule on it.
    @Test func theTutorialsNoteIsStyled() throws {
        let note = "Shopping List\n1. Cheese\n2. Biscuits\n3. Sausages\n4. IMPORTANT - Cash for going out!\n"
            + "5. -potatoes-\n6. A copy of iOS Apprentice\n7. *A new iPhone*\n8. A present to say thank-you to Ray\n"
            + "~Remember to buy some _milk_ too~"
        let styled = try Self.styled(note)
        #expect(styled["list-number"] == ["1.", "2.", "3.", "4.", "5.", "6.", "7.", "8."])
        #expect(styled["capitals"] == ["IMPORTANT"])
        #expect(styled["strikethrough"] == ["potatoes"], "thank-you and the dash before Cash are not struck")
        #expect(styled["bold"] == ["A new iPhone"])
        #expect(styled["italic"] == ["milk"])
        #expect(styled["script"] == ["Remember to buy some _milk_ too"])
    }

    @Test func markersNestAndTouch() throws {
        let styled = try Self.styled("*bold _both_ bold* and *one**two* then _a_,_b_")
        #expect(styled["bold"] == ["bold _both_ bold", "one", "two"])
        #expect(styled["italic"] == ["both", "a", "b"])
    }

    /// Where the tutorial's rules went wrong.
    @Test func theOriginalsMistakesAreNotMade() throws {
        // Capitals at the text's ends and beside punctuation, in any script; not a lone capital.
        #expect(try Self.styled("NASA and (ESA), then ÉCOLE, МГУ. I am A OK USA")["capitals"] == ["NASA", "ESA", "ÉCOLE", "МГУ", "OK", "USA"])
        // Markers inside words and numbers are not markers.
        let plain = try Self.styled("snake_case_name, 2*3*4, well-known-word, a * b * c, _ spaced _")
        #expect(plain.isEmpty, "\(plain)")
        // A style covers exactly its text: nothing before the marker, nothing after it.
        let matches = try Self.apply("x *bold* y").matches
        #expect(matches.map(\.range) == [3..<7])
        let spans = try Self.apply("x *bold* y").spans
        #expect(spans.map(\.range) == [3..<7] && spans[0].patch.weight == 700)
    }

    @Test func hiddenMarkersTakeNoWidthAndKeepTheOffsets() throws {
        let layouter = ParagraphLayouter(fonts: Fixtures.registry, cache: nil)
        func layout(_ text: String, hides: Bool) throws -> ParagraphLayout {
            let units = ContiguousArray(text.utf16)
            let spans = try FormattingRules.apply(BuiltinRules.compiledNotes(hidesMarkers: hides), to: units).spans
            let attributed = AttributedText(text, units: units, style: TextStyle(family: "Noto Sans", size: 24), spans: spans)
            return try layouter.layout(ParagraphRequest(text: attributed, width: 1000))
        }
        let hidden = try layout("say *bold* now", hides: true)
        let kept = try layout("say *bold* now", hides: false)
        let bare = try layouter.layout(ParagraphRequest(
            text: AttributedText("say bold now", style: TextStyle(family: "Noto Sans", size: 24),
                                 spans: [AttributedText.Span(range: 4..<8, patch: StylePatch(weight: 700))]), width: 1000))
        #expect(abs(hidden.lines[0].width - bare.lines[0].width) < 1e-6, "hidden markers add no width")
        #expect(kept.lines[0].width > hidden.lines[0].width + 5)
        // Offsets are the text's: the line covers all 14 units, and the marker glyphs have no advance.
        #expect(hidden.lines[0].range == 0..<14)
        let markerGlyphs = hidden.runs.flatMap(\.glyphs).filter { $0.cluster == 4 || $0.cluster == 9 }
        #expect(!markerGlyphs.isEmpty && markerGlyphs.allSatisfy { $0.advance == 0 })
        let font = Fixtures.registry.font(id: hidden.runs[0].fontID)!
        #expect(markerGlyphs.allSatisfy { font.inkExtents($0.id).width == 0 }, "no ink")
    }

    @Test func aCatastrophicPatternFailsByNameWithinItsLimits() throws {
        let rule = try CompiledRule(FormattingRule(name: "redos", pattern: "(a+)+$", patch: StylePatch(weight: 700)), field: "rules[0]")
        let text = ContiguousArray((String(repeating: "a", count: 100_000) + "b").utf16)
        do {
            _ = try FormattingRules.apply([rule], to: text, budget: WorkBudget(milliseconds: 60_000))
            Issue.record("the pattern matched or ran to the end")
        } catch {
            // Stopped by PCRE2's limits (RESOURCE_EXHAUSTED), not by the budget (DEADLINE_EXCEEDED).
            #expect(error.code == .resourceExhausted && error.field == "rules[0].pattern" && error.message.contains("redos"), "\(error)")
        }
    }

    @Test func badRulesAreRefusedByName() {
        func failure(_ rule: FormattingRule) -> LayoutError? {
            do { _ = try CompiledRule(rule, field: "rules[3]"); return nil } catch { return error }
        }
        let unbalanced = failure(FormattingRule(name: "x", pattern: "ab(c", patch: StylePatch()))
        #expect(unbalanced?.field == "rules[3].pattern" && unbalanced?.message.contains("offset 4") == true, "\(String(describing: unbalanced))")
        #expect(failure(FormattingRule(name: "x", pattern: "(a)b", group: 2, patch: StylePatch()))?.field == "rules[3].group")
        #expect(failure(FormattingRule(name: "x", pattern: "", patch: StylePatch()))?.field == "rules[3].pattern")
        #expect(failure(FormattingRule(name: "x", pattern: String(repeating: "a", count: 2_000), patch: StylePatch()))?.field == "rules[3].pattern")
    }

    @Test func emptyMatchesMoveOnAndMatchesAreBounded() throws {
        let empty = try CompiledRule(FormattingRule(name: "e", pattern: "x*", patch: StylePatch(weight: 700)), field: "rules[0]")
        let result = try FormattingRules.apply([empty], to: ContiguousArray("ab😀xx".utf16))
        #expect(result.matches.map(\.range) == [4..<6], "empty matches style nothing and the scan steps over the emoji")
        let every = try CompiledRule(FormattingRule(name: "every", pattern: "a", patch: StylePatch(weight: 700)), field: "rules[0]")
        #expect(throws: LayoutError.self) {
            try FormattingRules.apply([every], to: ContiguousArray(String(repeating: "a", count: 100).utf16), maxMatches: 50)
        }
    }

    /// Rules that match an empty string at every position made one PCRE2 call a unit for free:
    /// 32 lookaheads over 4,000 letters cost 2.3 s for a 5 KB request. Empty matches count now.
    @Test func emptyMatchesCountAgainstTheMatchLimit() throws {
        let rule = try CompiledRule(FormattingRule(name: "empty", pattern: "(?=a)", patch: StylePatch(weight: 700)), field: "rules[0]")
        let units = ContiguousArray(String(repeating: "a", count: 20_000).utf16)
        #expect(throws: LayoutError.self) { try FormattingRules.apply([rule], to: units) }
        do {
            _ = try FormattingRules.apply([rule], to: units)
        } catch {
            #expect(error.code == .resourceExhausted && error.field == "rules[0]" && error.message.contains("empty matches count"))
        }
        // Under the limit, they still style nothing and do not fail.
        #expect(try FormattingRules.apply([rule], to: ContiguousArray("aaaa".utf16)).matches.isEmpty)
    }

    /// The issue's rule set: each call backtracks a thousand ways and matches nothing. It stops
    /// at the match count or at the rules' allowance for the text, whichever comes first.
    @Test func costlyEmptyLookaheadsStopAtTheirAllowance() throws {
        let rules = try (0..<32).map { k in
            try CompiledRule(FormattingRule(name: "look\(k)", pattern: "(?=(?:a|[ab]){0,1000})", patch: StylePatch(weight: 700)),
                             field: "rules[\(k)]")
        }
        let units = ContiguousArray((0..<4_000).map { UInt16($0 % 3 == 0 ? 0x62 : 0x61) })
        do {
            _ = try FormattingRules.apply(rules, to: units)
            Issue.record("32 costly rules over 4,000 letters were applied whole")
        } catch {
            #expect(error.code == .resourceExhausted, "\(error)")
        }
    }

    @Test func theAllowanceAndMatchLimitGrowWithTheText() {
        #expect(FormattingRules.allowance(units: 1_000) < FormattingRules.allowance(units: 100_000))
        #expect(PCRE2Pattern.matchLimit(units: 10) == 100_000)
        #expect(PCRE2Pattern.matchLimit(units: 10_000_000) == PCRE2Pattern.matchLimit)
    }
}
