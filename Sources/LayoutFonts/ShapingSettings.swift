import CHarfBuzz
import LayoutEngine
import Synchronization

/// The languages and feature lists HarfBuzz is let keep what it makes for them: `limit`, and past
/// it each user's fair share.
///
/// HarfBuzz keeps two things for the life of the process: every language it is given (in a list
/// it searches by name for each new one), and on each face a shape plan for every setting it has
/// shaped with (a list `hb_shape` searches on every call, oldest last). Both grow with what
/// clients send: after ten thousand distinct languages or feature values, every later call on
/// that face searched ten thousand plans, a plain caption's shaping with them
/// (Benchmarks/results/hostile.md). So a setting (a language and a feature list together) is
/// kept only while fewer than `limit` are, or, past that, while its user holds less than a
/// fair share of them (`FairShare`: the limit over the users holding some, the table never past
/// twice the limit), so one client filling it leaves room for the others. One past that is
/// shaped on a twin of the face made for the call (`FaceFonts.twin`), whose plan goes with it;
/// its language is the whole tag when a kept setting has it, else its primary subtag when that
/// is two or three letters (a bounded set), else none.
package final class ShapingSettings: Sendable {
    /// The process's table, which every prepared style asks.
    package static let shared = ShapingSettings(limit: 256)

    /// Who added the kept settings, its capacity the limit: nothing is ever given back (HarfBuzz
    /// frees no plan).
    private let share: FairShare
    /// Each kept setting's language as HarfBuzz interned it (the pointer's bits; 0 for none), and
    /// the languages of all of them: a setting past the limit whose language a kept one has
    /// keeps its whole tag.
    private let kept: Locked<(settings: [Key: UInt], languages: [String: UInt])>
    /// Shaping calls for settings past the kept ones, each on a twin face: what the metrics report.
    package let twinShapes = Atomic<UInt64>(0)

    private struct Key: Hashable {
        let language: String
        /// Each feature's tag in the high half, its value in the low.
        let features: [UInt64]
    }

    package init(limit: Int) {
        share = FairShare("shaping settings", capacity: limit)
        kept = Locked(([:], [:]))
    }

    /// How many settings are kept.
    package var keptCount: Int { kept.withLock { $0.settings.count } }

    /// `language` (BCP 47; empty for none) as HarfBuzz takes it for `features`, and whether
    /// HarfBuzz may keep the plans it makes for the two: true for a setting kept before or
    /// while `user` has room in its share. Past it, false, with the whole tag when a kept
    /// setting has it, else its primary subtag.
    func admit(language: String, features: [hb_feature_t], user: UInt32?) -> (language: ShapingLanguage?, keepsPlans: Bool) {
        let canonical = Self.canonical(language)
        let key = Key(language: canonical, features: features.map { UInt64($0.tag) << 32 | UInt64($0.value) })
        let (bits, keepsPlans): (UInt?, Bool) = kept.withLock { kept in
            if let bits = kept.settings[key] { return (bits, true) }
            guard share.reserve(1, for: user) == nil else { return (kept.languages[canonical], false) }
            // Interned once, under the lock: the kept languages are the only whole tags HarfBuzz sees.
            let bits = kept.languages[canonical] ?? (canonical.isEmpty ? 0 : UInt(bitPattern: hb_language_from_string(canonical, -1)))
            kept.settings[key] = bits
            kept.languages[canonical] = bits
            return (bits, true)
        }
        if let bits { return (ShapingLanguage(bits: bits), keepsPlans) }
        return (Self.primarySubtag(canonical).flatMap { ShapingLanguage($0) }, false)
    }

    /// HarfBuzz's own spelling of a tag, so that spellings it holds as one are one key: ASCII
    /// lowercased, `_` as `-`.
    static func canonical(_ language: String) -> String {
        guard language.utf8.contains(where: { ($0 >= 0x41 && $0 <= 0x5A) || $0 == 0x5F }) else { return language }
        return String(decoding: language.utf8.map { $0 == 0x5F ? 0x2D : ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) }, as: UTF8.self)
    }

    /// The tag's first subtag when it is two or three letters (ISO 639's codes), else nil.
    static func primarySubtag(_ canonical: String) -> String? {
        let primary = canonical.utf8.prefix { $0 != 0x2D }
        guard (2...3).contains(primary.count), primary.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return nil }
        return String(decoding: primary, as: UTF8.self)
    }
}
