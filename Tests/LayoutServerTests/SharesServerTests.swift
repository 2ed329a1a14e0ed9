import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// Fair shares through a real daemon: root takes what the server holds for its users (client
/// fonts, unfinished frames), is refused past its share by name, and another user (uid 65534,
/// through setpriv: the tests run as root) is still served. Each was refused or locked out
/// before, where only each connection was capped.
@Suite(.serialized, .enabled(if: getuid() == 0, "needs root to run a client as another user"))
struct SharesServerTests {
    static let font = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"
    static let python = repositoryRoot.appendingPathComponent("clients/python").path

    /// Runs a Python snippet as uid 65534 with the repository's Python client importable.
    static func asAnotherUser(_ script: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try run("/usr/bin/setpriv", ["--reuid=65534", "--regid=\(getgid())", "--clear-groups", "/usr/bin/python3", "-c", script, python]
                + arguments, within: 60)
    }

    static func register(_ client: LayoutClient, family: String) throws -> Layoutd_V1_Envelope {
        let data = try Data(contentsOf: URL(fileURLWithPath: font))
        return try client.call(.registerFonts(.with { $0.fonts = [.with { $0.family = family; $0.data = data }] }))
    }

    static func registered(_ reply: Layoutd_V1_Envelope) -> Bool {
        if case .registerFontsReply = reply.body { return true }
        return false
    }

    @Test func registeredFontsAreSharedPerUser() throws {
        let daemon = try Daemon(arguments: ["--max-server-fonts", "4"])
        do {
            let clients = try (0..<5).map { _ in try daemon.client() }
            for (index, client) in clients.prefix(4).enumerated() {
                #expect(Self.registered(try Self.register(client, family: "Brand\(index)")))
            }
            let fifth = try Self.register(clients[4], family: "Brand4").errorReply
            #expect(fifth?.code == .resourceExhausted && fifth?.field == "register_fonts.fonts", "\(String(describing: fifth))")
            #expect(fifth?.message.contains("user 0 would hold 5, past its share of 4") == true, "\(fifth?.message ?? "")")
            let script = """
            import sys
            sys.path.insert(0, sys.argv[1])
            from layoutd import Client
            client = Client(sys.argv[2])
            reply = client.register_fonts([("Mine", open(sys.argv[3], "rb").read())])
            laid = client.layout("mine", 200, font="Mine")
            print(len(reply.faces), laid.runs[0].font_id == reply.faces[0].font_id)
            """
            let other = try Self.asAnotherUser(script, [daemon.socketPath, Self.font])
            #expect(other.status == 0 && other.out.hasPrefix("1 True"), "\(other.out)\(other.err)")
        }  // root's connections close here: their fonts go, and their part of the share
        usleep(300_000)
        #expect(Self.registered(try Self.register(daemon.client(), family: "Again")))
    }

    /// A frame's first bytes, of a frame that declares `length` bytes.
    static func partialFrame(declaring length: Int, sending count: Int) -> [UInt8] {
        withUnsafeBytes(of: UInt32(length).bigEndian, Array.init) + [UInt8](repeating: 0x0A, count: count)
    }

    @Test func unfinishedFramesAreSharedPerUser() throws {
        let mebibyte = 1 << 20
        let daemon = try Daemon(arguments: ["--max-partial-frame-bytes", "\(8 * mebibyte)", "--frame-timeout", "60"])
        // Root holds two unfinished frames of 3.9 MiB: under the server's 8 MiB.
        let holders = try (0..<2).map { _ in try daemon.client(timeout: 10) }
        for holder in holders {
            do { try holder.sendRaw(Self.partialFrame(declaring: 4 * mebibyte - 1, sending: 39 * mebibyte / 10)) } catch {
                Issue.record("\(error): \(daemon.stderr.text)")
            }
        }
        usleep(300_000)
        // A third would take root past its share (all of it, alone): closed with the reason.
        let third = try daemon.client(timeout: 10)
        // The daemon may close it before the last bytes are sent.
        try? third.sendRaw(Self.partialFrame(declaring: 4 * mebibyte - 1, sending: 3 * mebibyte))
        let refusal = try? third.receive()
        #expect(refusal?.errorReply?.message.contains("past its share") == true, "\(String(describing: refusal))")
        // Another user sends a 3 MiB frame in two parts a second apart: under its share of 4 MiB,
        // it is read whole and answered (the text is past the length limit: a structured error).
        let script = """
        import socket, struct, sys, time
        sys.path.insert(0, sys.argv[1])
        from layoutd.v1 import envelope_pb2
        envelope = envelope_pb2.Envelope()
        envelope.request_id = 7
        envelope.layout.text = "x" * 3000000
        envelope.layout.width = 100
        body = envelope.SerializeToString()
        frame = struct.pack(">I", len(body)) + body
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(20)
        s.connect(sys.argv[2])
        s.sendall(frame[:2500000])
        time.sleep(1)
        s.sendall(frame[2500000:])
        header = s.recv(4, socket.MSG_WAITALL)
        length = struct.unpack(">I", header)[0]
        reply = envelope_pb2.Envelope()
        reply.ParseFromString(s.recv(length, socket.MSG_WAITALL))
        print(reply.request_id, reply.WhichOneof("body"), reply.error.field)
        """
        let other = try Self.asAnotherUser(script, [daemon.socketPath])
        #expect(other.status == 0 && other.out.hasPrefix("7 error layout.text"), "\(other.out)\(other.err)")
        _ = holders
    }

