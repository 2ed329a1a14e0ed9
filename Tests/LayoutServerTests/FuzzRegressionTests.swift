import Foundation
import LayoutServer
import LayoutWire
import Testing

/// Inputs the fuzzers found, and the seeds they start from, replayed through the whole request
/// path in process; then the mutation fuzzer and a short soak against the real daemon.
@Suite(.serialized) struct FuzzRegressionTests {
    static let processor: RequestProcessor = {
        do { return try RequestProcessor.standalone(configuration: ServerConfiguration(requestBudgetMilliseconds: 2_000)) } catch {
            fatalError("default fonts missing: \(error)")
        }
    }()

    @Test func everyRegressionInputIsAnswered() throws {
        let folder = repositoryRoot.appendingPathComponent("Tests/LayoutServerTests/FuzzRegressions")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".md") }.sorted()
        #expect(files.count >= 5)
        for name in files {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
            let replies = bytes.withUnsafeBytes { FuzzEntry.answer($0, processor: Self.processor) }
            #expect(replies >= 1, "\(name)")
        }
    }

    @Test func theSeedsAreAnswered() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("seeds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try runHostileScript("seeds.py", [directory.path])
        #expect(made.status == 0, "\(made.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 35, "a frame and a body for each of 17 requests, and the golden vector")
        for name in files where !name.hasPrefix("cancel") {
            let bytes = try Data(contentsOf: directory.appendingPathComponent(name))
            #expect(bytes.withUnsafeBytes { FuzzEntry.answer($0, processor: Self.processor) } >= 1, "\(name)")
        }
    }

    @Test func mutatedFramesOfEveryTypeAreAnswered() throws {
        let daemon = try Daemon()
        let result = try runHostileScript("mutate_daemon.py", [daemon.socketPath, "\(daemon.process.processIdentifier)",
                                                                "--batches", "40", "--per-batch", "40", "--seed", "11"])
        #expect(result.status == 0, "\(result.out)")
        #expect(result.out.hasPrefix("ok: "), "\(result.out)")
        #expect(daemon.process.isRunning)
    }

    /// A short soak (the recorded one sends a million): every request on a connection that
    /// stays is answered once, and every batch item once and in order, batches left mid-way
    /// among them; memory and descriptors come back.
    @Test func aShortSoakLosesAndDoublesNothing() throws {
        let daemon = try Daemon()
        let result = try runHostileScript("soak.py", [daemon.socketPath, "\(daemon.process.processIdentifier)",
                                                      "--requests", "40000", "--clients", "4", "--seed", "3",
                                                      "--batch-share", "0.05", "--batch-items", "100"])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains("lost 0, doubled 0, wrong id 0"), "\(result.out)")
        #expect(result.out.contains(" 0 misplaced, "), "\(result.out)")
        #expect(!result.out.contains(" 0 batches ("), "\(result.out)")
    }
}
