/// One axis value a style asks for: `wght` 650, `opsz` 24, any axis a font's `fvar` lists.
public struct FontVariation: Hashable, Sendable {
    /// Four ASCII characters, as OpenType's Tag.
    public var tag: String
    /// In the axis's own units (user space: `wght` 100–900, `opsz` in points).
    public var value: Float
    public init(tag: String, value: Float) {
        self.tag = tag
        self.value = value
    }
}

/// How a style sets a variable font's axes: a named instance to start from, axis values over it,
/// and whether the optical size follows the point size (CoreText's default, CSS
/// `font-optical-sizing: auto`) or a size of its own. Fonts without variations or an AAT `trak`
/// table ignore it.
public struct FontVariationSettings: Hashable, Sendable {
    /// Axis values, applied last; axes the font lacks are ignored (a fallback font may lack them).
    public var axes: [FontVariation]
    /// A named instance of the requested family ("Bold", "Display Light"); empty: none.
    public var namedInstance: String
    /// False: `opsz` stays at its default (or the value `axes` gives), and an AAT `trak` table
    /// tracks nothing (HarfBuzz without a point size).
    public var opticalSizing: Bool
    /// The points optical sizing follows in place of the text's size (HarfBuzz's `ptem`): text
    /// laid out at 48 for a screen of twice the density is designed for 24. Nil: the size.
    public var opticalSize: Double?

    public init(axes: [FontVariation] = [], namedInstance: String = "", opticalSizing: Bool = true, opticalSize: Double? = nil) {
        self.axes = axes
        self.namedInstance = namedInstance
        self.opticalSizing = opticalSizing
        self.opticalSize = opticalSize
    }

    /// The points `opsz` and `trak` follow for text at `size`; nil with optical sizing off.
    func opticalSize(at size: Double) -> Double? { opticalSizing ? opticalSize ?? size : nil }

    public static let automatic = FontVariationSettings()

    /// Equal to `automatic`, tested field by field: no global to load and no copy to compare.
    public var isAutomatic: Bool { axes.isEmpty && namedInstance.isEmpty && opticalSizing && opticalSize == nil }
}

/// One axis of a variable font, as its `fvar` table gives it.
public struct VariationAxis: Hashable, Sendable {
    public var tag: String
    public var minimum: Float
    public var defaultValue: Float
    public var maximum: Float

    package init(tag: String, minimum: Float, defaultValue: Float, maximum: Float) {
        (self.tag, self.minimum, self.defaultValue, self.maximum) = (tag, minimum, defaultValue, maximum)
    }
}

/// A named instance of a variable font: a subfamily name and a value for every axis.
public struct NamedInstance: Hashable, Sendable {
    public var name: String
    public var coordinates: [Float]

    package init(name: String, coordinates: [Float]) { (self.name, self.coordinates) = (name, coordinates) }
}

/// Four ASCII characters packed big-endian, as HarfBuzz's `hb_tag_t`.
package enum OpenTypeTag {
    package static func pack(_ tag: String) -> UInt32 {
        tag.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }

    package static func unpack(_ tag: UInt32) -> String {
        String(decoding: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: tag >> $0) }, as: UTF8.self)
    }
}
