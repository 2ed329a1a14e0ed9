import Foundation
import LayoutEngine
import LayoutWire
import Testing
@testable import LayoutServer
import TestSupport

/// The budget is checked once more before a reply is written (`checkBeforeWriting`): a request
/// cancelled or past its deadline by the end of its work is answered so on every path, the
/// written-straight frames (plain and general layouts, justify) and swift-protobuf's. A short
/// text's stages may not reach a check of their own, so these were written before.
@Suite struct WritingBudgetTests {
    static let processor: RequestProcessor? = try? RequestProcessor.standalone(configuration: ServerConfiguration())

    static func cancelled() -> WorkBudget {
        let budget = WorkBudget()
        budget.cancel()
        return budget
    }

    static func code(_ frame: [UInt8]) throws -> Layoutd_V1_Error.Code? {
        let envelope = try Layoutd_V1_Envelope(serializedBytes: Array(frame.dropFirst(Framing.headerBytes)))
        return envelope.errorReply?.code
    }

    @Test func aCancelledRequestIsNotWritten() throws {
        let processor = try #require(Self.processor)
        var envelope = Layoutd_V1_Envelope()
        envelope.requestID = 7
        envelope.body = .layout(layoutRequest("Hi"))
        let body: [UInt8] = try envelope.serializedBytes()
        let plain = try #require(body.withUnsafeBytes { PlainLayoutRequest.read($0) })
        #expect(try Self.code(processor.replyFrame(toPlain: plain, budget: Self.cancelled())) == .cancelled)
        #expect(try Self.code(processor.replyFrame(to: envelope, budget: Self.cancelled())) == .cancelled)
        envelope.body = .justify(.with { $0.text = "Hi"; $0.width = 200 })
        #expect(try Self.code(processor.replyFrame(to: envelope, budget: Self.cancelled())) == .cancelled)
        envelope.body = .fonts(.init())
        #expect(try Self.code(processor.replyFrame(to: envelope, budget: Self.cancelled())) == .cancelled)
        // Uncancelled, the same request is answered.
        #expect(try Self.code(processor.replyFrame(to: envelope, budget: WorkBudget())) == nil)
    }
}
