/// How a tag stays readable on any photo: white text and lines on a light photo vanish, so each
/// tag casts a soft dark shadow around its text, lines and dot (the default, as the text on
/// Instagram's and Xiaohongshu's photos has), and may sit its text on a translucent backing.
/// A style of the table may set its own (`"legibility"` in its JSON); a style without one takes
/// the default.
public struct TagLegibility: Equatable, Sendable, Codable {
    /// The shadow's blur radius, points (σ = blur / 2, as a text shadow's); 0: no shadow.
    public var shadowBlur: Double
    /// The shadow's opacity, 0...1, of the tag scene's shadow colour (black by default).
    public var shadowOpacity: Double
    /// A fill behind each label's text rect, grown by `backingPadding`, its corners rounded by
    /// `backingRadius`; nil: none. In the JSON, "#rrggbb" or "#rrggbbaa".
    public var backing: Color?
    public var backingPadding: Double
    public var backingRadius: Double

    public static let `default` = TagLegibility()

    public init(shadowBlur: Double = 3, shadowOpacity: Double = 0.6, backing: Color? = nil, backingPadding: Double = 4,
                backingRadius: Double = 4) {
        self.shadowBlur = shadowBlur
        self.shadowOpacity = shadowOpacity
        self.backing = backing
        self.backingPadding = backingPadding
        self.backingRadius = backingRadius
    }

    /// The backing behind a label whose text fills `textRect`; nil without a backing.
    public func backingRect(around textRect: Rect) -> Rect? {
        guard backing != nil else { return nil }
        return Rect(x: textRect.x - backingPadding, y: textRect.y - backingPadding,
                    width: textRect.width + 2 * backingPadding, height: textRect.height + 2 * backingPadding)
    }

    /// Refuses a blur or padding outside [0, 100], a radius outside [0, 100] or an opacity outside
    /// [0, 1], naming the field under `field`.
    func validate(field: String) throws(LayoutError) {
        for (value, name) in [(shadowBlur, "shadowBlur"), (backingPadding, "backingPadding"), (backingRadius, "backingRadius")]
        where !(value.isFinite && value >= 0 && value <= 100) {
            throw LayoutError(.invalidArgument, "\(name) must be in [0, 100] points, got \(value)", field: "\(field).\(name)")
        }
        guard shadowOpacity.isFinite, shadowOpacity >= 0, shadowOpacity <= 1 else {
            throw LayoutError(.invalidArgument, "shadowOpacity must be in [0, 1], got \(shadowOpacity)", field: "\(field).shadowOpacity")
        }
    }

    private enum CodingKeys: String, CodingKey { case shadowBlur, shadowOpacity, backing, backingPadding, backingRadius }

    /// Every key may be left out: it keeps the default's value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let fallback = TagLegibility()
        shadowBlur = try container.decodeIfPresent(Double.self, forKey: .shadowBlur) ?? fallback.shadowBlur
        shadowOpacity = try container.decodeIfPresent(Double.self, forKey: .shadowOpacity) ?? fallback.shadowOpacity
        backingPadding = try container.decodeIfPresent(Double.self, forKey: .backingPadding) ?? fallback.backingPadding
        backingRadius = try container.decodeIfPresent(Double.self, forKey: .backingRadius) ?? fallback.backingRadius
        if let hex = try container.decodeIfPresent(String.self, forKey: .backing) {
            guard let color = Color(hex: hex) else {
                throw DecodingError.dataCorruptedError(forKey: .backing, in: container, debugDescription: "\"\(hex)\" is not #rrggbb or #rrggbbaa")
            }
            backing = color
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(shadowBlur, forKey: .shadowBlur)
        try container.encode(shadowOpacity, forKey: .shadowOpacity)
        try container.encodeIfPresent(backing?.hex, forKey: .backing)
        try container.encode(backingPadding, forKey: .backingPadding)
        try container.encode(backingRadius, forKey: .backingRadius)
    }
}

extension Color {
    /// "#rrggbb" or "#rrggbbaa"; nil for anything else.
    init?(hex: String) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else {
            return nil
        }
        let rgba = digits.count == 6 ? value << 8 | 0xFF : value
        self.init(red: Double(rgba >> 24) / 255, green: Double((rgba >> 16) & 0xFF) / 255, blue: Double((rgba >> 8) & 0xFF) / 255,
                  alpha: Double(rgba & 0xFF) / 255)
    }

    /// "#rrggbbaa".
    var hex: String {
        func byte(_ value: Double) -> UInt32 { UInt32(saturating: (min(max(value, 0), 1) * 255).rounded()) }
        let rgba = byte(red) << 24 | byte(green) << 16 | byte(blue) << 8 | byte(alpha)
        let digits = String(rgba, radix: 16)
        return "#" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
