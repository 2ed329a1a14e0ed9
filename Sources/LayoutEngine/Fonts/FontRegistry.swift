import Synchronization

/// The fonts a daemon loaded once at start-up, matched by family, weight and italic.
///
/// Immutable after construction, so every layout thread shares one registry.
public final class FontRegistry: @unchecked Sendable {
    public let fonts: [Font]
    /// Family used when a style names none.
    public let defaultFamily: String
    /// Families tried, in order, for a cluster the requested family cannot draw.
    public let fallbackFamilies: [String]
    private let familiesByKey: [String: [Font]]
    /// Family names as the fonts spell them: most requests do too, and are answered
    /// without lowercasing.
    private let exactFamilies: Set<String>
    /// The first color emoji face; preferred for clusters with emoji presentation.
    let emojiFont: Font?

    public init(fonts: [Font], defaultFamily: String, fallbackFamilies: [String]) {
        self.fonts = fonts
        var byKey: [String: [Font]] = [:]
        for font in fonts { byKey[Self.key(font.family), default: []].append(font) }
        self.familiesByKey = byKey
        self.exactFamilies = Set(fonts.map(\.family))
        self.defaultFamily = byKey[Self.key(defaultFamily)] != nil ? defaultFamily : (fonts.first?.family ?? defaultFamily)
        self.fallbackFamilies = fallbackFamilies.filter { byKey[Self.key($0)] != nil }
        self.emojiFont = fonts.first { $0.isColorEmoji }
    }

    /// Loads the given files; files that cannot be read are reported, not skipped silently.
    public static func load(paths: [String], defaultFamily: String = "Noto Sans",
                            fallbackFamilies: [String] = DefaultFonts.fallbackFamilies) throws -> FontRegistry {
        var fonts: [Font] = []
        for path in paths {
            fonts += try FontFile.load(path: path, firstID: UInt32(fonts.count))
        }
        guard !fonts.isEmpty else {
            throw LayoutError(.notFound, "no font could be loaded", field: "fonts")
        }
        return FontRegistry(fonts: fonts, defaultFamily: defaultFamily, fallbackFamilies: fallbackFamilies)
    }

    public func font(id: UInt32) -> Font? { Int(id) < fonts.count ? fonts[Int(id)] : nil }

    private struct MatchKey: Hashable {
        var family: String
        var weight: Int
        var italic: Bool
    }
    private let matchMemo = Mutex<[MatchKey: Font?]>([:])

    /// `match`, remembered: itemization asks the same few questions for every cluster that falls back.
    func cachedMatch(family: String, weight: Int, italic: Bool) -> Font? {
        let key = MatchKey(family: family, weight: weight, italic: italic)
        if let known = matchMemo.withLock({ $0[key] }) { return known }
        let font = match(family: family, weight: weight, italic: italic)
        matchMemo.withLock { $0[key] = font }
        return font
    }

    public func hasFamily(_ family: String) -> Bool {
        exactFamilies.contains(family) || familiesByKey[Self.key(family)] != nil
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
