import Foundation
import LayoutdClient
import LayoutProtocol
import Testing

/// The Swift client product against the real daemon, and against a stand-in for daemons this
/// build cannot be (an older one, one of another protocol version, one that never answers).
@Suite struct AsyncLayoutClientTests {
    @Test func greetsTheDaemonAndLaysOut() async throws {
        let daemon = try Daemon()
        let client = try await AsyncLayoutClient(socketPath: daemon.socketPath)
        #expect(client.daemon.protocolVersion == Framing.protocolVersion)
        #expect(client.daemon.features == Features.served)
        let reply = try await client.layout("Hello from Swift, مرحبا", width: 240)
        #expect(!reply.lines.isEmpty)
        #expect(!reply.runs.isEmpty)
    }

    /// The README's Swift example is Examples/SwiftClient, built as a program of its own: run
    /// as written against the daemon, and linking none of the engine's libraries.
    @Test func theReadmeExampleRunsAsWritten() throws {
        let example = try String(contentsOf: repositoryRoot.appendingPathComponent("Examples/SwiftClient/main.swift"), encoding: .utf8)
        #expect(ClientBindingTests.readmeBlock("swift") == example, "README's Swift example differs from Examples/SwiftClient/main.swift")
        let daemon = try Daemon()
        let program = Daemon.binary("layoutd-swift-example")
        let ran = try run(program, [], environment: ProcessInfo.processInfo.environment.merging(["LAYOUTD_SOCKET": daemon.socketPath]) { $1 })
        #expect(ran.status == 0, "\(ran.err)")
        #expect(ran.out == "1\n")
        let libraries = try run("/usr/bin/ldd", [program])
        for engine in ["harfbuzz", "freetype", "cairo", "unibreak", "fribidi"] {
            #expect(!libraries.out.contains(engine), "the client example links \(engine)")
        }
    }

