import LayoutEngine
import LayoutWire

/// How many documents, of how many UTF-16 units, connections may keep open, and how long one
/// may sit unused. Units stand for memory: a document keeps every paragraph's glyphs and lines,
/// about a hundred bytes a unit (measured on the corpus, four times over, debug build: 64 bytes
/// a unit in a plain box, 93 in text that flows, which also keeps each paragraph's shaped text).
public struct DocumentLimits: Sendable, Equatable {
    public var maxPerConnection = 16
    public var maxUnitsPerConnection = 4 << 20
    public var maxTotal = 1_024
    public var maxUnitsTotal = 32 << 20
    public var idleSeconds = 600.0

    public init() {}
}

/// The documents of every connection, counted per user: one ledger per server. Each user has a
/// fair share of the server's documents and units (`FairShare`): one uid holding the server's
/// totals no longer locks every other user out.
public final class DocumentLedger: Sendable {
    let limits: DocumentLimits
    let documentShare: FairShare
    let unitShare: FairShare

    public init(limits: DocumentLimits) {
        self.limits = limits
        documentShare = FairShare("documents", capacity: limits.maxTotal)
        unitShare = FairShare("UTF-16 units of documents", capacity: limits.maxUnitsTotal)
    }

    /// Takes room for `documents` more documents and `units` more units for `user`, or says why there is none.
    func reserve(documents: Int = 0, units: Int, user: UInt32?) -> String? {
        if let why = documentShare.reserve(documents, for: user) { return why }
        if let why = unitShare.reserve(units, for: user) {
            documentShare.release(documents, for: user)
            return why
        }
        return nil
    }

    func release(documents: Int = 0, units: Int, user: UInt32?) {
        documentShare.release(documents, for: user)
        unitShare.release(units, for: user)
    }

    var documents: Int { documentShare.total }
    var units: Int { unitShare.total }
}

/// One more layout of a document's text: its own settings, edited with the document.
struct DocumentLayoutView: @unchecked Sendable {
    let document: TextDocument
    let ruleNames: [String]
}

/// A document's Type Mode look and views (`DocumentStore.Entry.extras`).
final class DocumentExtras: @unchecked Sendable {
    /// A Type Mode document's backgrounds and colours, made again with each reply.
    let story: StoryLook?
    /// More layouts of the same text, each edited with the document (`OpenDocumentRequest.views`).
    let views: [DocumentLayoutView]

    init(story: StoryLook?, views: [DocumentLayoutView]) {
        self.story = story
        self.views = views
    }
}

extension DocumentStore.Entry {
    var story: StoryLook? { extras?.story }
    var views: [DocumentLayoutView] { extras?.views ?? [] }
    /// Every layout of the text: the document's own, then its views.
    var layouts: [TextDocument] { [document] + views.map(\.document) }
}

/// One connection's open documents, by id. Ids count up from 1 on each connection, so an id
/// from another connection names nothing here (or another of this connection's documents,
/// which is the client's own). The connection runs its document requests one at a time, in
/// order; the lock is for the clock's sweep and the close at the end.
public final class DocumentStore: Sendable {
    /// @unchecked Sendable: a `TextDocument` is not thread-safe and not Sendable; an entry
    /// crosses threads only as the connection's document chain hands it on, one request after
    /// another (the chain runs them in order), and the sweep and the final close only drop it.
    /// A class: every request looks its entry up, and a struct's copy retained each of its
    /// references where this is one; its two counts change in place, under the store's lock.
    final class Entry: @unchecked Sendable {
        let document: TextDocument
        let ruleNames: [String]
        /// What only some documents have, by reference: most documents have neither.
        let extras: DocumentExtras?
        var lastUsed: UInt64
        var units: Int
        /// In the store still: cleared, under the store's lock, when the entry is taken out
        /// (closed, swept, or the connection's end), so an edit that holds it changes no count
        /// after the store has given them back.
        var isKept = true

