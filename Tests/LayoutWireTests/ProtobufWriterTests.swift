import Testing
@testable import LayoutWire

/// A message written with its length's room kept ahead has the bytes of one whose length is
/// patched after its body, whatever room was kept: fewer bytes than the length takes, as many,
/// or more (the body moved either way).
@Suite struct ProtobufWriterTests {
    static func written(bodyBytes: Int, kept: Int?) -> [UInt8] {
        var writer = ProtobufWriter(capacity: 8)
        writer.uint32(1, 7)
        func body(_ inner: inout ProtobufWriter) {
            for i in 0..<bodyBytes { inner.fixed32(UInt32(i)); inner.truncate(to: inner.count - 3) }  // one byte each, growing the buffer
        }
        if let kept { writer.message(2, lengthBytes: kept, body) } else { writer.message(2, body) }
        writer.uint32(3, 9)
        return writer.bytes
    }

    @Test func keptRoomGivesTheSameBytes() {
        for length in [0, 1, 127, 128, 129, 16_383, 16_384, 70_000] {
            let patched = Self.written(bodyBytes: length, kept: nil)
            for kept in 1...4 {
                #expect(Self.written(bodyBytes: length, kept: kept) == patched, "length \(length), kept \(kept)")
            }
        }
        // The room a reply keeps: a varint's bytes for 16 bytes a glyph.
        #expect(LayoutReplyFrame.lengthBytes(glyphs: 7) == 1 && LayoutReplyFrame.lengthBytes(glyphs: 8) == 2
                && LayoutReplyFrame.lengthBytes(glyphs: -5) == 1 && LayoutReplyFrame.lengthBytes(glyphs: 1_024) == 3)
    }
}
