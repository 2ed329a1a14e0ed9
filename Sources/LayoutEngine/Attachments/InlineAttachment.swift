/// An inline attachment: an image, a sticker or a custom view that sits in the text at an
/// OBJECT REPLACEMENT CHARACTER (U+FFFC), as YYText's `YYTextAttachment`, TextKit's
/// `NSTextAttachment` and SkParagraph's placeholders do. The request lists attachments in the
/// order of their U+FFFC.
public struct InlineAttachment: Sendable, Equatable {
    /// How tall the box is: a height (its ascent and descent then come from the alignment), or
    /// an ascent and a descent given outright (the alignment then uses their sum as the height).
    public enum Extent: Sendable, Equatable {
        case height(Double)
        case metrics(ascent: Double, descent: Double)
    }

    public var width: Double
    public var extent: Extent
    public var alignment: AttachmentAlignment
    /// The font YYText's alignments measure against; nil fields take the style at the attachment.
    public var referenceFont: FontReference
    /// Sizes are multiples of the size of the style at the attachment, and in Type Mode the box
    /// scales with its line.
    public var inEms: Bool
    /// False keeps the box with the text on either side: no line break before or after it (a
    /// custom emoji inside a word). True (the default) breaks as U+FFFC does in UAX #14: class
    /// CB, an opportunity on both sides.
    public var breaksAround: Bool

    public init(width: Double, extent: Extent, alignment: AttachmentAlignment = .baseline,
                referenceFont: FontReference = FontReference(), inEms: Bool = false, breaksAround: Bool = true) {
        self.width = width
        self.extent = extent
        self.alignment = alignment
        self.referenceFont = referenceFont
        self.inEms = inEms
        self.breaksAround = breaksAround
    }

    public var height: Double {
        switch extent {
        case .height(let height): height
        case .metrics(let ascent, let descent): ascent + descent
        }
    }
}

/// Where an attachment sits on its line.
public enum AttachmentAlignment: Sendable, Equatable {
    /// On the baseline: ascent = height, descent = 0 (or the ascent and descent given).
    case baseline
    /// YYText's three, against a reference font (`attachmentStringWithContent:…alignToFont:`).
    case fontTop, fontCenter, fontBottom
    /// SkParagraph's six placeholder alignments: the box's own baseline `offset` below its top
    /// on the line's baseline, wholly above or below the baseline, or against the line's top,
    /// bottom or middle.
    case placeholderBaseline(offset: Double)
    case aboveBaseline, belowBaseline
    case lineTop, lineBottom, lineMiddle
}

/// A font named by family, weight and size; nil parts inherit from the style at the attachment.
public struct FontReference: Sendable, Equatable {
    public var family: String?
    public var weight: Int?
    public var size: Double?

    public init(family: String? = nil, weight: Int? = nil, size: Double? = nil) {
        self.family = family
        self.weight = weight
        self.size = size
    }
}
