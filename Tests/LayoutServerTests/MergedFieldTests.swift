import Foundation
import LayoutdClient
import LayoutWire
import SwiftProtobuf
import Testing
import TestSupport

/// Protobuf merges repeated occurrences of a message field; swift-protobuf copies the message so
/// far at each merge, and an Envelope carrying `layout` 100,000 times took 175 s (issue 17). The
/// daemon now refuses more than a few merges of one field, by name, at once; a few still merge.
@Suite struct MergedFieldTests {
    /// An Envelope with `requestID` and `layout` written `count` times: a whole request first,
    /// then occurrences that each carry one span (about 14 bytes each).
    static func mergedLayouts(_ count: Int, requestID: UInt64) throws -> [UInt8] {
        var span = Layoutd_V1_StyleSpan()
        span.range.start = 0
        span.range.length = 1
        span.style.size = 20
        var first = Layoutd_V1_Envelope()
        first.requestID = requestID
        first.layout = layoutRequest("merge me", width: 200)
        var more = Layoutd_V1_Envelope()
        more.layout.spans = [span]
        let occurrence: [UInt8] = try more.serializedBytes()
        var body: [UInt8] = try first.serializedBytes()
        body.reserveCapacity(body.count + occurrence.count * count)
        for _ in 1..<count { body += occurrence }
        let length = UInt32(body.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
    }

    @Test func aHundredThousandMergedLayoutsAreRefusedByNameAtOnce() throws {
        let daemon = try Daemon(arguments: ["--threads", "1"])
        let client = try daemon.client()
        let started = Date()
        try client.sendRaw(Self.mergedLayouts(100_000, requestID: 41))
        let reply = try client.receive(id: 41)
        #expect(Date().timeIntervalSince(started) < 5, "refused in \(Date().timeIntervalSince(started)) s")
        #expect(reply.errorReply?.code == .invalidArgument, "\(reply)")
        #expect(reply.errorReply?.field == "envelope.layout", "\(reply)")
        #expect(reply.errorReply?.message.contains("occurs 9 times in one message; at most 8 are merged") == true, "\(reply)")
        // The connection stays open and the daemon serves on.
        #expect(try client.call(.layout(layoutRequest("after"))).layoutReply != nil)
    }

    @Test func aFewOccurrencesStillMergeAsProtobufSays() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        try client.sendRaw(Self.mergedLayouts(8, requestID: 42))
        let reply = try client.receive(id: 42)
        #expect(reply.layoutReply != nil, "eight merged layouts are one layout: \(reply)")
    }
}
