import Foundation

/// The font set a daemon loads when its configuration names none: Debian's Noto and DejaVu.
public enum DefaultFonts {
    /// The files of `paths` this machine has (a package may be missing): what the daemon loads.
    public static var installedPaths: [String] { paths.filter { FileManager.default.fileExists(atPath: $0) } }

    /// Files from fonts-noto-core, fonts-noto-cjk, fonts-noto-color-emoji, fonts-dejavu-core, and
    /// URW's Z003 (a Zapf Chancery design, fonts-urw-base35) for the formatting rules' script face.
    /// Thai, which neither Noto Sans nor DejaVu Sans draws, has Noto Sans Thai.
    public static let paths: [String] = {
        let noto = "/usr/share/fonts/truetype/noto/"
        let cjk = "/usr/share/fonts/opentype/noto/"
        let dejavu = "/usr/share/fonts/truetype/dejavu/"
        let styles = ["Regular", "Bold", "Italic", "BoldItalic"]
        return styles.map { noto + "NotoSans-\($0).ttf" }
            + styles.map { noto + "NotoSerif-\($0).ttf" }
            + [noto + "NotoNaskhArabic-Regular.ttf", noto + "NotoNaskhArabic-Bold.ttf",
               noto + "NotoSansDevanagari-Regular.ttf", noto + "NotoSansDevanagari-Bold.ttf",
               cjk + "NotoSansCJK-Regular.ttc", cjk + "NotoSansCJK-Bold.ttc",
               noto + "NotoColorEmoji.ttf"]
            + ["DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique", "DejaVuSans-BoldOblique",
               "DejaVuSerif", "DejaVuSerif-Bold", "DejaVuSansMono", "DejaVuSansMono-Bold"].map { dejavu + $0 + ".ttf" }
            + ["/usr/share/fonts/opentype/urw-base35/Z003-MediumItalic.otf"]
            // Last, so that the faces before keep their ids.
            + [noto + "NotoSansThai-Regular.ttf", noto + "NotoSansThai-Bold.ttf"]
    }()

    /// Tried after the requested family and before the script's own choice fails.
    public static let fallbackFamilies = [
        "Noto Sans", "Noto Naskh Arabic", "Noto Sans Devanagari", "Noto Sans CJK SC",
        "Noto Color Emoji", "Noto Sans Thai", "DejaVu Sans",
    ]
}
