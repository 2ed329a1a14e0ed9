import LayoutWire
import NIOCore
import Testing
@testable import LayoutServer

/// The stream split into frames: what the decoder says it holds, whole or part, as bytes arrive.
@Suite struct FrameDecoderTests {
    static func bytes(_ values: [UInt8]) -> ByteBuffer { ByteBuffer(bytes: values) }

    @Test func itSaysWhetherAWholeFrameOrOnlyPartOfOneWaits() throws {
        var decoder = FrameDecoder(maxFrameBytes: 16)
        #expect(!decoder.holdsWholeFrame && !decoder.holdsPartialFrame)
        var header = Self.bytes([0, 0, 0, 3, 7])
        decoder.append(&header)
        #expect(!decoder.holdsWholeFrame && decoder.holdsPartialFrame, "1 of 3 bytes of the body")
        var rest = Self.bytes([8, 9, 0, 0])
        decoder.append(&rest)
        #expect(decoder.holdsWholeFrame)
        let frame = try decoder.next()
        #expect(frame.map { Array($0.readableBytesView) } == [7, 8, 9])
        #expect(!decoder.holdsWholeFrame && decoder.holdsPartialFrame, "half the next header")
        var empty = Self.bytes([0, 0])
        decoder.append(&empty)
        #expect(decoder.holdsWholeFrame, "an empty frame is whole with its header")
        #expect(try decoder.next().map(\.readableBytes) == 0)
        #expect(!decoder.holdsWholeFrame && !decoder.holdsPartialFrame)
    }

    @Test func aLengthPastTheLimitCountsAsWholeSoItIsTakenAndRefused() {
        var decoder = FrameDecoder(maxFrameBytes: 16)
        var header = Self.bytes([0, 0, 0, 17])
        decoder.append(&header)
        #expect(decoder.holdsWholeFrame, "taking it throws at once: nothing to wait for")
        #expect(throws: FramingError.self) { try decoder.next() }
    }
}
