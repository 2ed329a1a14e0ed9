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
        #expect(table.script(of: 0x41) == HB_SCRIPT_LATIN)
        #expect(table.script(of: 0x20) == HB_SCRIPT_COMMON)
        #expect(table.script(of: 0x0416) == HB_SCRIPT_CYRILLIC)
        #expect(table.script(of: 0x0628) == HB_SCRIPT_ARABIC)
        #expect(table.script(of: 0x4E2D) == HB_SCRIPT_HAN)
        // Inherited (a combining acute) and unassigned fold into Common.
        #expect(table.script(of: 0x0301) == HB_SCRIPT_COMMON)
        #expect(table.script(of: 0x0378) == HB_SCRIPT_COMMON)
        // Past the BMP HarfBuzz is asked directly.
        #expect(table.script(of: 0x1F600) == HB_SCRIPT_COMMON)
        #expect(table.script(of: 0x20000) == HB_SCRIPT_HAN)
    }
}
