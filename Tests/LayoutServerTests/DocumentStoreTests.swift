import Testing
@testable import LayoutEngine
@testable import LayoutServer
import LayoutUnicode

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
        let entry = try first.entry(a, now: 0)
        try first.grow(entry, by: 60)
        #expect(throws: LayoutError.self) { try first.grow(entry, by: 20) }
        first.settle(entry, length: 20)
        #expect(ledger.units == 29)
        first.closeAll()
        #expect(ledger.documents == 1 && ledger.units == 5)
        #expect(throws: LayoutError.self) { try open(first, "closed") }
        second.sweep(now: UInt64(saturating: limits.idleSeconds * 1e9) + 1)
        #expect(ledger.documents == 0 && ledger.units == 0 && second.count == 0)
    }

    /// The store tries the entry it found last before its dictionary: whatever the order of
    /// lookups, opens, closes and sweeps, each id finds its own document, and a closed one none.
    @Test func theRecentEntryAnswersAsTheDictionary() throws {
        var limits = DocumentLimits()
        limits.idleSeconds = 10
        let store = DocumentStore(ledger: DocumentLedger(limits: limits))
        var open: [UInt64: TextDocument] = [:]
        var closed: [UInt64] = []
        var generator = SystemRandomNumberGenerator()
        var now: UInt64 = 0
        for step in 0..<200 {
            now += 1_000_000_000
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<2 where open.count < limits.maxPerConnection:
                let id = try self.open(store, "document \(step)", now: now)
                open[id] = try #require(store.peek(id)?.document)
            case 2 where !open.isEmpty:
                let id = open.keys.randomElement(using: &generator)!
                try store.close(id)
                open[id] = nil
                closed.append(id)
            case 3:
                // Every document unused for the idle time goes.
                store.sweep(now: now)
                for id in open.keys where store.peek(id) == nil {
                    open[id] = nil
                    closed.append(id)
                }
            default:
                for id in open.keys.shuffled(using: &generator).prefix(3) {
                    #expect(store.peek(id)?.document === open[id], "step \(step): document \(id)")
                    #expect(try store.entry(id, now: now).document === open[id], "step \(step): document \(id)")
                }
            }
            for id in closed.suffix(3) {
                #expect(store.peek(id) == nil, "step \(step): closed document \(id)")
                #expect(throws: LayoutError.self) { try store.entry(id, now: now) }
            }
            #expect(store.count == open.count)
        }
    }

    /// An edit holds its document's entry: once the entry is out of the store (closed, swept, or
    /// the connection gone), what the store gave back for it stays given back, however the edit
    /// settles.
    @Test func anEntryTakenOutChangesNoCount() throws {
        var limits = DocumentLimits()
        limits.idleSeconds = 10
        let ledger = DocumentLedger(limits: limits)
        for takeOut in ["close", "sweep", "closeAll"] {
            let store = DocumentStore(ledger: ledger)
            let id = try open(store, "twenty units of text")
            let entry = try store.entry(id, now: 0)
            try store.grow(entry, by: 5)
            #expect(entry.units == 25 && ledger.units == 25, "\(takeOut)")
            switch takeOut {
            case "close": try store.close(id)
            case "sweep": store.sweep(now: 10_000_000_001)
            default: store.closeAll()
            }
            #expect(ledger.documents == 0 && ledger.units == 0, "\(takeOut)")
            try store.grow(entry, by: 7)
            store.settle(entry, length: 40)
            store.settle(entry, length: 3)
            #expect(ledger.documents == 0 && ledger.units == 0 && entry.units == 25, "\(takeOut): settled after it was taken out")
        }
    }

    /// The sweep looks at the documents only once one can have expired; what it closes is
    /// what a look at every document on every request closed: each document exactly past its
    /// last use plus the idle time, a use moving that later.
    @Test func sweepClosesEachDocumentWhenItsIdleTimeHasPassed() throws {
        var limits = DocumentLimits()
        limits.idleSeconds = 10
        let idle: UInt64 = 10_000_000_000
        let store = DocumentStore(ledger: DocumentLedger(limits: limits))
        let early = try open(store, "opened first", now: 0)
        let late = try open(store, "opened later", now: 4_000_000_000)
        store.sweep(now: idle)
        #expect(store.count == 2, "exactly the idle time is not past it")
        _ = try store.entry(early, now: 8_000_000_000)  // used: its expiry moves to 18 s
        store.sweep(now: idle + 1)
        #expect(store.count == 2, "a use moves the expiry the sweep had counted on")
        store.sweep(now: 4_000_000_000 + idle + 1)
        #expect(store.count == 1 && store.peek(late) == nil && store.peek(early) != nil)
        store.sweep(now: 8_000_000_000 + idle)
        #expect(store.count == 1)
        store.sweep(now: 8_000_000_000 + idle + 1)
        #expect(store.count == 0)
        let reopened = try open(store, "after the sweep", now: 30_000_000_000)
        store.sweep(now: 30_000_000_000 + idle + 1)
        #expect(store.peek(reopened) == nil, "a document kept after a sweep expires on time")
    }
}
