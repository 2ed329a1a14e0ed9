import LayoutEngine
import LayoutProtocol

extension PlainLayoutRequest {
    /// The engine's request, the same as `Layoutd_V1_LayoutRequest.formattedRequest` makes of
    /// these fields; nil when a value would be refused there (an unknown family, a size or width
    /// out of range), so the general way names it. Tests hold the two ways' replies equal.
    public func engineRequest(fonts: FontRegistry) -> ParagraphRequest? {
        engineRequest(fonts: fonts, styles: [style(fonts: fonts)])
    }

    /// The same with its style given in an array the caller keeps (`[style(fonts:)]`, handed
    /// out again from request to request: `PlainStyles`). The text's string is left empty: the
    /// stages read its units (as a paragraph cut from a text has none), and making one was most
    /// of reading the request.
    public func engineRequest(fonts: FontRegistry, styles: [TextStyle]) -> ParagraphRequest? {
        guard isAnswerable(fonts: fonts) else { return nil }
        return ParagraphRequest(text: AttributedText(plainUnits: units, styles: styles), width: Double(width))
    }

    /// The default style patched with the family and size given: what StylePatch.applied makes.
    public func style(fonts: FontRegistry) -> TextStyle {
        TextStyle(family: family.isEmpty ? fonts.defaultFamily : family, size: size == 0 ? 17 : Double(size))
    }

    private func isAnswerable(fonts: FontRegistry) -> Bool {
        Bounds.contains(Double(width), upTo: Bounds.maxLength)
            && (family.isEmpty || fonts.hasFamily(family)) && (size == 0 || Bounds.containsFontSize(Double(size)))
    }
}
