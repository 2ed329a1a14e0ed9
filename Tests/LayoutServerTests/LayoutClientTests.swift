import Foundation
import LayoutdClient
import LayoutEngine
import LayoutWire
import Testing

@Suite struct LayoutClientTests {
    /// A request past the daemon's frame limit: the daemon answers with one error naming the
    /// limit and closes; the client reports that answer, not the broken pipe its write met.
    @Test func aFramePastTheLimitIsAnsweredByName() throws {
        let daemon = try Daemon(arguments: ["--max-frame-bytes", "4096"])
        let client = try daemon.client()
        var request = Layoutd_V1_LayoutRequest()
        request.text = String(repeating: "a long caption ", count: 20_000)
        request.width = 300
        do {
            _ = try client.request(.layout(request))
            Issue.record("a 300 KB frame was answered under a 4 KiB limit")
        } catch ClientError.server(let error) {
            #expect(error.code == .resourceExhausted && error.field == "frame" && error.message.contains("4096"), "\(error)")
        }
    }

    /// A failed connect closes its own descriptor once. Closing it twice closed whatever another
    /// thread had opened under the same number in between: here, the other thread's pipes.
    @Test func aFailedConnectClosesNoOtherDescriptor() async throws {
        let missing = "/tmp/layoutd-test-missing-\(getpid()).sock"
        let stop = ManagedAtomicFlag()
        let lost = try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                defer { stop.set() }
                for _ in 0..<20_000 { _ = try? LayoutClient(socketPath: missing) }
                return 0
            }
            group.addTask {
                var lost = 0
                while !stop.isSet {
                    var ends: [Int32] = [0, 0]
                    guard pipe(&ends) == 0 else { continue }
                    for _ in 0..<50 where fcntl(ends[0], F_GETFD) == -1 || fcntl(ends[1], F_GETFD) == -1 { lost += 1; break }
                    close(ends[0])
                    close(ends[1])
                }
                return lost
            }
            return try await group.reduce(0, +)
        }
        #expect(lost == 0)
    }
}

/// A flag one task sets and another polls.
final class ManagedAtomicFlag: Sendable {
    private let value = Locked(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
