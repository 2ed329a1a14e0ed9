import LayoutEngine

extension BuiltinRules {
    /// Compiled once per marker setting and script family: the set every request that asks for it shares.
    private static let cache = Locked<[String: [CompiledRule]]>([:])

    public static func compiledNotes(hidesMarkers: Bool, scriptFamily: String = BuiltinRules.scriptFamily) -> [CompiledRule] {
        let key = "\(hidesMarkers) \(scriptFamily)"
        if let rules = cache.withLock({ $0[key] }) { return rules }
        // The built-in patterns compile: a test holds them to that.
        let rules = notes(hidesMarkers: hidesMarkers, scriptFamily: scriptFamily).compactMap { try? CompiledRule($0, field: "builtin_rules") }
        cache.withLock { $0[key] = rules }
        return rules
    }
}
