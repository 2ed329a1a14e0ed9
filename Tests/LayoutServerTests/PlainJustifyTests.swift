import Foundation
import LayoutEngine
import LayoutWire
import Testing
@testable import LayoutServer

/// Plain Type Mode requests (text, width, a family) are fitted from the plan made straight from
/// their bytes; every reply is the one the general way — the envelope decoded by swift-protobuf,
/// planned and fitted — gives, byte for byte, refusals too.
@Suite struct PlainJustifyTests {
    static let processor: RequestProcessor = {
        do {
            return try RequestProcessor.standalone(configuration: ServerConfiguration(maxTextUnits: 64))
        } catch {
            fatalError("default fonts missing (run scripts/setup.sh): \(error)")
        }
    }()

    static let texts = ["", "TYPE MODE", "so\nHAPPY\nto see you", "Héllo مرحبا 👋🏽 नमस्ते", "不识庐山真面目，只缘身在此山中。",
                        "a\u{2028}b\tc\u{AD}d", String(repeating: "long ", count: 20)]  // the last past 64 units

    static func plains() -> [PlainJustifyRequest] {
        var plains: [PlainJustifyRequest] = []
        var plain = PlainJustifyRequest()
        for (index, text) in texts.enumerated() {
            plain.text = text
            plain.requestID = UInt64(index) * 1_000
            for width: Float in [300, 40, 0.5, 0, -3, .nan, .infinity, 1e6, 1.5e6] {
                plain.width = width
                for (hasStyle, family) in [(false, ""), (true, ""), (true, "Noto Sans"), (true, "noto sans"), (true, "Noto Sans CJK SC"),
                                           (true, "DejaVu Serif"), (true, "Nope")] {
                    plain.hasStyle = hasStyle
                    plain.family = family
                    plain.requestID += 1
                    plains.append(plain)
                }
            }
        }
        return plains
    }

    @Test func everyReplyIsTheGeneralWays() throws {
        var fitted = 0, refused = 0
        for plain in Self.plains() {
            let fast = try Self.processor.replyFrame(toPlainJustify: plain)
            let general = try Self.processor.replyFrame(to: plain.envelope)
            #expect(fast == general, "\(plain)")
            let reply = try Layoutd_V1_Envelope(serializedBytes: Array(fast.dropFirst(Framing.headerBytes)))
            if case .error = reply.body { refused += 1 } else { fitted += 1 }
            #expect(reply.requestID == plain.requestID)
        }
        // Both kinds were met: a test that refused everything would prove little.
        #expect(fitted >= 80)
        #expect(refused > 100)
    }

    /// Over real captions in every script the corpus has (a quarter of them), where it is beside
    /// the repository.
    @Test(.enabled(if: PlainBatchTests.corpus != nil, "no ../shared/corpus beside the repository"))
    func everyCorpusCaptionIsFittedAsTheGeneralWayFitsIt() throws {
        let captions = PlainBatchTests.corpus ?? []
        let processor = try RequestProcessor.standalone()
        var plain = PlainJustifyRequest()
        plain.width = 300
        plain.hasStyle = true
        plain.family = "Noto Sans"
        for (index, caption) in captions.enumerated() where index % 4 == 0 {
            plain.text = caption
            plain.requestID = UInt64(index + 1)
            #expect(try processor.replyFrame(toPlainJustify: plain) == (try processor.replyFrame(to: plain.envelope)), "\(caption)")
        }
    }

    @Test func framesAreTakenThePlainWayOnlyWhenTheyArePlain() throws {
        var envelope = Self.plains()[10].envelope
        let body: [UInt8] = try envelope.serializedBytes()
        #expect(body.withUnsafeBytes { PlainJustifyRequest.read($0) } != nil)
        let viaBody = try body.withUnsafeBytes { try Self.processor.replyFrame(toBody: $0, budget: .unlimited) }
        #expect(viaBody == (try Self.processor.replyFrame(to: envelope)))
        envelope.justify.preset = "neon"  // not plain: decoded, planned, the same reply as ever
        let other: [UInt8] = try envelope.serializedBytes()
        #expect(other.withUnsafeBytes { PlainJustifyRequest.read($0) } == nil)
        let otherReply = try other.withUnsafeBytes { try Self.processor.replyFrame(toBody: $0, budget: .unlimited) }
        #expect(otherReply == (try Self.processor.replyFrame(to: envelope)))
    }
}
