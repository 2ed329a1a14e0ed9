import LayoutEngine

/// The engine's Unicode services (`UnicodeServices`) from the system's libraries: FriBidi's
/// levels, ICU's and libthai's dictionaries, Debian's hyphenation patterns through libhyphen.
/// One instance serves every layouter of a process (`shared`): the patterns it reads are kept.
public final class SystemUnicode: UnicodeServices {
    private let hyphenationFiles: HyphenationFiles

    /// `hyphenationDirectory`: where the `hyph_*.dic` files are (Debian's `hyphen-*` packages').
    public init(hyphenationDirectory: String = "/usr/share/hyphen") {
        hyphenationFiles = HyphenationFiles(directory: hyphenationDirectory)
    }

    /// The one most programs use.
    public static let shared = SystemUnicode()

    public func resolveBidiParagraph(_ units: Span<UInt16>, range: Range<Int>, forcedBase: UInt8?,
                                     into levels: inout MutableSpan<UInt8>) -> UInt8 {
        precondition(range.upperBound <= units.count && units.count <= levels.count)
        return units.withUnsafeBufferPointer { units in
            levels.withUnsafeMutableBufferPointer { levels in
                UnicodeBidi.resolveParagraph(units, range: range, forcedBase: forcedBase, into: levels)
            }
        }
    }

    public func dictionaryWords(in run: ArraySlice<UInt16>) -> [Int]? { DictionaryWords.boundaries(in: run) }

    public func thaiWords(in run: ArraySlice<UInt16>) -> [Int]? { DictionaryWords.thaiBreaks(in: run) }

    public func hyphenation(forLanguage language: String) -> (any HyphenationDictionary)? {
        hyphenationFiles.forLanguage(language)
    }
}

extension HyphenationPatterns: HyphenationDictionary {}

extension ParagraphLayouter {
    /// A layouter whose Unicode services are the system's (`SystemUnicode.shared`).
    public convenience init(fonts: FontRegistry, cache: ShapingCache? = ShapingCache(), maxTextLength: Int = 1 << 20) {
        self.init(fonts: fonts, unicode: SystemUnicode.shared, cache: cache, maxTextLength: maxTextLength)
    }
}

extension TextBoundaries {
    /// The boundaries of `text`, its words cut by the system's dictionaries.
    public init(text: String) { self.init(text: text, unicode: SystemUnicode.shared) }
}
