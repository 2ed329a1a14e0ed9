import Foundation
import LayoutdClient
import LayoutProtocol
import Testing

/// The Swift client outlives the daemon: restarted (SIGTERM) or crashed (SIGKILL) between and
/// during calls, on the same socket (docs/protocol.md, "Retrying").
@Suite(.serialized) struct ClientRestartTests {
    static let caption = "The quick brown fox jumps over the lazy dog, again and again and again."
    static let nimbus = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"

    /// Daemons one after another on one socket; kept until the test ends (each one's deinit
    /// unlinks the socket path).
    final class Restarting {
        let path: String
        private(set) var daemons: [Daemon]
        init() throws {
            let first = try Daemon()
            path = first.socketPath
            daemons = [first]
        }
        var current: Daemon { daemons[daemons.count - 1] }
        func restart(crash: Bool) throws {
            if crash {
                current.process.signal(SIGKILL)
                _ = current.process.wait(within: 30)
            } else {
                _ = current.stop()
            }
            daemons.append(try Daemon(socketPath: path))
        }
    }

    @Test(arguments: [false, true]) func theNextCallConnectsAgain(crash: Bool) async throws {
        let daemons = try Restarting()
        let client = try await AsyncLayoutClient(socketPath: daemons.path, reconnectWait: 30)
        let before = try await client.layout(Self.caption, width: 200)
        let font = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.nimbus)))
        _ = try await client.registerFonts([(family: "Brand", data: font)])
        try daemons.restart(crash: crash)
        #expect(try await client.layout(Self.caption, width: 200) == before)
        // Fonts registered on the lost connection were registered on the new one.
        #expect(!(try await client.layout("Brand", width: 300, font: "Brand").runs.isEmpty))
    }

    @Test func callsInFlightThroughACrashAreSentAgain() async throws {
        let daemons = try Restarting()
        let client = try await AsyncLayoutClient(socketPath: daemons.path, reconnectWait: 30)
        let expected = try await client.layout(Self.caption, width: 180)
        try await withThrowingTaskGroup(of: Layoutd_V1_LayoutReply.self) { group in
            for _ in 0..<200 { group.addTask { try await client.layout(Self.caption, width: 180) } }
            try daemons.restart(crash: true)
            for try await reply in group { #expect(reply == expected) }
        }
    }

    @Test func aDocumentIsGoneWithItsConnection() async throws {
        let daemons = try Restarting()
        let client = try await AsyncLayoutClient(socketPath: daemons.path, reconnectWait: 30)
        let layout = Layoutd_V1_LayoutRequest.with { $0.text = "First paragraph.\nSecond one."; $0.width = 300 }
        let opened = try await client.openDocument(layout)
        let edit = Layoutd_V1_EditDocumentRequest.with {
            $0.document = opened.document
            $0.edits = [.with { $0.replace = .with { $0.range = .with { $0.start = 0; $0.length = 0 }; $0.text = "x" } }]
        }
        _ = try await client.editDocument(edit)
        try daemons.restart(crash: false)
        do {
            _ = try await client.editDocument(edit)
            Issue.record("an edit on a document of the lost connection went through")
        } catch ClientError.documentGone(let document) {
            #expect(document == opened.document)
        }
        let again = try await client.openDocument(layout)
        var editAgain = edit
        editAgain.document = again.document
        #expect(try await client.editDocument(editAgain).changes.first?.deltaOffset == 1)
    }

    @Test func noDaemonWithinTheWaitIsUnreachableThenItComesBack() async throws {
        let daemons = try Restarting()
        let client = try await AsyncLayoutClient(socketPath: daemons.path, reconnectWait: 0.3)
        _ = daemons.current.stop()
        do {
            _ = try await client.layout(Self.caption, width: 200)
            Issue.record("a call with no daemon returned")
        } catch ClientError.connect {}
        try daemons.restart(crash: false)
        #expect(!(try await client.layout(Self.caption, width: 200).lines.isEmpty))
    }

    @Test func aBatchKeepsEveryResultInItsPlace() async throws {
        let daemon = try Daemon()
        let client = try await AsyncLayoutClient(socketPath: daemon.socketPath)
        var requests = (0..<50).map { index in Layoutd_V1_LayoutRequest.with { $0.text = Self.caption; $0.width = Float(80 + index) } }
        requests[20].width = -1
        let results = await client.layoutEach(requests, window: 8)
        #expect(results.count == 50)
        for (index, result) in results.enumerated() {
            switch result {
            case .success(let reply): #expect(index != 20 && !reply.lines.isEmpty)
            case .failure(ClientError.server(let error)): #expect(index == 20 && error.field == "layout.width")
            case .failure(let error): Issue.record("place \(index): \(error)")
            }
        }
    }
}
