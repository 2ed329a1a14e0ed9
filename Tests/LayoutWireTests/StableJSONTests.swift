import Foundation
import LayoutWire
import SwiftProtobuf
import Testing

/// `layoutctl --json`'s output: every field present, defaults included, and still proto3 JSON
/// that swift-protobuf reads back to the same message.
@Suite struct StableJSONTests {
    /// The body fields of the envelope's oneof, by number.
    static var bodies: [Google_Protobuf_FieldDescriptorProto] {
        EveryFieldTests.descriptors["layoutd.v1.Envelope"]!.field.filter { $0.hasOneofIndex && !$0.proto3Optional }
    }

    static func object(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func everyFilledMessageReadsBackEqual() throws {
        #expect(Self.bodies.count >= 20)
        for body in Self.bodies {
            let name = String(body.typeName.dropFirst())
            let reference = try Layoutd_V1_Envelope(serializedBytes: try EveryFieldTests.envelope(body: body.number, message: name))
            let json = try StableJSON.encode(reference)
            #expect(try Layoutd_V1_Envelope(jsonString: json) == reference, "\(name): \(json.prefix(300))")
        }
    }

    /// A message at its defaults prints every field the .proto declares (but an unset oneof):
    /// scalars at their default, repeated as [], messages as null, 64-bit integers as strings.
    @Test func aMessageAtItsDefaultsPrintsEveryField() throws {
        for body in Self.bodies {
            let name = String(body.typeName.dropFirst())
            var bytes: [UInt8] = []
            EveryFieldTests.key(body.number, 2, &bytes)
            EveryFieldTests.lengthDelimited([], &bytes)
            let reference = try Layoutd_V1_Envelope(serializedBytes: bytes)
            let json = try StableJSON.encode(reference)
            let envelope = try Self.object(json)
            #expect(envelope["requestId"] as? String == "0", "\(json)")
            let printed = try #require(envelope[body.jsonName] as? [String: Any], "\(name): \(json)")
            for field in EveryFieldTests.descriptors[name]!.field where !(field.hasOneofIndex && !field.proto3Optional) {
                #expect(printed[field.jsonName] != nil, "\(name).\(field.name) is missing from \(json)")
                if field.label == .repeated {
                    #expect((printed[field.jsonName] as? [Any])?.isEmpty == true || (printed[field.jsonName] as? [String: Any])?.isEmpty == true,
                            "\(name).\(field.name)")
                } else if field.type == .message {
                    #expect(printed[field.jsonName] is NSNull, "\(name).\(field.name)")
                }
            }
            #expect(try Layoutd_V1_Envelope(jsonString: json) == reference, "\(name)")
        }
    }

    @Test func fieldsComeInTheOrderTheProtoDeclaresThem() throws {
        var line = Layoutd_V1_Line()
        line.ascent = 20
        let json = try StableJSON.encode(line)
        let names = EveryFieldTests.descriptors["layoutd.v1.Line"]!.field.map(\.jsonName)
        var cursor = json.startIndex
        for name in names {
            let found = try #require(json.range(of: "\"\(name)\":", range: cursor..<json.endIndex), "\(name) out of order in \(json)")
            cursor = found.upperBound
        }
        #expect(json.contains("\"ascent\":20") && json.contains("\"range\":null"), "\(json)")
    }

    @Test func stringsAndNumbersSurviveTheRewrite() throws {
        var error = Layoutd_V1_Error()
        error.message = "quote \" backslash \\ newline \n tab \t bell \u{7} emoji 👋🏽 عربى"
        error.field = "layout.text"
        var reply = Layoutd_V1_Envelope()
        reply.requestID = UInt64.max
        reply.body = .error(error)
        let json = try StableJSON.encode(reply)
        #expect(json.contains("\"requestId\":\"18446744073709551615\""), "\(json)")
        #expect(try Layoutd_V1_Envelope(jsonString: json) == reply)
        var point = Layoutd_V1_Point()
        point.x = 0.1
        point.y = -12345.5
        let printed = try StableJSON.encode(point)
        #expect(printed == "{\"x\":0.1,\"y\":-12345.5}", "\(printed)")
        #expect(try Layoutd_V1_Point(jsonString: printed) == point)
    }
}