        init(document: TextDocument, ruleNames: [String], extras: DocumentExtras?, lastUsed: UInt64, units: Int) {
            (self.document, self.ruleNames, self.extras, self.lastUsed, self.units) = (document, ruleNames, extras, lastUsed, units)
        }
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        /// The entry looked up last, tried before the dictionary: an editor's keystrokes name the
        /// same document again and again, and hashing its id cost each lookup more than the rest
        /// of it. Always one of `entries` (nil once it is taken out); `DocumentStoreTests` holds
        /// its answers to the dictionary's.
        var recent: (id: UInt64, entry: Entry)?
        var nextID: UInt64 = 1
        var units = 0
        var closed = false
        /// The peer's uid, once the connection is admitted: its documents count against its share.
        var user: UInt32?
        /// No document expires before this (its last use plus the idle time): the earliest at
        /// the last sweep, or of a document kept since. A use only moves an expiry later, so a
        /// sweep before this finds nothing, and every request's sweep is one comparison.
        var nextExpiry = UInt64.max

        /// The entry of document `id`, the recent one first.
        mutating func find(_ id: UInt64) -> Entry? {
            if let recent, recent.id == id { return recent.entry }
            guard let entry = entries[id] else { return nil }
            recent = (id, entry)
            return entry
        }

        /// Takes entry `id` out, if it is here.
        mutating func remove(_ id: UInt64) -> Entry? {
            guard let entry = entries.removeValue(forKey: id) else { return nil }
            entry.isKept = false
            if recent?.id == id { recent = nil }
            return entry
        }

        /// Takes every entry out.
        mutating func removeAll() -> [Entry] {
            let all = Array(entries.values)
            for entry in all { entry.isKept = false }
            entries.removeAll()
            recent = nil
            return all
        }
    }

    private let state = Locked(State())
    let ledger: DocumentLedger
    var limits: DocumentLimits { ledger.limits }

    public init(ledger: DocumentLedger) { self.ledger = ledger }

    /// The user whose share this connection's documents count against.
    func assign(user: UInt32?) { state.withLock { $0.user = user } }

    static func notFound(_ id: UInt64, field: String) -> LayoutError {
        LayoutError(.notFound, "no document \(id) is open on this connection (closed, idle past its time, or another "
                    + "connection's)", field: field)
    }

    /// Room for a document of `units`, taken before it is laid out; `admitted` is given back if
    /// the layout then fails.
    func admit(units: Int) throws(LayoutError) {
        let refusal: String? = state.withLock { state in
            if state.closed { return "the connection is closing" }
            if state.entries.count >= limits.maxPerConnection {
                return "this connection has \(limits.maxPerConnection) documents open, its limit"
            }
            if state.units + units > limits.maxUnitsPerConnection {
                return "this connection's documents would hold \(state.units + units) UTF-16 units; at most \(limits.maxUnitsPerConnection)"
            }
            if let why = ledger.reserve(documents: 1, units: units, user: state.user) { return why }
            state.units += units
            return nil
        }
        if let refusal { throw LayoutError(.resourceExhausted, refusal, field: "") }
    }

    func unadmit(units: Int) {
        let user = state.withLock { state in
            state.units -= units
            return state.user
        }
        ledger.release(documents: 1, units: units, user: user)
    }

