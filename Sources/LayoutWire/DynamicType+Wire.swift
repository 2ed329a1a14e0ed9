import LayoutEngine

extension Layoutd_V1_Style {
    /// The named text style, nil for none, or the first thing wrong.
    func dynamicTextStyle(field: String) throws(LayoutError) -> DynamicType.TextStyle? {
        let raw = textStyle.rawValue
        guard raw != 0 else { return nil }
        guard let style = DynamicType.TextStyle(rawValue: raw - 1) else {
            throw LayoutError(.invalidArgument, "unknown text style \(raw); 1 (LARGE_TITLE) to 11 (CAPTION2)", field: field + ".text_style")
        }
        return style
    }

    /// The wire's order (LARGE first, as the zero) to the engine's (smallest to largest).
    static let categories: [DynamicType.Category] = [.large, .xSmall, .small, .medium, .xLarge, .xxLarge, .xxxLarge,
                                                     .ax1, .ax2, .ax3, .ax4, .ax5]

    func dynamicCategory(field: String) throws(LayoutError) -> DynamicType.Category {
        let raw = sizeCategory.rawValue
        guard Self.categories.indices.contains(raw) else {
            throw LayoutError(.invalidArgument, "unknown content size category \(raw); 0 (LARGE) to 11 (AX5)", field: field + ".size_category")
        }
        return Self.categories[raw]
    }

    /// Whether this style asks for Dynamic Type at all.
    var usesDynamicType: Bool { textStyle.rawValue != 0 || sizeCategory.rawValue != 0 || maxScaledSize != 0 }

    /// Dynamic Type's size and weight into `patch`, which holds the style's own size and weight:
    /// an explicit size is scaled, no size takes the table's (and its weight, unless one is set).
    func addDynamicType(to patch: inout StylePatch, field: String) throws(LayoutError) {
        guard usesDynamicType else { return }
        let style = try dynamicTextStyle(field: field), category = try dynamicCategory(field: field)
        guard maxScaledSize.isFinite, maxScaledSize >= 0, maxScaledSize <= Float(Bounds.maxFontSize) else {
            throw LayoutError(.invalidArgument, "max_scaled_size must be in [0, \(Bounds.text(Bounds.maxFontSize))] points, got \(maxScaledSize)",
                              field: field + ".max_scaled_size")
        }
        let maximum = Double(maxScaledSize)
        if let size = patch.size {
            patch.size = DynamicType.scaled(size, style: style, category: category, maximum: maximum)
        } else {
            let entry = DynamicType.entry(style ?? .body, category)
            patch.size = maximum > 0 ? min(entry.size, maximum) : entry.size
            // The table's leading for the table's size, scaled down with a capped size: the
            // height of a line of this text (a line with taller text grows to hold it).
            patch.lineHeight = maximum > 0 && maximum < entry.size ? entry.leading * maximum / entry.size : entry.leading
            if patch.weight == nil { patch.weight = entry.weight }
        }
        try StyleRules.checkSize(patch.size!, field: field + ".max_scaled_size")
    }
}
