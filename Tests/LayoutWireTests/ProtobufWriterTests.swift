import SwiftProtobuf
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

    /// Packed values take one to three bytes by a path of their own and longer ones by the
    /// general loop: every length's edges give swift-protobuf's bytes.
    @Test func packedValuesOfEveryLengthGiveSwiftProtobufsBytes() throws {
        let edges: [UInt32] = [0, 1, 0x7F, 0x80, 0xFF, 0x3FFF, 0x4000, 0x8123, 0xD3A5, 0x1F_FFFF, 0x20_0000, 0xFFF_FFFF, 0x1000_0000, .max]
        for count in [1, 2, 5, 12] {
            let values = (0..<count).map { edges[($0 * 7 + count) % edges.count] }
            var run = Layoutd_V1_GlyphRun()
            run.glyphIds = values
            var writer = ProtobufWriter(capacity: 8)
            writer.packedUInt32(LayoutReplyFrame.Run.glyphIDs, count: values.count) { values[$0] }
            #expect(writer.bytes == (try run.serializedBytes() as [UInt8]), "\(values)")
        }
        var every = Layoutd_V1_GlyphRun()
        every.glyphIds = edges
        var writer = ProtobufWriter(capacity: 8)
        writer.packedUInt32(LayoutReplyFrame.Run.glyphIDs, count: edges.count) { edges[$0] }
        #expect(writer.bytes == (try every.serializedBytes() as [UInt8]))
    }

    /// Fields written into bounded room (`BoundedFields`) have the writer's bytes, at every
    /// value's edges, with one-byte and two-byte tags, in a message and at the bound exactly.
    @Test func boundedFieldsGiveTheWritersBytes() {
        let integers: [UInt32] = [0, 1, 0x7F, 0x80, 0x3FFF, 0x4000, 0x1F_FFFF, 0x20_0000, 0xFFF_FFFF, 0x1000_0000, .max]
        let enumerations = [0, 1, 127, 128, -1, Int(Int32.min), Int(Int32.max)]
        let floats: [Float] = [0, -0.0, 1, -2.5, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .infinity]
        for field in [1, 15, 16, 2_047] {
            for (index, integer) in integers.enumerated() {
                let enumeration = enumerations[index % enumerations.count], float = floats[index % floats.count]
                let flag = index % 2 == 0
                var general = ProtobufWriter(capacity: 8)
                general.uint32(field, integer)
                general.enumeration(field, enumeration)
                general.bool(field, flag)
                general.float(field, float)
                general.double(field, Double(float) * 3)
                general.message(field) { inner in
                    inner.uint32(1, integer)
                    inner.float(2, float)
                }
                var bounded = ProtobufWriter(capacity: 8)
                // Each field's bound: 2 + 5, 2 + 10, 2 + 1, 2 + 4, 2 + 8, and the message's 2 + 1 + 6 + 5.
                let bound = 7 + 12 + 3 + 6 + 10 + 14
                bounded.bounded(bound) { fields in
                    fields.uint32(field, integer)
                    fields.enumeration(field, enumeration)
                    fields.bool(field, flag)
                    fields.float(field, float)
                    fields.double(field, Double(float) * 3)
                    fields.message(field) { inner in
                        inner.uint32(1, integer)
                        inner.float(2, float)
                    }
                }
                #expect(bounded.bytes == general.bytes, "field \(field), \(integer), \(enumeration), \(flag), \(float)")
                #expect(bounded.count <= bound)
            }
        }
        // After other bytes, the room reserved from where the writer stands.
        var general = ProtobufWriter(capacity: 8), bounded = ProtobufWriter(capacity: 8)
        for _ in 0..<40 { general.uint32(3, .max); bounded.uint32(3, .max) }
        general.uint32(4, 300)
        bounded.bounded(3) { $0.uint32(4, 300) }
        #expect(bounded.bytes == general.bytes)
    }

    /// A frame written into the room of the array it returns has the bytes of one written into
    /// the writer's own storage, whether it fits that room or outgrows it (and moves).
    @Test func framesWrittenInTheirArraysRoomGiveTheSameBytes() {
        func body(_ length: Int) -> (inout ProtobufWriter) -> Void {
            { writer in
                writer.fixed32(0)
                writer.message(1) { inner in for i in 0..<length { inner.uint32(2, UInt32(i % 100)) } }
                writer.finishFrame()
            }
        }
        for length in [0, 1, 20, 31, 32, 33, 100, 2_000] {
            var own = ProtobufWriter(capacity: 8)
            body(length)(&own)
            for capacity in [0, 1, 64, 65, 2 * length + 10, 2 * length + 11, 4 * length + 100] {
                #expect(ProtobufWriter.frame(capacity: capacity, body(length)) == own.bytes, "length \(length), capacity \(capacity)")
            }
        }
    }
}

