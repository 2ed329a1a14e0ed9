import ArgumentParser
import LayoutProtocol

/// `--text-style body --category xxLarge [--max-scaled-size 40] [--bold-text]`: Dynamic Type and
/// the reader's Bold Text for the default style.
struct DynamicTypeOptions: ParsableArguments {
    static let styles = ["largeTitle", "title1", "title2", "title3", "headline", "body", "callout", "subheadline", "footnote",
                         "caption1", "caption2"]
    /// In the wire's order: large is the zero.
    static let categories = ["large", "xSmall", "small", "medium", "xLarge", "xxLarge", "xxxLarge", "AX1", "AX2", "AX3", "AX4", "AX5"]

    @Option(help: "Dynamic Type text style: \(styles.joined(separator: ", ")) (its size, weight and leading replace --size).")
    var textStyle: String?
    @Option(help: "Content size category: \(categories.joined(separator: ", ")) (default large).") var category: String?
    @Option(parsing: .unconditional, help: "The largest size Dynamic Type may give, in points.") var maxScaledSize: Float = 0
    @Flag(help: "The reader's Bold Text setting: every weight 300 heavier (body text takes the family's Bold).") var boldText = false

    /// Sets the style's Dynamic Type fields; `explicitSize` tells whether --size was given.
    func apply(to style: inout Layoutd_V1_Style, explicitSize: Bool) throws {
        if let textStyle {
            guard let index = Self.styles.firstIndex(of: textStyle) else {
                throw ValidationError("--text-style must be one of \(Self.styles.joined(separator: ", "))")
            }
            style.textStyle = Layoutd_V1_TextStyleName(rawValue: index + 1) ?? .textStyleNone
            if !explicitSize { style.size = 0 }
        }
        if let category {
            guard let index = Self.categories.firstIndex(where: { $0.lowercased() == category.lowercased() }) else {
                throw ValidationError("--category must be one of \(Self.categories.joined(separator: ", "))")
            }
            style.sizeCategory = Layoutd_V1_ContentSizeCategory(rawValue: index) ?? .contentSizeLarge
        }
        style.maxScaledSize = maxScaledSize
        if boldText { style.boldText = true }
    }
}
