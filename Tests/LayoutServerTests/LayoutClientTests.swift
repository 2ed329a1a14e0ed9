import Foundation
import LayoutdClient
import Synchronization
import Testing

@Suite struct LayoutClientTests {
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
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
