import Foundation
import Testing
@testable import LayoutServer

/// The daemon's threads follow the processors it may run on (`UsableCores`): its affinity mask,
/// its cgroup's quota and cpuset, the machine's.
@Suite struct UsableCoresTests {
    @Test func theAffinityMaskIsCounted() {
        let status = "Name:\tlayoutd\nCpus_allowed:\tffffffff,fffffff0\nCpus_allowed_list:\t4-63\nMems_allowed:\t1\n"
        #expect(UsableCores.allowedProcessors(status: status) == 60)
        #expect(UsableCores.allowedProcessors(status: "Cpus_allowed:\t1\n") == 1)
        #expect(UsableCores.allowedProcessors(status: "Cpus_allowed:\t00000000,00000005") == 2)
        #expect(UsableCores.allowedProcessors(status: "Cpus_allowed_list:\t0-3\n") == nil, "the list is not the mask")
        #expect(UsableCores.allowedProcessors(status: "Cpus_allowed:\tzz\n") == nil)
        #expect(UsableCores.allowedProcessors(status: "Cpus_allowed:\t0\n") == nil)
        #expect(UsableCores.allowedProcessors(status: "") == nil)
    }

    @Test func thisProcessMayRunOnWhatItsMaskAllows() throws {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let allowed = try #require(UsableCores.allowedProcessors(status: status))
        #expect(UsableCores.count >= 1 && UsableCores.count <= allowed)
        #expect(UsableCores.count <= ProcessInfo.processInfo.activeProcessorCount)
    }

    /// A daemon kept to one processor (`taskset -c 0`) starts one event loop and one worker,
    /// not one of each per processor of the machine.
    @Test func aDaemonKeptToOneProcessorStartsOneWorker() throws {
        let daemon = try Daemon(launcher: ["/usr/bin/taskset", "-c", "0"])
        let pid = daemon.process.processIdentifier
        let names = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").compactMap { task in
            try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(names.filter { $0.hasPrefix("TP-") }.count == 1, "\(names)")
        #expect(names.filter { $0.hasPrefix("NIO-ELT-") }.count == 1, "\(names)")
        // And it answers.
        #expect(try daemon.client().call(.layout(layoutRequest("one processor"))).layoutReply != nil)
    }
}
