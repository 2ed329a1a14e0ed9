/// Dynamic Type: text sized by the reader's preferred content size, as iOS sizes its text styles.
///
/// A style names a text style (body, headline, ...) and a content size category instead of a
/// point size; the size, weight and leading come from Apple's published iOS table. An explicit
/// size with a text style is scaled by the category's ratio to `large` for that style, as
/// `UIFontMetrics(forTextStyle:).scaledValue(for:)` scales it, optionally capped
/// (`scaledFont(for:maximumPointSize:)`).
public enum DynamicType {
    public enum TextStyle: Int, CaseIterable, Sendable {
        case largeTitle, title1, title2, title3, headline, body, callout, subheadline, footnote, caption1, caption2
    }

    /// UIContentSizeCategory's twelve, smallest to largest; `large` is the default.
    public enum Category: Int, CaseIterable, Sendable {
        case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge, ax1, ax2, ax3, ax4, ax5
    }

    public struct Entry: Equatable, Sendable {
        /// Points.
        public var size: Double
        /// The line's height in points (the table's leading column).
        public var leading: Double
        public var weight: Int
    }

    /// Size and leading in points by text style (rows, in `TextStyle` order) and category
    /// (columns, in `Category` order), from Apple's Human Interface Guidelines, "Typography",
    /// iOS and iPadOS Dynamic Type sizes
    /// (https://developer.apple.com/design/human-interface-guidelines/typography#iOS-iPadOS-Dynamic-Type-sizes).
    /// UIKit agrees cell for cell in the iOS 13.3 simulator (sizes measured by
    /// github.com/temoki/UIKit_DynamicType), except caption 2 at AX5, which it draws at 41.
    /// Every style is regular weight except headline, semibold.
    static let table: [[(size: Double, leading: Double)]] = [
        // xSmall    small     medium    large     xLarge    xxLarge   xxxLarge  AX1       AX2       AX3       AX4       AX5
        [(31, 38), (32, 39), (33, 40), (34, 41), (36, 43), (38, 46), (40, 48), (44, 52), (48, 57), (52, 61), (56, 66), (60, 70)],  // largeTitle
        [(25, 31), (26, 32), (27, 33), (28, 34), (30, 37), (32, 39), (34, 41), (38, 46), (43, 51), (48, 57), (53, 62), (58, 69)],  // title1
        [(19, 24), (20, 25), (21, 26), (22, 28), (24, 30), (26, 32), (28, 34), (34, 41), (39, 47), (44, 52), (50, 59), (56, 66)],  // title2
        [(17, 22), (18, 23), (19, 24), (20, 25), (22, 28), (24, 30), (26, 32), (31, 38), (37, 44), (43, 51), (49, 58), (55, 65)],  // title3
        [(14, 19), (15, 20), (16, 21), (17, 22), (19, 24), (21, 26), (23, 29), (28, 34), (33, 40), (40, 48), (47, 56), (53, 62)],  // headline
        [(14, 19), (15, 20), (16, 21), (17, 22), (19, 24), (21, 26), (23, 29), (28, 34), (33, 40), (40, 48), (47, 56), (53, 62)],  // body
        [(13, 18), (14, 19), (15, 20), (16, 21), (18, 23), (20, 25), (22, 28), (26, 32), (32, 39), (38, 46), (44, 52), (51, 60)],  // callout
        [(12, 16), (13, 18), (14, 19), (15, 20), (17, 22), (19, 24), (21, 28), (25, 31), (30, 37), (36, 43), (42, 50), (49, 58)],  // subheadline
        [(12, 16), (12, 16), (12, 16), (13, 18), (15, 20), (17, 22), (19, 24), (23, 29), (27, 33), (33, 40), (38, 46), (44, 52)],  // footnote
        [(11, 13), (11, 13), (11, 13), (12, 16), (14, 19), (16, 21), (18, 23), (22, 28), (26, 32), (32, 39), (37, 44), (43, 51)],  // caption1
        [(11, 13), (11, 13), (11, 13), (11, 13), (13, 18), (15, 20), (17, 22), (20, 25), (24, 29), (29, 35), (34, 41), (40, 48)],  // caption2
    ]

    public static func entry(_ style: TextStyle, _ category: Category = .large) -> Entry {
        let cell = table[style.rawValue][category.rawValue]
        return Entry(size: cell.size, leading: cell.leading, weight: style == .headline ? 600 : 400)
    }

    /// `size` as `style` scales it at `category` (body when no style is named, as
    /// `UIFontMetrics.default`), at most `maximum` when one is given (> 0).
    public static func scaled(_ size: Double, style: TextStyle?, category: Category, maximum: Double = 0) -> Double {
        let row = (style ?? .body).rawValue
        let scaled = size * table[row][category.rawValue].size / table[row][Category.large.rawValue].size
        return maximum > 0 ? min(scaled, maximum) : scaled
    }
}
