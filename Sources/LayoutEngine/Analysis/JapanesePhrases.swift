/// `word-break: auto-phrase` for Japanese: lines break between phrases (bunsetsu), not inside
/// them, as Chromium does with BudouX and Android with `LineBreakConfig.WORD_STYLE_PHRASE`.
///
/// A phrase is a word with the particles and endings after it: 今日は｜自由が丘で｜焼き鳥を｜
/// 食べます。 ICU's dictionary (`UnicodeServices.dictionaryWords`, the one that cuts words for selection) finds
/// the words; a word that is one of the particles, auxiliaries and inflection endings below
/// joins the phrase before it, and every other word starts a phrase. No model is shipped, so a
/// phrase is never longer than the rules and the dictionary make it; where ICU has no data, the
/// breaks stay as `normal` gives them.
enum JapanesePhrases {
    /// Removes the opportunities inside phrases within each run of Japanese letters; those at a
    /// run's edges (after punctuation, spaces or Latin text) stay as they are.
    static func keep(_ units: ContiguousArray<UInt16>, dictionary: any UnicodeServices, into flags: inout ContiguousArray<UnitFlags>) {
        var start = 0
        while start < units.count {
            guard isJapanese(units[start]) else { start += 1; continue }
            var end = start + 1
            while end < units.count && (isJapanese(units[end]) || UTF16.isTrailSurrogate(units[end])) { end += 1 }
            if end - start > 1 { keep(units, start..<end, dictionary: dictionary, into: &flags) }
            start = end
        }
    }

    private static func keep(_ units: ContiguousArray<UInt16>, _ run: Range<Int>, dictionary: any UnicodeServices,
                             into flags: inout ContiguousArray<UnitFlags>) {
        // No dictionary: the breaks stay.
        guard let found = dictionary.dictionaryWords(in: units[run]) else { return }
        let words = [run.lowerBound] + found + [run.upperBound]
        var phraseStarts = Set<Int>()
        for (index, (wordStart, wordEnd)) in zip(words, words.dropFirst()).enumerated()
        where !joinsThePhraseBefore(units[wordStart..<wordEnd], after: index > 0 ? units[wordStart - 1] : nil) {
            phraseStarts.insert(wordStart)
        }
        for index in (run.lowerBound + 1)..<run.upperBound where !phraseStarts.contains(index) {
            flags[index].remove(.breakBefore)
        }
    }

    /// True for a word that belongs to the phrase before it: a particle, an auxiliary or an
    /// inflection ending written in hiragana, or any hiragana right after an ideograph (the
    /// okurigana ICU cuts off a verb: 食｜べ｜ます).
    static func joinsThePhraseBefore(_ word: ArraySlice<UInt16>, after previous: UInt16?) -> Bool {
        if functionWords.contains(Array(word)) { return true }
        guard let previous, isIdeograph(previous) else { return false }
        return word.allSatisfy { $0 >= 0x3041 && $0 <= 0x309F }
    }

    private static func isIdeograph(_ u: UInt16) -> Bool {
        (u >= 0x3400 && u <= 0x4DBF) || (u >= 0x4E00 && u <= 0x9FFF) || (u >= 0xF900 && u <= 0xFAFF) || u == 0x3005
            || UTF16.isTrailSurrogate(u)
    }

    /// Particles (助詞), auxiliaries (助動詞) and the endings ICU cuts off verbs and adjectives,
    /// as a grammar of Japanese lists them.
    static let functionWords: Set<[UInt16]> = Set([
        // case, binding and adverbial particles
        "は", "が", "を", "に", "へ", "と", "で", "や", "の", "も", "か", "な", "ね", "よ", "わ", "ぞ", "ぜ", "さ", "ば", "し",
        "から", "まで", "より", "だけ", "しか", "ほど", "など", "くらい", "ぐらい", "こそ", "でも", "ても", "とか",
        "なら", "ので", "のに", "けど", "けれど", "けれども", "ながら", "たり", "だり", "には", "では", "とは", "へは", "にも",
        "でも", "とも", "への", "での", "との", "からの", "までの", "よりも", "かな", "かも", "よね", "のは", "のが", "のを",
        // auxiliaries and endings
        "です", "でし", "でしょ", "でしょう", "ます", "まし", "ませ", "ましょ", "ましょう", "ません", "た", "だ", "だっ",
        "て", "ない", "なかっ", "なく", "なけれ", "たい", "たかっ", "たく", "れる", "られ", "られる", "れ", "せる", "させ",
        "させる", "う", "よう", "ず", "ぬ", "ん", "じゃ", "らしい", "そう", "みたい", "い", "いる", "いた", "いて", "いま",
        "ください", "くださ", "しまう", "しまっ", "ちゃう", "ちゃっ", "った", "って",
    ].map { Array($0.utf16) })

    /// Kana, ideographs and their marks: the letters ICU's Chinese and Japanese dictionary cuts
    /// (those of `TextBoundaries.needsDictionary` above U+3000; Lao, Khmer and Burmese, below,
    /// have dictionaries of their own).
    static func isJapanese(_ u: UInt16) -> Bool { u >= 0x3000 && TextBoundaries.needsDictionary(u) }
}
