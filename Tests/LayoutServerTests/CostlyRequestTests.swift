import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// Small requests that once froze an event loop or held a worker for minutes: each is now
/// refused by name or answered quickly, a health check on another connection is answered
/// meanwhile, and work nobody waits for any more is dropped.
@Suite(.serialized) struct CostlyRequestTests {
    static func range(_ start: Int, _ length: Int) -> Layoutd_V1_Range {
        .with { $0.start = UInt32(start); $0.length = UInt32(length) }
    }

    static func overlappingSpans(_ count: Int) -> Layoutd_V1_LayoutRequest {
        var request = layoutRequest(String(repeating: "ab ", count: 667))
        request.spans = (0..<count).map { k in
            .with { $0.range = range(k % 1_000, 2_000 - k % 1_000); $0.style.weight = UInt32(100 + k % 800) }
        }
        return request
    }

    /// Was 81 s on the event loop for 64,000 spans.
    @Test func overlappingSpansAreResolvedOrRefused() throws {
        let daemon = try Daemon()
        let client = try daemon.client(timeout: 30)
        let refused = try client.call(.layout(Self.overlappingSpans(64_000)))
        #expect(refused.errorReply?.code == .resourceExhausted)
        #expect(refused.errorReply?.field == "layout.spans")
        // At the limit, the spans resolve, while another connection's Hello is answered.
        var atLimit = Layoutd_V1_Envelope()
        atLimit.requestID = 2
        atLimit.body = .layout(Self.overlappingSpans(16_384))
        try client.send(atLimit)
        guard case .helloReply = try daemon.client(timeout: 10).request(.hello(.init())) else {
            Issue.record("no hello while spans resolve")
            return
        }
        let reply = try client.receive(id: 2)
        #expect(reply.layoutReply?.lines.isEmpty == false, "\(reply.errorReply.map { "\($0)" } ?? "")")
    }

    /// Was 62 s and a 428 MB reply for 1,000 highlights on 1,020 lines.
    @Test func manyHighlightsAreRefusedByCountOrByRects() throws {
        let daemon = try Daemon()
        let text = Array(repeating: "word", count: 1_020).joined(separator: "\n")
        var request = layoutRequest(text)
        request.backgrounds = (0..<1_000).map { _ in .with { $0.kind = .highlight; $0.range = Self.range(0, text.utf16.count) } }
        let byCount = try daemon.client().call(.layout(request))
        #expect(byCount.errorReply?.code == .resourceExhausted)
        #expect(byCount.errorReply?.field == "layout.backgrounds")
        request.backgrounds = Array(request.backgrounds.prefix(32))
        let byRects = try daemon.client().call(.layout(request))
        #expect(byRects.errorReply?.code == .resourceExhausted)
        #expect(byRects.errorReply?.message.contains("rects") == true)
        request.backgrounds = Array(request.backgrounds.prefix(4))
        #expect(try daemon.client().call(.layout(request)).layoutReply?.backgrounds.count == 4)
    }

    /// Was 8.6 s to decode 40,000 empty spans, and 400,000 never finished (SIGTERM hung too).
    @Test func emptyRepeatedEntriesDecodeInLinearTime() throws {
        let daemon = try Daemon()
        var request = layoutRequest("x")
        request.spans = Array(repeating: Layoutd_V1_StyleSpan(), count: 400_000)
        let reply = try daemon.client(timeout: 30).call(.layout(request))
        #expect(reply.errorReply?.code == .resourceExhausted)
        #expect(reply.errorReply?.field == "layout.spans")
        #expect(daemon.stop() == 0)
    }

    /// Was 227 s inside HarfBuzz.
    @Test func aLetterWithAQuarterMillionMarksIsRefused() throws {
        let daemon = try Daemon()
        let reply = try daemon.client(timeout: 30).call(.layout(layoutRequest("a" + String(repeating: "\u{0301}", count: 262_143))))
        #expect(reply.errorReply?.code == .invalidArgument)
        #expect(reply.errorReply?.field == "layout.text")
        #expect(reply.errorReply?.message.contains("offset 0") == true)
    }

    @Test func aRequestPastItsBudgetIsDeadlineExceeded() throws {
        let daemon = try Daemon(arguments: ["--request-budget-ms", "1"])
        let reply = try daemon.client().call(.layout(layoutRequest(String(repeating: "a long text to lay out ", count: 10_000))))
        #expect(reply.errorReply?.code == .deadlineExceeded, "\(reply)")
        // A caption fits its budget.
        let caption = try Daemon(arguments: ["--request-budget-ms", "2000"])
        #expect(try caption.client().call(.layout(layoutRequest("a caption"))).layoutReply != nil)
    }

    /// A client that leaves with requests queued: they are dropped (CANCELLED, counted as
    /// errors, written nowhere), not laid out for nobody while another client waits.
    @Test func queuedWorkOfAClosedConnectionIsCancelled() throws {
        let daemon = try Daemon(arguments: ["--threads", "1"])
        let before = try Self.stats(daemon)
        do {
            let leaving = try daemon.client()
            for id in 1...30 {
                var envelope = Layoutd_V1_Envelope()
                envelope.requestID = UInt64(id)
                envelope.body = .layout(layoutRequest(String(repeating: "queued work nobody waits for ", count: 8_000)))
                try leaving.send(envelope)
            }
        }  // the connection closes here
        usleep(200_000)
        let served = try daemon.client(timeout: 30).call(.layout(layoutRequest("served")))
        #expect(served.layoutReply != nil, "\(served)")
        // Wait for the pool to drain, then count what was cancelled.
        var after = try Self.stats(daemon)
        let deadline = Date().addingTimeInterval(20)
        while after.requestsInFlight > 0 && Date() < deadline {
            usleep(50_000)
            after = try Self.stats(daemon)
        }
        #expect(after.errors - before.errors >= 20, "only \(after.errors - before.errors) of 30 queued requests were dropped")
    }

    static func stats(_ daemon: Daemon) throws -> Layoutd_V1_StatsReply {
        guard case .statsReply(let stats) = try daemon.client().request(.stats(.init())) else { throw HarnessError("no stats") }
        return stats
    }
}
