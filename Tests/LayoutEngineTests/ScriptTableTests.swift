import CHarfBuzz
import Testing
@testable import LayoutEngine

/// The itemizer reads scripts from Unicode's Scripts.txt (a generated table, laid out once for
/// the BMP); HarfBuzz shapes runs by its own database, so the two must agree everywhere.
@Suite struct ScriptTableTests {
    /// Every code point, the BMP's table and the ranges beyond it, against `hb_unicode_script`
    /// (Inherited and Unknown folded into Common, as the itemizer folds them).
    @Test func everyCodePointHasHarfBuzzsScript() {
        let table = Itemizer.ScriptTable.shared
        let functions = hb_unicode_funcs_get_default()
        var wrong: [String] = []
        for scalar in UInt32(0)...0x10FFFF {
            var expected = hb_unicode_script(functions, scalar).rawValue
            if expected == HB_SCRIPT_INHERITED.rawValue || expected == HB_SCRIPT_UNKNOWN.rawValue { expected = HB_SCRIPT_COMMON.rawValue }
            if table.script(of: scalar).tag != expected || (scalar < 0x10000 && Itemizer.lookUpScript(scalar).tag != expected) {
                wrong.append(String(scalar, radix: 16))
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) code points differ: \(wrong.prefix(20))")
    }

    @Test func foldsAndSpotChecks() {
        let table = Itemizer.ScriptTable.shared
        #expect(table.script(of: 0x41).tag == HB_SCRIPT_LATIN.rawValue)
        #expect(table.script(of: 0x20).tag == HB_SCRIPT_COMMON.rawValue)
        #expect(table.script(of: 0x0416).tag == HB_SCRIPT_CYRILLIC.rawValue)
        #expect(table.script(of: 0x0628).tag == HB_SCRIPT_ARABIC.rawValue)
        #expect(table.script(of: 0x4E2D).tag == HB_SCRIPT_HAN.rawValue)
        // Inherited (a combining acute) and unassigned fold into Common.
        #expect(table.script(of: 0x0301).tag == HB_SCRIPT_COMMON.rawValue)
        #expect(table.script(of: 0x0378).tag == HB_SCRIPT_COMMON.rawValue)
        // Past the BMP the ranges are searched.
        #expect(table.script(of: 0x1F600).tag == HB_SCRIPT_COMMON.rawValue)
        #expect(table.script(of: 0x20000).tag == HB_SCRIPT_HAN.rawValue)
    }

    /// The pipeline's own script values are HarfBuzz's, so the shaper converts them by value.
    @Test func theScriptConstantsAreHarfBuzzs() {
        let pairs: [(Script, hb_script_t)] = [
            (.common, HB_SCRIPT_COMMON), (.inherited, HB_SCRIPT_INHERITED), (.unknown, HB_SCRIPT_UNKNOWN),
            (.latin, HB_SCRIPT_LATIN), (.greek, HB_SCRIPT_GREEK), (.cyrillic, HB_SCRIPT_CYRILLIC), (.han, HB_SCRIPT_HAN),
            (.hiragana, HB_SCRIPT_HIRAGANA), (.katakana, HB_SCRIPT_KATAKANA), (.hangul, HB_SCRIPT_HANGUL),
            (.bopomofo, HB_SCRIPT_BOPOMOFO), (.arabic, HB_SCRIPT_ARABIC), (.devanagari, HB_SCRIPT_DEVANAGARI),
        ]
        for (ours, harfBuzzs) in pairs { #expect(ours.tag == harfBuzzs.rawValue, "\(ours)") }
    }
}
