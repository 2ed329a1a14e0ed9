import Testing
@testable import LayoutEngine
@testable import LayoutServer

/// The counts behind the document limits: what a connection opens, grows, closes, lets sit idle
/// or leaves behind when it closes is given back to the server's ledger.
@Suite struct DocumentStoreTests {
    static let layouter = ParagraphLayouter(fonts: try! FontRegistry.load(paths: DefaultFonts.paths))

    static func document(_ text: String) throws -> TextDocument {
        let style = TextStyle(family: "Noto Sans", size: 17)
        return try TextDocument(units: AttributedText.utf16(text), settings: DocumentSettings(
            request: ParagraphRequest(text: AttributedText("", style: style), width: 200), style: style), layouter: layouter)
    }

    func open(_ store: DocumentStore, _ text: String, now: UInt64 = 0) throws -> UInt64 {
        let document = try Self.document(text)
        try store.admit(units: document.length)
        return store.keep(document, ruleNames: [], now: now)
    }

    @Test func everythingHeldIsGivenBack() throws {
        var limits = DocumentLimits()
        limits.maxTotal = 3
        limits.maxUnitsTotal = 100
        let ledger = DocumentLedger(limits: limits)
        let first = DocumentStore(ledger: ledger), second = DocumentStore(ledger: ledger)
        let a = try open(first, "twenty units of text")
        _ = try open(first, "more")
        _ = try open(second, "other")
        #expect(ledger.documents == 3 && ledger.units == 29)
        #expect(throws: LayoutError.self) { try open(second, "one too many") }
        #expect(ledger.documents == 3, "a refused open holds nothing")
        try first.grow(a, by: 60)
        #expect(throws: LayoutError.self) { try first.grow(a, by: 20) }
        first.settle(a, length: 20)
        #expect(ledger.units == 29)
        first.closeAll()
        #expect(ledger.documents == 1 && ledger.units == 5)
        #expect(throws: LayoutError.self) { try open(first, "closed") }
        second.sweep(now: UInt64(saturating: limits.idleSeconds * 1e9) + 1)
        #expect(ledger.documents == 0 && ledger.units == 0 && second.count == 0)
    }
}
