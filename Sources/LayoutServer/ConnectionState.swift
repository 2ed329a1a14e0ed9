import LayoutEngine

/// What one connection knows about itself and decides, apart from NIO: a value whose methods
/// take an event, with the time it happened, and return what the handler must do. The handler
/// (`ConnectionHandler`) only carries the actions out — reads, writes, closes — so every rule
/// here (back-pressure, the frame and idle clocks, the last word before closing, cancels) is
/// tested without a socket or a clock, as grpc-swift tests its connection management.
struct ConnectionState {
    struct Limits: Equatable {
        var maxInFlight: Int
        var maxInFlightBytes: Int
        var frameTimeoutSeconds: Double
        var idleTimeoutSeconds: Double

        init(_ configuration: ServerConfiguration) {
            maxInFlight = configuration.maxInFlightPerConnection
            maxInFlightBytes = configuration.maxInFlightBytesPerConnection
            frameTimeoutSeconds = configuration.frameTimeoutSeconds
            idleTimeoutSeconds = configuration.idleTimeoutSeconds
        }

        init(maxInFlight: Int, maxInFlightBytes: Int, frameTimeoutSeconds: Double, idleTimeoutSeconds: Double) {
            self.maxInFlight = maxInFlight
            self.maxInFlightBytes = maxInFlightBytes
            self.frameTimeoutSeconds = frameTimeoutSeconds
            self.idleTimeoutSeconds = idleTimeoutSeconds
        }
    }

    /// Why a connection is being closed with a last structured word.
    enum Farewell: Equatable {
        /// A frame's bytes stopped arriving midway for longer than the frame timeout.
        case frameTimedOut(seconds: Double)
        /// The bytes are not frames (a length past the limit).
        case framingError(String)
        /// The client shut its writing side with part of a frame sent: the rest can never come.
        case inputEndedMidFrame
    }

    /// What a clock tick asks of the handler.
    enum TickAction: Equatable {
        case none
        /// Idle, or replies unread for the idle timeout: close without a word.
        case close
        /// Stop taking frames, answer what was taken, then say why and close.
        case closeAfter(Farewell)
    }

    /// What a request's end asks of the handler.
    enum EndAction: Equatable {
        case none
        /// The last request of a closing connection is answered: say the last word and close.
        case sayFarewell(Farewell)
        /// The connection came back under its limits: take the frames waiting, then read.
        case resume
    }

    /// What the end of a connection's input asks of the handler, once checked (`inputEndAction`).
    enum InputEndAction: Equatable {
        /// Requests are in flight, or whole frames wait to be taken: not yet.
        case wait
        /// Everything sent is answered: close once the replies are written.
        case closeOnceWritten
        /// Everything whole is answered, but part of a frame was left: say so and close.
        case sayFarewell(Farewell)
    }

    let limits: Limits
    private(set) var admission = Admission.waiting
    /// Uptime in nanoseconds of the last bytes read or reply written.
    private(set) var lastActivity: UInt64
    /// Since when part of a frame has waited for the rest; nil between frames.
    private(set) var partialFrameSince: UInt64?
    /// Set once the connection is being closed: nothing more is read or taken.
    private(set) var closing = false
    /// The client shut its writing side (`shutdown(SHUT_WR)`): nothing more will be read, and
    /// the connection closes once what it sent is answered (`inputEndAction`).
    private(set) var inputEnded = false
    /// The last word, kept until every request already taken is answered.
    private(set) var farewell: Farewell?
    private(set) var inFlight = 0
    private(set) var inFlightBytes = 0
    /// NIO asked to read while the connection was over a limit; the read is owed.
    private(set) var readOwed = false
    private(set) var isWritable = true
    /// Since when replies have waited for a client that does not read.
    private(set) var unwritableSince: UInt64?
    /// Requests accepted and not yet answered, by id: a Cancel reaches only these.
    private var pending: [UInt64: WorkBudget] = [:]

    init(limits: Limits, now: UInt64) {
        self.limits = limits
        lastActivity = now
    }

    var isAdmitted: Bool { admission != .waiting }

    mutating func admit(uid: UInt32?) { admission = .admitted(uid: uid) }

    // MARK: Back-pressure

    /// Unsent replies, requests in flight or their bytes at a limit: frames wait, reads wait.
    var isOverLimits: Bool {
        !isWritable || inFlight >= limits.maxInFlight || inFlightBytes >= limits.maxInFlightBytes
    }

    /// Frames may be taken from what was read.
    var mayTakeFrame: Bool { !closing && !isOverLimits }

    /// A read is asked for: true to read now; false owes the read until the connection is under its limits.
    mutating func readRequested() -> Bool {
        if isOverLimits { readOwed = true; return false }
        return true
    }

    /// True when an owed read is to be made now (after the frames waiting were taken).
    mutating func takeOwedRead() -> Bool {
        guard readOwed, !closing, !isOverLimits else { return false }
        readOwed = false
        return true
    }

