import CPCRE2
import LayoutEngine

/// A rule's pattern compiled by PCRE2 (UTF-16, Unicode properties on): immutable, shared by
/// threads; each application's matcher takes its own match data and limits.
public final class PCRE2Pattern: RulePattern, @unchecked Sendable {
    // SAFETY: `code` is PCRE2's compiled pattern, never changed after compiling; PCRE2 documents
    // a compiled pattern as shareable by threads that each bring their own match data.
    let code: OpaquePointer
    /// How many capture groups the pattern has.
    public let captureGroups: Int

    /// Each match call stops after this many steps of PCRE2's matcher (its match limit) and this
    /// much backtracking memory: a pathological pattern fails by name instead of holding a worker.
    static let matchLimit: UInt32 = 2_000_000
    static let depthLimit: UInt32 = 10_000
    static let heapLimitKiB: UInt32 = 16_384

    /// Compiles `pattern`; `field` names it in errors ("rules[2].pattern").
    public init(_ pattern: String, field: String) throws(LayoutError) {
        let units = Array(pattern.utf16)
        guard !units.isEmpty else { throw LayoutError(.invalidArgument, "the pattern is empty", field: field) }
        guard units.count <= FormattingRule.maxPatternUnits else {
            throw LayoutError(.invalidArgument, "the pattern is \(units.count) UTF-16 units; at most \(FormattingRule.maxPatternUnits)",
                              field: field)
        }
        var errorCode: Int32 = 0
        var errorOffset = 0
        guard let code = units.withUnsafeBufferPointer({ buffer in
            pcre2_compile_16(buffer.baseAddress, buffer.count, UInt32(PCRE2_UTF | PCRE2_UCP), &errorCode, &errorOffset, nil)
        }) else {
            throw LayoutError(.invalidArgument, "the pattern does not compile at UTF-16 offset \(errorOffset): \(Self.message(errorCode))",
                              field: field)
        }
        var captures: UInt32 = 0
        pcre2_pattern_info_16(code, UInt32(PCRE2_INFO_CAPTURECOUNT), &captures)
        self.code = code
        self.captureGroups = Int(captures)
    }

    deinit { pcre2_code_free_16(code) }

    public func matcher(units: Int) -> any RuleMatcher { PCRE2Matcher(self, units: units) }

    /// PCRE2's match limit for one call over a text of `units`: a scan that finds nothing takes
    /// a few steps a unit, so a short text needs few, and a pattern that backtracks over it
    /// is stopped after as many steps as its text could justify; never more than `matchLimit`.
    static func matchLimit(units: Int) -> UInt32 { UInt32(min(Int(matchLimit), max(100_000, units * 64))) }

    static func message(_ code: Int32) -> String {
        var buffer = [UInt16](repeating: 0, count: 256)
        let length = pcre2_get_error_message_16(code, &buffer, buffer.count)
        return length > 0 ? String(decoding: buffer[0..<Int(length)], as: UTF16.self) : "error \(code)"
    }
}

/// One application of a `PCRE2Pattern`: its match data and a match context holding the limits.
final class PCRE2Matcher: RuleMatcher {
    let pattern: PCRE2Pattern
    let data: OpaquePointer
    let context: OpaquePointer

    init(_ pattern: PCRE2Pattern, units: Int) {
        self.pattern = pattern
        data = pcre2_match_data_create_from_pattern_16(pattern.code, nil)!
        context = pcre2_match_context_create_16(nil)!
        pcre2_set_match_limit_16(context, PCRE2Pattern.matchLimit(units: units))
        pcre2_set_depth_limit_16(context, PCRE2Pattern.depthLimit)
        pcre2_set_heap_limit_16(context, PCRE2Pattern.heapLimitKiB)
    }

    deinit {
        pcre2_match_data_free_16(data)
        pcre2_match_context_free_16(context)
    }

    func match(in subject: ContiguousArray<UInt16>, from start: Int, group: Int, checked: Bool)
        throws(RuleMatchFailure) -> (whole: Range<Int>, group: Range<Int>?)? {
        let options = checked ? UInt32(PCRE2_NO_UTF_CHECK) : 0
        let result = subject.withUnsafeBufferPointer { pcre2_match_16(pattern.code, $0.baseAddress, $0.count, start, options, data, context) }
        if result == PCRE2_ERROR_NOMATCH { return nil }
        guard result > 0 else {
            let limited = result == PCRE2_ERROR_MATCHLIMIT || result == PCRE2_ERROR_DEPTHLIMIT || result == PCRE2_ERROR_HEAPLIMIT
            throw RuleMatchFailure(limited
                ? "the pattern backtracks past PCRE2's limits (\(PCRE2Pattern.message(result))) at UTF-16 offset \(start)"
                : "matching failed at UTF-16 offset \(start): \(PCRE2Pattern.message(result))")
        }
        let vector = pcre2_get_ovector_pointer_16(data)!
        let whole = Int(vector[0])..<Int(vector[1])
        let groupStart = vector[2 * group], groupEnd = vector[2 * group + 1]
        // PCRE2_UNSET (~0, a macro Swift cannot import) marks a group that took no part in the match.
        let styled = groupStart == ~0 || groupEnd < groupStart ? nil : Int(groupStart)..<Int(groupEnd)
        return (whole, styled)
    }
}
