import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// Each stage's worst input under a short deadline, through a real daemon: answered (a reply or
/// DEADLINE_EXCEEDED) within the deadline plus `slack`, and a client that leaves stops the work
/// within the same slack. The slack is what a debug build on a loaded 2-core machine needs to
/// decode the request, reach the stage's next check and write the error back (docs/protocol.md,
/// "Work"). Before the breakers and rules checked, the first of these held a worker for seconds.
@Suite(.serialized) struct StageBudgetTests {
    static let slack = 1.5

    /// One paragraph of `"a " × 65,000` in a box wide enough for most of it on each line:
    /// total fit weighed every start of each line (8 s of CPU in a release build).
    static func wideOptimal() -> Layoutd_V1_LayoutRequest {
        var request = layoutRequest(String(repeating: "a ", count: 65_000), width: 455_000, size: 12)
        request.breakStrategy = .optimal
        return request
    }

    /// The time to an answer, and the answer.
    static func timed(_ client: LayoutClient, _ body: Layoutd_V1_Envelope.OneOf_Body, deadlineMs: UInt32) throws
        -> (seconds: Double, reply: Layoutd_V1_Envelope) {
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = 1
        envelope.deadlineMs = deadlineMs
        envelope.body = body
        let started = Date()
        try client.send(envelope)
        let reply = try client.receive(id: 1)
        return (Date().timeIntervalSince(started), reply)
    }

    @Test func totalFitInAWideBoxAnswersWithinItsDeadline() throws {
        let daemon = try Daemon(arguments: ["--request-budget-ms", "60000"])
        let (seconds, reply) = try Self.timed(daemon.client(), .layout(Self.wideOptimal()), deadlineMs: 1_000)
        #expect(seconds < 1.0 + Self.slack, "\(seconds) s")
        #expect(reply.layoutReply != nil || reply.errorReply?.code == .deadlineExceeded, "\(reply.errorReply.map { "\($0)" } ?? "")")
    }

    /// Negative letter spacing makes "i " narrower than nothing, so widths fall along the text:
    /// total fit takes its general way, quadratic in this box, and the budget ends it.
    static func fallingOptimal() -> Layoutd_V1_LayoutRequest {
        var request = layoutRequest(String(repeating: "aaaaaa i ", count: 25_000), width: 200_000, size: 12)
        request.breakStrategy = .optimal
        request.defaultStyle.letterSpacing = .with { $0.points = -4 }
        return request
    }

    @Test func totalFitsGeneralWayStopsAtTheDeadline() throws {
        let daemon = try Daemon(arguments: ["--request-budget-ms", "60000"])
        let (seconds, reply) = try Self.timed(daemon.client(), .layout(Self.fallingOptimal()), deadlineMs: 300)
        #expect(reply.errorReply?.code == .deadlineExceeded, "\(reply.errorReply.map { "\($0)" } ?? "a reply")")
        #expect(seconds < 0.3 + Self.slack, "\(seconds) s")
    }

    /// A client that leaves: its request stops at the breaker's next check, and the one worker
    /// serves the next client within the slack.
    @Test func aDisconnectStopsTotalFit() throws {
        let daemon = try Daemon(arguments: ["--threads", "1", "--request-budget-ms", "120000"])
        do {
            let leaving = try daemon.client()
            var envelope = Layoutd_V1_Envelope()
            envelope.requestID = 1
            envelope.body = .layout(Self.fallingOptimal())
            try leaving.send(envelope)
            usleep(300_000)  // decoded, and breaking
        }  // the connection closes here
        let started = Date()
        let served = try daemon.client(timeout: 60).call(.layout(layoutRequest(String(repeating: "served next ", count: 200))))
        #expect(served.layoutReply != nil, "\(served)")
        #expect(Date().timeIntervalSince(started) < Self.slack, "\(Date().timeIntervalSince(started)) s")
    }

    /// Balanced breaking bisects the width, each trial a greedy pass over the text.
    @Test func balancedBreakingAnswersWithinItsDeadline() throws {
        let daemon = try Daemon(arguments: ["--request-budget-ms", "60000"])
        var request = Self.wideOptimal()
        request.breakStrategy = .balanced
        let (seconds, reply) = try Self.timed(daemon.client(), .layout(request), deadlineMs: 300)
        #expect(seconds < 0.3 + Self.slack, "\(seconds) s")
        #expect(reply.layoutReply != nil || reply.errorReply?.code == .deadlineExceeded)
    }

