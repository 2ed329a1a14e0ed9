import LayoutEngine

extension Layoutd_V1_LayoutRequest {
    /// The rules this request asks for, compiled: the built-in set's first, then its own.
    func compiledRules(fonts: FontRegistry) throws(LayoutError) -> [CompiledRule] {
        var compiled: [CompiledRule] = []
        switch builtinRules {
        case .none: break
        case .notes:
            // The script face where it is loaded; else an italic serif every Debian has.
            let family = fonts.hasFamily(BuiltinRules.scriptFamily) ? BuiltinRules.scriptFamily : "Noto Serif"
            compiled = BuiltinRules.compiledNotes(hidesMarkers: hideBuiltinMarkers, scriptFamily: family)
        case .UNRECOGNIZED(let value):
            throw LayoutError(.invalidArgument, "unknown built-in rule set \(value); NONE or NOTES", field: "builtin_rules")
        }
        try Bounds.check(count: rules.count, limit: FormattingRule.maxRules, field: "rules")
        for (index, rule) in rules.enumerated() {
            let field = "rules[\(index)]"
            let patch = try rule.style.patch(field: field + ".style", fonts: fonts)
            compiled.append(try CompiledRule(FormattingRule(name: rule.name.isEmpty ? field : rule.name, pattern: rule.pattern,
                                                            group: Int(rule.group), patch: patch, hidesMarkers: rule.hideMarkers),
                                             field: field))
        }
        return compiled
    }
}

extension Layoutd_V1_RuleMatch {
    public init(_ match: RuleMatch, names: [String]) {
        self.init()
        rule = UInt32(match.rule)
        name = names.indices.contains(match.rule) ? names[match.rule] : ""
        range = Layoutd_V1_Range(match.range)
        hidden = match.hidden.map(Layoutd_V1_Range.init)
    }
}