    /// Keeps an admitted document; its id.
    func keep(_ document: TextDocument, ruleNames: [String], story: StoryLook? = nil, views: [DocumentLayoutView] = [], now: UInt64) -> UInt64 {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = Entry(document: document, ruleNames: ruleNames,
                                       extras: story == nil && views.isEmpty ? nil : DocumentExtras(story: story, views: views), lastUsed: now,
                                       units: document.length * (1 + views.count))
            state.nextExpiry = min(state.nextExpiry, expiry(lastUsed: now))
            return id
        }
    }

    /// The document `id`, marked used now.
    func entry(_ id: UInt64, now: UInt64) throws(LayoutError) -> Entry {
        let found: Entry? = state.withLock { state in
            guard let entry = state.find(id) else { return nil }
            entry.lastUsed = now
            return entry
        }
        guard let found else { throw Self.notFound(id, field: "document") }
        return found
    }

    /// The document `id`, how many layouts it keeps of its text, and whether each reply makes
    /// backgrounds over all of it (a Type Mode story's), not marked used (to weigh a request
    /// before it runs).
    func peek(_ id: UInt64) -> (document: TextDocument, layouts: Int, backgroundsOverAll: Bool)? {
        state.withLock { state in
            state.find(id).map { ($0.document, 1 + $0.views.count, !($0.story?.backgrounds.isEmpty ?? true)) }
        }
    }

    /// Room for the document of `entry` to grow by `units` (nothing for shrinking), or why there
    /// is none. By its entry, which the edit holds: by id, every keystroke looked it up again.
    func grow(_ entry: Entry, by units: Int) throws(LayoutError) {
        let refusal: String? = state.withLock { state in
            // A document taken out meanwhile takes no room: nothing would give it back.
            guard units > 0, entry.isKept else { return nil }
            if state.units + units > limits.maxUnitsPerConnection {
                return "this connection's documents would hold \(state.units + units) UTF-16 units; at most \(limits.maxUnitsPerConnection)"
            }
            if let why = ledger.reserve(units: units, user: state.user) { return why }
            state.units += units
            entry.units += units
            return nil
        }
        if let refusal { throw LayoutError(.resourceExhausted, refusal, field: "") }
    }

    /// Settles the count of the document of `entry` at its length now (after an edit, or one
    /// given back): by its entry, as `grow`.
    func settle(_ entry: Entry, length: Int) {
        state.withLock { state in
            guard entry.isKept else { return }
            let counted = entry.units
            entry.units = length
            state.units += length - counted
            if length > counted {
                ledger.unitShare.add(length - counted, for: state.user)  // admitted by `grow` before the edit ran
            } else if length < counted {
                ledger.release(units: counted - length, user: state.user)
            }
        }
    }

    func close(_ id: UInt64) throws(LayoutError) {
        let removed = state.withLock { $0.remove(id) }
        guard let removed else { throw Self.notFound(id, field: "document") }
        forget(removed)
    }

    /// Closes the documents unused for the idle time (the same documents whenever it runs: it
    /// looks at them only once one can have expired, `State.nextExpiry`).
    func sweep(now: UInt64) {
        let expired: [Entry] = state.withLock { state in
            guard now > state.nextExpiry else { return [] }
            var expired: [(id: UInt64, entry: Entry)] = [], next = UInt64.max
            for (id, entry) in state.entries {
                let expiry = expiry(lastUsed: entry.lastUsed)
                if now > expiry { expired.append((id, entry)) } else { next = min(next, expiry) }
            }
            for (id, _) in expired { _ = state.remove(id) }
            state.nextExpiry = next
            return expired.map(\.entry)
        }
        expired.forEach(forget)
    }

    /// When a document last used at `lastUsed` expires (never, past the clock's range).
    private func expiry(lastUsed: UInt64) -> UInt64 {
        let (sum, overflow) = lastUsed.addingReportingOverflow(UInt64(saturating: limits.idleSeconds * 1e9))
        return overflow ? .max : sum
    }

    /// The connection closed: every document goes, and no more are opened.
    func closeAll() {
        let all: [Entry] = state.withLock { state in
            state.closed = true
            return state.removeAll()
        }
        all.forEach(forget)
    }

    private func forget(_ entry: Entry) {
        let user = state.withLock { state in
            state.units -= entry.units
            return state.user
        }
        ledger.release(documents: 1, units: entry.units, user: user)
    }

    var count: Int { state.withLock { $0.entries.count } }
}
