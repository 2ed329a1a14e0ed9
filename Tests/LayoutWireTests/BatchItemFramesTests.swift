import Foundation
import LayoutEngine
import LayoutWire
import Testing
import TestSupport

/// A batch's item frames, written one after another into one buffer, are byte for byte the
/// frames swift-protobuf writes for each item's envelope, and read back as they were written.
@Suite struct BatchItemFramesTests {
    static func swiftProtobufFrame(_ id: UInt64, _ index: UInt32, _ result: Layoutd_V1_BatchItemReply.OneOf_Result) throws -> [UInt8] {
        try Framing.encode(.with {
            $0.requestID = id
            $0.batchItem = .with { $0.index = index; $0.result = result }
        })
    }

    @Test func equalSwiftProtobufForEveryScriptAndErrors() throws {
        let texts = LayoutReplyFrameTests.texts
        for id: UInt64 in [1, 300, .max] {
            var frames = BatchItemFrames(capacity: 64)
            var expected: [UInt8] = []
            for (index, text) in texts.enumerated() {
                let layout = try LayoutReplyFrameTests.layouter.layout(LayoutReplyFrameTests.request(text))
                let replyBytes = frames.appendLayout(requestID: id, index: UInt32(index), layout: layout)
                #expect(replyBytes == (try Layoutd_V1_LayoutReply(layout).serializedBytes() as [UInt8]).count)
                expected += try Self.swiftProtobufFrame(id, UInt32(index), .layout(Layoutd_V1_LayoutReply(layout)))
                let error = Layoutd_V1_Error.with { $0.code = .invalidArgument; $0.message = "item \(index)"; $0.field = "batch_layout.texts[\(index)]" }
                frames.appendError(requestID: id, index: UInt32(index + texts.count), error)
                expected += try Self.swiftProtobufFrame(id, UInt32(index + texts.count), .error(error))
            }
            #expect(frames.frames == texts.count * 2)
            #expect(frames.bytes == expected, "request id \(id)")
        }
    }

    /// An item's reply is written in place, the room for its two lengths kept from its glyph
    /// count: replies of every size around those guesses (a byte too many, too few) are moved to
    /// the bytes swift-protobuf writes, under indexes of one and two bytes.
    @Test func repliesOfEverySizeAroundTheRoomKeptForTheirLengths() throws {
        var frames = BatchItemFrames(capacity: 64)
        var expected: [UInt8] = []
        for (index, count) in (Array(1...12) + [20, 100, 1_000, 1_100]).enumerated() {
            let layout = try LayoutReplyFrameTests.layouter.layout(LayoutReplyFrameTests.request(String(repeating: "a", count: count)) {
                $0.width = 100_000
            })
            #expect(layout.glyphCount == count)
            for itemIndex in [UInt32(index), UInt32(index) + 200] {
                let replyBytes = frames.appendLayout(requestID: 11, index: itemIndex, layout: layout)
                #expect(replyBytes == (try Layoutd_V1_LayoutReply(layout).serializedBytes() as [UInt8]).count, "\(count) glyphs")
                expected += try Self.swiftProtobufFrame(11, itemIndex, .layout(Layoutd_V1_LayoutReply(layout)))
            }
        }
        #expect(frames.bytes == expected)
    }

    /// Frames written into room a chunk's buffer lends are the bytes the frames write into their
    /// own storage: in the room where they fit, and moved to storage of their own, whole, where
    /// an item outgrows it (the room then holds nothing the chunk reads).
    @Test(arguments: [1 << 16, 700, 64])
    func framesInLentRoomEqualFramesInTheirOwn(room: Int) throws {
        let texts = LayoutReplyFrameTests.texts
        var own = BatchItemFrames(capacity: 64)
        for (index, text) in texts.enumerated() {
            _ = own.appendLayout(requestID: 9, index: UInt32(index), layout: try LayoutReplyFrameTests.layouter.layout(LayoutReplyFrameTests.request(text)))
        }
        let expected = own.bytes
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: room, alignment: 1)
        defer { storage.deallocate() }
        var frames = BatchItemFrames(lent: storage)
        for (index, text) in texts.enumerated() {
            _ = frames.appendLayout(requestID: 9, index: UInt32(index), layout: try LayoutReplyFrameTests.layouter.layout(LayoutReplyFrameTests.request(text)))
        }
        #expect(frames.bytes == expected)
        #expect(frames.outgrewRoom == (expected.count > room))
        if !frames.outgrewRoom {
            #expect(Array(storage.prefix(frames.byteCount)) == expected, "the frames are in the lent room")
        }
    }

    @Test func aDroppedItemLeavesTheFramesBeforeIt() throws {
        let layout = try LayoutReplyFrameTests.layouter.layout(LayoutReplyFrameTests.request("A caption"))
        var frames = BatchItemFrames(capacity: 16)
        _ = frames.appendLayout(requestID: 4, index: 0, layout: layout)
        let kept = frames.bytes
        let mark = frames.byteCount
        _ = frames.appendLayout(requestID: 4, index: 1, layout: try LayoutReplyFrameTests.layouter.layout(
            LayoutReplyFrameTests.request(String(repeating: "word ", count: 600))))
        frames.dropLast(from: mark)
        #expect(frames.bytes == kept)
        #expect(frames.frames == 1)
        let bytes = frames.bytes
        #expect(Framing.bodyLength(header: bytes.prefix(Framing.headerBytes)) == bytes.count - Framing.headerBytes)
        let body = Array(bytes.dropFirst(Framing.headerBytes))
        let envelope = try Layoutd_V1_Envelope(serializedBytes: body)
        guard case .batchItem(let item) = envelope.body, case .layout(let reply) = item.result else {
            Issue.record("not a batch item with a layout")
            return
        }
        #expect(envelope.requestID == 4 && item.index == 0 && reply == Layoutd_V1_LayoutReply(layout))
    }
}
