
/// The instances of variable faces that styles asked for, made once per registry and kept as long
/// as it: items hold their fonts unowned, and shaped runs are cached by font id.
///
/// Coordinates are rounded to 1/100 of an axis unit before they name an instance, so values a
/// client computes (an optical size that follows 17.000001 pt) do not each make a new one. Each
/// new instance counts against the user whose request made it, in a share (`FairShare`) that the
/// loaded set and every registry made over it (a connection's client fonts, a request's) hold
/// together: past its share a user's request that needs a new instance is refused by name, while
/// a user holding less is still served. A table gives its instances back to the share when its
/// registry goes (a connection's fonts replaced or closed; a reload empties the loaded set's).
final class FontInstances: Sendable {
    /// Instance ids start here, apart from loaded faces' ids (and the faces clients send).
    static let firstID: UInt32 = 0x4000_0000
    /// Shared with the registries made over this one.
    let share: FairShare

    private struct Key: Hashable {
        var face: UInt32
        var coordinates: [Int32]
        /// A tracking face's point size, in hundredths of a point; 0 for none.
        var pointSize: Int32 = 0
        /// What is synthesised over the face or instance `face` names (no coordinates then).
        var synthesis: UInt8 = 0
    }
    private struct Table {
        var byKey: [Key: Font] = [:]
        var byID: [Font] = []
        /// What this table counts in the share, by user.
        var made: [UInt32?: Int] = [:]
    }
    private let table = Locked(Table())

    init(share: FairShare) { self.share = share }

    deinit {
        table.withLock { table in
            for (user, count) in table.made { share.release(count, for: user) }
        }
    }

    var count: Int { table.withLock { $0.byID.count } }

    func font(id: UInt32) -> Font? {
        guard id >= Self.firstID else { return nil }
        return table.withLock { table in
            let index = Int(id - Self.firstID)
            return index < table.byID.count ? table.byID[index] : nil
        }
    }

    /// `face` at `coordinates` (design units, one per axis; empty for a static face) and
    /// `pointSize` (a tracking face's, 0 for none), made on first use, counted against `user`.
    func instance(of face: Font, coordinates: [Float], pointSize: Float = 0, for user: UInt32?) throws(LayoutError) -> Font {
        let rounded = coordinates.map { Int32(saturating: ($0 * 100).rounded()) }
        let roundedSize = Int32(saturating: (pointSize * 100).rounded())
        return try made(Key(face: face.id, coordinates: rounded, pointSize: roundedSize), for: user, field: "variations") { id in
            face.instance(id: id, coordinates: rounded.map { Float($0) / 100 }, pointSize: Float(roundedSize) / 100)
        }
    }

    /// `face` (a loaded face or an instance of this table) bold or oblique as `synthesis` says,
    /// made on first use, counted against `user` as an instance is.
    func synthesized(_ face: Font, _ synthesis: FontSynthesis, for user: UInt32?) throws(LayoutError) -> Font {
        try made(Key(face: face.id, coordinates: [], synthesis: synthesis.rawValue), for: user, field: "font_synthesis") { id in
            face.synthesized(id: id, synthesis)
        }
    }

    /// The font `key` names, made by `make` (given its id) on first use within `user`'s share.
    private func made(_ key: Key, for user: UInt32?, field: String, _ make: (UInt32) -> Font) throws(LayoutError) -> Font {
        let found: Result<Font, LayoutError> = table.withLock { table in
            if let known = table.byKey[key] { return .success(known) }
            if let why = share.reserve(1, for: user) {
                return .failure(LayoutError(.resourceExhausted, why + "; a reload clears them", field: field))
            }
            table.made[user, default: 0] += 1
            // Made under the lock: it takes a few microseconds, once per font.
            let made = make(Self.firstID + UInt32(table.byID.count))
            table.byKey[key] = made
            table.byID.append(made)
            return .success(made)
        }
        return try found.get()
    }
}

extension FontRegistry {
    /// The font a style draws with from `face`: for a variable face, the instance its settings,
    /// weight, slant and size ask for (CSS Fonts 4 §7: `wght` follows the weight, `ital` the
    /// italic, `opsz` the optical size unless optical sizing is off; explicit axis values win); a
    /// face with an AAT `trak` table, tracked at the optical size (as CoreText tracks it at the
    /// point size) unless optical sizing is off; any other static face as it is. `requested` is
    /// false for fallback faces, which a named instance of another family does not apply to. A
    /// new instance counts against `user`'s share.
    /// Where the face lacks the weight or slant the style asks for, the instance is synthesised
    /// bold or oblique as far as the style allows (`FontSynthesis`).
    func instance(of face: Font, for style: TextStyle, requested: Bool, user: UInt32?) throws(LayoutError) -> Font {
        let synthesis = FontSynthesis.needed(weight: style.effectiveWeight, italic: style.italic, allowed: style.synthesis, face: face)
        guard face.isVariable || face.tracks || !synthesis.isEmpty else { return face }
        var font = face
        let pointSize = face.tracks ? Float(style.variations.opticalSize(at: style.size) ?? 0) : 0
        if face.isVariable || pointSize > 0 {
            let coordinates = face.isVariable
                ? try Self.coordinates(axes: face.axes, namedInstances: face.namedInstances, family: face.family,
                                       italicFace: face.italic, style: style, requested: requested)
                : []
            if coordinates != face.axes.map(\.defaultValue) || pointSize > 0 {
                font = try instances.instance(of: face, coordinates: coordinates, pointSize: pointSize, for: user)
            }
        }
        return synthesis.isEmpty ? font : try instances.synthesized(font, synthesis, for: user)
    }

    /// The design coordinates, one per axis, a style asks a variable face for.
    static func coordinates(axes: [VariationAxis], namedInstances: [NamedInstance], family: String, italicFace: Bool,
                            style: TextStyle, requested: Bool) throws(LayoutError) -> [Float] {
        let settings = style.variations
        var coordinates = axes.map(\.defaultValue)
        var fromInstance = false
        if requested && !settings.namedInstance.isEmpty {
            guard let named = namedInstances.first(where: { $0.name.equalsIgnoringCase(settings.namedInstance) }) else {
                let names = namedInstances.map(\.name).joined(separator: ", ")
                throw LayoutError(.invalidArgument,
                                  "\(family) has no named instance \"\(settings.namedInstance)\"" + (names.isEmpty ? "" : " (it has \(names))"),
                                  field: "named_instance")
            }
            coordinates = named.coordinates
            fromInstance = true
        }
        for (index, axis) in axes.enumerated() {
            switch axis.tag {
            case "wght" where !fromInstance: coordinates[index] = Float(style.effectiveWeight)
            case "ital" where style.italic && !italicFace: coordinates[index] = 1
            case "opsz": if let size = settings.opticalSize(at: style.size) { coordinates[index] = Float(size) }
            default: break
            }
            if let explicit = settings.axes.last(where: { $0.tag == axis.tag }) { coordinates[index] = explicit.value }
            coordinates[index] = min(max(coordinates[index], axis.minimum), axis.maximum)
        }
        return coordinates
    }
}

private extension String {
    /// "SemiBold", "Semi Bold" and "semi-bold" name one instance: fonts spell their subfamilies
    /// either way.
    func equalsIgnoringCase(_ other: String) -> Bool { folded == other.folded }

    private var folded: String { lowercased().filter { $0 != " " && $0 != "-" && $0 != "_" } }
}
