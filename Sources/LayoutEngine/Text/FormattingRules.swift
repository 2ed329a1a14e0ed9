/// A formatting rule: a regular expression over the text, the capture group it styles, and the
/// style (as TextKit's note editor restyles `*bold*` as it is typed). The markers, the parts of
/// a match outside the group, can be hidden: they stay in the text, so every offset is still
/// the client's, but take no width and no ink.
public struct FormattingRule: Sendable {
    public var name: String
    /// PCRE2 syntax over UTF-16, Unicode properties on (`\w`, `\b`, `\d` are Unicode's): the
    /// syntax `LayoutRules` compiles.
    public var pattern: String
    public var group: Int
    public var patch: StylePatch
    public var hidesMarkers: Bool

    public init(name: String, pattern: String, group: Int = 0, patch: StylePatch, hidesMarkers: Bool = false) {
        self.name = name
        self.pattern = pattern
        self.group = group
        self.patch = patch
        self.hidesMarkers = hidesMarkers
    }

    /// The most rules one request may carry, and the longest pattern, in UTF-16 units.
    public static let maxRules = 32
    public static let maxPatternUnits = 1_024
}

/// What one match of one rule did: the range it styled, and the markers it hid.
public struct RuleMatch: Equatable, Sendable {
    /// Index into the rules applied (the built-in set's first, then the request's).
    public var rule: Int
    public var range: Range<Int>
    public var hidden: [Range<Int>]

    public init(rule: Int, range: Range<Int>, hidden: [Range<Int>] = []) {
        self.rule = rule
        self.range = range
        self.hidden = hidden
    }
}

/// A rule's pattern, compiled by a regular-expression engine at the engine's edge (PCRE2, in
/// `LayoutRules`): immutable and shared by threads; each application takes its own matcher.
public protocol RulePattern: AnyObject, Sendable {
    /// A matcher for one application over a subject of `units` UTF-16 units: it holds the match
    /// state, and its step limits may scale with the subject.
    func matcher(units: Int) -> any RuleMatcher
}

/// One application's matcher: the rules ask it for the next match until it finds none.
public protocol RuleMatcher: AnyObject {
    /// The first match in `subject` at or after `start`: its whole range, and `group`'s range
    /// (nil when the group took no part in it); nil when there is none. `checked` says the
    /// subject's UTF-16 was already found valid by an earlier call on this matcher.
    func match(in subject: ContiguousArray<UInt16>, from start: Int, group: Int, checked: Bool)
        throws(RuleMatchFailure) -> (whole: Range<Int>, group: Range<Int>?)?
}

/// Why a match call stopped without an answer, in words for the client ("the pattern
/// backtracks past PCRE2's limits … at UTF-16 offset 12").
public struct RuleMatchFailure: Error, Sendable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// A rule with its compiled pattern (`LayoutRules` compiles them).
public final class CompiledRule: Sendable {
    public let rule: FormattingRule
    public let pattern: any RulePattern

    /// `pattern` must be `rule.pattern` compiled, with at least `rule.group` groups.
    public init(rule: FormattingRule, pattern: any RulePattern) {
        self.rule = rule
        self.pattern = pattern
    }
}

/// Applies rules to a text in order: each match becomes a span over its group (and a hidden
/// span over its markers when the rule hides them). Later rules win where they overlap, as
/// later spans do.
public enum FormattingRules {
    /// The spans and matches of `rules` over `units`, at most `maxMatches` matches in all (an
    /// empty match counts: a rule that matches nothing at every position would otherwise make
    /// one call a unit for free). The budget is looked at between matches; each match call is
    /// bounded by its matcher's limits, scaled to the text (PCRE2's, in `LayoutRules`); and all of them
    /// together by `allowance(units:)`, so no rule set costs more per unit than a caption's layout
    /// many times over.
    public static func apply(_ rules: [CompiledRule], to units: ContiguousArray<UInt16>, maxMatches: Int = Bounds.maxSpans,
                             budget: WorkBudget = .unlimited, field: String = "rules")
        throws(LayoutError) -> (spans: [AttributedText.Span], matches: [RuleMatch]) {
        guard !rules.isEmpty, !units.isEmpty else { return ([], []) }
        let clock = ContinuousClock(), started = clock.now, allowance = Self.allowance(units: units.count)
        var calls = 0
        var spans: [AttributedText.Span] = []
        var matches: [RuleMatch] = []
        var emptyMatches = 0
        for (index, compiled) in rules.enumerated() {
            let rule = compiled.rule
            let matcher = compiled.pattern.matcher(units: units.count)
            var start = 0
            // The subject's UTF-16 is checked once, by the first call: checking it on every
            // call would make a text of n units with m matches cost n × m.
            var checked = false
            while start <= units.count {
                try budget.check()
                calls += 1
                if calls & 15 == 0, clock.now - started > allowance {
                    throw LayoutError(.resourceExhausted, "the rules took more than their \(allowance) for \(units.count) units "
                                      + "(\(Self.allowanceBase) and \(Self.allowancePerUnit) a unit); rule \"\(rule.name)\" was matching "
                                      + "at UTF-16 offset \(start)", field: "\(field)[\(index)].pattern")
                }
                let found: (whole: Range<Int>, group: Range<Int>?)?
                do throws(RuleMatchFailure) {
                    found = try matcher.match(in: units, from: start, group: rule.group, checked: checked)
                } catch {
                    throw LayoutError(.resourceExhausted, "rule \"\(rule.name)\": \(error.reason)", field: "\(field)[\(index)].pattern")
                }
                checked = true
                guard let (whole, group) = found else { break }
                // A group that took no part in the match, or matched nothing, styles nothing.
                if let styled = group, !styled.isEmpty {
                    var hidden: [Range<Int>] = []
                    if rule.hidesMarkers {
                        hidden = [whole.lowerBound..<styled.lowerBound, styled.upperBound..<whole.upperBound].filter { !$0.isEmpty }
                    }
                    guard matches.count + emptyMatches < maxMatches else {
                        throw LayoutError(.resourceExhausted, "the rules match more than \(maxMatches) times; at most \(maxMatches) "
                                          + "spans come from rules", field: "\(field)[\(index)]")
                    }
                    spans.append(AttributedText.Span(range: styled, patch: rule.patch))
                    for range in hidden { spans.append(AttributedText.Span(range: range, patch: StylePatch(hidden: true))) }
                    matches.append(RuleMatch(rule: index, range: styled, hidden: hidden))
                }
                // An empty match moves on one unit (a whole surrogate pair), as a scanner must,
                // and counts as a match.
                if whole.isEmpty {
                    emptyMatches += 1
                    guard matches.count + emptyMatches <= maxMatches else {
                        throw LayoutError(.resourceExhausted, "the rules match more than \(maxMatches) times (empty matches "
                                          + "count); at most \(maxMatches) matches come from rules", field: "\(field)[\(index)]")
                    }
                    guard whole.upperBound < units.count else { break }
                    start = whole.upperBound + (UTF16.isLeadSurrogate(units[whole.upperBound]) ? 2 : 1)
                } else {
                    start = whole.upperBound
                }
            }
        }
        return (spans, matches)
    }

    /// What all the rules of one text may take together: the built-in rules over a caption
    /// take microseconds; the hostile table holds the worst rule set per byte to its bound.
    static let allowanceBase = Duration.milliseconds(5)
    static let allowancePerUnit = Duration.microseconds(4)
    static func allowance(units: Int) -> Duration { allowanceBase + allowancePerUnit * min(units, 1 << 24) }
}
