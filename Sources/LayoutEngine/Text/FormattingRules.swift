import CPCRE2

/// A formatting rule: a regular expression over the text, the capture group it styles, and the
/// style (as TextKit's note editor restyles `*bold*` as it is typed). The markers, the parts of
/// a match outside the group, can be hidden: they stay in the text, so every offset is still
/// the client's, but take no width and no ink.
public struct FormattingRule: Sendable {
    public var name: String
    /// PCRE2 syntax over UTF-16, Unicode properties on (`\w`, `\b`, `\d` are Unicode's).
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

/// A rule compiled by PCRE2: immutable, shared by threads (a match takes its own match data).
public final class CompiledRule: @unchecked Sendable {
    public let rule: FormattingRule
    let code: OpaquePointer

    /// Each match call stops after this many steps of PCRE2's matcher (its match limit) and this
    /// much backtracking memory: a pathological pattern fails by name instead of holding a worker.
    static let matchLimit: UInt32 = 2_000_000
    static let depthLimit: UInt32 = 10_000
    static let heapLimitKiB: UInt32 = 16_384

    /// Compiles `rule`; `field` names it in errors ("rules[2]").
    public init(_ rule: FormattingRule, field: String) throws(LayoutError) {
        let units = Array(rule.pattern.utf16)
        guard !units.isEmpty else { throw LayoutError(.invalidArgument, "the pattern is empty", field: field + ".pattern") }
        guard units.count <= FormattingRule.maxPatternUnits else {
            throw LayoutError(.invalidArgument, "the pattern is \(units.count) UTF-16 units; at most \(FormattingRule.maxPatternUnits)",
                              field: field + ".pattern")
        }
        var errorCode: Int32 = 0
        var errorOffset = 0
        guard let code = units.withUnsafeBufferPointer({ buffer in
            pcre2_compile_16(buffer.baseAddress, buffer.count, UInt32(PCRE2_UTF | PCRE2_UCP), &errorCode, &errorOffset, nil)
        }) else {
            throw LayoutError(.invalidArgument, "the pattern does not compile at UTF-16 offset \(errorOffset): \(Self.message(errorCode))",
                              field: field + ".pattern")
        }
        var captures: UInt32 = 0
        pcre2_pattern_info_16(code, UInt32(PCRE2_INFO_CAPTURECOUNT), &captures)
        guard rule.group >= 0, rule.group <= Int(captures) else {
            pcre2_code_free_16(code)
            throw LayoutError(.invalidArgument, "the pattern has \(captures) capture groups; group \(rule.group) does not exist",
                              field: field + ".group")
        }
        self.rule = rule
        self.code = code
    }

    deinit { pcre2_code_free_16(code) }

    static func message(_ code: Int32) -> String {
        var buffer = [UInt16](repeating: 0, count: 256)
        let length = pcre2_get_error_message_16(code, &buffer, buffer.count)
        return length > 0 ? String(decoding: buffer[0..<Int(length)], as: UTF16.self) : "error \(code)"
    }
}

/// Applies rules to a text in order: each match becomes a span over its group (and a hidden
/// span over its markers when the rule hides them). Later rules win where they overlap, as
/// later spans do.
public enum FormattingRules {
    /// The spans and matches of `rules` over `units`, at most `maxMatches` matches in all (an
    /// empty match counts: a rule that matches nothing at every position would otherwise make
    /// one call a unit for free). The budget is looked at between matches; each match call is
    /// bounded by PCRE2's limits, scaled to the text (`matchLimit(units:)`); and all of them
    /// together by `allowance(units:)`, so no rule set costs more per unit than a caption's layout
    /// many times over.
    public static func apply(_ rules: [CompiledRule], to units: ContiguousArray<UInt16>, maxMatches: Int = Bounds.maxSpans,
                             budget: WorkBudget = .unlimited, field: String = "rules")
        throws(LayoutError) -> (spans: [AttributedText.Span], matches: [RuleMatch]) {
        guard !rules.isEmpty, !units.isEmpty else { return ([], []) }
        let context = pcre2_match_context_create_16(nil)!
        defer { pcre2_match_context_free_16(context) }
        pcre2_set_match_limit_16(context, CompiledRule.matchLimit(units: units.count))
        let clock = ContinuousClock(), started = clock.now, allowance = Self.allowance(units: units.count)
        var calls = 0
        pcre2_set_depth_limit_16(context, CompiledRule.depthLimit)
        pcre2_set_heap_limit_16(context, CompiledRule.heapLimitKiB)
        var spans: [AttributedText.Span] = []
        var matches: [RuleMatch] = []
        var emptyMatches = 0
        try units.withUnsafeBufferPointer { (subject) throws(LayoutError) in
            for (index, compiled) in rules.enumerated() {
                let rule = compiled.rule
                let data = pcre2_match_data_create_from_pattern_16(compiled.code, nil)!
                defer { pcre2_match_data_free_16(data) }
                var start = 0
                // PCRE2 checks the whole subject's UTF-16 on every call unless told not to: once is
                // enough (every call after the first passes PCRE2_NO_UTF_CHECK), or a text of n
                // units with m matches costs n × m.
                var options: UInt32 = 0
                while start <= subject.count {
                    try budget.check()
                    calls += 1
                    if calls & 15 == 0, clock.now - started > allowance {
                        throw LayoutError(.resourceExhausted, "the rules took more than their \(allowance) for \(subject.count) units "
                                          + "(\(Self.allowanceBase) and \(Self.allowancePerUnit) a unit); rule \"\(rule.name)\" was matching "
                                          + "at UTF-16 offset \(start)", field: "\(field)[\(index)].pattern")
                    }
                    let result = pcre2_match_16(compiled.code, subject.baseAddress, subject.count, start, options, data, context)
                    options = UInt32(PCRE2_NO_UTF_CHECK)
                    if result == PCRE2_ERROR_NOMATCH { break }
                    guard result > 0 else {
                        let why = result == PCRE2_ERROR_MATCHLIMIT || result == PCRE2_ERROR_DEPTHLIMIT || result == PCRE2_ERROR_HEAPLIMIT
                            ? "the pattern backtracks past PCRE2's limits (\(CompiledRule.message(result))) at UTF-16 offset \(start)"
                            : "matching failed at UTF-16 offset \(start): \(CompiledRule.message(result))"
                        throw LayoutError(.resourceExhausted, "rule \"\(rule.name)\": \(why)", field: "\(field)[\(index)].pattern")
                    }
                    let vector = pcre2_get_ovector_pointer_16(data)!
                    let whole = Int(vector[0])..<Int(vector[1])
                    let groupStart = vector[2 * rule.group], groupEnd = vector[2 * rule.group + 1]
                    // A group that took no part in the match styles nothing (PCRE2_UNSET, ~0, is a macro Swift cannot import).
                    if groupStart != ~0, groupEnd > groupStart {
                        let styled = Int(groupStart)..<Int(groupEnd)
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
                        guard whole.upperBound < subject.count else { break }
                        start = whole.upperBound + (UTF16.isLeadSurrogate(subject[whole.upperBound]) ? 2 : 1)
                    } else {
                        start = whole.upperBound
                    }
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

extension CompiledRule {
    /// PCRE2's match limit for one call over a text of `units`: a scan that finds nothing takes
    /// a few steps a unit, so a short text needs few, and a pattern that backtracks over it
    /// is stopped after as many steps as its text could justify; never more than `matchLimit`.
    static func matchLimit(units: Int) -> UInt32 { UInt32(min(Int(matchLimit), max(100_000, units * 64))) }
}