    /// 32 rules that match nothing at every position, a thousand ways each: refused by the
    /// match count or the rules' allowance, not worked through for seconds.
    @Test func emptyMatchRulesAreRefusedQuickly() throws {
        let daemon = try Daemon(arguments: ["--request-budget-ms", "60000"])
        var request = layoutRequest(String((0..<4_000).map { $0 % 3 == 0 ? "b" : "a" }))
        request.rules = (0..<32).map { k in
            .with { $0.name = "look\(k)"; $0.pattern = "(?=(?:a|[ab]){0,1000})"; $0.style.weight = 700 }
        }
        let (seconds, reply) = try Self.timed(daemon.client(), .layout(request), deadlineMs: 2_000)
        #expect(reply.errorReply?.code == .resourceExhausted, "\(reply.errorReply.map { "\($0)" } ?? "a reply")")
        #expect(reply.errorReply?.field.hasPrefix("layout.rules[") == true)
        #expect(seconds < Self.slack, "\(seconds) s")
    }

    /// Hyphenation's limit on lines in a row is bounded: each step of it costs total fit a
    /// state per hyphen point (1,000 took 1 GB for a 262 KB text).
    @Test func aHyphenLimitPastTwentyFiveIsRefused() throws {
        let daemon = try Daemon()
        var request = layoutRequest("Internationalization requires extraordinary responsibility")
        request.breakStrategy = .optimal
        request.hyphenation = .with { $0.maxConsecutiveLines = 1_000 }
        let refused = try daemon.client().call(.layout(request))
        #expect(refused.errorReply?.code == .invalidArgument)
        #expect(refused.errorReply?.field == "layout.hyphenation.max_consecutive_lines")
        request.hyphenation.maxConsecutiveLines = 25
        #expect(try daemon.client().call(.layout(request)).layoutReply != nil)
    }

    /// Every other stage's long input under a 300 ms deadline: answered, or DEADLINE_EXCEEDED,
    /// within the deadline and the slack (each stage checks the budget as it goes).
    static func withinDeadline(_ body: Layoutd_V1_Envelope.OneOf_Body, _ what: String) throws {
        let daemon = try Daemon(arguments: ["--request-budget-ms", "60000"])
        let (seconds, reply) = try timed(daemon.client(), body, deadlineMs: 300)
        #expect(seconds < 0.3 + slack, "\(what): \(seconds) s")
        let code = reply.errorReply?.code
        #expect(code == nil || code == .deadlineExceeded, "\(what): \(reply.errorReply.map { "\($0)" } ?? "")")
    }

    static let long = String(repeating: "words that flow and wrap over many lines ", count: 6_000)

    @Test func autoSizeOverTotalFit() throws {
        var request = Self.wideOptimal()
        request.height = 40
        request.autoSize = .with { $0.minScale = 0.1 }
        try Self.withinDeadline(.layout(request), "auto-size over total fit")
    }

    @Test func textAroundAnExclusion() throws {
        var request = layoutRequest(Self.long, width: 300, size: 12)
        request.exclusions = [.with { $0.shape.ellipse = .with { $0.x = 100; $0.y = 0; $0.width = 150; $0.height = 100_000 } }]
        try Self.withinDeadline(.layout(request), "flow")
    }

    @Test func verticalText() throws {
        var request = layoutRequest(String(repeating: "縦書きの長い文章、", count: 20_000), width: 300, size: 12, family: "Noto Sans CJK JP")
        request.writingMode = .verticalRl
        request.height = 400
        try Self.withinDeadline(.layout(request), "vertical")
    }

    @Test func aLongStoryDrawn() throws {
        var render = Layoutd_V1_RenderRequest()
        render.layout = layoutRequest(String(repeating: "a long story drawn ", count: 1_000), width: 2_000, size: 12)
        render.format = .png
        try Self.withinDeadline(.render(render), "render")
    }

    @Test func aLongDocumentOpened() throws {
        try Self.withinDeadline(.openDocument(.with { $0.layout = layoutRequest(Self.long, width: 300, size: 12) }), "document")
    }
}
