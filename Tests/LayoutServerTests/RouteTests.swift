import Foundation
import LayoutProtocol
import Testing
@testable import LayoutServer

/// The one routing decision (`FrameRoute`, `RequestRoute`) that the connection handler follows
/// and the fuzzer and benchmark take in process.
@Suite struct RouteTests {
    static func body(_ envelope: Layoutd_V1_Envelope) throws -> [UInt8] {
        Array(try Framing.encode(envelope).dropFirst(Framing.headerBytes))
    }

    static func layout(_ text: String, spans: Int = 0, attachments: Int = 0) -> Layoutd_V1_Envelope {
        .with {
            $0.requestID = 7
            $0.layout = .with { layout in
                layout.text = text
                layout.width = 200
                layout.defaultStyle = .with { $0.family = "Noto Sans"; $0.size = 16 }
                layout.spans = (0..<spans).map { k in .with { $0.range = .with { $0.start = UInt32(k); $0.length = 1 } } }
                layout.attachments = (0..<attachments).map { _ in .with { $0.width = 10; $0.height = 10 } }
            }
        }
    }

    @Test func framesAreReadPlainDecodedHereOrOnThePool() throws {
        func route(_ bytes: [UInt8]) -> String {
            switch bytes.withUnsafeBytes({ FrameRoute.of($0) }) {
            case .plain: "plain"
            case .plainJustify: "justify"
            case .plainEdit: "edit"
            case .decodeHere: "here"
            case .decodeOnPool: "pool"
            case .batch(let id, let deadlineMs): "batch \(id) \(deadlineMs)"
            }
        }
        #expect(route(try Self.body(Self.layout("a caption"))) == "plain")
        // A span: no longer the plain request's shape, decoded.
        #expect(route(try Self.body(Self.layout("a caption", spans: 1))) == "here")
        // Past the small-request size: decoded here, not read as plain.
        #expect(route(try Self.body(Self.layout(String(repeating: "word ", count: 300)))) == "here")
        #expect(route(try Self.body(Self.layout(String(repeating: "word ", count: 14_000)))) == "pool")
        #expect(route([0xFF, 0x00]) == "here")
        // A keystroke: read plain; with a caret asked, or a style, decoded.
        let keystroke = Layoutd_V1_Envelope.with { $0.requestID = 3; $0.editDocument = DocumentServerTests.replace(1, 4, 4, "x") }
        #expect(route(try Self.body(keystroke)) == "edit")
        var asking = keystroke
        asking.editDocument.carets = [.with { $0.offset = 2 }]
        #expect(route(try Self.body(asking)) == "here")
        var styling = keystroke
        styling.editDocument.edits = [.with { $0.style = .with { $0.range = .with { $0.length = 2 }; $0.style.size = 20 } }]
        #expect(route(try Self.body(styling)) == "here")
        // A Type Mode request of text, width and family: read plain; with a preset, decoded.
        let justify = Layoutd_V1_Envelope.with { $0.requestID = 4; $0.justify.text = "TYPE MODE"; $0.justify.width = 300; $0.justify.style.family = "Noto Sans" }
        #expect(route(try Self.body(justify)) == "justify")
        var preset = justify
        preset.justify.preset = "neon"
        #expect(route(try Self.body(preset)) == "here")
        // A batch, however small or large: its id and deadline read, the batch left for the pool.
        let batch = Layoutd_V1_Envelope.with { $0.requestID = 12; $0.deadlineMs = 900; $0.batchLayout.texts = ["a", "b"] }
        #expect(route(try Self.body(batch)) == "batch 12 900")
        var large = batch
        large.batchLayout.texts = Array(repeating: String(repeating: "word ", count: 40), count: 1_000)
        #expect(route(try Self.body(large)) == "batch 12 900")
    }

