/// A script, by its ISO 15924 code packed as four ASCII bytes, first letter highest ("Latn" is
/// 0x4C61746E). These are the values HarfBuzz's `hb_script_t` takes, so the shaping stage
/// converts by value at its call, and the pipeline's own values (items, the script table, font
/// fallback) name no HarfBuzz type. `ScriptTableTests` holds each constant to HarfBuzz's.
public struct Script: Hashable, Sendable {
    public let tag: UInt32

    public init(tag: UInt32) { self.tag = tag }

    static let common = Script(tag: 0x5A797979)  // Zyyy
    static let inherited = Script(tag: 0x5A696E68)  // Zinh
    static let unknown = Script(tag: 0x5A7A7A7A)  // Zzzz
    static let latin = Script(tag: 0x4C61746E)  // Latn
    static let greek = Script(tag: 0x4772656B)  // Grek
    static let cyrillic = Script(tag: 0x4379726C)  // Cyrl
    static let han = Script(tag: 0x48616E69)  // Hani
    static let hiragana = Script(tag: 0x48697261)  // Hira
    static let katakana = Script(tag: 0x4B616E61)  // Kana
    static let hangul = Script(tag: 0x48616E67)  // Hang
    static let bopomofo = Script(tag: 0x426F706F)  // Bopo
    static let arabic = Script(tag: 0x41726162)  // Arab
    static let devanagari = Script(tag: 0x44657661)  // Deva
}
