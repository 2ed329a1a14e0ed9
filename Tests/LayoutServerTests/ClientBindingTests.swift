import Foundation
import Testing

/// The C (protobuf-c) and Python clients, generated from proto/, encode the shared wire vector
/// byte for byte and talk to the real daemon.
@Suite(.serialized) struct ClientBindingTests {
    static let vector = repositoryRoot.appendingPathComponent("Tests/LayoutWireTests/Vectors/layout-request.hex").path

    @Test func cClientMatchesTheVectorAndTheDaemon() throws {
        let build = try run("/usr/bin/make", ["-s", "-C", repositoryRoot.appendingPathComponent("clients/c").path])
        #expect(build.status == 0, "\(build.err)")
        let client = repositoryRoot.appendingPathComponent("clients/c/layoutd-client").path
        let golden = try run(client, ["golden", Self.vector])
        #expect(golden.status == 0, "\(golden.out)")
        let daemon = try Daemon()
        let layout = try run(client, ["layout", daemon.socketPath, "240", "Hello from C, مرحبا"])
        #expect(layout.status == 0, "\(layout.err)")
        #expect(layout.out.hasPrefix("line 0: range [0,"))
    }

    @Test func pythonClientMatchesTheVectorAndTheDaemon() throws {
        let client = repositoryRoot.appendingPathComponent("clients/python/layoutd_client.py").path
        let golden = try run("/usr/bin/python3", [client, "golden", Self.vector])
        #expect(golden.status == 0, "\(golden.out)\(golden.err)")
        let daemon = try Daemon()
        let layout = try run("/usr/bin/python3", [client, "layout", daemon.socketPath, "240", "Hello from Python, 你好"])
        #expect(layout.status == 0, "\(layout.err)")
        #expect(layout.out.hasPrefix("line 0: range [0,"))
        let error = try run("/usr/bin/python3", [client, "layout", daemon.socketPath, "-1", "x"])
        #expect(error.status != 0 && error.err.contains("layout.width"))
    }
}
