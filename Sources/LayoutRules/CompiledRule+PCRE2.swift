import LayoutEngine

extension CompiledRule {
    /// `rule` with its pattern compiled by PCRE2; `field` names it in errors ("rules[2]").
    public convenience init(_ rule: FormattingRule, field: String) throws(LayoutError) {
        let pattern = try PCRE2Pattern(rule.pattern, field: field + ".pattern")
        guard rule.group >= 0, rule.group <= pattern.captureGroups else {
            throw LayoutError(.invalidArgument, "the pattern has \(pattern.captureGroups) capture groups; group \(rule.group) does not exist",
                              field: field + ".group")
        }
        self.init(rule: rule, pattern: pattern)
    }
}