    /// Routing on the envelope's body field (`PlainBody`) gives what trying each plain reader in
    /// turn gave, for frames of every kind, fields in any order, and damaged frames.
    @Test func routingOnTheBodyEqualsTryingEachReader() throws {
        func name(_ route: FrameRoute) -> String {
            switch route {
            case .plain(let plain): "plain \(plain)"
            case .plainJustify(let justify): "justify \(justify)"
            case .plainEdit(let edit): "edit \(edit)"
            case .decodeHere: "here"
            case .decodeOnPool: "pool"
            case .batch(let id, let deadlineMs): "batch \(id) \(deadlineMs)"
            }
        }
        func triedInTurn(_ frame: UnsafeRawBufferPointer) -> FrameRoute {
            if frame.count <= RequestProcessor.smallRequestBytes {
                if let plain = PlainLayoutRequest.read(frame) { return .plain(plain) }
                if let justify = PlainJustifyRequest.read(frame) { return .plainJustify(justify) }
                if let edit = PlainEditRequest.read(frame) { return .plainEdit(edit) }
            }
            if let batch = PlainBatchRequest.peek(frame) { return .batch(requestID: batch.requestID, deadlineMs: batch.deadlineMs) }
            return frame.count <= ConnectionHandler.inlineDecodeBytes ? .decodeHere : .decodeOnPool
        }
        let keystroke = Layoutd_V1_Envelope.with { $0.requestID = 3; $0.editDocument = DocumentServerTests.replace(1, 4, 4, "x") }
        let envelopes: [Layoutd_V1_Envelope] = [
            Self.layout("a caption"), Self.layout("a caption", spans: 2), Self.layout(String(repeating: "word ", count: 300)),
            keystroke, .with { $0.requestID = 12; $0.deadlineMs = 900; $0.batchLayout.texts = ["a", "b"] },
            .with { $0.requestID = 4; $0.justify.text = "TYPE MODE"; $0.justify.width = 300 },
            .with { $0.requestID = 4; $0.justify.text = "TYPE MODE"; $0.justify.style.family = "Noto Sans"; $0.justify.preset = "neon" },
            .with { $0.requestID = 5; $0.hello = .init() }, .with { $0.requestID = 6; $0.deadlineMs = 50; $0.render.layout.text = "drawn" },
            .with { $0.requestID = 8 }, Layoutd_V1_Envelope(),
        ]
        var frames = try envelopes.map(Self.body)
        // Fields in another order: protobuf's concatenation merges, so the body can come first.
        for envelope in envelopes {
            var body = envelope
            body.requestID = 0
            body.deadlineMs = 0
            let head = Layoutd_V1_Envelope.with { $0.requestID = envelope.requestID; $0.deadlineMs = envelope.deadlineMs }
            frames.append(try Self.body(body) + Self.body(head))
            frames.append(try Self.body(body) + Self.body(head) + Self.body(body))
        }
        var random = SystemRandomNumberGenerator()
        for frame in frames where !frame.isEmpty {
            for _ in 0..<200 {
                var damaged = frame
                damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                if Bool.random(using: &random) { damaged.removeLast(Int.random(in: 0..<damaged.count, using: &random)) }
                frames.append(damaged)
            }
        }
        for frame in frames {
            frame.withUnsafeBytes { bytes in
                #expect(name(FrameRoute.of(bytes)) == name(triedInTurn(bytes)), "\(frame.prefix(24))")
            }
        }
    }

    @Test func requestsGoWhereTheirCostAllows() throws {
        func route(_ envelope: Layoutd_V1_Envelope, documentsQueued: Int = 0, small: Bool = true) throws -> RequestRoute {
            var asked = false
            let bytes = try Self.body(envelope).count
            let route = RequestRoute.of(envelope, bytes: bytes, documentsQueued: documentsQueued) { asked = true; return small }
            // Only a document request that could go inline is weighed.
            #expect(asked == (envelope.isDocumentRequest && documentsQueued == 0 && bytes <= RequestProcessor.smallRequestBytes))
            return route
        }
        #expect(try route(.with { $0.requestID = 1; $0.hello = .init() }) == .atOnce)
        #expect(try route(.with { $0.requestID = 1; $0.stats = .init() }) == .atOnce)
        #expect(try route(.with { $0.requestID = 1 }) == .atOnce)
        #expect(try route(.with { $0.requestID = 1; $0.cancel = .with { $0.requestID = 9 } }) == .cancel(9))
        #expect(try route(.with { $0.requestID = 1; $0.reload = .init() }) == .reload)
        #expect(try route(.with { $0.requestID = 1; $0.registerFonts = .init() }) == .registerFonts)
        #expect(try route(Self.layout("a caption", spans: 3)) == .inline)
        #expect(try route(Self.layout("a caption", spans: 17)) == .pool)
        #expect(try route(Self.layout("a caption", attachments: 1)) == .pool)
        // Ruby: each annotation's readings are a layout of their own; a few go inline, as spans do.
        var annotated = Self.layout("漢字の読み方を学ぶ")
        annotated.layout.rubyAnnotations = (0..<3).map { k in .with { $0.range = .with { $0.start = UInt32(k); $0.length = 1 }; $0.text = "よ" } }
        #expect(try route(annotated) == .inline)
        annotated.layout.rubyAnnotations = (0..<17).map { k in .with { $0.range = .with { $0.start = UInt32(k); $0.length = 1 }; $0.text = "よ" } }
        #expect(try route(annotated) == .pool)
        #expect(try route(Self.layout(String(repeating: "word ", count: 300))) == .pool)
        let edit = Layoutd_V1_Envelope.with { $0.requestID = 3; $0.editDocument = .with { $0.document = 1 } }
        #expect(try route(edit) == .documentInline)
        #expect(try route(edit, small: false) == .documentChain)
        #expect(try route(edit, documentsQueued: 1) == .documentChain)
    }
}
