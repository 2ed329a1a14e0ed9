import Foundation
import LayoutEngine
import Testing

/// Every lock in the project is `Locked`, so that the ThreadSanitizer build (`scripts/tsan.sh`)
/// swaps all of them for a lock it sees: a `Mutex` named directly would be reported as racing
/// wherever it is shared.
@Suite struct LockedTests {
    @Test func noFileNamesMutexButLocked() throws {
        let word = try NSRegularExpression(pattern: "\\bMutex\\b")
        var named: [String] = []
        for root in ["Sources", "clients/swift/Sources", "Tests", "Benchmarks"] {
            let files = UnsafeInventoryTests.swiftFiles(under: root)
                .filter { $0.lastPathComponent != "Locked.swift" && $0.lastPathComponent != "LockedTests.swift" }
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                if word.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                    named.append(file.path.replacingOccurrences(of: UnsafeInventoryTests.repository.path + "/", with: ""))
                }
            }
        }
        #expect(named.isEmpty, "files that name Mutex rather than Locked: \(named.sorted())")
    }

    @Test func theValueIsChangedInPlaceUnderTheLock() {
        let counts = Locked([String: Int]())
        DispatchQueue.concurrentPerform(iterations: 1_000) { index in
            counts.withLock { $0[index.isMultiple(of: 2) ? "even" : "odd", default: 0] += 1 }
        }
        #expect(counts.withLock { $0 } == ["even": 500, "odd": 500])
    }
}
