
/// The fonts a daemon loaded once at start-up, matched by family, weight and italic.
///
/// Immutable after construction, so every layout thread shares one registry.
public final class FontRegistry: Sendable {
    public let fonts: [Font]
    /// Family used when a style names none.
    public let defaultFamily: String
    /// Families tried, in order, for a cluster the requested family cannot draw.
    public let fallbackFamilies: [String]
    private let familiesByKey: [String: [Font]]
    /// Family names as the fonts spell them: most requests do too, and are answered
    /// without lowercasing.
    private let exactFamilies: Set<String>
    /// Whether the default family is loaded, found the general way once: most requests name it,
    /// and comparing a name costs less than hashing it (`hasFamily`).
    private let hasDefaultFamily: Bool
    /// The first color emoji face; preferred for clusters with emoji presentation.
    let emojiFont: Font?
    /// Faces skipped at load, each with why: the daemon logs them.
    public let problems: [String]
    /// The library the faces shape with, which converts each style once (`ShapingStyle`): the
    /// first face's that names one (HarfBuzz's for loaded faces); nil for faces that name none.
    package let shapingLibrary: (any ShapingLibrary)?
    /// Instances of variable faces, made as styles ask for them.
    let instances: FontInstances
    /// Instances all users may make together before each is held to its share (`FontInstances`).
    public static let defaultInstanceCapacity = 8_192
    /// The clients' fonts among `fonts`, each shadowing a loaded family of its name: a registry
    /// made over this one with more of them keeps these shadows too.
    package let clientFonts: [Font]

    /// `shadowedBy`: a client's fonts, among `fonts`, whose families replace loaded families of
    /// the same name. `instanceShare`: the share of variable font instances this registry's
    /// count against, the loaded set's for a registry made over it; a new one by default.
    /// `problems`: the faces skipped while loading, each with why.
    public init(fonts: [Font], defaultFamily: String, fallbackFamilies: [String], shadowedBy clientFonts: [Font] = [],
                instanceShare: FairShare? = nil, problems: [String] = []) {
        self.fonts = fonts
        self.problems = problems
        self.shapingLibrary = fonts.lazy.compactMap { $0.shaping.library }.first
        self.instances = FontInstances(share: instanceShare ?? FairShare("variable font instances", capacity: Self.defaultInstanceCapacity))
        self.clientFonts = clientFonts
        var byKey: [String: [Font]] = [:]
        for font in fonts { byKey[Self.key(font.family), default: []].append(font) }
        for family in Set(clientFonts.map { Self.key($0.family) }) {
            byKey[family] = clientFonts.filter { Self.key($0.family) == family }
        }
        self.familiesByKey = byKey
        self.exactFamilies = Set(fonts.map(\.family))
        let defaultFamily = byKey[Self.key(defaultFamily)] != nil ? defaultFamily : (fonts.first?.family ?? defaultFamily)
        self.defaultFamily = defaultFamily
        self.hasDefaultFamily = exactFamilies.contains(defaultFamily) || byKey[Self.key(defaultFamily)] != nil
        self.fallbackFamilies = fallbackFamilies.filter { byKey[Self.key($0)] != nil }
        self.emojiFont = fonts.first { $0.isColorEmoji }
    }

    /// The family a style names, or the default family for a style that names none.
    func family(named name: String) -> String { name.isEmpty ? defaultFamily : name }

    public func font(id: UInt32) -> Font? {
        if Int(id) < fonts.count { return fonts[Int(id)] }
        return instances.font(id: id)
    }

    private struct MatchKey: Hashable {
        var family: String
        var weight: Int
        var italic: Bool
    }
    private struct Memo {
        var all: [MatchKey: Font?] = [:]
        /// The latest answers, searched first by comparing keys: a family name as short as
        /// "Noto Sans" compares in two words, where hashing it cost more than the rest of a layout's
        /// font set-up.
        var recent: [(key: MatchKey, font: Font?)] = []
        var nextRecent = 0
    }
    private let matchMemo = Locked(Memo())
    private static let recentCount = 8

    /// `match`, remembered: every layout asks it for its styles, and itemization asks the same few
    /// questions for every cluster that falls back.
    func cachedMatch(family: String, weight: Int, italic: Bool) -> Font? {
        let key = MatchKey(family: family, weight: weight, italic: italic)
        let known: Font?? = matchMemo.withLock { memo in
            for entry in memo.recent where entry.key == key { return entry.font }
            guard let font = memo.all[key] else { return nil }
            Self.remember(key, font, in: &memo)
            return font
        }
        if let known { return known }
        let font = match(family: family, weight: weight, italic: italic)
        matchMemo.withLock { memo in
            // Misses stay out of the table, or requests naming made-up families would grow it
            // without bound; families that exist give at most 2,000 keys each.
            if font != nil { memo.all[key] = font }
            Self.remember(key, font, in: &memo)
        }
        return font
    }

    private static func remember(_ key: MatchKey, _ font: Font?, in memo: inout Memo) {
        if memo.recent.count < recentCount {
            memo.recent.append((key, font))
        } else {
            memo.recent[memo.nextRecent] = (key, font)
            memo.nextRecent = (memo.nextRecent + 1) % recentCount
        }
    }

    public func hasFamily(_ family: String) -> Bool {
        if family == defaultFamily { return hasDefaultFamily }
        return exactFamilies.contains(family) || familiesByKey[Self.key(family)] != nil
    }

    /// The face of `family` closest to `weight` and `italic`, by the CSS Fonts 4 §5.2 rules.
    public func match(family: String, weight: Int, italic: Bool) -> Font? {
        guard let faces = familiesByKey[Self.key(family)] else { return nil }
        let slanted = faces.filter { $0.italic == italic }
        let candidates = slanted.isEmpty ? faces : slanted
        return candidates.min { Self.weightRank($0.weight, desired: weight, $0.widthClass)
            < Self.weightRank($1.weight, desired: weight, $1.widthClass) }
    }

    /// Orders faces for a desired weight: CSS prefers, for 400–500, heavier up to 500, then
    /// lighter, then heavier; below 400 lighter first; above 500 heavier first.
    static func weightRank(_ weight: Int, desired: Int, _ widthClass: Int) -> (Int, Int, Int) {
        let widthPenalty = abs(widthClass - 5)
        if weight == desired { return (0, widthPenalty, 0) }
        let distance = abs(weight - desired)
        let tier: Int
        if desired >= 400 && desired <= 500 {
            if weight > desired && weight <= 500 { tier = 1 } else if weight < desired { tier = 2 } else { tier = 3 }
        } else if desired < 400 {
            tier = weight < desired ? 1 : 2
        } else {
            tier = weight > desired ? 1 : 2
        }
        return (tier, distance, widthPenalty)
    }

    static func key(_ family: String) -> String { family.lowercased() }
}
