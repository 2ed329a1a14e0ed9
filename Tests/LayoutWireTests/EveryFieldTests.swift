import Foundation
import LayoutWire
import SwiftProtobuf
import Testing
import TestSupport

/// No codec may lose a field. Messages are filled from the .proto itself — every field of every
/// message, nested ones too, repeated ones twice — so a field added to the .proto is covered
/// the day it is added: the hand-written readers must return exactly what swift-protobuf
/// decodes, and the hand-written reply writer must write every field of what it writes.
@Suite struct EveryFieldTests {
    /// The .proto files as protoc describes them.
    static let descriptors: [String: Google_Protobuf_DescriptorProto] = {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-\(UUID().uuidString).pb")
        defer { try? FileManager.default.removeItem(at: output) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let protos = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("proto/layoutd/v1").path)) ?? []
        let result = try? runToCompletion("/usr/bin/protoc", ["--include_imports", "--descriptor_set_out=\(output.path)",
                                                              "-I", root.appendingPathComponent("proto").path]
                                          + protos.sorted().map { "layoutd/v1/" + $0 }, within: 120)
        guard result?.status == 0, let data = try? Data(contentsOf: output),
              let set = try? Google_Protobuf_FileDescriptorSet(serializedBytes: data) else {
            fatalError("protoc could not describe proto/: \(result?.err ?? "not run")")
        }
        var messages: [String: Google_Protobuf_DescriptorProto] = [:]
        func collect(_ message: Google_Protobuf_DescriptorProto, prefix: String) {
            let name = prefix + "." + message.name
            messages[name] = message
            for nested in message.nestedType { collect(nested, prefix: name) }
        }
        for file in set.file { for message in file.messageType { collect(message, prefix: file.package) } }
        return messages
    }()

    /// The bytes of message `name` with every field set: scalars to a value that is not the
    /// default, repeated fields twice, one member of each oneof, messages filled in turn (to a
    /// depth of four, where recursion would go on forever).
    static func filled(_ name: String, depth: Int = 0) -> [UInt8] {
        guard let message = descriptors[name] else { fatalError("no message \(name) in the descriptors") }
        var bytes: [UInt8] = []
        var oneofsSet = Set<Int32>()
        for field in message.field.sorted(by: { $0.number < $1.number }) {
            if field.hasOneofIndex && !field.proto3Optional {
                guard oneofsSet.insert(field.oneofIndex).inserted else { continue }
            }
            let repeated = field.label == .repeated
            let count = repeated ? 2 : 1
            switch field.type {
            case .string:
                for copy in 0..<count {
                    key(field.number, 2, &bytes)
                    lengthDelimited(Array("\(field.name)\(copy)".utf8), &bytes)
                }
            case .bytes:
                for copy in 0..<count {
                    key(field.number, 2, &bytes)
                    lengthDelimited([UInt8(truncatingIfNeeded: field.number), UInt8(copy), 3], &bytes)
                }
            case .message:
                guard depth < 4 else { continue }
                for _ in 0..<count {
                    key(field.number, 2, &bytes)
                    lengthDelimited(filled(String(field.typeName.dropFirst()), depth: depth + 1), &bytes)
                }
            default:
                // Scalars: repeated ones packed, as proto3 writes them.
                var values: [UInt8] = []
                var wireType: UInt64 = 0
                for copy in 0..<count {
                    let value = UInt64(field.number) + UInt64(copy)
                    switch field.type {
                    case .float:
                        wireType = 5
                        values += withUnsafeBytes(of: (Float(value) + 0.5).bitPattern.littleEndian, Array.init)
                    case .double:
                        wireType = 1
                        values += withUnsafeBytes(of: (Double(value) + 0.5).bitPattern.littleEndian, Array.init)
                    case .bool, .enum:
                        varint(1, &values)  // every enum here has a value 1
                    case .int32, .int64, .uint32, .uint64:
                        varint(value, &values)
                    case .fixed32, .sfixed32:
                        wireType = 5
                        values += withUnsafeBytes(of: UInt32(value).littleEndian, Array.init)
                    default:
                        Issue.record("field \(name).\(field.name) has a type this test does not fill: \(field.type)")
                    }
                }
                if repeated {
                    key(field.number, 2, &bytes)
                    lengthDelimited(values, &bytes)
                } else {
                    key(field.number, wireType, &bytes)
                    bytes += values
                }
            }
        }
        return bytes
    }

    static func key(_ number: Int32, _ type: UInt64, _ bytes: inout [UInt8]) { varint(UInt64(number) << 3 | type, &bytes) }

    static func varint(_ value: UInt64, _ bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    static func lengthDelimited(_ body: [UInt8], _ bytes: inout [UInt8]) {
        varint(UInt64(body.count), &bytes)
        bytes += body
    }

    /// An envelope whose body (field `bodyField`) is message `name` with every field set.
    static func envelope(body bodyField: Int32, message name: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        key(1, 0, &bytes)
        varint(77, &bytes)
        key(bodyField, 2, &bytes)
        lengthDelimited(filled(name), &bytes)
        return bytes
    }

    @Test func everyMessageIsFilled() throws {
        // The filler reaches every field: swift-protobuf reads each message back with no unknown field.
        for name in Self.descriptors.keys.filter({ $0.hasPrefix("layoutd.v1.") }) {
            #expect(!Self.filled(name).isEmpty || Self.descriptors[name]!.field.isEmpty, "\(name)")
        }
        let request = try Layoutd_V1_LayoutRequest(serializedBytes: Self.filled("layoutd.v1.LayoutRequest"))
        #expect(request.unknownFields.data.isEmpty)
        #expect(!request.attachments.isEmpty && request.attachments[0].hasReferenceFont && request.hasTruncation)
    }

    /// Each hand-written reader, with the envelope field of its body and the message there.
    static let readers: [(body: Int32, message: String, read: @Sendable ([UInt8]) -> Layoutd_V1_Envelope?)] = [
        (12, "layoutd.v1.LayoutRequest", { bytes in bytes.withUnsafeBytes { LayoutRequestReader.envelope($0) } }),
        (20, "layoutd.v1.JustifyRequest", { bytes in bytes.withUnsafeBytes { JustifyRequestReader.envelope($0) } }),
        (13, "layoutd.v1.LayoutReply", { LayoutReplyReader.envelope($0) }),
    ]

    @Test(arguments: readers.indices)
    func eachFastReaderReadsEveryField(_ index: Int) throws {
        let (body, message, read) = Self.readers[index]
        let bytes = try Self.envelope(body: body, message: message)
        let reference = try Layoutd_V1_Envelope(serializedBytes: bytes)
        #expect(reference.body != nil, "field \(body) of the envelope is not \(message)")
        let fast = read(bytes)
        #expect(fast != nil, "the fast reader of \(message) gives up on a field it does not know; teach it the new field")
        #expect(fast == reference)
    }

    /// The reply writer writes from the engine's layout, not from a message: what it covers is
    /// checked against the .proto field by field.
    @Test func theReplyWriterWritesEveryField() throws {
        let all = LayoutReplyFrame.writtenFields.merging(JustifyReplyFrame.writtenFields) { $0.union($1) }
            .merging(DocumentReplyFrame.writtenFields) { $0.union($1) }
        for (name, written) in all {
            let declared = Set(try #require(Self.descriptors[name], "\(name)").field.map { Int($0.number) })
            #expect(declared == written, "\(name): the .proto has \(declared.subtracting(written).sorted()) the writer does not write")
        }
        #expect(LayoutReplyFrame.writtenFields.keys.contains("layoutd.v1.LayoutReply"))
        #expect(JustifyReplyFrame.writtenFields.keys.contains("layoutd.v1.JustifyReply"))
        #expect(DocumentReplyFrame.writtenFields.keys.contains("layoutd.v1.DocumentReply"))
    }
}
