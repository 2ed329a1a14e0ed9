import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// Fonts a client sends: with one request, or registered on its connection; shaped exactly as
/// hb-shape shapes the same file, drawn, kept across a reload, invisible to other connections,
/// and refused by name when they are not fonts or past the limits.
@Suite struct ClientFontServerTests {
    /// A face the daemon does not load by default (fonts-urw-base35 ships it; the daemon loads only Z003).
    static let nimbus = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"
    static let text = "Brand Type, 2026"

    static func fontBytes() throws -> Data { try Data(contentsOf: URL(fileURLWithPath: nimbus)) }

    /// hb-shape's glyphs and advances (font units) for `text` in the file.
    static func hbShape() throws -> [String] {
        try #require(try HBShape.entries(text, ["--no-glyph-names", "--no-clusters", "--font-file=\(nimbus)"])).map(String.init)
    }

    /// The reply's glyphs as hb-shape prints them: id+advance in the font's 1,000 units.
    static func entries(_ reply: Layoutd_V1_LayoutReply, size: Float) -> [String] {
        reply.runs.flatMap { run in
            zip(run.glyphIds, run.advances).map { "\($0)+\(Int(saturating: ($1 * 1000 / size).rounded()))" }
        }
    }

    static func request(family: String = "Brand") -> Layoutd_V1_LayoutRequest {
        var request = Layoutd_V1_LayoutRequest()
        request.text = text
        request.width = 1000
        request.defaultStyle.family = family
        request.defaultStyle.size = 40
        return request
    }

