import Foundation
import LayoutWire
import Testing

/// The C library and the Python package, each by its own test suite against the real daemon:
/// the C one under AddressSanitizer and UBSan (`make check`), installed and used through
/// pkg-config as the README shows; the Python one by pytest, installed with pip.
@Suite(.serialized) struct ClientBindingTests {
    static let vector = repositoryRoot.appendingPathComponent("Tests/LayoutWireTests/Vectors/layout-request.hex").path
    static let cDirectory = repositoryRoot.appendingPathComponent("clients/c").path

    @Test func cLibraryPassesItsTestsUnderASan() throws {
        let build = try makeCClient()
        #expect(build.status == 0, "\(build.err)")
        let daemon = try Daemon()
        let check = try makeCClient(["check", "LAYOUTD_SOCKET=\(daemon.socketPath)", "LAYOUTD_BINARY=\(Daemon.binary("layoutd"))"])
        #expect(check.status == 0, "\(check.out)\(check.err)")
        #expect(check.out.contains("ok: C frame equals the shared vector"))
        #expect(check.out.contains("ok: liblayoutd-client against layoutd and its stand-ins"))
        #expect(check.out.contains("ok: liblayoutd-client outlives restarts and crashes of the daemon"))
        #expect(check.out.contains("ok: protobuf-c decodes and encodes the 35 golden vectors as Python does, and builds its 17 requests"))
        let example = try run(Self.cDirectory + "/layoutd-client", ["layout", daemon.socketPath, "240", "Hello from C, مرحبا"])
        #expect(example.status == 0, "\(example.err)")
        #expect(example.out.hasPrefix("line 0: range [0,"))
    }

    /// The same tests under valgrind's memcheck: no error, not a byte lost.
    @Test func cLibraryIsCleanUnderMemcheck() throws {
        let daemon = try Daemon()
        let check = try makeCClient(["memcheck", "LAYOUTD_SOCKET=\(daemon.socketPath)", "LAYOUTD_BINARY=\(Daemon.binary("layoutd"))"])
        #expect(check.status == 0, "\(check.out)\(check.err)")
        #expect(check.out.contains("ok: liblayoutd-client outlives restarts and crashes of the daemon"))
        #expect(!check.err.contains("=="), "valgrind reported: \(check.err)")
    }

