import Foundation
import LayoutWire
import SwiftProtobuf
import Testing

/// The cross-language vectors (Vectors/golden.json, one request and one reply of every kind,
/// written to golden.hex by scripts/golden-bytes.py with Python's protobuf): swift-protobuf
/// encodes each request from the same JSON to the same bytes, and decodes each vector to the
/// message the JSON describes — the clients' fast layout-reply reader too. The C library checks
/// the same vectors (clients/c/tests/golden-test.c), the Python package its own
/// (clients/python/tests/test_golden.py).
@Suite struct GoldenVectorTests {
    static let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Vectors")

    struct Vector {
        var label: String
        var json: String
        var frame: [UInt8]
    }

    static func load() throws -> [Vector] {
        let spec = try JSONSerialization.jsonObject(with: Data(contentsOf: vectors.appendingPathComponent("golden.json"))) as! [String: Any]
        let hex = try String(contentsOf: vectors.appendingPathComponent("golden.hex"), encoding: .utf8)
        var frames: [String: [UInt8]] = [:]
        for line in hex.split(separator: "\n") {
            let parts = line.split(separator: " ")
            var bytes: [UInt8] = []
            var index = parts[1].startIndex
            while index < parts[1].endIndex {
                let next = parts[1].index(index, offsetBy: 2)
                bytes.append(UInt8(parts[1][index..<next], radix: 16)!)
                index = next
            }
            frames[String(parts[0])] = bytes
        }
        var result: [Vector] = []
        for (group, prefix) in [("requests", "request"), ("replies", "reply")] {
            for (name, body) in spec[group] as! [String: Any] {
                let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
                let label = "\(prefix).\(name)"
                result.append(Vector(label: label, json: json, frame: try #require(frames[label], "\(label) is not in golden.hex")))
            }
        }
        #expect(result.count == frames.count, "golden.hex and golden.json hold different vectors: run scripts/golden-bytes.py")
        return result
    }

    @Test func everyKindOfRequestAndReplyIsThere() throws {
        let labels = Set(try Self.load().map(\.label))
        for request in Features.served { #expect(labels.contains("request.\(request)"), "no \(request) request vector") }
        for reply in ["hello_reply", "layout_reply", "fonts_reply", "stats_reply", "error", "justify_reply", "render_reply",
                      "tags_reply", "tag_hit_reply", "tag_style_reply", "reload_reply", "hit_test_reply"] {
            #expect(labels.contains("reply.\(reply)"), "no \(reply) vector")
        }
    }

    @Test func swiftProtobufEncodesAndDecodesAsPythonDoes() throws {
        for vector in try Self.load() {
            let message = try Layoutd_V1_Envelope(jsonString: vector.json)
            #expect(try Framing.encode(message) == vector.frame, "\(vector.label): other bytes")
            let decoded = try Layoutd_V1_Envelope(serializedBytes: Array(vector.frame.dropFirst(4)))
            #expect(decoded == message, "\(vector.label): other values")
            #expect(decoded.unknownFields.data.isEmpty)
        }
    }

    /// The Swift client decodes layout replies with its own reader, not swift-protobuf's.
    @Test func theClientsLayoutReplyReaderDecodesAsPythonDoes() throws {
        let vector = try #require(try Self.load().first { $0.label == "reply.layout_reply" })
        let fast = vector.frame.dropFirst(4).withUnsafeBytes { LayoutReplyReader.envelope($0) }
        #expect(try #require(fast) == (try Layoutd_V1_Envelope(jsonString: vector.json)))
    }
}
