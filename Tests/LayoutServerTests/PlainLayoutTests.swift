import Foundation
import LayoutEngine
import LayoutWire
import Testing
@testable import LayoutServer

/// Plain layout requests (text, width, a default style's family and size) are laid out from the
/// engine request made straight from their bytes; every reply is the one the general way — the
/// envelope decoded by swift-protobuf, converted and laid out — gives, byte for byte, refusals too.
@Suite struct PlainLayoutTests {
    static let processor: RequestProcessor = {
        do {
            return try RequestProcessor.standalone(configuration: ServerConfiguration(maxTextUnits: 64))
        } catch {
            fatalError("default fonts missing (run scripts/setup.sh): \(error)")
        }
    }()

    static let texts = ["", "Hello, world", "Héllo مرحبا 👋🏽 नमस्ते\nsecond line", "不识庐山真面目，只缘身在此山中。",
                        "a\u{2028}b\tc\u{AD}d", String(repeating: "long ", count: 20)]  // the last past 64 units

    static func plains() -> [PlainLayoutRequest] {
        var plains: [PlainLayoutRequest] = []
        var plain = PlainLayoutRequest()
        for (index, text) in texts.enumerated() {
            plain.text = text
            plain.requestID = UInt64(index) * 1_000
            for width: Float in [300, 40, 0.5, 0, -3, .nan, .infinity, 1e6, 1.5e6] {
                plain.width = width
                for (family, size) in [("", Float(0)), ("Noto Sans", 24), ("noto sans", 9), ("Noto Sans CJK SC", 30), ("Nope", 24),
                                       ("", -1), ("", .nan), ("", 1e5), ("", 0.001)] {
                    plain.hasDefaultStyle = !family.isEmpty || size != 0
                    plain.family = family
                    plain.size = size
                    plain.requestID += 1
                    plains.append(plain)
                }
            }
        }
        return plains
    }

    @Test func everyReplyIsTheGeneralWays() throws {
        var laidOut = 0, refused = 0
        for plain in Self.plains() {
            let fast = try Self.processor.replyFrame(toPlain: plain)
            let general = try Self.processor.replyFrame(to: plain.envelope)
            #expect(fast == general, "\(plain)")
            let reply = try Layoutd_V1_Envelope(serializedBytes: Array(fast.dropFirst(Framing.headerBytes)))
            if case .error = reply.body { refused += 1 } else { laidOut += 1 }
            #expect(reply.requestID == plain.requestID)
        }
        // Both kinds were met: a test that refused everything would prove little.
        #expect(laidOut >= 80)
        #expect(refused > 100)
    }

    @Test func framesAreTakenThePlainWayOnlyWhenTheyArePlain() throws {
        var envelope = PlainLayoutTests.plains()[10].envelope
        let body: [UInt8] = try envelope.serializedBytes()
        #expect(body.withUnsafeBytes { PlainLayoutRequest.read($0) } != nil)
        let viaBody = try body.withUnsafeBytes { try Self.processor.replyFrame(toBody: $0, budget: .unlimited) }
        #expect(viaBody == (try Self.processor.replyFrame(to: envelope)))
        envelope.layout.alignment = .center  // not plain: decoded, converted, the same reply as ever
        let other: [UInt8] = try envelope.serializedBytes()
        #expect(other.withUnsafeBytes { PlainLayoutRequest.read($0) } == nil)
        let otherReply = try other.withUnsafeBytes { try Self.processor.replyFrame(toBody: $0, budget: .unlimited) }
        #expect(otherReply == (try Self.processor.replyFrame(to: envelope)))
    }
}
