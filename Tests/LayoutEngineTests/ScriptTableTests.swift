import CHarfBuzz
import Testing
@testable import LayoutEngine

/// The itemizer reads scripts from a table made once; it must answer as HarfBuzz does.
@Suite struct ScriptTableTests {
    @Test func everyBMPCodePointHasHarfBuzzsScript() {
        let table = Itemizer.ScriptTable.shared
        var wrong: [String] = []
        for scalar in UInt32(0)..<0x10000 where table.script(of: scalar) != Itemizer.lookUpScript(scalar) {
            wrong.append(String(scalar, radix: 16))
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(20))")
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
        // Past the BMP HarfBuzz is asked directly.
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
