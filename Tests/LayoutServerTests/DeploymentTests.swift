import Foundation
import LayoutdClient
import Testing

/// packaging/kubernetes: the manifests are valid against Kubernetes' API schemas (PyPI's
/// kubernetes-validate bundles them, so the check runs offline once installed), strictly (an
/// unknown field fails), and what they run works: the daemon's arguments and the probes'
/// command, run here against a daemon started with those arguments.
@Suite(.serialized) struct DeploymentTests {
    static let manifests = ["sidecar.yaml", "daemonset.yaml"].map {
        repositoryRoot.appendingPathComponent("packaging/kubernetes/\($0)").path
    }

    /// kubernetes-validate in a virtual environment beside the builds (.build-tools), made once.
    static func validator() throws -> String {
        let tools = repositoryRoot.appendingPathComponent(".build-tools/kubernetes-validate").path
        let program = tools + "/bin/kubernetes-validate"
        if !FileManager.default.isExecutableFile(atPath: program) {
            let made = try run("/usr/bin/python3", ["-m", "venv", tools])
            try #require(made.status == 0, "\(made.err)")
            let installed = try run(tools + "/bin/pip", ["install", "--quiet", "--disable-pip-version-check", "kubernetes-validate"],
                                    within: 600)
            try #require(installed.status == 0, "pip could not install kubernetes-validate: \(installed.err)")
        }
        return program
    }

    @Test func theManifestsAreValidKubernetes() throws {
        let validator = try Self.validator()
        let checked = try run(validator, ["--strict"] + Self.manifests)
        #expect(checked.status == 0, "\(checked.out)\(checked.err)")
        #expect(checked.out.components(separatedBy: " passed for resource ").count - 1 == 3, "\(checked.out)")
        // The check can fail: a misspelt field is refused.
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-broken-\(getpid()).yaml")
        defer { try? FileManager.default.removeItem(at: broken) }
        let text = try String(contentsOfFile: Self.manifests[0], encoding: .utf8)
            .replacingOccurrences(of: "readinessProbe:", with: "readynessProbe:")
        try text.write(to: broken, atomically: true, encoding: .utf8)
        let refused = try run(validator, ["--strict", broken.path])
        #expect(refused.status != 0, "a misspelt field passed: \(refused.out)")
    }

    /// The daemon's arguments and the probe's command, as the manifests give them.
    @Test func theDaemonArgumentsAndTheProbeWork() throws {
        for manifest in Self.manifests {
            let text = try String(contentsOfFile: manifest, encoding: .utf8)
            let arguments = try #require(Self.list(after: "args: ", in: text), "no args in \(manifest)")
            let probe = try #require(Self.list(after: "command: ", in: text), "no probe command in \(manifest)")
            let socketPath = Daemon.temporarySocketPath()
            let adjusted = arguments.map { $0 == "/run/layoutd/layoutd.sock" ? socketPath : $0 }
            #expect(adjusted.contains(socketPath), "the daemon's socket is not /run/layoutd/layoutd.sock in \(manifest)")
            let daemon = try Daemon(arguments: Array(adjusted.dropFirst(2)), socketPath: socketPath)
            #expect(probe.first == "layoutctl")
            let command = probe.dropFirst().map { $0 == "/run/layoutd/layoutd.sock" ? daemon.socketPath : $0 }
            let pinged = try run(Daemon.binary("layoutctl"), Array(command))
            #expect(pinged.status == 0, "\(manifest): layoutctl \(command.joined(separator: " ")): \(pinged.err)")
        }
    }

    /// The first `key: ["a", "b"]` list of `text`.
    static func list(after key: String, in text: String) -> [String]? {
        guard let start = text.range(of: key + "[") , let end = text.range(of: "]", range: start.upperBound..<text.endIndex) else {
            return nil
        }
        return text[start.upperBound..<end.lowerBound].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
    }
}
