import Foundation
@testable import LayoutEngine
import LayoutUnicode
import LayoutFonts

/// Fonts and helpers shared by the engine tests: Debian's default font set, loaded once.
enum Fixtures {
    static let registry: FontRegistry = {
        do { return try FontRegistry.load(paths: DefaultFonts.paths) } catch {
            fatalError("default fonts missing (run scripts/setup.sh): \(error)")
        }
    }()
    static let layouter = ParagraphLayouter(fonts: registry)

    static func layout(_ text: String, width: Double = 300, size: Double = 24, family: String = "Noto Sans",
                       configure: (inout ParagraphRequest) -> Void = { _ in }) throws -> ParagraphLayout {
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: family, size: size)), width: width)
        configure(&request)
        return try layouter.layout(request)
    }

    /// The text of each line, from its UTF-16 range.
    static func lineTexts(_ layout: ParagraphLayout, _ text: String) -> [String] {
        let units = Array(text.utf16)
        return layout.lines.map { String(decoding: units[$0.range], as: UTF16.self) }
    }

    static func family(of run: GlyphRunLayout) -> String { registry.font(id: run.fontID)!.family }

    struct Caption: Decodable {
        var id: String
        var script: String
        var text: String
    }

    /// Captions written for these tests, in the corpus's scripts and a few more, each with what
    /// makes layout work (spaces, punctuation, numbers, line breaks, mixed directions, emoji
    /// sequences): the corpus-free siblings of the corpus tests run over them in any clone.
    static let ownCaptions: [Caption] = [
        ("Latn", "Sunday market haul: three kinds of apples, a loaf of rye and far too many tulips 🌷"),
        ("Latn", "First swim of the year!\nWater was 14°C, which is \"refreshing\" — or so I keep telling myself."),
        ("Latn", "Naïve café owners serve crème brûlée at 7:30 p.m. (reservations: +44 20 7946 0958)"),
        ("Latn", "Supercalifragilisticexpialidocious-levels of excitement about tomorrow's hike"),
        ("Cyrl", "Первый снег в этом году — гуляли по парку до самой темноты ❄️"),
        ("Cyrl", "Новый рецепт: борщ с копчёной грушей. Получилось неожиданно вкусно!"),
        ("Hani", "今天和朋友们一起去爬山，山顶的风景真的太美了！下次还要再来。"),
        ("Hani", "周末在家做了红烧肉，配上一碗白米饭，简直完美。\n你们周末都做了什么？"),
        ("Jpan", "東京の桜がついに満開になりました。週末はお花見に行く予定です🌸"),
        ("Jpan", "カフェで新しいケーキを食べた。「また来たい」と思える味でした。"),
        ("Kore", "오늘은 친구들과 한강에서 자전거를 탔어요. 날씨가 정말 좋았어요!"),
        ("Arab", "أجمل غروب شاهدته هذا العام على شاطئ البحر 🌅"),
        ("Arab", "قهوة الصباح مع كتاب جديد، بداية مثالية ليوم الجمعة. ١٢٣ صفحة حتى الآن!"),
        ("Arab", "رحلة إلى جبال الأطلس مع العائلة\nثلاثة أيام من المشي والضحك"),
        ("Aran", "امروز بالاخره کتابخانه‌ی جدید شهر را دیدم؛ فوق‌العاده بود!"),
        ("Aran", "سفر به اصفهان با دوستان قدیمی، میدان نقش جهان در شب ۱۴۰۲"),
        ("Deva", "आज माँ के हाथ का बना खाना खाया, दिल खुश हो गया! 🙏"),
        ("Deva", "मुंबई की बारिश और कटिंग चाय — इससे बेहतर कुछ नहीं।"),
        ("Hebr", "סוף שבוע בגליל עם המשפחה, 3 ימים של טיולים ואוכל טוב"),
        ("Thai", "วันนี้ไปเที่ยวตลาดน้ำกับครอบครัว สนุกมากเลย"),
        ("Zyyy", "👨‍👩‍👧‍👦🇯🇵🏳️‍🌈 👍🏽✨ #family #travel"),
        ("Zyyy", "Mixed: English, русский, العربية, 中文 and हिन्दी in one line (2024)."),
        ("Zyyy", "RTL inside LTR: the word שלום means peace, and سلام too."),
    ].enumerated().map { Caption(id: "own-\($0.offset)", script: $0.element.0, text: $0.element.1) }

    /// The caption corpus beside the repository, or nil in a clone without ../shared.
    static let corpus: [Caption]? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent("shared/corpus/captions.jsonl")
        guard let data = try? Data(contentsOf: path) else { return nil }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(Caption.self, from: Data($0)) }
    }()
}