    /// The pkg-config file follows each install's PREFIX and LIBDIR (not an earlier build's), and
    /// a build without WERROR (a consumer's, a distribution's) carries no -Werror.
    @Test func theCLibraryInstallsWhereItIsTold() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-c-prefix-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try makeCClient(["install", "PREFIX=/opt/first", "DESTDIR=\(root.path)/one"])
        #expect(first.status == 0, "\(first.err)")
        let firstPC = try String(contentsOfFile: root.path + "/one/opt/first/lib/pkgconfig/layoutd-client.pc", encoding: .utf8)
        #expect(firstPC.contains("prefix=/opt/first\n") && firstPC.contains("libdir=/opt/first/lib\n"), "\(firstPC)")
        let second = try makeCClient(["install", "PREFIX=/usr", "LIBDIR=/usr/lib/x86_64-linux-gnu", "DESTDIR=\(root.path)/two"])
        #expect(second.status == 0, "\(second.err)")
        let secondPC = try String(contentsOfFile: root.path + "/two/usr/lib/x86_64-linux-gnu/pkgconfig/layoutd-client.pc", encoding: .utf8)
        #expect(secondPC.contains("prefix=/usr\n") && secondPC.contains("libdir=/usr/lib/x86_64-linux-gnu\n")
                    && secondPC.contains("includedir=/usr/include\n"), "\(secondPC)")
        #expect(FileManager.default.fileExists(atPath: root.path + "/two/usr/lib/x86_64-linux-gnu/liblayoutd-client.so.0"))
        #expect(!secondPC.contains("-W"), "the .pc hands warnings to consumers")
        // What a consumer's build runs: warnings, never -Werror.
        let plan = try run("/usr/bin/make", ["-n", "-B", "-C", Self.cDirectory, "all"])
        #expect(plan.status == 0 && plan.out.contains("-Wall") && !plan.out.contains("-Werror"), "\(plan.out)")
    }

    /// `make install` into a staging root, then the README's C program built with pkg-config
    /// against what was installed, and run.
    @Test func theInstalledCLibraryBuildsTheReadmeExample() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-c-\(getpid())-\(UUID().uuidString.prefix(6))")
        defer { try? FileManager.default.removeItem(at: root) }
        let install = try makeCClient(["install", "PREFIX=/usr", "DESTDIR=\(root.path)"])
        #expect(install.status == 0, "\(install.err)")
        for file in ["usr/include/layoutd/client.h", "usr/include/layoutd/v1/envelope.pb-c.h", "usr/lib/liblayoutd-client.a",
                     "usr/lib/liblayoutd-client.so.0", "usr/lib/pkgconfig/layoutd-client.pc"] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path), "\(file) not installed")
        }
        let program = try #require(Self.readmeBlock("c"), "README has no ```c example")
        let source = root.appendingPathComponent("hello.c")
        try program.write(to: source, atomically: true, encoding: .utf8)
        let environment = ProcessInfo.processInfo.environment.merging([
            "PKG_CONFIG_PATH": root.appendingPathComponent("usr/lib/pkgconfig").path, "PKG_CONFIG_SYSROOT_DIR": root.path,
        ]) { $1 }
        let flags = try run("/usr/bin/pkg-config", ["--cflags", "--libs", "layoutd-client"], environment: environment)
        #expect(flags.status == 0, "\(flags.err)")
        let binary = root.appendingPathComponent("hello").path
        let compile = try run("/usr/bin/cc", [source.path, "-o", binary, "-Wall", "-Werror"]
                                  + flags.out.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
                                      .filter { !$0.isEmpty })
        #expect(compile.status == 0, "\(compile.err)")
        let daemon = try Daemon()
        let hello = try run(binary, [], environment: ProcessInfo.processInfo.environment.merging([
            "LAYOUTD_SOCKET": daemon.socketPath, "LD_LIBRARY_PATH": root.appendingPathComponent("usr/lib").path,
        ]) { $1 })
        #expect(hello.status == 0, "\(hello.err)")
        #expect(hello.out == "1 lines\n")
    }

    /// pytest over clients/python/tests: the blocking and asyncio clients, every request, errors,
    /// pipelining, threads, restarts and crashes of the daemon, the version checks, the generated
    /// modules current, `pip install`, and the README's examples run as written.
    @Test func pythonPackagePassesItsTests() throws {
        let tests = repositoryRoot.appendingPathComponent("clients/python/tests").path
        let environment = ProcessInfo.processInfo.environment.merging(["LAYOUTD_BINARY": Daemon.binary("layoutd"),
                                                                       "PYTHONDONTWRITEBYTECODE": "1"]) { $1 }
        // mypy runs in the newest-protobuf test's environment (Debian has no types-protobuf).
        let pytest = try run("/usr/bin/python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", "not mypy", tests],
                             environment: environment)
        #expect(pytest.status == 0, "\(pytest.out)\(pytest.err)")
        #expect(pytest.out.contains(" passed"))
        #expect(!pytest.out.contains("skipped"))
    }

    /// The same tests on the newest protobuf that pip brings (7.x at this writing), in a fresh
    /// virtual environment with nothing from Debian: every keyword call failed there, on a field
    /// descriptor's `label` that protobuf 7 removed. mypy and types-protobuf come along, so the
    /// package and its README's examples are held to `mypy --strict` (skipped where mypy is absent).
    @Test func pythonPackagePassesItsTestsOnTheNewestProtobuf() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-venv-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let made = try run("/usr/bin/python3", ["-m", "venv", directory])
        #expect(made.status == 0, "\(made.err)")
        let python = directory + "/bin/python"
        let installed = try run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "protobuf", "pytest", "mypy", "types-protobuf", "setuptools", "wheel"], within: 600)
        try #require(installed.status == 0, "pip could not install protobuf from PyPI: \(installed.err)")
        let version = try run(python, ["-c", "import google.protobuf as p; print(p.__version__)"])
        let tests = repositoryRoot.appendingPathComponent("clients/python/tests").path
        let environment = ProcessInfo.processInfo.environment.merging(["LAYOUTD_BINARY": Daemon.binary("layoutd"),
                                                                       "PYTHONDONTWRITEBYTECODE": "1"]) { $1 }
        let pytest = try run(python, ["-m", "pytest", "-q", "-p", "no:cacheprovider", tests], environment: environment, within: 600)
        #expect(pytest.status == 0, "protobuf \(version.out): \(pytest.out)\(pytest.err)")
        #expect(pytest.out.contains(" passed") && !pytest.out.contains("skipped"), "\(pytest.out)")
    }

    /// The Go client (clients/go/test.sh): gofmt, go vet, and go test against real daemons it
    /// restarts and crashes, with the golden vectors and the generated messages current; offline,
    /// on Debian's Go and protobuf.
    @Test func goClientPassesItsTests() throws {
        let environment = ProcessInfo.processInfo.environment.merging(["LAYOUTD_BINARY": Daemon.binary("layoutd")]) { $1 }
        let test = try run(repositoryRoot.appendingPathComponent("clients/go/test.sh").path, ["-v"], environment: environment,
                           within: 900)
        #expect(test.status == 0, "\(test.out)\(test.err)")
        for name in ["TestGreetsLaysOutAndRefusesByName", "TestPipelinedBatchesKeepEveryResult", "TestABatchAnswersEveryItemInOrder", "TestTheClientOutlivesTheDaemon",
                     "TestGoldenVectors", "TestGeneratedMessagesAreCurrent"] {
            #expect(test.out.contains("--- PASS: \(name)"), "\(name) did not pass")
        }
    }

    /// The Go example in clients/go/README.md builds against the module, as a program of its own
    /// in a folder of its own (clients/go/build.sh), and lays a caption out.
    @Test func goReadmeExampleBuilds() throws {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("clients/go/README.md"), encoding: .utf8)
        let program = try #require(Self.block("go", in: readme), "no Go example")
        let example = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-go-\(getpid())")
        defer { try? FileManager.default.removeItem(at: example) }
        try FileManager.default.createDirectory(at: example, withIntermediateDirectories: true)
        try program.write(to: example.appendingPathComponent("main.go"), atomically: true, encoding: .utf8)
        let built = try run(repositoryRoot.appendingPathComponent("clients/go/build.sh").path, [example.path, example.path + "/example"],
                            within: 600)
        try #require(built.status == 0, "\(built.out)\(built.err)")
        let daemon = try Daemon()
        let ran = try run(example.path + "/example", [],
                          environment: ProcessInfo.processInfo.environment.merging(["LAYOUTD_SOCKET": daemon.socketPath]) { $1 })
        #expect(ran.status == 0 && ran.out == "1 lines\n", "\(ran.out)\(ran.err)")
    }

    @Test func pythonScriptClientMatchesTheVectorAndTheDaemon() throws {
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

    /// One set of golden vectors, every request and reply kind, for all three clients in one
    /// test: the Swift checks (GoldenVectorTests: swift-protobuf and the client's reply reader),
    /// the C library's (requests built by hand in C, every vector decoded and encoded, under
    /// ASan) and the Python package's, over the same files.
    @Test func theThreeClientsAgreeOnEveryGoldenVector() throws {
        let build = try makeCClient(["build/asan/golden-test"])
        #expect(build.status == 0, "\(build.err)")
        let vectors = repositoryRoot.appendingPathComponent("Tests/LayoutWireTests/Vectors").path
        // Under ASan, which must be the first library loaded: not after stdbuf's preload, which
        // the test script runs the suite under.
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = nil
        let c = try run(Self.cDirectory + "/build/asan/golden-test", [vectors], environment: environment)
        #expect(c.status == 0, "\(c.out)\(c.err)")
        let python = try run("/usr/bin/python3", ["-m", "pytest", "-q", "-p", "no:cacheprovider",
                                                  repositoryRoot.appendingPathComponent("clients/python/tests/test_golden.py").path])
        #expect(python.status == 0 && python.out.contains("1 passed"), "\(python.out)\(python.err)")
        // Swift, here: each request from the same JSON to the same frame, each frame to the
        // message the JSON describes.
        let spec = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: vectors + "/golden.json"))) as! [String: Any]
        let frames = Dictionary(uniqueKeysWithValues: try String(contentsOfFile: vectors + "/golden.hex", encoding: .utf8)
            .split(separator: "\n").map { line -> (String, [UInt8]) in
                let parts = line.split(separator: " ")
                return (String(parts[0]), stride(from: 0, to: parts[1].count, by: 2).map {
                    UInt8(parts[1].dropFirst($0).prefix(2), radix: 16)!
                })
            })
        var checked = 0
        for (group, prefix) in [("requests", "request"), ("replies", "reply")] {
            for (name, body) in spec[group] as! [String: Any] {
                let message = try Layoutd_V1_Envelope(jsonString: String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self))
                let frame = try #require(frames["\(prefix).\(name)"])
                #expect(try Framing.encode(message) == frame, "\(prefix).\(name)")
                #expect(try Layoutd_V1_Envelope(serializedBytes: Array(frame.dropFirst(4))) == message, "\(prefix).\(name)")
                checked += 1
            }
        }
        #expect(checked == 35)
    }

    /// The README's fenced block in `language`.
    static func readmeBlock(_ language: String) -> String? {
        guard let readme = try? String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8) else { return nil }
        return block(language, in: readme)
    }

    /// The first ```language block of `text`.
    static func block(_ language: String, in text: String) -> String? { blocks(language, in: text).first }

    /// Every ```language block of `text`, in order.
    static func blocks(_ language: String, in text: String) -> [String] {
        var found: [String] = []
        var rest = text.startIndex..<text.endIndex
        while let start = text.range(of: "```\(language)\n", range: rest),
              let end = text.range(of: "```", range: start.upperBound..<text.endIndex) {
            found.append(String(text[start.upperBound..<end.lowerBound]))
            rest = end.upperBound..<text.endIndex
        }
        return found
    }
}