    /// clients/swift as another project uses it: a package outside the repository that depends on
    /// it by path (its manifest names swift-protobuf alone), built with SwiftPM and run against
    /// the daemon. The build is kept in .build-consumer, so only the first run compiles it all.
    @Test func aPackageOutsideTheRepositoryBuildsAgainstTheClient() throws {
        let manifest = try String(contentsOf: repositoryRoot.appendingPathComponent("clients/swift/Package.swift"), encoding: .utf8)
        let dependencies = manifest.components(separatedBy: ".package(url:").count - 1
        #expect(dependencies == 1 && manifest.contains("apple/swift-protobuf"), "the client package depends on more than swift-protobuf")
        let consumer = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-consumer-\(getpid())")
        defer { try? FileManager.default.removeItem(at: consumer) }
        try FileManager.default.createDirectory(at: consumer.appendingPathComponent("Sources/consumer"), withIntermediateDirectories: true)
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("clients/swift/README.md"), encoding: .utf8)
        let dependencyLine = try #require(readme.split(separator: "\n").first { $0.contains(".package(path:") }, "no .package line in the README")
        let program = try #require(ClientBindingTests.blocks("swift", in: readme).first { $0.contains("import LayoutdClient") },
                                   "no Swift example in clients/swift/README.md")
        try """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(
                name: "Consumer",
                platforms: [.macOS(.v15)],
                dependencies: [\(dependencyLine.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "../layoutd/clients/swift",
                                                                                                       with: repositoryRoot.path + "/clients/swift"))],
                targets: [.executableTarget(name: "consumer", dependencies: [.product(name: "LayoutdClient", package: "swift")])]
            )
            """.write(to: consumer.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try program.write(to: consumer.appendingPathComponent("Sources/consumer/main.swift"), atomically: true, encoding: .utf8)
        let scratch = repositoryRoot.appendingPathComponent(".build-consumer").path
        let build = try run("/usr/bin/env", ["swift", "build", "--package-path", consumer.path, "--scratch-path", scratch], within: 900)
        try #require(build.status == 0, "\(build.out)\(build.err)")
        let daemon = try Daemon()
        let ran = try run(scratch + "/debug/consumer", [],
                          environment: ProcessInfo.processInfo.environment.merging(["LAYOUTD_SOCKET": daemon.socketPath]) { $1 })
        #expect(ran.status == 0, "\(ran.err)")
        #expect(ran.out == "3 lines\n", "\(ran.out)")
        let libraries = try run("/usr/bin/ldd", [scratch + "/debug/consumer"])
        for engine in ["harfbuzz", "freetype", "cairo", "fribidi", "pcre2"] {
            #expect(!libraries.out.contains(engine), "the consumer links \(engine)")
        }
    }

    /// Many calls from many tasks at once on one connection: each gets its own reply.
    @Test func pipelinedCallsGetTheirOwnReplies() async throws {
        let daemon = try Daemon()
        let client = try await AsyncLayoutClient(socketPath: daemon.socketPath)
        let widths: [Float] = (0..<120).map { Float(60 + $0 * 3) }
        let text = "The quick brown fox jumps over the lazy dog, again and again and again."
        let requests = widths.map { width in
            Layoutd_V1_LayoutRequest.with { $0.text = text; $0.width = width }
        }
        let replies = try await client.layoutMany(requests, window: 16)
        #expect(replies.count == requests.count)
        // One by one, on a blocking connection: the same answers in the same order.
        let blocking = try daemon.client()
        for (request, reply) in zip(requests, replies) {
            guard case .layoutReply(let expected) = try blocking.request(.layout(request)) else { Issue.record("no layout reply"); return }
            #expect(reply == expected)
        }
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<40 {
                group.addTask { try await client.layout(text, width: widths[index]).lines.count }
            }
            var total = 0
            for try await lines in group { total += lines }
            #expect(total > 40)
        }
    }

    @Test func aRefusedRequestThrowsTheDaemonsError() async throws {
        let daemon = try Daemon()
        let client = try await AsyncLayoutClient(socketPath: daemon.socketPath)
        do {
            _ = try await client.layout("x", width: -1)
            Issue.record("a negative width was accepted")
        } catch ClientError.server(let error) {
            #expect(error.code == .invalidArgument)
            #expect(error.field == "layout.width")
        }
        // The connection is still good after an error.
        #expect(try await client.fonts().faces.isEmpty == false)
    }

    /// Every request the daemon lists is one it answers with its own kind of reply.
    @Test func theDaemonServesEveryFeatureItLists() async throws {
        let daemon = try Daemon()
        let client = try await AsyncLayoutClient(socketPath: daemon.socketPath)
        _ = try await client.justify(.with { $0.text = "Type\nMode"; $0.width = 300 })
        _ = try await client.render(.with { $0.layout = .with { $0.text = "Hi"; $0.width = 100 } })
        let tags = Layoutd_V1_TagsRequest.with {
            $0.photoWidth = 300
            $0.photoHeight = 300
            $0.tags = [.with { $0.at = .with { $0.x = 0.5; $0.y = 0.5 }; $0.labels = [.with { $0.name = "Tag" }] }]
        }
        _ = try await client.tags(tags)
        _ = try await client.tagHit(.with { $0.tags = tags; $0.point = .with { $0.x = 150; $0.y = 150 } })
        _ = try await client.tagStyle(.with { $0.labelCount = 2; $0.toggleFrom = 0 })
        _ = try await client.stats()
        _ = try await client.fonts()
        let listed = Set(client.daemon.features)
        #expect(listed == Set(Features.served))
        #expect(Set(["layout", "justify", "render", "tags", "tag_hit", "tag_style", "fonts", "stats", "reload", "hello", "cancel",
                     "hit_test", "open_document", "edit_document", "close_document", "register_fonts", "batch_layout"]) == listed)
        let tiny = try Array(Data(contentsOf: repositoryRoot.appendingPathComponent("Tests/LayoutWireTests/Vectors/tiny.ttf")))
        let faces = try await client.registerFonts([(family: "Tiny", data: tiny)])
        #expect(faces.map(\.family) == ["Tiny"])
        _ = try await client.hitTest(.with { $0.layout = .with { $0.text = "Hi"; $0.width = 100 }; $0.carets = [.init()] })
        let opened = try await client.openDocument(.with { $0.text = "Hi"; $0.width = 100 })
        let edited = try await client.editDocument(.with {
            $0.document = opened.document
            $0.edits = [.with { $0.replace = .with { $0.range = .with { $0.start = 2 }; $0.text = "!" } }]
        })
        #expect(edited.textLength == 3)
        try await client.closeDocument(opened.document)
    }

    @Test func anOlderDaemonIsNamedWhenItLacksARequest() async throws {
        let old = try StandInDaemon { hello in hello.serverVersion = "0.1.0"; hello.features = ["hello", "layout"] }
        let client = try await AsyncLayoutClient(socketPath: old.path)
        do {
            _ = try await client.render(.init())
            Issue.record("a render request went to a daemon that does not serve it")
        } catch ClientError.unsupported(let reason) {
            #expect(reason.contains("layoutd 0.1.0 does not serve render requests"))
        }
        #expect(old.requestsReceived == 1)  // the hello only: nothing was sent for the render
    }

    @Test func anotherProtocolVersionIsRefusedOnConnect() async throws {
        let future = try StandInDaemon { hello in hello.serverVersion = "9.0.0"; hello.protocolVersion = 2 }
        do {
            _ = try await AsyncLayoutClient(socketPath: future.path)
            Issue.record("a protocol 2 daemon was accepted")
        } catch ClientError.unsupported(let reason) {
            #expect(reason.contains("speaks protocol 2"))
        }
    }

    /// The greeting is a call like any other: a daemon that never answers fails it with a
    /// timeout. (How soon the awaiting task runs after that depends on the task pool, which
    /// the other tests keep busy, so only the lower bound is checked.)
    @Test func aDaemonThatNeverAnswersTimesOut() async throws {
        let silent = try StandInDaemon(answering: false)
        let start = ContinuousClock.now
        do {
            _ = try await AsyncLayoutClient(socketPath: silent.path, timeout: 0.3)
            Issue.record("a silent daemon answered")
        } catch ClientError.timedOut {
            #expect(ContinuousClock.now - start >= .milliseconds(290))
        }
    }

    /// A call whose reply never comes fails at its deadline, kept by the reader thread, and
    /// the connection serves the next call.
    @Test func aCallWithNoReplyTimesOut() async throws {
        let standIn = try StandInDaemon()
        let client = try await AsyncLayoutClient(socketPath: standIn.path, timeout: 0.4)
        let start = ContinuousClock.now
        do {
            _ = try await client.layout("never answered", width: 100)
            Issue.record("an unanswered call returned")
        } catch ClientError.timedOut {
            #expect(ContinuousClock.now - start >= .milliseconds(390))
        }
        // The daemon was asked to cancel it.
        try await Task.sleep(for: .milliseconds(100))
        #expect(standIn.requestsReceived == 3)  // hello, layout, cancel
    }

    @Test func closingFailsTheCallsStillWaiting() async throws {
        let silent = try StandInDaemon()
        let client = try await AsyncLayoutClient(socketPath: silent.path)
        async let pending = client.layout("never answered", width: 100)
        try await Task.sleep(for: .milliseconds(100))
        client.close()
        do {
            _ = try await pending
            Issue.record("a call survived close()")
        } catch ClientError.closed {}
        do {
            _ = try await client.fonts()
            Issue.record("a call after close() was sent")
        } catch ClientError.closed {}
    }
}

