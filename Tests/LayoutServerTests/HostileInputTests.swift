import Foundation
import LayoutdClient
import LayoutWire
import SwiftProtobuf
import Testing
import TestSupport

/// Broken and malicious input: each case gets a structured error or a documented result, and
/// the daemon keeps serving a second client throughout.
@Suite(.serialized) struct HostileInputTests {
    let daemon: Daemon

    init() throws { daemon = try Daemon() }

    func expectStillServing() throws {
        let body = try daemon.client().request(.hello(.init()))
        guard case .helloReply = body else { Issue.record("daemon stopped answering"); return }
    }

    func layoutError(_ request: Layoutd_V1_LayoutRequest) throws -> Layoutd_V1_Error? {
        let reply = try daemon.client().call(.layout(request))
        return reply.errorReply
    }

    @Test func oversizeHeaderIsRefusedBeforeTheBody() throws {
        let client = try daemon.client()
        try client.sendRaw([0x7F, 0xFF, 0xFF, 0xFF])
        let reply = try client.receive()
        #expect(reply.errorReply?.code == .resourceExhausted)
        #expect(reply.errorReply?.field == "frame")
        #expect(client.isClosedByServer())
        try expectStillServing()
    }

    @Test func garbagePayloadIsMalformedAndTheConnectionStays() throws {
        let client = try daemon.client()
        try client.sendRaw([0, 0, 0, 5, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        let reply = try client.receive()
        #expect(reply.errorReply?.code == .malformed)
        // The same connection still answers.
        guard case .helloReply = try client.request(.hello(.init())) else { Issue.record("no hello reply after a garbage frame"); return }
    }

    @Test func zeroLengthFrameHasNoBody() throws {
        let client = try daemon.client()
        try client.sendRaw([0, 0, 0, 0])
        let reply = try client.receive()
        #expect(reply.errorReply?.code == .unimplemented)
        #expect(reply.errorReply?.field == "envelope.body")
        try expectStillServing()
    }

    @Test func unknownOneofCaseIsUnimplemented() throws {
        let client = try daemon.client()
        // request_id = 5, then field 99 (length-delimited, 2 bytes): a body from a future protocol.
        let body: [UInt8] = [0x08, 0x05, 0x9A, 0x06, 0x02, 0x08, 0x01]
        try client.sendRaw([0, 0, 0, UInt8(body.count)] + body)
        let reply = try client.receive()
        #expect(reply.requestID == 5)
        #expect(reply.errorReply?.code == .unimplemented)
    }

    @Test func replySentAsRequestIsRejected() throws {
        let reply = try daemon.client().call(.layoutReply(.init()))
        #expect(reply.errorReply?.code == .invalidArgument)
    }

    @Test func emptyTextHasNoLines() throws {
        let reply = try daemon.client().call(.layout(layoutRequest("")))
        let layout = try #require(reply.layoutReply)
        #expect(layout.lines.isEmpty && layout.runs.isEmpty && layout.height == 0)
    }

    @Test(arguments: [Float(-10), 0, .nan, .infinity, -.infinity])
    func badWidthsAreNamed(_ width: Float) throws {
        let error = try layoutError(layoutRequest("text", width: width))
        #expect(error?.code == .invalidArgument)
        #expect(error?.field == "layout.width")
    }

    @Test(arguments: [Float(-1), .nan, .infinity, 20_000])
    func badSizesAreNamed(_ size: Float) throws {
        let error = try layoutError(layoutRequest("text", size: size))
        #expect(error?.code == .invalidArgument)
        #expect(error?.field == "layout.default_style.size")
        var request = layoutRequest("text")
        request.spans = [.with { $0.range = .with { $0.start = 0; $0.length = 2 }; $0.style.size = size }]
        #expect(try layoutError(request)?.field == "layout.spans[0].style.size")
    }

    @Test func otherBadNumbersAreNamed() throws {
        var request = layoutRequest("text")
        request.height = -5
        #expect(try layoutError(request)?.field == "layout.height")
        request = layoutRequest("text")
        request.lineHeight = .nan
        #expect(try layoutError(request)?.field == "layout.line_height")
        request = layoutRequest("text")
        request.defaultStyle.letterSpacing.points = .infinity
        #expect(try layoutError(request)?.field == "layout.default_style.letter_spacing.points")
        request = layoutRequest("text")
        request.alignment = .UNRECOGNIZED(42)
        #expect(try layoutError(request)?.field == "layout.alignment")
        request = layoutRequest("text")
        request.defaultStyle.features = [.with { $0.tag = "toolong"; $0.value = 1 }]
        #expect(try layoutError(request)?.field == "layout.default_style.features[0].tag")
    }

    @Test func unknownFamilyIsNotFound() throws {
        let error = try layoutError(layoutRequest("text", family: "Helvetica Neue"))
        #expect(error?.code == .notFound)
        #expect(error?.field == "layout.default_style.family")
        #expect(error?.message.contains("Helvetica Neue") == true)
    }

    @Test func rangesOutsideTheTextOrInsideAPairAreRejected() throws {
        var request = layoutRequest("ab😀cd")  // 😀 is units 2 and 3
        request.spans = [.with { $0.range = .with { $0.start = 4; $0.length = 10 }; $0.style.weight = 700 }]
        #expect(try layoutError(request)?.field == "layout.spans[0].range")
        request.spans = [.with { $0.range = .with { $0.start = 3; $0.length = 1 }; $0.style.weight = 700 }]
        let error = try layoutError(request)
        #expect(error?.field == "layout.spans[0].range")
        #expect(error?.message.contains("surrogate pair") == true)
        request.spans = [.with { $0.style.weight = 700 }]
        #expect(try layoutError(request)?.field == "layout.spans[0].range")
    }

    @Test func unpairedSurrogateIsMalformedUTF8() throws {
        let client = try daemon.client()
        // Envelope{request_id: 3, layout: {text: "a" + ED A0 80 (a lone high surrogate in UTF-8 form)}}
        let text: [UInt8] = [0x61, 0xED, 0xA0, 0x80]
        let layout: [UInt8] = [0x0A, UInt8(text.count)] + text
        let body: [UInt8] = [0x08, 0x03, 0x62, UInt8(layout.count)] + layout
        try client.sendRaw([0, 0, 0, UInt8(body.count)] + body)
        let reply = try client.receive()
        #expect(reply.errorReply?.code == .malformed)
        try expectStillServing()
    }

    @Test func aMegabyteWithoutSpacesIsOverTheTextLimit() throws {
        let error = try layoutError(layoutRequest(String(repeating: "x", count: 1 << 20)))
        #expect(error?.code == .resourceExhausted)
        #expect(error?.field == "layout.text")
        // Just under the limit, the same kind of text is laid out, broken inside the word: by a
        // daemon whose budget a sanitizer's build on a busy machine cannot overrun.
        let patient = try Daemon(arguments: ["--request-budget-ms", "120000"])
        let reply = try patient.client().call(.layout(layoutRequest(String(repeating: "x", count: 200_000), size: 12)))
        let layout = try #require(reply.layoutReply)
        #expect(layout.lines.count > 1000)
        #expect(layout.visibleRange.length == 200_000)
        try expectStillServing()
    }

    @Test func clientThatLeavesMidFrame() throws {
        do {
            let client = try daemon.client()
            try client.sendRaw([0, 0, 0, 100] + [UInt8](repeating: 0x08, count: 10))
        }
        try expectStillServing()
    }

    /// Bounded fuzzing: random bytes, and random but well-formed requests with extreme values.
    /// Every frame is answered and the daemon keeps serving. Seeded, so a failure repeats.
    @Test func randomFramesAreAllAnswered() throws {
        var generator = SeededGenerator(seed: 20261122)
        let client = try daemon.client(timeout: 30)
        let floats: [Float] = [0, -1, 1, 300, .nan, .infinity, -.infinity, .greatestFiniteMagnitude, 1e-30]
        for round in 0..<300 {
            var bytes: [UInt8]
            if round % 2 == 0 {
                bytes = (0..<Int.random(in: 0...120, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            } else {
                var request = Layoutd_V1_LayoutRequest()
                let pool = ["", "a", "é", "😀", "مرحبا", "\n\n", "\u{200D}\u{0301}", "\u{202E}abc", String(repeating: "x", count: 500)]
                request.text = (0..<Int.random(in: 0...4, using: &generator)).map { _ in pool.randomElement(using: &generator)! }.joined()
                request.width = floats.randomElement(using: &generator)!
                request.height = floats.randomElement(using: &generator)!
                request.defaultStyle.size = floats.randomElement(using: &generator)!
                request.maxLines = UInt32.random(in: 0...3, using: &generator)
                request.alignment = .UNRECOGNIZED(Int.random(in: 0...5, using: &generator))
                request.spans = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                    .with {
                        $0.range = .with { $0.start = UInt32.random(in: 0...20, using: &generator); $0.length = UInt32.random(in: 0...20, using: &generator) }
                        $0.style.weight = UInt32.random(in: 0...1200, using: &generator)
                        $0.style.size = floats.randomElement(using: &generator)!
                    }
                }
                var envelope = Layoutd_V1_Envelope()
                envelope.requestID = UInt64(round)
                envelope.body = .layout(request)
                bytes = try envelope.serializedBytes()
            }
            let length = UInt32(bytes.count)
            try client.sendRaw([UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + bytes)
            _ = try client.receive()  // an answer of some kind, never silence
        }
        try expectStillServing()
    }
}