    /// A face index past a one-face file is refused by name; the one face by index is taken.
    @Test func faceIndicesAreCheckedByName() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        var request = Self.request()
        request.fonts = [.with { $0.family = "Brand"; $0.data = try! Self.fontBytes(); $0.faceIndices = [0] }]
        guard case .layoutReply(let reply) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        #expect(Self.entries(reply, size: 40) == (try Self.hbShape()))
        request.fonts[0].faceIndices = [1]
        do {
            _ = try client.request(.layout(request))
            Issue.record("face 1 of a one-face file was taken")
        } catch ClientError.server(let error) {
            #expect(error.code == .invalidArgument && error.field == "layout.fonts[0].face_indices[0]"
                    && error.message.contains("holds 1 face; there is no face 1"), "\(error)")
        }
    }

    @Test func aFontSentWithARequestShapesAsHbShapeDoes() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        guard case .fontsReply(let fonts) = try client.request(.fonts(.init())) else { Issue.record("no fonts reply"); return }
        var request = Self.request()
        request.fonts = [.with { $0.family = "Brand"; $0.data = try! Self.fontBytes() }]
        guard case .layoutReply(let reply) = try client.request(.layout(request)) else { Issue.record("no reply"); return }
        #expect(Self.entries(reply, size: 40) == (try Self.hbShape()))
        // Its face is numbered after the daemon's own.
        #expect(reply.runs.allSatisfy { $0.fontID == UInt32(fonts.faces.count) })
        // Drawn too.
        var render = Layoutd_V1_RenderRequest()
        render.layout = request
        guard case .renderReply(let picture) = try client.request(.render(render)) else { Issue.record("no picture"); return }
        #expect(picture.image.count > 100)
        // For that request alone.
        do {
            _ = try client.request(.layout(Self.request()))
            Issue.record("a request's font outlived it")
        } catch ClientError.server(let error) {
            #expect(error.code == .notFound && error.field == "layout.default_style.family")
        }
    }

    @Test func registeredFontsServeTheConnectionAcrossAReloadAndNoOther() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        let other = try daemon.client()
        let register = Layoutd_V1_RegisterFontsRequest.with { $0.fonts = [.with { $0.family = "Brand"; $0.data = try! Self.fontBytes() }] }
        guard case .registerFontsReply(let registered) = try client.request(.registerFonts(register)) else { Issue.record("no reply"); return }
        let face = try #require(registered.faces.first)
        #expect(registered.faces.count == 1 && face.family == "Brand" && face.unitsPerEm == 1000 && face.coverage > 500)
        guard case .layoutReply(let reply) = try client.request(.layout(Self.request())) else { Issue.record("no reply"); return }
        #expect(Self.entries(reply, size: 40) == (try Self.hbShape()))
        #expect(reply.runs.allSatisfy { $0.fontID == face.fontID })
        guard case .fontsReply(let listed) = try client.request(.fonts(.init())) else { Issue.record("no fonts reply"); return }
        #expect(listed.faces.last?.family == "Brand")
        // Type Mode names it too.
        var story = Layoutd_V1_JustifyRequest()
        story.text = "brand\nnew"
        story.width = 300
        story.style.family = "Brand"
        guard case .justifyReply = try client.request(.justify(story)) else { Issue.record("no Type Mode reply"); return }
        // Another connection does not see it.
        do {
            _ = try other.request(.layout(Self.request()))
            Issue.record("another connection saw a registered font")
        } catch ClientError.server(let error) {
            #expect(error.code == .notFound)
        }
        // A reload keeps it.
        guard case .reloadReply = try client.request(.reload(.init())) else { Issue.record("no reload reply"); return }
        guard case .layoutReply(let after) = try client.request(.layout(Self.request())) else { Issue.record("no reply"); return }
        #expect(Self.entries(after, size: 40) == Self.entries(reply, size: 40))
    }

    /// A font registered under a loaded family's name shadows it, and keeps shadowing it after
    /// a later registration in another request and after a reload (it stopped at the second).
    @Test func aRegisteredFontKeepsShadowingALoadedFamily() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        func fontIDs() throws -> Set<UInt32> {
            guard case .layoutReply(let reply) = try client.request(.layout(Self.request(family: "Noto Sans"))) else { return [] }
            return Set(reply.runs.map(\.fontID))
        }
        let loaded = try fontIDs()
        let shadow = Layoutd_V1_RegisterFontsRequest.with { $0.fonts = [.with { $0.family = "Noto Sans"; $0.data = try! Self.fontBytes() }] }
        guard case .registerFontsReply(let first) = try client.request(.registerFonts(shadow)) else { Issue.record("no reply"); return }
        let shadowID = try #require(first.faces.first?.fontID)
        #expect(try fontIDs() == [shadowID] && !loaded.contains(shadowID))
        let another = Layoutd_V1_RegisterFontsRequest.with { $0.fonts = [.with { $0.family = "Brand"; $0.data = try! Self.fontBytes() }] }
        guard case .registerFontsReply = try client.request(.registerFonts(another)) else { Issue.record("no reply"); return }
        #expect(try fontIDs() == [shadowID], "the second registration undid the first one's shadow")
        guard case .reloadReply = try client.request(.reload(.init())) else { Issue.record("no reload reply"); return }
        #expect(try fontIDs() == [shadowID], "after a reload")
        // A request's own font over the registered ones keeps both shadows.
        var own = Self.request(family: "Noto Sans")
        own.fonts = [.with { $0.family = "Third"; $0.data = try! Self.fontBytes() }]
        guard case .layoutReply(let reply) = try client.request(.layout(own)) else { Issue.record("no reply"); return }
        #expect(Set(reply.runs.map(\.fontID)) == [shadowID])
        // Another connection still gets the loaded family.
        guard case .layoutReply(let other) = try daemon.client().request(.layout(Self.request(family: "Noto Sans"))) else { return }
        #expect(Set(other.runs.map(\.fontID)) == loaded)
    }

    /// The daemon's resident memory, bytes.
    static func residentBytes(_ daemon: Daemon) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ").dropFirst().first { !$0.isEmpty } ?? "")) * 1024
    }

    /// A registered font's bytes are held once: the blob its faces read is the one the connection
    /// keeps for the next reload (they were held as the request's bytes and HarfBuzz's copy:
    /// 64 registrations of a 760 KB font grew the daemon by 2.2 times their bytes).
    @Test func registeredBytesAreHeldOnce() throws {
        let daemon = try Daemon()
        let data = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
        _ = try daemon.client().call(.layout(layoutRequest("warm up")))
        let before = try Self.residentBytes(daemon)
        var clients: [LayoutClient] = []
        for _ in 0..<4 {
            let client = try daemon.client()
            for k in 0..<16 {
                _ = try client.request(.registerFonts(.with { $0.fonts = [.with { $0.family = "F\(k)"; $0.data = data }] }))
            }
            clients.append(client)
        }
        let grown = Double(try Self.residentBytes(daemon) - before) / Double(64 * data.count)
        #expect(grown < 1.5, "the daemon grew by \(grown) times the registered bytes")
    }

    @Test func whatIsNotAFontIsRefusedByNameAndTheDaemonStays() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        let real = try Self.fontBytes()
        func refusalOf(_ fonts: [Data]) throws -> Layoutd_V1_Error? {
            var request = Self.request()
            request.fonts = fonts.map { data in .with { $0.family = "Brand"; $0.data = data } }
            return try refusal(client, .layout(request))
        }
        let garbage = try refusalOf([Data("this is not a font at all".utf8)])
        #expect(garbage?.code == .invalidArgument && garbage?.field == "layout.fonts[0].data", "\(String(describing: garbage))")
        let empty = try refusalOf([Data()])
        #expect(empty?.code == .invalidArgument && empty?.field == "layout.fonts[0].data")
        let truncated = try refusalOf([real.prefix(real.count / 3)])
        #expect(truncated?.code == .invalidArgument && truncated?.message.contains("damaged") == true, "\(String(describing: truncated))")
        let many = try refusalOf(Array(repeating: real, count: 5))
        #expect(many?.code == .resourceExhausted && many?.field == "layout.fonts")
        // A connection's registrations stop at 16.
        let one = Layoutd_V1_RegisterFontsRequest.with { $0.fonts = [.with { $0.data = real }] }
        for _ in 0..<16 { _ = try client.request(.registerFonts(one)) }
        do {
            _ = try client.request(.registerFonts(one))
            Issue.record("a 17th font was registered")
        } catch ClientError.server(let error) {
            #expect(error.code == .resourceExhausted && error.field == "register_fonts.fonts")
        }
        // Registered without a family: the font's own name.
        guard case .layoutReply = try client.request(.layout(Self.request(family: "Nimbus Sans"))) else { Issue.record("no reply"); return }
        let ctl = try run(Daemon.binary("layoutctl"), ["ping", "--socket", daemon.socketPath])
        #expect(ctl.status == 0)
    }

    @Test func layoutctlSendsAFontFile() throws {
        let daemon = try Daemon()
        let ctl = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "400", "--font-file", Self.nimbus,
                                                       "--font", "Nimbus Sans", "--json", Self.text])
        #expect(ctl.status == 0, "\(ctl.err)")
        #expect(ctl.out.contains("glyphIds") || ctl.out.contains("glyph_ids"), "\(ctl.out.prefix(200))")
        let missing = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "400", "--font-file",
                                                           "/nonexistent.otf", "x"])
        #expect(missing.status != 0 && missing.err.contains("/nonexistent.otf"))
    }
}