/// A socket that answers hello as `edit` says (or not at all) and nothing else: the daemons this
/// build is not — older, newer, hung — for the client's checks. Not a layout daemon.
final class StandInDaemon: @unchecked Sendable {
    let path = "/tmp/layoutd-standin-\(getpid())-\(UUID().uuidString.prefix(8)).sock"
    private let listener: Int32
    private let lock = NSLock()
    private var received = 0
    var requestsReceived: Int { lock.withLock { received } }

    init(answering: Bool = true,
         _ edit: @escaping @Sendable (inout Layoutd_V1_HelloReply) -> Void = { _ in }) throws {
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 4) == 0 else { throw HarnessError("stand-in daemon: cannot listen at \(path)") }
        let listening = listener
        Thread { [self] in
            let connection = accept(listening, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            while let body = Self.readFrame(connection) {
                lock.withLock { received += 1 }
                guard answering, let request = try? Layoutd_V1_Envelope(serializedBytes: body) else { continue }
                guard case .hello = request.body else { continue }
                var hello = Layoutd_V1_HelloReply()
                hello.serverVersion = "0.3.0"
                hello.protocolVersion = 1
                hello.features = Features.served
                edit(&hello)
                var reply = Layoutd_V1_Envelope()
                reply.requestID = request.requestID
                reply.helloReply = hello
                guard let frame = try? Framing.encode(reply) else { return }
                _ = frame.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        }.start()
    }

    private static func readFrame(_ connection: Int32) -> [UInt8]? {
        func read(_ count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            var got = 0
            while got < count {
                let n = bytes.withUnsafeMutableBytes { recv(connection, $0.baseAddress! + got, count - got, 0) }
                if n <= 0 { return nil }
                got += n
            }
            return bytes
        }
        guard let header = read(4) else { return nil }
        return read(Framing.bodyLength(header: header))
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        unlink(path)
    }
}
