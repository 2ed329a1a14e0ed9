import Foundation
import SwiftProtobuf

/// A message as proto3 JSON with every field present, defaults included — what `layoutctl --json`
/// prints, so a script reads `lines[0].clamped` as `false` rather than finding it missing.
///
/// swift-protobuf 1.39 omits fields at their default and has no option to keep them, so its JSON
/// is completed from the schema (`LayoutdSchema`, generated from proto/ with the code, so a new
/// field is never left out). The rules are protobuf's own for "emit unpopulated" (Go's
/// `EmitUnpopulated`, C++'s `always_print_fields_with_no_presence`): a scalar at its default is
/// printed (64-bit integers as strings, enums by name), a repeated field as `[]`, a map as `{}`,
/// an unset message field as `null`; an unset oneof stays absent (its absence is the value).
/// Fields come in the order the .proto declares them, names in lowerCamelCase as before.
public enum StableJSON {
    public static func encode<M: SwiftProtobuf.Message>(_ message: M) throws -> String {
        let sparse = try JSONSerialization.jsonObject(with: Data(try message.jsonString().utf8), options: [.fragmentsAllowed])
        guard let type = Schema.shared.messages[M.protoMessageName] else {
            throw SchemaError("\(M.protoMessageName) is not in the generated schema: run scripts/generate-proto.sh")
        }
        var out = ""
        write(object: sparse as? [String: Any] ?? [:], type: type, into: &out)
        return out
    }

    struct SchemaError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Every message and enum of the schema by full name ("layoutd.v1.LayoutReply.Line").
    final class Schema: Sendable {
        static let shared = Schema()
        let messages: [String: Google_Protobuf_DescriptorProto]
        let enums: [String: Google_Protobuf_EnumDescriptorProto]

        init() {
            var messages: [String: Google_Protobuf_DescriptorProto] = [:]
            var enums: [String: Google_Protobuf_EnumDescriptorProto] = [:]
            let bytes = Data(base64Encoded: LayoutdSchema.descriptorSetBase64) ?? Data()
            let set = (try? Google_Protobuf_FileDescriptorSet(serializedBytes: bytes)) ?? .init()
            func add(_ message: Google_Protobuf_DescriptorProto, prefix: String) {
                let name = prefix + "." + message.name
                messages[name] = message
                for nested in message.nestedType { add(nested, prefix: name) }
                for type in message.enumType { enums[name + "." + type.name] = type }
            }
            for file in set.file {
                for message in file.messageType { add(message, prefix: file.package) }
                for type in file.enumType { enums[file.package + "." + type.name] = type }
            }
            self.messages = messages
            self.enums = enums
        }
    }

    private static func write(object: [String: Any], type: Google_Protobuf_DescriptorProto, into out: inout String) {
        out += "{"
        var first = true
        func key(_ name: String) {
            if !first { out += "," }
            first = false
            writeString(name, into: &out)
            out += ":"
        }
        var seen = Set<String>()
        for field in type.field {
            let name = field.jsonName.isEmpty ? field.name : field.jsonName
            // swift-protobuf may also accept the proto name; it writes the JSON name.
            let value = object[name] ?? object[field.name]
            seen.insert(name)
            seen.insert(field.name)
            if let value {
                key(name)
                writeValue(value, field: field, into: &out)
            } else if field.hasOneofIndex && !field.proto3Optional {
                continue  // an unset oneof: absent
            } else {
                key(name)
                writeDefault(field, into: &out)
            }
        }
        // Nothing should be left; if the schema and the code ever disagree, nothing is dropped.
        for name in object.keys.sorted() where !seen.contains(name) {
            key(name)
            writeAny(object[name] as Any, into: &out)
        }
        out += "}"
    }

    private static func mapEntry(_ field: Google_Protobuf_FieldDescriptorProto) -> Google_Protobuf_DescriptorProto? {
        guard field.label == .repeated, field.type == .message,
              let entry = Schema.shared.messages[String(field.typeName.dropFirst())], entry.options.mapEntry else { return nil }
        return entry
    }

    private static func writeValue(_ value: Any, field: Google_Protobuf_FieldDescriptorProto, into out: inout String) {
        if let entry = mapEntry(field), let map = value as? [String: Any], let valueField = entry.field.first(where: { $0.number == 2 }) {
            out += "{"
            for (index, key) in map.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                writeString(key, into: &out)
                out += ":"
                writeSingle(map[key] as Any, field: valueField, into: &out)
            }
            out += "}"
        } else if field.label == .repeated, let items = value as? [Any] {
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                writeSingle(item, field: field, into: &out)
            }
            out += "]"
        } else {
            writeSingle(value, field: field, into: &out)
        }
    }

    private static func writeSingle(_ value: Any, field: Google_Protobuf_FieldDescriptorProto, into out: inout String) {
        if field.type == .message, let object = value as? [String: Any],
           let type = Schema.shared.messages[String(field.typeName.dropFirst())] {
            write(object: object, type: type, into: &out)
        } else if field.type == .bool, let flag = value as? Bool {
            out += flag ? "true" : "false"
        } else {
            writeAny(value, into: &out)
        }
    }

    private static func writeDefault(_ field: Google_Protobuf_FieldDescriptorProto, into out: inout String) {
        if field.label == .repeated { out += mapEntry(field) == nil ? "[]" : "{}"; return }
        switch field.type {
        case .message, .group: out += "null"
        case .bool: out += "false"
        case .string, .bytes: out += "\"\""
        case .int64, .uint64, .sint64, .fixed64, .sfixed64: out += "\"0\""
        case .enum:
            let zero = Schema.shared.enums[String(field.typeName.dropFirst())]?.value.first { $0.number == 0 }?.name
            if let zero { writeString(zero, into: &out) } else { out += "0" }
        default: out += "0"
        }
    }

    /// A value swift-protobuf wrote, written back: strings escaped, numbers in their shortest form.
    private static func writeAny(_ value: Any, into out: inout String) {
        switch value {
        case let text as String: writeString(text, into: &out)
        case let object as [String: Any]:
            out += "{"
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                writeString(key, into: &out)
                out += ":"
                writeAny(object[key] as Any, into: &out)
            }
            out += "}"
        case let items as [Any]:
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                writeAny(item, into: &out)
            }
            out += "]"
        case let number as NSNumber:
            let double = number.doubleValue
            if double.rounded() == double && abs(double) < 1e15 {
                out += String(Int64(saturating: double))
            } else {
                out += "\(double)"
            }
        case is NSNull: out += "null"
        default: out += "null"
        }
    }

    private static func writeString(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
