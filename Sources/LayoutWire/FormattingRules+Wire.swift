import LayoutEngine
import LayoutRules

extension Layoutd_V1_LayoutRequest {
    /// The rules this request asks for, compiled: the built-in set's first, then its own.
    func compiledRules(fonts: FontRegistry) throws(LayoutError) -> [CompiledRule] {
        try FormattingRules.compile(builtin: builtinRules, hidingMarkers: hideBuiltinMarkers, rules: rules, fonts: fonts)
    }
}

extension Layoutd_V1_JustifyRequest {
    /// The same for a Type Mode request, whose rules may not size text.
    func compiledRules(fonts: FontRegistry) throws(LayoutError) -> [CompiledRule] {
        for (index, rule) in rules.enumerated() { try rule.style.checkUnsized(field: "rules[\(index)].style") }
        return try FormattingRules.compile(builtin: builtinRules, hidingMarkers: hideBuiltinMarkers, rules: rules, fonts: fonts)
    }
}

extension Layoutd_V1_Style {
    /// Type Mode sizes each line by the fit: a span or rule may not set a size.
    public func checkUnsized(field: String) throws(LayoutError) {
        for (set, name) in [(size != 0, "size"), (textStyle.rawValue != 0, "text_style"), (sizeCategory.rawValue != 0, "size_category"),
                            (maxScaledSize != 0, "max_scaled_size")] where set {
            throw LayoutError(.invalidArgument, "a Type Mode line's size comes from the fit; a span or rule sets no \(name)",
                              field: "\(field).\(name)")
        }
    }
}

extension FormattingRules {
    /// The built-in set's rules (if asked for) and then `rules`, compiled.
    static func compile(builtin: Layoutd_V1_BuiltinRules, hidingMarkers: Bool, rules: [Layoutd_V1_FormattingRule],
                        fonts: FontRegistry) throws(LayoutError) -> [CompiledRule] {
        var compiled: [CompiledRule] = []
        switch builtin {
        case .none: break
        case .notes:
            // The script face where it is loaded; else an italic serif every Debian has.
            let family = fonts.hasFamily(BuiltinRules.scriptFamily) ? BuiltinRules.scriptFamily : "Noto Serif"
            compiled = BuiltinRules.compiledNotes(hidesMarkers: hidingMarkers, scriptFamily: family)
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