    /// Through the daemon: root keeps the server's every document open; another user (uid 65534)
    /// still opens one, where it was refused with "the server holds 8 documents".
    @Test
    func anotherUserOpensADocumentWhileOneHoldsTheServersTotal() throws {
        let daemon = try Daemon(arguments: ["--max-server-documents", "8", "--max-documents", "16"])
        let client = try daemon.client()
        for _ in 0..<8 {
            guard case .documentReply = try client.request(.openDocument(.with { $0.layout = layoutRequest("held") })) else {
                Issue.record("no document")
                return
            }
        }
        let ninth = try refusal(client, .openDocument(.with { $0.layout = layoutRequest("one too many") }))
        #expect(ninth?.code == .resourceExhausted && ninth?.message.contains("past its share") == true, "\(String(describing: ninth))")
        let asAnotherUser = ["--reuid=65534", "--regid=\(getgid())", "--clear-groups", Daemon.binary("layoutctl")]
        // Its standard input is empty: the session opens, prints its lines and ends.
        let edit = try run("/usr/bin/setpriv", asAnotherUser + ["edit", "--socket", daemon.socketPath, "--width", "200", "a user of its own"])
        #expect(edit.status == 0, "\(edit.out)\(edit.err)")
    }

    /// Variable font instances: root makes the server's every one (each span another weight);
    /// past its share it is refused by name, and another user still gets the instance it asks
    /// for, where the full table refused everyone until a reload.
    @Test func fontInstancesAreSharedPerUser() throws {
        let inter = VariableFontServerTests.inter
        try #require(FileManager.default.fileExists(atPath: inter), "fonts-inter-variable is missing: scripts/setup.sh installs it")
        let daemon = try Daemon(arguments: ["--font", inter, "--max-server-font-instances", "16"])
        let client = try daemon.client()
        func weights(_ values: [Int]) -> Layoutd_V1_Envelope.OneOf_Body {
            var request = layoutRequest(String(repeating: "w", count: values.count))
            request.defaultStyle.family = "Inter"
            request.spans = values.enumerated().map { index, weight in
                .with {
                    $0.range = .with { $0.start = UInt32(index); $0.length = 1 }
                    $0.style.variations = [.with { $0.tag = "wght"; $0.value = Float(weight) }]
                }
            }
            return .layout(request)
        }
        guard case .layoutReply(let filled) = try client.request(weights(Array(stride(from: 200, to: 360, by: 10)))) else {
            Issue.record("no reply: \(daemon.stderr.text)")
            return
        }
        #expect(filled.runs.count == 16)
        let past = try refusal(client, weights([365]))
        #expect(past?.code == .resourceExhausted && past?.message.contains("user 0 would hold 17, past its share of 16") == true,
                "\(String(describing: past))")
        // Made already: anyone's, at no cost.
        guard case .layoutReply = try client.request(weights([250])) else { Issue.record("a made instance was refused"); return }
        let asAnotherUser = ["--reuid=65534", "--regid=\(getgid())", "--clear-groups", Daemon.binary("layoutctl")]
        let other = try run("/usr/bin/setpriv", asAnotherUser + ["layout", "--socket", daemon.socketPath, "--width", "300", "--font", "Inter",
                                                                "--variations", "wght=650", "--json", "Variable"])
        #expect(other.status == 0 && other.out.contains("650"), "\(other.out)\(other.err)")
    }
}
