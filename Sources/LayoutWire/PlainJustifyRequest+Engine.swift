import LayoutEngine
import LayoutProtocol

extension PlainJustifyRequest {
    /// The plan `Layoutd_V1_JustifyRequest.plan` makes of these fields — no preset, the default
    /// sizes (14 to 96 points, each line its own), left aligned, the default palette, no
    /// backgrounds, spans or rules; nil when a value would be refused there (an unknown family,
    /// a width out of range), so the general way names it. Tests hold the two ways' replies equal.
    public func plan(fonts: FontRegistry) -> JustifyPlan? {
        guard Bounds.contains(Double(width), upTo: Bounds.maxLength), family.isEmpty || fonts.hasFamily(family) else { return nil }
        // The text's string is left empty: the stages read its units, as a plain layout's do.
        var request = TypeModeRequest(text: "", style: TextStyle(family: family.isEmpty ? fonts.defaultFamily : family),
                                      width: Double(width), minSize: 14, maxSize: 96, alignment: .left, lineHeightMultiple: 1,
                                      maxHeight: nil, sizing: .perLine, lastLineUnscaled: false)
        request.units = units
        return JustifyPlan(request: request, backgrounds: [], presetName: "", palette: Layoutd_V1_JustifyRequest.defaultPalette(""))
    }
}