/// Documents take the connection's registered fonts, and refuse what they cannot keep.
@Suite struct DocumentFontTests {
    @Test func documentsUseRegisteredFontsAndListsAndRefuseRequestFonts() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        let data = try ClientFontServerTests.fontBytes()
        var open = Layoutd_V1_OpenDocumentRequest()
        open.layout = ClientFontServerTests.request()
        open.layout.fonts = [.with { $0.family = "Brand"; $0.data = data }]
        do {
            _ = try client.request(.openDocument(open))
            Issue.record("a document took a request's fonts")
        } catch ClientError.server(let error) {
            #expect(error.code == .invalidArgument && error.field == "open_document.layout.fonts")
        }
        _ = try client.request(.registerFonts(.with { $0.fonts = [.with { $0.family = "Brand"; $0.data = data }] }))
        open.layout.fonts = []
        guard case .documentReply(let opened) = try client.request(.openDocument(open)) else { Issue.record("no document"); return }
        #expect(opened.changes.first?.paragraphs.first?.runs.isEmpty == false)
        // A list is kept (each paragraph an item); a height is not (a document grows with its text).
        open.layout.paragraphStyle.list = .with { $0.marker = .decimal }
        guard case .documentReply(let listed) = try client.request(.openDocument(open)) else { Issue.record("no list document"); return }
        #expect(listed.changes.first?.paragraphs.first?.runs.count ?? 0 > opened.changes.first?.paragraphs.first?.runs.count ?? 0,
                "the marker is a run of its own")
        open.layout.height = 100
        do {
            _ = try client.request(.openDocument(open))
            Issue.record("a document took a height")
        } catch ClientError.server(let error) {
            #expect(error.code == .invalidArgument && error.field == "open_document.layout.height")
        }
    }
}
