import Foundation
import LayoutWire
import SwiftProtobuf
import Testing

@Suite struct FramingTests {
    @Test func aFrameIsABigEndianLengthThenTheEnvelope() throws {
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = 300
        envelope.body = .hello(.with { $0.clientName = "t" })
        let frame = try Framing.encode(envelope)
        let body: [UInt8] = try envelope.serializedBytes()
        #expect(Array(frame.prefix(4)) == [0, 0, 0, UInt8(body.count)])
        #expect(Framing.bodyLength(header: frame) == body.count)
        #expect(try Layoutd_V1_Envelope(serializedBytes: Array(frame.dropFirst(4))) == envelope)
        #expect(Framing.bodyLength(header: [0x01, 0x02, 0x03, 0x04]) == 0x01020304)
    }

    /// The exact bytes of one request. Every binding (C, Python) must produce these too.
    @Test func goldenBytes() throws {
        var request = Layoutd_V1_LayoutRequest()
        request.text = "Hé 👋"
        request.width = 300
        request.defaultStyle.family = "Noto Sans"
        request.defaultStyle.size = 24
        request.spans = [.with { $0.range = .with { $0.start = 3; $0.length = 2 }; $0.style.weight = 700 }]
        request.alignment = .center
        request.maxLines = 2
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = 7
        envelope.deadlineMs = 250
        envelope.body = .layout(request)
        let hex = try Framing.encode(envelope).map { String(format: "%02x", $0) }.joined()
        let golden = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Vectors/layout-request.hex"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(hex == golden)
    }
}
