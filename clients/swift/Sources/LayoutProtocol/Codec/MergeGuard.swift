import Foundation
import SwiftProtobuf

/// Keeps decoding linear: protobuf merges each repeated occurrence of a singular message field
/// into the one before, and swift-protobuf copies the message so far at each merge, so an
/// Envelope carrying `layout` 100,000 times took minutes to decode. Before a body goes
/// to swift-protobuf, this walks it once against the schema and refuses one in which a singular
/// message field occurs more than `maxOccurrences` times in one message. Merging stays possible
/// (two concatenated messages still decode as protobuf says), and the work stays within
/// `maxOccurrences` × nesting depth × the frame's size. Repeated fields need no bound here: each
/// entry is at least two bytes of the frame, and swift-protobuf appends them.
public enum MergeGuard {
    public static let maxOccurrences = 8

    /// Where a body is refused: the request id if it was read, the field path and the count.
    public struct Refusal: Equatable, Sendable {
        public var requestID: UInt64
        public var path: String
        public var occurrences: Int
    }

    /// Nil when `bytes` (an Envelope body) merges no message field too often, or is not well
    /// formed (swift-protobuf then says what is wrong with it).
    public static func check(_ bytes: UnsafeRawBufferPointer) -> Refusal? {
        var reader = ProtobufReader(bytes)
        var requestID: UInt64 = 0
        return scan(&reader, type: schema.envelope, path: "envelope", depth: 0, requestID: &requestID)
    }

    private static func scan(_ reader: inout ProtobufReader, type: Int, path: String, depth: Int,
                             requestID: inout UInt64) -> Refusal? {
        // swift-protobuf refuses nesting past 100; so does this, without a deep stack of its own.
        guard depth < 100 else { return nil }
        let fields = schema.types[type]
        var counts: [Int: Int] = [:]
        while !reader.isAtEnd {
            guard let (number, wireType) = reader.tag() else { return nil }
            switch wireType {
            case 0:
                guard let value = reader.varint() else { return nil }
                if depth == 0 && number == 1 { requestID = value }
            case 1: guard reader.skip(8) else { return nil }
            case 5: guard reader.skip(4) else { return nil }
            case 2:
                guard var nested = reader.nested() else { return nil }
                guard let field = fields[number], let child = field.messageType else { continue }
                if !field.repeated {
                    let count = counts[number, default: 0] + 1
                    counts[number] = count
                    if count > maxOccurrences {
                        return Refusal(requestID: requestID, path: path + "." + field.name, occurrences: count)
                    }
                }
                if let refusal = scan(&nested, type: child, path: path + "." + field.name, depth: depth + 1, requestID: &requestID) {
                    return refusal
                }
            default: return nil  // groups and bad wire types: swift-protobuf refuses them by name
            }
        }
        return nil
    }

    /// What the walk needs of the schema: per message type, its fields by number.
    private struct Field {
        var name: String
        var repeated: Bool
        /// Index into `types` of a message-typed field; nil for scalars, strings, bytes, enums.
        var messageType: Int?
    }

    private struct Schema {
        var types: [[Int: Field]] = []
        var envelope = 0
    }

    /// Read once from the FileDescriptorSet generated with the code (`LayoutdSchema`), so it
    /// follows the .proto without a hand-kept list.
    private static let schema: Schema = {
        guard let data = Data(base64Encoded: LayoutdSchema.descriptorSetBase64),
              let set = try? Google_Protobuf_FileDescriptorSet(serializedBytes: [UInt8](data)) else {
            fatalError("the generated schema does not decode; run scripts/generate-proto.sh")
        }
        var messages: [(name: String, descriptor: Google_Protobuf_DescriptorProto)] = []
        func add(_ message: Google_Protobuf_DescriptorProto, prefix: String) {
            let name = prefix + "." + message.name
            messages.append((name, message))
            for nested in message.nestedType { add(nested, prefix: name) }
        }
        for file in set.file { for message in file.messageType { add(message, prefix: "." + file.package) } }
        var index: [String: Int] = [:]
        for (k, message) in messages.enumerated() { index[message.name] = k }
        var schema = Schema()
        schema.envelope = index[".layoutd.v1.Envelope"] ?? 0
        schema.types = messages.map { message in
            var fields: [Int: Field] = [:]
            for field in message.descriptor.field {
                fields[Int(field.number)] = Field(name: field.name, repeated: field.label == .repeated,
                                                  messageType: field.type == .message ? index[field.typeName] : nil)
            }
            return fields
        }
        return schema
    }()
}
