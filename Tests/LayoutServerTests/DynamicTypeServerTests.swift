import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// Dynamic Type's line height through the daemon: a taller span grows its line; an editing
/// session switched to another category gives the height a fresh layout of it has.
@Suite struct DynamicTypeServerTests {
    static let text = "Body text at the size of its category, long enough to wrap over several lines of this box."

    static func body(_ category: Layoutd_V1_ContentSizeCategory = .contentSizeLarge) -> Layoutd_V1_LayoutRequest {
        var request = Layoutd_V1_LayoutRequest()
        request.text = text
        request.width = 200
        request.defaultStyle.family = "Noto Sans"
        request.defaultStyle.textStyle = .textStyleBody
        request.defaultStyle.sizeCategory = category
        return request
    }

    @Test func aFortyPointSpanDoesNotOverlapTheLinesAroundIt() throws {
        let daemon = try Daemon()
        var request = Self.body()
        request.spans = [.with { $0.range = .with { $0.start = 5; $0.length = 4 }; $0.style.size = 40 }]
        guard case .layoutReply(let reply) = try daemon.client().request(.layout(request)) else { Issue.record("no reply"); return }
        let tall = try #require(reply.lines.first { $0.range.start <= 5 && 5 < $0.range.start + $0.range.length })
        #expect(tall.usedRect.height >= tall.ascent + tall.descent - 1e-3, "\(tall.usedRect.height) for \(tall.ascent) + \(tall.descent)")
        #expect(tall.usedRect.height > 50)
        for (upper, lower) in zip(reply.lines, reply.lines.dropFirst()) {
            #expect(upper.usedRect.y + upper.usedRect.height <= lower.usedRect.y + 1e-3)
        }
        #expect(reply.lines.filter { $0 != tall }.allSatisfy { abs($0.usedRect.height - 22) < 1e-3 })
    }

    @Test func anEditingSessionSwitchedToAX2IsAsTallAsAFreshLayout() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        guard case .documentReply(let opened) = try client.request(.openDocument(.with { $0.layout = Self.body() })) else {
            Issue.record("no document")
            return
        }
        let length = UInt32(Self.text.utf16.count)
        let switched = try DocumentServerTests.edit(client, .with {
            $0.document = opened.document
            $0.edits = [.with { $0.style = .with {
                $0.range = .with { $0.length = length }
                $0.style.textStyle = .textStyleBody
                $0.style.sizeCategory = .contentSizeAx2
            } }]
        })
        guard case .layoutReply(let fresh) = try client.request(.layout(Self.body(.contentSizeAx2))) else { Issue.record("no reply"); return }
        #expect(abs(switched.height - Double(fresh.height)) < 1e-3, "edited \(switched.height), fresh \(fresh.height)")
        #expect(Int(switched.lineCount) == fresh.lines.count)
        #expect(switched.height > opened.height * 1.5)
    }
}