    mutating func writabilityChanged(_ writable: Bool, now: UInt64) {
        isWritable = writable
        unwritableSince = writable ? nil : now
    }

    // MARK: Frames

    mutating func bytesArrived(now: UInt64) { lastActivity = now }

    mutating func replyWritten(now: UInt64) { lastActivity = now }

    /// After frames were taken: the frame clock runs only while the daemon waits on the client
    /// for the rest of a frame, not while the client waits on the daemon. `now` is read only
    /// when that wait starts: after nearly every read no frame is left half-read.
    mutating func framesTaken(holdsPartialFrame: Bool, now: @autoclosure () -> UInt64) {
        if holdsPartialFrame && !isOverLimits && !inputEnded {
            if partialFrameSince == nil { partialFrameSince = now() }
        } else {
            partialFrameSince = nil
        }
    }

    mutating func frameCompleted() { partialFrameSince = nil }

    // MARK: The end of the input

    /// The client shut its writing side: what it sent is answered, then the connection closes.
    /// A frame left unfinished will never complete, so its clock stops (the farewell says why).
    mutating func inputClosed() {
        inputEnded = true
        partialFrameSince = nil
    }

    /// Whether a connection whose input ended is done: once no request is in flight and no whole
    /// frame waits to be taken (`holdsWholeFrame`), it closes, with a last word when part of a
    /// frame was left (`holdsPartialFrame`). Decided once: the connection is closing from then.
    mutating func inputEndAction(holdsWholeFrame: Bool, holdsPartialFrame: Bool) -> InputEndAction {
        guard inputEnded, !closing, inFlight == 0, !holdsWholeFrame else { return .wait }
        closing = true
        return holdsPartialFrame ? .sayFarewell(.inputEndedMidFrame) : .closeOnceWritten
    }

    // MARK: Clocks

    mutating func tick(now: UInt64) -> TickAction {
        if let since = partialFrameSince, Self.seconds(from: since, to: now) > limits.frameTimeoutSeconds {
            return .closeAfter(.frameTimedOut(seconds: limits.frameTimeoutSeconds))
        }
        if inFlight == 0, partialFrameSince == nil, Self.seconds(from: lastActivity, to: now) > limits.idleTimeoutSeconds {
            return .close
        }
        // A client that reads none of its replies for the idle timeout is idle too: its replies
        // would otherwise hold the connection, and their memory, for ever.
        if let since = unwritableSince, Self.seconds(from: since, to: now) > limits.idleTimeoutSeconds {
            return .close
        }
        return .none
    }

    private static func seconds(from start: UInt64, to end: UInt64) -> Double { Double(end &- start) / 1e9 }

    // MARK: Requests

    /// A request starts: decoding a large frame on the pool, or its work there.
    mutating func begin(bytes: Int) {
        inFlight += 1
        inFlightBytes += bytes
    }

    mutating func end(bytes: Int) -> EndAction {
        inFlight -= 1
        inFlightBytes -= bytes
        if closing {
            guard inFlight == 0, let last = farewell else { return .none }
            farewell = nil
            return .sayFarewell(last)
        }
        return .resume
    }

    /// Stops taking frames; returns the last word to say now, or nil while requests are still
    /// in flight (`end` returns it when the last one is answered) or when already closing.
    mutating func close(after last: Farewell) -> Farewell? {
        guard !closing else { return nil }
        closing = true
        guard inFlight == 0 else {
            farewell = last
            return nil
        }
        return last
    }

    /// A request on the pool, which a Cancel may reach by its id. Ids in flight are unique: a
    /// second request with one is refused before it gets here (`isInFlight`).
    mutating func accepted(_ id: UInt64, budget: WorkBudget) { pending[id] = budget }

    mutating func answered(_ id: UInt64, budget: WorkBudget) {
        if pending[id] === budget { pending[id] = nil }
    }

    /// Whether request `id` is on the pool and not yet answered (the empty case, nearly every
    /// request's, costs no hashing).
    func isInFlight(_ id: UInt64) -> Bool { !pending.isEmpty && pending[id] != nil }

    /// The budget a Cancel for `id` stops: only of a request already here, so a cancel cannot
    /// reach a later request that reuses the id.
    func budget(cancelledBy id: UInt64) -> WorkBudget? { pending[id] }

    /// Every budget still running: the connection closed.
    var allPendingBudgets: [WorkBudget] { Array(pending.values) }
}

/// Whether a connection has been let in past the connection caps, and whose it is.
enum Admission: Equatable {
    /// Not yet: nothing is read from it.
    case waiting
    /// Let in; the peer's uid, nil when the socket does not tell it.
    case admitted(uid: UInt32?)

    /// The peer's uid once admitted and known.
    var uid: UInt32? {
        if case .admitted(let uid) = self { return uid }
        return nil
    }
}
