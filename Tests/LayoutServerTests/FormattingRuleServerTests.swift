import Foundation
import LayoutdClient
import LayoutWire
import Testing

/// Formatting rules through a real daemon: matches in the reply, and a catastrophic pattern
/// that gets its structured error (RESOURCE_EXHAUSTED from PCRE2's limits, inside the request
/// budget, which would have said DEADLINE_EXCEEDED) while another client is served.
@Suite struct FormattingRuleServerTests {
    @Test func builtInRulesStyleANoteAndListTheirMatches() throws {
        let daemon = try Daemon()
        var request = layoutRequest("1. Buy *milk* and _eggs_ -now- ~please~ NOW", width: 400)
        request.builtinRules = .notes
        request.hideBuiltinMarkers = true
        let reply = try #require(try daemon.client().call(.layout(request)).layoutReply)
        #expect(reply.ruleMatches.map(\.name) == ["bold", "italic", "strikethrough", "script", "list-number", "capitals"])
        #expect(reply.decorations.contains { $0.kind == .strikethrough && $0.range.start == 26 })
        // The script face is URW's Z003, from the default fonts.
        guard case .fontsReply(let fonts) = try daemon.client().request(.fonts(.init())) else { Issue.record("no fonts"); return }
        let z003 = try #require(fonts.faces.first { $0.family == "Z003" }, "Z003 is one of the default fonts")
        #expect(reply.runs.contains { $0.fontID == z003.fontID })
    }

    @Test func aCatastrophicPatternIsRefusedWhileOthersAreServed() async throws {
        let daemon = try Daemon(arguments: ["--threads", "2"])
        let socketPath = daemon.socketPath  // the tasks take the path, not the (non-Sendable) harness
        var hostile = layoutRequest(String(repeating: "a", count: 100_000) + "b", width: 300)
        hostile.rules = [.with { $0.pattern = "(a+)+$"; $0.name = "redos"; $0.style.weight = 700 }]
        let attack = hostile
        try await withThrowingTaskGroup(of: Layoutd_V1_Error?.self) { group in
            group.addTask { try LayoutClient(socketPath: socketPath, timeout: 60).call(.layout(attack)).errorReply }
            // Meanwhile a second client's requests are answered.
            group.addTask {
                let client = try LayoutClient(socketPath: socketPath, timeout: 60)
                for index in 0..<20 {
                    #expect(try client.call(.layout(layoutRequest("caption \(index)", width: 200))).layoutReply?.lines.count == 1)
                }
                return nil
            }
            var refusals: [Layoutd_V1_Error] = []
            for try await result in group { if let result { refusals.append(result) } }
            let refusal = try #require(refusals.first)
            #expect(refusal.code == .resourceExhausted && refusal.field == "layout.rules[0].pattern", "\(refusal)")
            #expect(refusal.message.contains("redos"))
        }
    }
}
